/**
 * Prompts from content, end to end through the pure core: files under prompts/ become `catalog.prompts` (the
 * `prompts/list` entries), `renderPrompt` answers `prompts/get` with typed errors, `listPromptArgumentValues`
 * answers completion, topics cover prompts in both directions, and skills can be offered as prompts.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog, DRAFT_SENTENCE } from '../../src/core/catalog.js';
import { diffCatalogs } from '../../src/core/diff.js';
import { listPromptArgumentValues, renderPrompt } from '../../src/core/prompt-render.js';
import type { Catalog } from '../../src/core/types.js';
import { buildSnapshot, editScope, readFixture, type ScopeJson } from '../helpers/snapshot.js';

const valid = readFixture('valid');
const SCOPE = 'knowledge/server-scope.json';

/** The valid fixture's scope file, changed by `edit`. */
const scopeWith = (edit: (scope: ScopeJson) => void): string => editScope(valid[SCOPE]!, edit);

const REVIEW = `---
title: Review a skill
description: Review a skill before it is published.
arguments:
  - name: skill
    description: The skill to review.
    required: true
    kind: skill
  - name: depth
    description: How thorough.
    enum: [quick, full]
    default: quick
  - name: focus
    description: What to look at first.
---

Review the skill {{skill}} ({{skill.title}}, {{skill.uri}}); a {{depth}} review.
{{#focus}}
Start with {{focus}}.
{{/focus}}
{{^focus}}
Start with its description.
{{/focus}}
`;

const DRAFT_DOC = `---
description: Draft a document.
arguments:
  - name: topic
    description: The topic it is for.
    required: true
    kind: topic
  - name: like
    description: A document to model it on.
    kind: document
---
Draft a document for {{topic.title}} ({{topic}}).{{#like}} Model it on {{like.title}} at {{like.uri}}.{{/like}}
`;

function build(files: Record<string, string> = {}, edit?: (scope: ScopeJson) => void) {
  return buildCatalog(
    buildSnapshot({
      ...valid,
      [SCOPE]: scopeWith((scope) => {
        scope.topics[0].prompts = ['review', 'draft_document'];
        edit?.(scope);
      }),
      'prompts/review.md': REVIEW,
      'prompts/draft_document.md': DRAFT_DOC,
      ...files,
    }),
  );
}

describe('prompts from prompts/<name>.md', () => {
  const { catalog, diagnostics } = build();

  it('builds cleanly and lists prompts by name, as prompts/list entries', () => {
    expect(diagnostics).toEqual([]);
    expect(catalog.prompts.map((p) => p.listed)).toEqual([
      {
        name: 'draft_document',
        description: 'Draft a document.',
        arguments: [
          { name: 'topic', description: 'The topic it is for. A topic id from the index.', required: true },
          {
            name: 'like',
            description: 'A document to model it on. A document id from the index.',
            required: false,
          },
        ],
      },
      {
        name: 'review',
        title: 'Review a skill',
        description: 'Review a skill before it is published.',
        arguments: [
          { name: 'skill', description: 'The skill to review. A skill name from the index.', required: true },
          {
            name: 'depth',
            description: 'How thorough. One of: quick, full. Default: quick.',
            required: false,
          },
          { name: 'focus', description: 'What to look at first.', required: false },
        ],
      },
    ]);
    expect(catalog.prompts.map((p) => [p.name, p.scope, p.source])).toEqual([
      ['draft_document', 'any', { kind: 'file', path: 'prompts/draft_document.md' }],
      ['review', 'any', { kind: 'file', path: 'prompts/review.md' }],
    ]);
  });

  it('puts them in the index, and under the topic that names them', () => {
    const index = JSON.parse(catalog.contents.get(catalog.indexUri)!.text!);
    expect(index.prompts).toEqual([
      {
        name: 'draft_document',
        description: 'Draft a document.',
        scope: 'any',
        arguments: [
          { name: 'topic', required: true },
          { name: 'like', required: false },
        ],
      },
      {
        name: 'review',
        title: 'Review a skill',
        description: 'Review a skill before it is published.',
        scope: 'any',
        arguments: [
          { name: 'skill', required: true },
          { name: 'depth', required: false },
          { name: 'focus', required: false },
        ],
      },
    ]);
    expect(index.covers[0].prompts).toEqual(['review', 'draft_document']);
    expect(index.covers[1]).not.toHaveProperty('prompts');
  });

  it('renders the message with every placeholder filled in, defaults and sections applied', () => {
    expect(renderPrompt(catalog, 'review', { skill: 'alpha' })).toEqual({
      ok: true,
      result: {
        description: 'Review a skill before it is published.',
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text: 'Review the skill alpha (Alpha, fixture://skill/alpha/SKILL.md); a quick review.\nStart with its description.',
            },
          },
        ],
      },
    });
    const focused = renderPrompt(catalog, 'review', {
      skill: 'beta',
      depth: 'full',
      focus: 'the links',
      extra: 'x',
    });
    expect(focused.ok && focused.result.messages[0]!.content.text).toBe(
      'Review the skill beta (Beta, fixture://skill/beta/SKILL.md); a full review.\nStart with the links.',
    );
    const drafted = renderPrompt(catalog, 'draft_document', {
      topic: 'process',
      like: 'local/process/second',
    });
    expect(drafted.ok && drafted.result.messages[0]!.content.text).toBe(
      'Draft a document for Local process (process). Model it on Second guide at fixture://guides/local/process/second.',
    );
  });

  it('refuses a missing required argument, a value outside the enum or naming nothing, and an unknown prompt', () => {
    const error = (name: string, args?: Record<string, unknown>) => {
      const result = renderPrompt(catalog, name, args);
      return result.ok ? undefined : result.error;
    };
    expect(error('review', {})).toMatchObject({
      kind: 'missing-argument',
      prompt: 'review',
      argument: 'skill',
    });
    expect(error('review', { skill: '   ' })).toMatchObject({ kind: 'missing-argument', argument: 'skill' });
    expect(error('review', undefined)).toMatchObject({ kind: 'missing-argument' });
    expect(error('review', { skill: 'alpha', depth: 'deep' })).toMatchObject({
      kind: 'not-in-enum',
      argument: 'depth',
      allowed: ['quick', 'full'],
    });
    expect(error('review', { skill: 'gamma' })).toMatchObject({ kind: 'unknown-id', argument: 'skill' });
    expect(error('review', { skill: 3 })).toMatchObject({ kind: 'invalid-value', argument: 'skill' });
    expect(error('draft_document', { topic: 'nope' })).toMatchObject({
      kind: 'unknown-id',
      argument: 'topic',
    });
    expect(error('nope')).toMatchObject({ kind: 'unknown-prompt', prompt: 'nope' });
    for (const e of [error('review', {}), error('nope')]) expect(e?.message).toMatch(/\S/);
  });

  it('offers completion values from the enum and from what the catalog serves', () => {
    expect(listPromptArgumentValues(catalog, 'review', 'depth')).toEqual(['quick', 'full']);
    expect(listPromptArgumentValues(catalog, 'review', 'skill')).toEqual(['alpha', 'beta']);
    expect(listPromptArgumentValues(catalog, 'review', 'focus')).toEqual([]);
    expect(listPromptArgumentValues(catalog, 'draft_document', 'topic')).toEqual(['general', 'process']);
    expect(listPromptArgumentValues(catalog, 'draft_document', 'like')).toEqual([
      'any/guides/first',
      'local/process/second',
    ]);
    expect(listPromptArgumentValues(catalog, 'review', 'nope')).toBeUndefined();
    expect(listPromptArgumentValues(catalog, 'nope', 'skill')).toBeUndefined();
  });
});

describe('prompt coverage and checks', () => {
  it('withholds a prompt with an error and keeps one with warnings', () => {
    const { catalog, diagnostics } = build({
      'prompts/review.md': REVIEW.replace('{{depth}}', '{{deepness}}'),
      'prompts/draft_document.md': DRAFT_DOC.replace('    description: A document to model it on.\n', ''),
    });
    expect(catalog.prompts.map((p) => p.name)).toEqual(['draft_document']);
    expect(diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([
      ['CMP911', 'prompts/draft_document.md', 8],
      ['CMP910', 'prompts/review.md', 9],
      ['CMP909', 'prompts/review.md', 17],
    ]);
  });

  it('reports a prompt no topic names, a name no prompt has, and a default naming nothing served', () => {
    const { catalog, diagnostics } = build(
      {
        'prompts/review.md': REVIEW.replace(
          '    required: true\n    kind: skill',
          '    kind: skill\n    default: gamma',
        ),
      },
      (scope) => {
        scope.topics[0].prompts = ['review', 'missing'];
      },
    );
    const found = diagnostics.map((d) => `${d.code} ${d.file}`);
    expect(found).toContain('CMP914 prompts/draft_document.md');
    expect(found).toContain(`CMP915 ${SCOPE}`);
    expect(found).toContain('CMP907 prompts/review.md');
    // A default that names a draft (gamma) is no default: the prompt is withheld.
    expect(catalog.prompts.map((p) => p.name)).toEqual(['draft_document']);
  });

  it('reports a prompt named by topics of two scopes', () => {
    const { diagnostics } = build({}, (scope) => {
      scope.topics[1].prompts = ['review'];
    });
    expect(diagnostics.map((d) => d.code)).toEqual(['CMP207']);
  });

  it('does not call a prompt whose file cannot be read unknown', () => {
    const files = { ...valid, [SCOPE]: scopeWith((s) => (s.topics[0].prompts = ['review'])) };
    const { diagnostics } = buildCatalog(
      buildSnapshot(files, [{ path: 'prompts/review.md', kind: 'unreadable', detail: 'EACCES' }]),
    );
    expect(diagnostics.map((d) => d.code)).toEqual(['CMP003']);
  });

  it('calls anything else under prompts/ a stray file', () => {
    const { diagnostics } = build({ 'prompts/notes.txt': 'x', 'prompts/sub/deep.md': 'x' });
    expect(diagnostics.map((d) => `${d.code} ${d.file}`)).toEqual([
      'CMP008 prompts/notes.txt',
      'CMP008 prompts/sub/deep.md',
    ]);
  });
});

describe('skills offered as prompts (prompts.fromSkills)', () => {
  const { catalog, diagnostics } = build({}, (scope) => {
    scope.prompts = { fromSkills: true };
  });

  it('offers every published skill as a prompt of its name, beside the files', () => {
    expect(diagnostics).toEqual([]);
    expect(catalog.prompts.map((p) => p.name)).toEqual(['alpha', 'beta', 'draft_document', 'review']);
    const alpha = catalog.prompts.find((p) => p.name === 'alpha')!;
    expect(alpha.listed).toEqual({
      name: 'alpha',
      title: 'Alpha',
      description: catalog.skills[0]!.description,
      arguments: [
        {
          name: 'task',
          description: 'What to do, in a sentence; the workflow is followed for it.',
          required: false,
        },
      ],
    });
    expect(alpha).toMatchObject({ source: { kind: 'skill', id: 'alpha' }, scope: 'any' });
  });

  it('hands over the skill body with the URI its links resolve against, and the task when given', () => {
    const skill = catalog.skills[0]!;
    const plain = renderPrompt(catalog, 'alpha', {});
    const text = plain.ok ? plain.result.messages[0]!.content.text : '';
    expect(
      text.startsWith('Follow the skill "alpha" below. It is served at fixture://skill/alpha/SKILL.md'),
    ).toBe(true);
    expect(text.endsWith(skill.body.trim())).toBe(true);
    const tasked = renderPrompt(catalog, 'alpha', { task: 'tidy the desk' });
    expect(tasked.ok && tasked.result.messages[0]!.content.text).toMatch(
      /^The task: tidy the desk\n\nFollow the skill "alpha" below to do it\. /,
    );
  });

  it('offers a draft as a prompt only when the build includes drafts, marked as one', () => {
    expect(catalog.prompts.map((p) => p.name)).not.toContain('gamma');
    const files = { ...valid, [SCOPE]: scopeWith((scope) => (scope.prompts = { fromSkills: true })) };
    const drafts = buildCatalog(buildSnapshot(files), { includeDrafts: true }).catalog;
    const gamma = drafts.prompts.find((p) => p.name === 'gamma');
    expect(gamma).toMatchObject({ draft: true, source: { kind: 'skill', id: 'gamma' } });
    expect(gamma?.listed.description).toBe(`${DRAFT_SENTENCE} A draft that is not published yet.`);
  });

  it('never reads a skill body as a template', () => {
    const files = {
      ...valid,
      'skills/alpha/SKILL.md': valid['skills/alpha/SKILL.md']!.replace(
        '# Alpha',
        '# Alpha\n\nKeep {{this}} as written.',
      ),
      [SCOPE]: scopeWith((scope) => {
        scope.prompts = { fromSkills: true };
      }),
    };
    const built = buildCatalog(buildSnapshot(files));
    const result = renderPrompt(built.catalog, 'alpha', {});
    expect(result.ok && result.result.messages[0]!.content.text).toContain('Keep {{this}} as written.');
  });

  it('lets a file win over a skill of the same name, and says so', () => {
    const built = build({ 'prompts/alpha.md': '---\ndescription: Mine.\n---\nMine.\n' }, (scope) => {
      scope.prompts = { fromSkills: true };
      scope.topics[0].prompts.push('alpha');
    });
    expect(built.diagnostics.map((d) => `${d.code} ${d.file}`)).toEqual(['CMP913 prompts/alpha.md']);
    expect(built.catalog.prompts.find((p) => p.name === 'alpha')?.source).toEqual({
      kind: 'file',
      path: 'prompts/alpha.md',
    });
  });
});

describe('diffCatalogs and prompts', () => {
  const base = build().catalog;
  const diff = (next: Catalog) => diffCatalogs(base, next).promptsListChanged;

  it('sees a prompt come or go, and a listed field change', () => {
    expect(diff(build({}, (s) => (s.topics[0].prompts = ['review'])).catalog)).toBe(false);
    const withoutFile = {
      ...valid,
      [SCOPE]: scopeWith((s) => (s.topics[0].prompts = ['review'])),
      'prompts/review.md': REVIEW,
    };
    expect(diff(buildCatalog(buildSnapshot(withoutFile)).catalog)).toBe(true);
    expect(diff(build({ 'prompts/review.md': REVIEW.replace('How thorough.', 'How deep.') }).catalog)).toBe(
      true,
    );
    expect(
      diff(build({ 'prompts/review.md': REVIEW.replace('title: Review a skill', 'title: Review') }).catalog),
    ).toBe(true);
  });

  it('does not count a change of the body alone, which hosts fetch when the user runs the prompt', () => {
    const next = build({
      'prompts/review.md': REVIEW.replace('Start with its description.', 'Start anywhere.'),
    });
    expect(diff(next.catalog)).toBe(false);
    expect(diffCatalogs(base, base).promptsListChanged).toBe(false);
  });
});

describe('a prompt that stops parsing while the builder runs', () => {
  it('is served from its last good version, held; a cold build withholds it', () => {
    const first = build();
    const reviewBefore = first.catalog.prompts.find((p) => p.name === 'review')!;
    const broken = {
      ...valid,
      [SCOPE]: scopeWith((scope) => {
        scope.topics[0].prompts = ['review', 'draft_document'];
      }),
      'prompts/review.md': '---\ndescription: [unclosed\n---\nReview {{skill}}.\n',
      'prompts/draft_document.md': DRAFT_DOC,
    };
    const snapshot = buildSnapshot(broken);
    const held = buildCatalog({ ...snapshot, lastGood: first.lastGood! });
    expect(held.catalog.prompts.find((p) => p.name === 'review')).toEqual(reviewBefore);
    expect(held.held).toContainEqual(
      expect.objectContaining({ kind: 'prompt', id: 'review', path: 'prompts/review.md', reason: 'invalid' }),
    );
    // The finding of the file on disk still shows.
    expect(held.diagnostics.some((d) => d.file === 'prompts/review.md')).toBe(true);
    // The last good version is handed on, so a second broken save still holds the same one.
    expect(held.lastGood?.get('prompts/review.md')?.bytes).toEqual(
      first.lastGood?.get('prompts/review.md')?.bytes,
    );

    const cold = buildCatalog(snapshot);
    expect(cold.catalog.prompts.map((p) => p.name)).not.toContain('review');
    expect(cold.held ?? []).toEqual([]);
  });
});

describe('a credential in a prompt', () => {
  it('is a finding with the secret masked, and the prompt is still served', () => {
    const key = ['AKIA', 'Q3EXAMPLE7KEYZ2X'].join('');
    const { catalog, diagnostics } = build({
      'prompts/review.md': REVIEW.replace('a {{depth}} review.', `a {{depth}} review. AWS_KEY=${key}`),
    });
    const finding = diagnostics.find((d) => d.code === 'CMP600' && d.file === 'prompts/review.md');
    expect(finding).toBeDefined();
    expect(JSON.stringify(diagnostics)).not.toContain(key);
    expect(catalog.prompts.map((p) => p.name)).toContain('review');
  });
});
