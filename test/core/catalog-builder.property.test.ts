/**
 * The incremental builder answers what a build from scratch answers: after any sequence of edits (files
 * written, broken, deleted, added, problems appearing and clearing — files and whole directories that cannot be
 * read just now among them —, the scope file and base.md changing), each `update` equals `buildCatalog` of the
 * same snapshot, and the diff between two updates equals the diff between two fresh builds. Like the catalog
 * store, each step hands the builder the last good versions the previous build handed back, so what is held
 * (and from which version) is part of what must agree. Unchanged files keep their bytes objects between steps,
 * as the catalog store hands them over. The contents exercise the lint rules too: per-file findings (secrets,
 * fences, fragments, orphans, host fields), cross-skill ones (duplicate descriptions), routing truth, the scope
 * file's `check` section and inline `companion-disable` directives; and the content model: prompts (files, and
 * skills offered as prompts), declared document fields, another draft marker, skill sentences, and builders that
 * include drafts.
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
import { editScope, MTIME, readFixture } from '../helpers/snapshot.js';

const valid = readFixture('valid');
const scope = valid['knowledge/server-scope.json']!;

const doc = (body: string, description = 'A guide.') => `---\ndescription: ${description}\n---\n${body}`;
const skill = (name: string, body: string, extra = '') =>
  `---\nname: ${name}\ndescription: Does ${name} things. Use when needed.\n${extra}---\n# ${name}\n\n${body}\n`;
/** A skill whose description is the same whatever directory it is written into: duplicates across skills. */
const sameDescription = (name: string) =>
  `---\nname: ${name}\ndescription: Tidies the shared things of this repository. Use when asked to tidy.\n---\n# ${name}\n\nStart with [base](references/base.md).\n`;
const withCheck = scope.replace(
  '"routing":',
  '"check": { "severity": { "CMP624": "off", "CMP421": "error" }, "rules": { "requireLinks": ["references/checklist.md"], "maxFileBytes": 16 } },\n  "routing":',
);
const routingToDelta = scope.replace(
  '"routing": [',
  '"routing": [{ "when": "When a delta is due", "tool": "skill_load", "with": "delta" }, ',
);

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
  'skills/alpha/README.md',
  'skills/alpha/assets/orphan.txt',
  'skills/alpha/assets/id_rsa',
  'skills/beta/references/deep.md',
  'prompts/review.md',
  'prompts/alpha.md',
  'prompts/notes.txt',
  'prompts/sub/deep.md',
];

const prompt = (body: string, args = '') => `---\ndescription: A prompt.\n${args}---\n${body}\n`;
const SKILL_ARG =
  'arguments:\n  - name: skill\n    description: A skill.\n    kind: skill\n    default: delta\n';
const DOC_ARG =
  'arguments:\n  - name: doc\n    description: A document.\n    kind: document\n    default: any/new\n';
/** Scope files that reach prompts and the content-model sections. */
const promptScope = editScope(scope, (s) => {
  s.topics[0].prompts = ['review', 'alpha'];
  s.prompts = { fromSkills: true };
});
const modelScope = editScope(scope, (s) => {
  s.documents = {
    fields: { hints: { type: 'array', items: { type: 'string' } }, level: { type: 'integer' } },
  };
  s.skills = { sentence: 'Follow it.', draft: { key: 'state', value: 'wip' } };
  s.scopes[0].skillSentence = 'Anywhere.';
  s.topics[1].prompts = ['review'];
});
/** Both at once: fields declared, skills offered as prompts, another draft marker. */
const richScope = editScope(modelScope, (s) => {
  s.topics[0].prompts = ['review', 'alpha'];
  s.prompts = { fromSkills: true };
});

const BETA_LIKE_ALPHA = valid['skills/beta/SKILL.md']!.replace(
  'Does beta things. Use when beta is needed.',
  'Does alpha things. Use when alpha is needed.',
);
/** Lint triggers, by name, for the targeted test below. */
const CONTENTS_BY_NAME = {
  unclosed: skill(
    'alpha',
    'Read [base](references/base.md#nope), [new](references/new.md#part).\n```\nunclosed',
  ),
  paths: skill(
    'delta',
    'See [x](references\\x.md) and [home](/home/me/x.md).',
    'argument-hint: "[x]"\nallowed-tools: Read\n',
  ),
  secrets: doc(
    '# Secrets\n\n<!-- companion-disable-next-line CMP600 -->\nAPI_TOKEN=q8Zr2Lm4Xw9Tb7Kc1Vn6\n\nSERVICE_TOKEN=Zq8r2Lm4Xw9Tb7Kc1Vn6\n[x](#missing) [y](#secrets)\n',
  ),
  crlf: doc('# Lines\r\n\r\nfixture://guides/any/new\r\n<!-- companion-disable CMP504 -->\r\n', 'A guide.  '),
};

/** Directories a read can fail on just now (EMFILE): everything below is unknown until it is read again. */
const DIRECTORIES = [
  'knowledge',
  'knowledge/documents/any',
  'skills',
  'skills/alpha',
  'skills/beta',
  'prompts',
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
  withCheck,
  routingToDelta,
  '',
  new Uint8Array([0xff, 0xfe, 0x00, 0x41]),
  // Lint findings, per file and across skills, and what suppresses them.
  sameDescription('alpha'),
  sameDescription('beta'),
  sameDescription('delta'),
  BETA_LIKE_ALPHA,
  CONTENTS_BY_NAME.unclosed,
  skill(
    'beta',
    '<!-- companion-disable-line CMP501 --> [gone](references/gone.md) and [deep](references/checklist.md)',
  ),
  CONTENTS_BY_NAME.paths,
  CONTENTS_BY_NAME.secrets,
  CONTENTS_BY_NAME.crlf,
  '# Deep\n\nSee [new](new.md) and [back](../SKILL.md#beta).\n',
  '# Part\n\n## Part\n\nSERVICE_TOKEN=Zq8r2Lm4Xw9Tb7Kc1Vn6\n',
  // The content model: scope files with its sections, declared fields, another marker, prompts.
  promptScope,
  modelScope,
  '---\ndescription: A guide.\nhints: [a, b]\nlevel: 2\n---\n# Hinted\n',
  '---\ndescription: A guide.\nhints: [c]\n---\n# Hinted\n',
  '---\ndescription: A guide.\nhints: 3\n---\n# Badly hinted\n',
  skill('delta', 'A draft by the other marker.', 'metadata:\n  state: wip\n'),
  prompt('Review {{skill}} at {{skill.uri}}.', SKILL_ARG),
  prompt('Model it on {{doc.title}}{{#doc}} ({{doc.uri}}){{/doc}}.', DOC_ARG),
  prompt('Uses {{missing}} and {{#open}}.'),
  prompt('Do alpha things, {{{{ literally.'),
];

/**
 * A narrow pool where the content model's own inputs change often: the same title with other declared fields,
 * prompts whose defaults name documents and skills that come and go, skills turning drafts by the scope's marker.
 */
const MODEL_PATHS = [
  'knowledge/documents/any/guides/first.md',
  'knowledge/documents/any/new.md',
  'prompts/review.md',
  'skills/alpha/SKILL.md',
  'skills/delta/SKILL.md',
];
const MODEL_CONTENTS = [
  '---\ndescription: A guide.\nhints: [a, b]\nlevel: 2\n---\n# Hinted\n',
  '---\ndescription: A guide.\nhints: [c]\n---\n# Hinted\n',
  '---\ndescription: A guide.\nhints: 3\n---\n# Hinted\n',
  '---\ndescription: A guide.\nlevel: 1\n---\n# Hinted\n',
  prompt('Review {{skill}} at {{skill.uri}}.', SKILL_ARG),
  prompt('Model it on {{doc.title}}{{#doc}} ({{doc.uri}}){{/doc}}.', DOC_ARG),
  prompt('Uses {{missing}}.'),
  skill('alpha', 'Read [base](references/base.md).'),
  skill('alpha', 'A draft now.', 'metadata:\n  state: wip\n'),
  skill('delta', 'Delta.'),
  skill('delta', 'A draft by the other marker.', 'metadata:\n  state: wip\n'),
];

/** Edits that take more than one file: a reference two links deep needs the skill that links the first. */
const COMBOS: (readonly (readonly [string, string])[])[] = [
  [
    [
      'skills/alpha/SKILL.md',
      skill('alpha', 'Read [base](references/base.md) and [new](references/new.md).'),
    ],
    ['skills/alpha/references/new.md', '# New\n\nThen [the checklist](checklist.md#checklist).\n'],
  ],
  [
    ['knowledge/server-scope.json', routingToDelta],
    ['skills/delta/SKILL.md', skill('delta', 'A draft.', 'metadata:\n  companion-status: draft\n')],
  ],
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
  /** Several files written by one save (a checkout, a multi-file edit), told to the builder at once. */
  | { readonly kind: 'combo'; readonly writes: readonly (readonly [string, string])[] }
  | { readonly kind: 'problem'; readonly path: string; readonly problem: FileProblemKind }
  | { readonly kind: 'clear'; readonly path: string };

/** Edits of `paths` into `contents`, multi-file saves, loader problems and directories unreadable just now. */
function stepsOver(paths: readonly string[], contents: readonly (string | Uint8Array)[]): fc.Arbitrary<Step> {
  return fc.oneof(
    {
      arbitrary: fc.record({
        kind: fc.constant('write' as const),
        path: fc.constantFrom(...paths),
        content: fc.constantFrom(...contents),
        minutes: fc.integer({ min: -3, max: 12 }),
      }),
      weight: 6,
    },
    {
      arbitrary: fc.record({ kind: fc.constant('delete' as const), path: fc.constantFrom(...paths) }),
      weight: 2,
    },
    {
      arbitrary: fc.record({ kind: fc.constant('combo' as const), writes: fc.constantFrom(...COMBOS) }),
      weight: 1,
    },
    {
      arbitrary: fc.record({
        kind: fc.constant('problem' as const),
        path: fc.constantFrom(...paths),
        problem: fc.constantFrom<FileProblemKind>('unreadable', 'symlink-escape', 'too-large', 'unavailable'),
      }),
      weight: 1,
    },
    {
      arbitrary: fc.record({
        kind: fc.constant('problem' as const),
        path: fc.constantFrom(...DIRECTORIES),
        problem: fc.constant<FileProblemKind>('unavailable'),
      }),
      weight: 1,
    },
    {
      arbitrary: fc.record({ kind: fc.constant('clear' as const), path: fc.constantFrom(...DIRECTORIES) }),
      weight: 1,
    },
  );
}

/** Everything a host or a check can observe, with `contents` in URI order (its order is not a contract). */
function observe(result: BuildResult) {
  const { catalog } = result;
  return {
    diagnostics: result.diagnostics,
    suppressed: result.suppressed,
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
    prompts: catalog.prompts,
    held: result.held,
    lastGood: [...(result.lastGood ?? new Map())]
      .map(([path, file]) => [path, file.mtimeMs, Buffer.from(file.bytes).toString('base64')])
      .sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
  };
}

/** The valid fixture as a fresh map of files, each with its own bytes. */
function validFiles(): Map<string, SourceFile> {
  const encoder = new TextEncoder();
  return new Map(
    Object.entries(valid).map(([path, text]) => [
      path,
      { path, bytes: encoder.encode(text), mtimeMs: MTIME },
    ]),
  );
}

/** What the loader would hand over: files below a directory it could not read are not there. */
function readDisk(files: ReadonlyMap<string, SourceFile>, problems: ReadonlyMap<string, FileProblem>) {
  const hidden = [...problems.keys()].filter((path) => !path.includes('.'));
  const visible = new Map([...files].filter(([path]) => !hidden.some((dir) => path.startsWith(`${dir}/`))));
  const shown = [...problems.values()].filter(
    (problem) => !hidden.some((dir) => problem.path.startsWith(`${dir}/`)),
  );
  return { files: visible, problems: shown.sort((a, b) => (a.path < b.path ? -1 : 1)) };
}

/** The paths at which two reads differ, as the store computes them: bytes, presence or problem. */
function changedBetween(before: ReturnType<typeof readDisk>, after: ReturnType<typeof readDisk>): string[] {
  const changed = new Set<string>();
  for (const [path, file] of after.files) if (before.files.get(path) !== file) changed.add(path);
  for (const path of before.files.keys()) if (!after.files.has(path)) changed.add(path);
  const key = (p: FileProblem) => `${p.path}\0${p.kind}`;
  const beforeProblems = new Set(before.problems.map(key));
  const afterProblems = new Set(after.problems.map(key));
  for (const p of after.problems) if (!beforeProblems.has(key(p))) changed.add(p.path);
  for (const p of before.problems) if (!afterProblems.has(key(p))) changed.add(p.path);
  return [...changed];
}

/**
 * `FC_SEED=… FC_PATH=… npx vitest run test/core/catalog-builder.property.test.ts` replays the counterexample a
 * failing run printed (its seed and path), so a rare sequence can be debugged rather than waited for.
 */
function replayFromEnv(): { seed?: number; path?: string; endOnFailure?: boolean } {
  const seed = process.env.FC_SEED;
  if (seed === undefined) return {};
  return {
    seed: Number(seed),
    ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}),
    endOnFailure: true,
  };
}

describe('createCatalogBuilder', () => {
  const step = stepsOver(PATHS, CONTENTS);
  const modelStep = stepsOver(MODEL_PATHS, MODEL_CONTENTS);
  // From the fixture's scope file and from one with the content model's sections, with and without drafts; the
  // narrow pool with both.
  it.each([
    ['', {}, scope, step, 200],
    [' (drafts included)', { includeDrafts: true }, scope, step, 100],
    [' (prompts and declared fields from the start)', {}, richScope, step, 100],
    [' (edits of declared fields, prompts and drafts)', { includeDrafts: true }, richScope, modelStep, 80],
    [' (edits of declared fields, prompts and drafts, published view)', {}, richScope, modelStep, 80],
  ] as const)(
    'update equals a build from scratch after any sequence of edits%s',
    (_name, options, initialScope, edit, numRuns) => {
      fc.assert(
        fc.property(fc.array(edit, { minLength: 1, maxLength: 12 }), (steps) => {
          const files = new Map<string, SourceFile>();
          const problems = new Map<string, FileProblem>();
          const encoder = new TextEncoder();
          for (const [path, text] of Object.entries({
            ...valid,
            'knowledge/server-scope.json': initialScope,
          })) {
            files.set(path, { path, bytes: encoder.encode(text), mtimeMs: MTIME });
          }
          const builder = createCatalogBuilder(options);
          let disk = readDisk(files, problems);
          let incremental = builder.build(disk);
          let fresh = buildCatalog(disk, options);
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
            } else if (s.kind === 'combo') {
              for (const [path, text] of s.writes) {
                files.set(path, { path, bytes: encoder.encode(text), mtimeMs: MTIME });
                problems.delete(path);
              }
            } else if (s.kind === 'clear') {
              problems.delete(s.path);
            } else {
              if (!DIRECTORIES.includes(s.path)) files.delete(s.path);
              problems.set(s.path, { path: s.path, kind: s.problem });
            }
            const next = readDisk(files, problems);
            const changed = changedBetween(disk, next);
            // The store hands each build the last good versions the previous one handed back.
            const snapshot: Snapshot = { ...next, lastGood: incremental.lastGood! };
            const updated = builder.update(snapshot, changed);
            const nextFresh = buildCatalog(snapshot, options);
            expect(observe(updated)).toEqual(observe(nextFresh));
            expect(diffCatalogs(incremental.catalog, updated.catalog)).toEqual(
              diffCatalogs(fresh.catalog, nextFresh.catalog),
            );
            disk = next;
            incremental = updated;
            fresh = nextFresh;
          });
        }),
        { numRuns, ...replayFromEnv() },
      );
    },
  );

  // The random sequences above reach each lint trigger only by chance; here each one is written onto the valid
  // fixture (and taken away again) once, so every family of rules is known to go through `update`.
  it.each([
    ['CMP425', [['skills/beta/SKILL.md', BETA_LIKE_ALPHA]]],
    ['CMP503', [['skills/alpha/SKILL.md', CONTENTS_BY_NAME.unclosed]]],
    ['CMP504', [['skills/alpha/SKILL.md', CONTENTS_BY_NAME.unclosed]]],
    ['CMP505', [['skills/delta/SKILL.md', CONTENTS_BY_NAME.paths]]],
    ['CMP506', [['skills/delta/SKILL.md', CONTENTS_BY_NAME.paths]]],
    ['CMP642', [['skills/delta/SKILL.md', CONTENTS_BY_NAME.paths]]],
    ['CMP641', [['skills/delta/SKILL.md', CONTENTS_BY_NAME.paths]]],
    ['CMP600', [['knowledge/documents/any/new.md', CONTENTS_BY_NAME.secrets]]],
    ['CMP507', [['knowledge/documents/any/new.md', CONTENTS_BY_NAME.crlf]]],
    ['CMP508', [['knowledge/documents/any/new.md', CONTENTS_BY_NAME.crlf]]],
    ['CMP692', [['knowledge/documents/any/new.md', CONTENTS_BY_NAME.crlf]]],
    ['CMP601', [['skills/alpha/assets/id_rsa', 'x']]],
    ['CMP612', [['skills/alpha/README.md', '# Readme\n']]],
    ['CMP624', [['skills/alpha/assets/orphan.txt', 'x']]],
    ['CMP428', [['knowledge/server-scope.json', withCheck]]],
    ['CMP611', [['knowledge/server-scope.json', withCheck]]],
    [
      'CMP421',
      [
        ['knowledge/server-scope.json', withCheck],
        [
          'skills/beta/SKILL.md',
          skill('beta', 'Short.').replace('Does beta things. Use when needed.', 'Beta.'),
        ],
      ],
    ],
    ['CMP110', [['knowledge/server-scope.json', routingToDelta]]],
    ...COMBOS.slice(0, 1).map((writes) => ['CMP623', writes] as const),
  ] as const)('%s goes through update as through a fresh build', (code, writes) => {
    const builder = createCatalogBuilder();
    builder.build({ files: validFiles(), problems: [] });
    const files = validFiles();
    for (const [path, text] of writes)
      files.set(path, { path, bytes: new TextEncoder().encode(text), mtimeMs: MTIME });
    const written = { files, problems: [] };
    const paths = writes.map(([path]) => path);
    const next = builder.update(written, paths);
    expect(observe(next)).toEqual(observe(buildCatalog(written)));
    expect(next.diagnostics.map((d) => d.code)).toContain(code);
    const restored = { files: validFiles(), problems: [] };
    const back = builder.update(restored, paths);
    expect(observe(back)).toEqual(observe(buildCatalog(restored)));
    expect(back.diagnostics).toEqual([]);
  });

  it('holds what breaks: across random edits, a held item is served exactly as it last was good', () => {
    const encoder = new TextEncoder();
    const files = new Map<string, SourceFile>(
      Object.entries(valid).map(([path, text]) => [
        path,
        { path, bytes: encoder.encode(text), mtimeMs: MTIME },
      ]),
    );
    const builder = createCatalogBuilder();
    const first = builder.build({ files, problems: [] });
    const broken = new Map(files);
    broken.set('knowledge/server-scope.json', {
      path: 'knowledge/server-scope.json',
      bytes: encoder.encode(`${scope.trimEnd().slice(0, -1)},}`),
      mtimeMs: MTIME + 60_000,
    });
    const held = builder.update({ files: broken, problems: [], lastGood: first.lastGood! }, [
      'knowledge/server-scope.json',
    ]);
    expect(held.held).toEqual([
      {
        kind: 'scope',
        id: 'knowledge/server-scope.json',
        path: 'knowledge/server-scope.json',
        reason: 'invalid',
        modifiedMs: MTIME,
      },
    ]);
    const { held: _a, lastGood: _b, diagnostics: _c, ...servedBefore } = observe(first);
    const { held: _d, lastGood: _e, diagnostics, ...servedHeld } = observe(held);
    expect(servedHeld).toEqual(servedBefore);
    expect(diagnostics.map((d) => d.code)).toContain('CMP101');
    // Without last good versions (check, a cold start) the same files are withheld.
    expect(buildCatalog({ files: broken, problems: [] }).catalog.server.version).toBe('0.0.0');
  });

  it('starts over after a call that threw, instead of building on half-updated state', () => {
    const encoder = new TextEncoder();
    const files = validFiles();
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
