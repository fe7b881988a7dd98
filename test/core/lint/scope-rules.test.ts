/**
 * Scope-file truth: the prose names only tools the server serves, every tool is reached by a topic, routing
 * names documents and skills that exist — and the check keeps up when they come and go.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog, createCatalogBuilder } from '../../../src/core/catalog.js';
import { buildSnapshot, readFixture } from '../../helpers/snapshot.js';

const valid = readFixture('valid');
const SCOPE = 'knowledge/server-scope.json';
const scope = JSON.parse(valid[SCOPE]!);

function build(change: (s: typeof scope) => void, files: Record<string, string> = {}) {
  const next = structuredClone(scope);
  change(next);
  return buildCatalog(buildSnapshot({ ...valid, [SCOPE]: JSON.stringify(next, null, 2), ...files }));
}

describe('scope-file truth', () => {
  it('finds a tool name the server does not serve, with a near miss', () => {
    const { diagnostics } = build((s) => {
      // biome-ignore lint/suspicious/noThenProperty: the scope file's own key, a string.
      s.instructions.then = 'Then call document_search, or read_file.';
      s.notCovered[0].instead = 'Use task_guides.';
    });
    expect(diagnostics.map((d) => [d.code, d.line, d.message])).toEqual([
      [
        'CMP108',
        expect.any(Number),
        expect.stringContaining(
          '"document_search", which is not a tool companion serves; did you mean document_lookup?',
        ),
      ],
      ['CMP108', expect.any(Number), expect.stringContaining('"read_file"')],
      ['CMP108', expect.any(Number), expect.stringContaining('did you mean task_guide?')],
    ]);
  });

  it('finds a served tool no topic lists, and not one the server excludes', () => {
    const change = (s: typeof scope) => {
      s.topics[1].tools = ['document_lookup'];
    };
    expect(build(change).diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['CMP109', 'No topic lists the tool skill_load, which this server serves.'],
    ]);
    const next = structuredClone(scope);
    change(next);
    const excluded = buildCatalog(buildSnapshot({ ...valid, [SCOPE]: JSON.stringify(next) }), {
      excludeTools: ['skill_load'],
    });
    expect(excluded.diagnostics.map((d) => d.code)).not.toContain('CMP109');
  });

  it('finds routing to a skill or document that does not exist, or is a draft', () => {
    const { diagnostics } = build((s) => {
      s.routing.push(
        { when: 'When releasing', tool: 'skill_load', with: 'release' },
        { when: 'When drafting', tool: 'skill_load', with: 'gamma' },
        { when: 'When reading', tool: 'document_lookup', with: 'documentId any/guides/gone' },
        {
          when: 'When reading fixture://guides/local/process/second',
          tool: 'document_lookup',
          with: 'fixture://skill/nope/SKILL.md',
        },
        {
          when: 'When fine',
          tool: 'document_lookup',
          with: 'documentId local/process/second, or any/guides/first.md',
        },
      );
    });
    expect(diagnostics.map((d) => d.message)).toEqual([
      'routing[1].with names skill "release" ("release"), which does not exist.',
      'routing[2].with names skill "gamma" ("gamma"), which is a draft and so not published.',
      'routing[3].with names document "any/guides/gone" ("any/guides/gone"), which does not exist.',
      'routing[4].with names skill "nope" ("fixture://skill/nope/SKILL.md"), which does not exist.',
    ]);
    expect(new Set(diagnostics.map((d) => d.code))).toEqual(new Set(['CMP110']));
  });

  it('follows the documents and skills routing names as they come and go, incrementally', () => {
    const next = structuredClone(scope);
    next.routing.push({ when: 'When a delta is due', tool: 'skill_load', with: 'delta' });
    const files = { ...valid, [SCOPE]: JSON.stringify(next, null, 2) };
    const builder = createCatalogBuilder();
    expect(builder.build(buildSnapshot(files)).diagnostics.map((d) => d.code)).toEqual(['CMP110']);
    const delta =
      '---\nname: delta\ndescription: Does delta things for the team. Use when a delta is due.\n---\n# Delta\n\nStart with [base](references/base.md).\n';
    const added = buildSnapshot({ ...files, 'skills/delta/SKILL.md': delta });
    // Present now, but named by no topic: the routing finding goes, coverage's comes.
    expect(builder.update(added, ['skills/delta/SKILL.md']).diagnostics.map((d) => d.code)).toEqual([
      'CMP202',
    ]);
    expect(
      builder.update(buildSnapshot(files), ['skills/delta/SKILL.md']).diagnostics.map((d) => d.code),
    ).toEqual(['CMP110']);
  });

  it('finds a credential in the scope file, whose prose every host is shown', () => {
    const key = ['AKIA', 'Z7Q4MJ2XH3K8PLW5'].join('');
    const { diagnostics } = build((s) => {
      s.purpose = `A minimal valid content repository for tests (deploy key ${key}).`;
    });
    expect(diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([['CMP600', SCOPE, expect.any(Number)]]);
    expect(diagnostics[0]!.message).not.toContain(key);
  });
});
