/**
 * The incremental builder answers what a build from scratch answers: after any sequence of edits (files
 * written, broken, deleted, added, problems appearing and clearing, the scope file and base.md changing), each
 * `update` equals `buildCatalog` of the same snapshot, and the diff between two updates equals the diff between
 * two fresh builds. Unchanged files keep their bytes objects between steps, as the catalog store hands them over.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCatalog, createCatalogBuilder } from '../../src/core/catalog.js';
import { diffCatalogs } from '../../src/core/diff.js';
import type {
  BuildResult,
  FileProblem,
  FileProblemKind,
  Snapshot,
  SourceFile,
} from '../../src/core/types.js';
import { MTIME, readFixture } from '../helpers/snapshot.js';

const valid = readFixture('valid');
const scope = valid['knowledge/server-scope.json']!;

const doc = (body: string, description = 'A guide.') => `---\ndescription: ${description}\n---\n${body}`;
const skill = (name: string, body: string, extra = '') =>
  `---\nname: ${name}\ndescription: Does ${name} things. Use when needed.\n${extra}---\n# ${name}\n\n${body}\n`;

/** Paths an edit can touch: the fixture's, and new documents, skills, skill files and strays. */
const PATHS = [
  ...Object.keys(valid),
  'knowledge/documents/any/new.md',
  'knowledge/documents/local/process/third.md',
  'knowledge/stray.txt',
  'skills/alpha/references/new.md',
  'skills/beta/references/checklist.md',
  'skills/delta/SKILL.md',
  'skills/delta/references/x.md',
  'skills/loose.md',
];

/** What a file can become: valid and broken documents and skills, links and URIs that come and go. */
const CONTENTS: (string | Uint8Array)[] = [
  doc('# New\n\nSee fixture://guides/any/new and fixture://skill/delta/SKILL.md.\n'),
  doc('# Renamed title\n\n## Part\n\nfixture://skill/alpha/references/new.md\n'),
  doc('# Third\n\nfixture://guides/local/process/third fixture://guides/none/such\n'),
  '---\ndescription: [unclosed\n---\n# Broken\n',
  '# No front matter\n',
  skill('alpha', 'Read [base](references/base.md) and [new](references/new.md).'),
  skill('delta', 'See [x](references/x.md) and fixture://guides/any/guides/first.'),
  skill('delta', 'A draft.', 'metadata:\n  companion-status: draft\n'),
  skill('beta', 'See [checklist](references/checklist.md).'),
  '# A reference\n\nBack to [the skill](../SKILL.md), fixture://skill/delta/references/x.md.\n',
  '# Base\n\nCall task_guide first; see [checklist](checklist.md) and fixture://guides.\n',
  scope.replace('Fixture server', 'Renamed server'),
  scope.replace('"documents": ["any/guides/first"]', '"documents": ["any/guides/first", "any/new"]'),
  scope.replace('"skills": ["beta"]', '"skills": ["beta", "delta"]'),
  scope,
  '',
  new Uint8Array([0xff, 0xfe, 0x00, 0x41]),
];

type Step =
  | {
      readonly kind: 'write';
      readonly path: string;
      readonly content: string | Uint8Array;
      /** The new mtime, in minutes from MTIME: a save can make a file older (a checkout, a copy with -p). */
      readonly minutes: number;
    }
  | { readonly kind: 'delete'; readonly path: string }
  | { readonly kind: 'problem'; readonly path: string; readonly problem: FileProblemKind };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('write' as const),
      path: fc.constantFrom(...PATHS),
      content: fc.constantFrom(...CONTENTS),
      minutes: fc.integer({ min: -3, max: 12 }),
    }),
    weight: 6,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('delete' as const), path: fc.constantFrom(...PATHS) }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('problem' as const),
      path: fc.constantFrom(...PATHS),
      problem: fc.constantFrom<FileProblemKind>('unreadable', 'symlink-escape', 'too-large'),
    }),
    weight: 1,
  },
);

/** Everything a host or a check can observe, with `contents` in URI order (its order is not a contract). */
function observe(result: BuildResult) {
  const { catalog } = result;
  return {
    diagnostics: result.diagnostics,
    server: catalog.server,
    instructions: catalog.instructions,
    coverage: catalog.coverage,
    tools: catalog.tools,
    resources: catalog.resources,
    templates: catalog.templates,
    contents: [...catalog.contents.values()]
      .map(({ bytes, ...rest }) => ({ ...rest, bytes: Buffer.from(bytes).toString('base64') }))
      .sort((a, b) => (a.uri < b.uri ? -1 : 1)),
    documents: catalog.documents,
    skills: catalog.skills,
  };
}

describe('createCatalogBuilder', () => {
  it('update equals a build from scratch after any sequence of edits', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
        const files = new Map<string, SourceFile>();
        const problems = new Map<string, FileProblem>();
        const encoder = new TextEncoder();
        for (const [path, text] of Object.entries(valid)) {
          files.set(path, { path, bytes: encoder.encode(text), mtimeMs: MTIME });
        }
        const snapshotOf = (): Snapshot => ({
          files: new Map(files),
          problems: [...problems.values()].sort((a, b) => (a.path < b.path ? -1 : 1)),
        });
        const builder = createCatalogBuilder();
        let incremental = builder.build(snapshotOf());
        let fresh = buildCatalog(snapshotOf());
        expect(observe(incremental)).toEqual(observe(fresh));
        steps.forEach((s) => {
          if (s.kind === 'write') {
            const mtimeMs = MTIME + s.minutes * 60_000;
            const bytes = typeof s.content === 'string' ? encoder.encode(s.content) : s.content;
            files.set(s.path, { path: s.path, bytes, mtimeMs });
            problems.delete(s.path);
          } else if (s.kind === 'delete') {
            files.delete(s.path);
            problems.delete(s.path);
          } else {
            files.delete(s.path);
            problems.set(s.path, { path: s.path, kind: s.problem });
          }
          const snapshot = snapshotOf();
          const next = builder.update(snapshot, [s.path]);
          const nextFresh = buildCatalog(snapshot);
          expect(observe(next)).toEqual(observe(nextFresh));
          expect(diffCatalogs(incremental.catalog, next.catalog)).toEqual(
            diffCatalogs(fresh.catalog, nextFresh.catalog),
          );
          incremental = next;
          fresh = nextFresh;
        });
      }),
      { numRuns: 300 },
    );
  });

  it('starts over after a call that threw, instead of building on half-updated state', () => {
    const encoder = new TextEncoder();
    const files = new Map<string, SourceFile>(
      Object.entries(valid).map(([path, text]) => [
        path,
        { path, bytes: encoder.encode(text), mtimeMs: MTIME },
      ]),
    );
    const builder = createCatalogBuilder();
    builder.build({ files, problems: [] });
    const poisoned = new Map(files);
    // A file whose bytes throw when touched stands for any failure inside a rebuild.
    poisoned.set('knowledge/documents/any/new.md', {
      path: 'knowledge/documents/any/new.md',
      get bytes(): Uint8Array {
        throw new Error('boom');
      },
      mtimeMs: MTIME,
    });
    expect(() =>
      builder.update({ files: poisoned, problems: [] }, ['knowledge/documents/any/new.md']),
    ).toThrow('boom');
    const next = new Map(files);
    next.set('knowledge/documents/any/new.md', {
      path: 'knowledge/documents/any/new.md',
      bytes: encoder.encode(doc('# New\n')),
      mtimeMs: MTIME,
    });
    // Told only about another path, it still answers for the whole snapshot.
    const result = builder.update({ files: next, problems: [] }, ['knowledge/stray.txt']);
    expect(observe(result)).toEqual(observe(buildCatalog({ files: next, problems: [] })));
  });
});
