/**
 * What the scope file can say about content beyond coverage: declared document fields, the draft marker and
 * builds that include drafts, skill sentences, serverInfo links and icons, index lines with arguments and notes,
 * and routing lines of several calls.
 */
import { describe, expect, it } from 'vitest';
import {
  buildCatalog,
  createCatalogBuilder,
  DRAFT_SENTENCE,
  SKILL_SENTENCE,
} from '../../src/core/catalog.js';
import { buildTaskGuide } from '../../src/core/task-guide.js';
import { buildSnapshot, editScope, readFixture, type ScopeJson } from '../helpers/snapshot.js';

const valid = readFixture('valid');
const SCOPE = 'knowledge/server-scope.json';
const FIRST = 'knowledge/documents/any/guides/first.md';
const SECOND = 'knowledge/documents/local/process/second.md';

/** The valid fixture's scope file, changed by `edit`. */
const scopeWith = (edit: (scope: ScopeJson) => void): string => editScope(valid[SCOPE]!, edit);

function build(files: Record<string, string>, options = {}) {
  return buildCatalog(buildSnapshot({ ...valid, ...files }), options);
}

const index = (catalog: ReturnType<typeof build>['catalog']) =>
  JSON.parse(catalog.contents.get(catalog.indexUri)!.text!);

describe('declared document fields', () => {
  const declared = scopeWith((scope) => {
    scope.documents = {
      fields: {
        hints: { type: 'array', items: { type: 'string' }, description: 'Hint ids.' },
        level: { type: 'integer', enum: [1, 2, 3] },
        audience: { type: 'string', enum: ['core', 'extension'], required: true },
      },
    };
  });
  const first =
    '---\ndescription: The first guide.\nhints:\n  - browser-tests\n  - fixtures\naudience: core\nlevel: 2\n---\n# First guide\n';
  const second =
    '---\ndescription: The second guide, local only.\naudience: extension\n---\n# Second guide\n';

  it('takes them without a warning, in the entry and the index, and serves the bytes as written', () => {
    const { catalog, diagnostics } = build({ [SCOPE]: declared, [FIRST]: first, [SECOND]: second });
    expect(diagnostics).toEqual([]);
    expect(catalog.documents.map((d) => d.fields)).toEqual([
      { hints: ['browser-tests', 'fixtures'], level: 2, audience: 'core' },
      { audience: 'extension' },
    ]);
    expect(index(catalog).documents[0]).toEqual({
      id: 'any/guides/first',
      title: 'First guide',
      uri: 'fixture://guides/any/guides/first',
      scope: 'any',
      fields: { hints: ['browser-tests', 'fixtures'], level: 2, audience: 'core' },
    });
    expect(Buffer.from(catalog.contents.get('fixture://guides/any/guides/first')!.bytes).toString()).toBe(
      first,
    );
  });

  it('reports a value that does not match, at its key, and leaves it out of the entry', () => {
    const broken = first.replace('level: 2', 'level: 7').replace('  - fixtures', '  - 3');
    const { catalog, diagnostics } = build({ [SCOPE]: declared, [FIRST]: broken, [SECOND]: second });
    expect(diagnostics.map((d) => [d.code, d.line, d.message])).toEqual([
      ['CMP306', 3, 'Field "hints"[1] is the integer 3; the scope file declares items of type string.'],
      ['CMP306', 7, 'Field "level" is 7, not one of 1, 2, 3.'],
    ]);
    expect(catalog.documents[0]!.fields).toEqual({ audience: 'core' });
    expect(catalog.contents.get('fixture://guides/any/guides/first')!.text).toBe(broken);
  });

  it('reports a required field that is missing and an undeclared key as before', () => {
    const { diagnostics } = build({
      [SCOPE]: declared,
      [FIRST]: first.replace('audience: core\n', 'tags: [x]\n'),
    });
    expect(diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([
      ['CMP307', FIRST, 1],
      ['CMP305', FIRST, 6],
      ['CMP307', SECOND, 1],
    ]);
  });

  it('updates the index when a save changes only a field', () => {
    const files = { ...valid, [SCOPE]: declared, [FIRST]: first, [SECOND]: second };
    const builder = createCatalogBuilder();
    builder.build(buildSnapshot(files));
    const edited = { ...files, [FIRST]: first.replace('  - fixtures\n', '') };
    const { catalog } = builder.update(buildSnapshot(edited), [FIRST]);
    expect(index(catalog).documents[0].fields.hints).toEqual(['browser-tests']);
    expect(catalog.contents.get(catalog.indexUri)!.text).toBe(
      buildCatalog(buildSnapshot(edited)).catalog.contents.get(catalog.indexUri)!.text,
    );
  });

  it('says a wrong type in words', () => {
    const { diagnostics } = build({
      [SCOPE]: declared,
      [FIRST]: first.replace('level: 2', 'level: two'),
      [SECOND]: second,
    });
    expect(diagnostics.map((d) => d.message)).toEqual([
      'Field "level" is the string "two"; the scope file declares an integer.',
    ]);
  });
});

describe('the draft marker and includeDrafts', () => {
  const marked = scopeWith((scope) => {
    scope.skills = { draft: { key: 'example-status', value: 'wip' } };
  });
  const gamma =
    '---\nname: gamma\ndescription: A draft that is not published yet.\nmetadata:\n  example-status: wip\n---\n# Gamma\n\nNot ready.\n';

  it("reads the scope file's own marker, and no longer the default one", () => {
    const own = build({ [SCOPE]: marked, 'skills/gamma/SKILL.md': gamma });
    expect(own.diagnostics).toEqual([]);
    expect(own.catalog.skills.map((s) => s.id)).toEqual(['alpha', 'beta']);
    // With another marker declared, companion-status: draft is just metadata: gamma is published (and uncovered).
    const old = build({ [SCOPE]: marked });
    expect(old.catalog.skills.map((s) => s.id)).toEqual(['alpha', 'beta', 'gamma']);
    // Published, gamma is judged like any skill: uncovered, and its description too thin to be picked.
    expect(old.diagnostics.map((d) => d.code)).toEqual(['CMP202', 'CMP421', 'CMP422']);
  });

  it('serves drafts with includeDrafts, marked in the entry, the description and the index, and nowhere else', () => {
    const { catalog, diagnostics } = build({}, { includeDrafts: true });
    // The published view finds nothing; what the drafts view adds is about the draft alone (its own lint).
    expect(build({}).diagnostics).toEqual([]);
    expect(diagnostics.every((d) => d.file === 'skills/gamma/SKILL.md')).toBe(true);
    const gammaEntry = catalog.skills.find((s) => s.id === 'gamma');
    expect(gammaEntry).toMatchObject({ draft: true, uri: 'fixture://skill/gamma/SKILL.md' });
    expect(catalog.skills.filter((s) => s.draft).map((s) => s.id)).toEqual(['gamma']);
    const resource = catalog.resources.find((r) => r.uri === 'fixture://skill/gamma/SKILL.md')!;
    expect(resource.description.startsWith(`${DRAFT_SENTENCE} ${SKILL_SENTENCE}`)).toBe(true);
    expect(catalog.contents.has('fixture://skill/gamma/references/base.md')).toBe(true);
    expect(index(catalog).skills.find((s: { id: string }) => s.id === 'gamma')).toMatchObject({
      draft: true,
    });
    expect(catalog.resources.filter((r) => r.description.startsWith(DRAFT_SENTENCE))).toHaveLength(1);
  });

  it('checks the links of a draft it serves, and still calls a topic naming a draft wrong', () => {
    const files = {
      'skills/gamma/SKILL.md': `${valid['skills/gamma/SKILL.md']}\n[missing](references/missing.md)\n`,
      [SCOPE]: scopeWith((scope) => scope.topics[1].skills.push('gamma')),
    };
    const published = build(files);
    const drafts = build(files, { includeDrafts: true });
    expect(published.diagnostics.map((d) => d.code)).toEqual(['CMP204']);
    // Served, the draft's links are checked (and its text linted) like a published skill's.
    const codesOfDrafts = drafts.diagnostics.map((d) => d.code);
    expect(codesOfDrafts).toEqual(expect.arrayContaining(['CMP204', 'CMP501']));
    expect(
      drafts.diagnostics.filter((d) => d.code !== 'CMP204').every((d) => d.file === 'skills/gamma/SKILL.md'),
    ).toBe(true);
    expect(drafts.catalog.skills.find((s) => s.id === 'gamma')?.scope).toBe('local');
  });

  it('keeps drafts out of the listing budget', () => {
    const long = 'x'.repeat(900);
    const files = {
      'skills/gamma/SKILL.md': valid['skills/gamma/SKILL.md']!.replace(
        'A draft that is not published yet.',
        long,
      ),
      [SCOPE]: scopeWith((scope) => (scope.descriptionBudget = 200)),
    };
    expect(build(files, { includeDrafts: true }).diagnostics.map((d) => d.code)).not.toContain('CMP410');
    expect(build(files).diagnostics).toEqual([]);
  });
});

describe('skill sentences', () => {
  it("uses a scope's skill sentence for skills, its sentence for documents, and the configured prefix", () => {
    const { catalog, diagnostics } = build({
      [SCOPE]: scopeWith((scope) => {
        scope.scopes[0].skillSentence = 'Followed wherever the work is.';
        scope.skills = { sentence: 'A workflow an agent follows.' };
      }),
    });
    expect(diagnostics).toEqual([]);
    const description = (uri: string) => catalog.resources.find((r) => r.uri === uri)!.description;
    expect(description('fixture://skill/alpha/SKILL.md')).toBe(
      'A workflow an agent follows. Does alpha things. Use when alpha is needed. Followed wherever the work is.',
    );
    expect(description('fixture://skill/beta/SKILL.md')).toBe(
      'A workflow an agent follows. Does beta things. Use when beta is needed. Stops at this repository.',
    );
    expect(description('fixture://guides/any/guides/first')).toMatch(/Holds wherever you work\.$/);
    expect(index(catalog).scopes[0]).toMatchObject({ skillSentence: 'Followed wherever the work is.' });
  });
});

describe('serverInfo links and icons', () => {
  it('exposes websiteUrl and icons on the server identity', () => {
    const icons = [
      { src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] },
      { src: 'data:image/svg+xml;base64,PHN2Zy8+', mimeType: 'image/svg+xml', sizes: ['any'], theme: 'dark' },
    ];
    const { catalog, diagnostics } = build({
      [SCOPE]: scopeWith((scope) => {
        scope.server.websiteUrl = 'https://example.com/docs/';
        scope.server.icons = icons;
      }),
    });
    expect(diagnostics).toEqual([]);
    expect(catalog.server).toEqual({
      name: 'fixture',
      title: 'Fixture server',
      version: '1.0.0',
      scheme: 'fixture',
      websiteUrl: 'https://example.com/docs/',
      icons,
    });
  });

  it('refuses icons a host would not show, and a website that is no http(s) URL', () => {
    const { diagnostics } = build({
      [SCOPE]: scopeWith((scope) => {
        scope.server.websiteUrl = 'ftp://example.com';
        scope.server.icons = [
          { src: 'file:///etc/icon.png' },
          { src: 'data:text/html,<b>x</b>' },
          { src: 'not a url' },
          { src: 'https://example.com/i.png', sizes: ['48'], theme: 'blue' },
        ];
      }),
    });
    // A schema error stops the scope file, so the icon rules run on a valid file only (below).
    expect(diagnostics.map((d) => d.code)).toEqual(['CMP102', 'CMP102', 'CMP102']);
    const sources = build({
      [SCOPE]: scopeWith((scope) => {
        scope.server.icons = [
          { src: 'file:///etc/icon.png' },
          { src: 'data:text/html,<b>x</b>' },
          { src: 'not a url' },
        ];
      }),
    }).diagnostics;
    expect(sources.map((d) => [d.code, d.message])).toEqual([
      ['CMP152', 'server.icons[0].src uses file:, which hosts do not fetch.'],
      ['CMP152', 'server.icons[1].src is a data: URI that is not data:image/<type>[;base64],….'],
      ['CMP152', 'server.icons[2].src is neither a URL nor a data: URI.'],
    ]);
  });
});

describe('instructions and routing as real servers write them', () => {
  const scope = scopeWith((s) => {
    s.instructions.index = [
      { question: 'Which workflow owns a task?', tool: 'task_guide', with: 'the task in one sentence' },
      {
        question: 'A label, added or reworded',
        tool: 'document_lookup',
        with: 'the resource the code uses',
        note: 'a match in another is not reusable',
      },
      { question: 'The whole procedure', tool: 'skill_load', note: 'after task_guide named it' },
    ];
    s.routing = [
      {
        when: 'When a task starts',
        tool: 'task_guide',
        with: 'the task in one sentence',
        // biome-ignore lint/suspicious/noThenProperty: the scope file's key for the calls after the first
        then: [{ tool: 'skill_load', with: 'the skill alpha it names' }, { tool: 'document_lookup' }],
      },
      {
        when: 'When a document is needed whole',
        tool: 'document_lookup',
        with: 'documentId any/guides/first',
      },
    ];
  });

  it('writes each index line with its arguments and note', () => {
    const { catalog, diagnostics } = build({ [SCOPE]: scope });
    expect(diagnostics).toEqual([]);
    expect(catalog.instructions).toBe(
      [
        'Read the index first.',
        '',
        'What to call for what:',
        '- Which workflow owns a task?: task_guide with the task in one sentence',
        '- A label, added or reworded: document_lookup with the resource the code uses; a match in another is not reusable',
        '- The whole procedure: skill_load; after task_guide named it',
        '',
        'Follow the skill task_guide names.',
      ].join('\n'),
    );
    expect(index(catalog).routing[0]).toEqual({
      when: 'When a task starts',
      tool: 'task_guide',
      with: 'the task in one sentence',
      // biome-ignore lint/suspicious/noThenProperty: a routing line's calls after the first
      then: [{ tool: 'skill_load', with: 'the skill alpha it names' }, { tool: 'document_lookup' }],
    });
  });

  it('drops every line that would name an excluded tool, whichever call or note names it', () => {
    const { catalog } = build({ [SCOPE]: scope }, { excludeTools: ['skill_load'] });
    expect(catalog.instructions).not.toMatch(/skill_load/);
    expect(catalog.coverage.routing.map((r) => r.when)).toEqual(['When a document is needed whole']);
    const withoutGuide = build({ [SCOPE]: scope }, { excludeTools: ['task_guide'] }).catalog;
    expect(withoutGuide.instructions).not.toMatch(/task_guide/);
    expect(withoutGuide.instructions).toContain('- A label, added or reworded: document_lookup');
  });

  it('lets the task guide follow every call of a routing line', () => {
    const { catalog } = build({ [SCOPE]: scope });
    const guide = buildTaskGuide(catalog, 'a task starts');
    expect(guide.routing[0]).toEqual(index(catalog).routing[0]);
    expect(guide.skills[0]?.id).toBe('alpha');
  });

  it('checks the tools every call names', () => {
    const { diagnostics } = build({
      [SCOPE]: scopeWith((s) => {
        // biome-ignore lint/suspicious/noThenProperty: the scope file's key for the calls after the first
        s.routing[0].then = [{ tool: 'typo3_rule_lookup' }];
      }),
    });
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['CMP104', expect.stringContaining('"typo3_rule_lookup" is not a tool')],
    ]);
  });

  it('checks what every call names: a skill or document a later call passes must exist', () => {
    const { diagnostics } = build({
      [SCOPE]: scopeWith((s) => {
        // biome-ignore lint/suspicious/noThenProperty: the scope file's key for the calls after the first
        s.routing[0].then = [{ tool: 'skill_load', with: 'nope' }];
      }),
    });
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['CMP110', 'routing[0].then[0].with names skill "nope" ("nope"), which does not exist.'],
    ]);
  });

  it('still holds the instructions to 2048 characters, arguments and notes included', () => {
    const long = scopeWith((s) => {
      s.instructions.index = Array.from({ length: 30 }, (_, i) => ({
        question: `Question ${i}`,
        tool: 'task_guide',
        with: 'x'.repeat(40),
        note: 'y'.repeat(20),
      }));
    });
    const { catalog, diagnostics } = build({ [SCOPE]: long });
    expect(diagnostics.map((d) => d.code)).toEqual(['CMP105']);
    expect(catalog.instructions.length).toBeLessThanOrEqual(2048);
  });
});
