/**
 * Per-file facts derived apart from the builder (as a pool's thread does: a recorder, then a structured clone, as
 * crossing threads does) and handed to a builder give the result the builder gives on its own, on every
 * diagnostic-code fixture and every content fixture.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFactsRecorder, type FileFacts } from '../../../src/core/build/file-facts.js';
import { buildCatalog, createCatalogBuilder } from '../../../src/core/catalog.js';
import type { BuildOptions, FileProblem, Snapshot } from '../../../src/core/types.js';
import { fingerprintBuild } from '../../helpers/build-summary.js';
import { buildSnapshot, FIXTURES, REPO_ROOT, readFixture } from '../../helpers/snapshot.js';

interface Case {
  readonly remove?: string[];
  readonly problems?: FileProblem[];
  readonly options?: BuildOptions;
  readonly binary?: Record<string, string>;
}

function codeCase(name: string): { snapshot: Snapshot; options?: BuildOptions } {
  const dir = join(FIXTURES, 'codes', name);
  const spec = JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8')) as Case;
  const files: Record<string, string | Uint8Array> = { ...readFixture('valid') };
  if (existsSync(join(dir, 'files'))) Object.assign(files, readFixture(join(dir, 'files')));
  for (const path of spec.remove ?? []) delete files[path];
  for (const [path, base64] of Object.entries(spec.binary ?? {})) files[path] = Buffer.from(base64, 'base64');
  return {
    snapshot: buildSnapshot(files, spec.problems ?? []),
    ...(spec.options && { options: spec.options }),
  };
}

/** Facts of every file, recorded on a copy of its bytes and cloned, as a thread hands them over. */
function factsOf(snapshot: Snapshot): Map<string, FileFacts> {
  const record = createFactsRecorder();
  const out = new Map<string, FileFacts>();
  for (const file of snapshot.files.values())
    out.set(file.path, record(file.path, file.bytes.slice(), file.mtimeMs));
  return structuredClone(out);
}

function buildPrefilled(snapshot: Snapshot, options?: BuildOptions) {
  const builder = createCatalogBuilder(options);
  const facts = factsOf(snapshot);
  for (const file of snapshot.files.values()) builder.prefill(file, facts.get(file.path)!);
  return builder.build(snapshot);
}

const cases = readdirSync(join(FIXTURES, 'codes')).sort();
const roots = [
  'valid',
  'check-clean',
  'check-golden',
  'check-warnings',
  'fs-basic',
  'mcp-extra',
  'typo3-conversion',
];

describe('per-file facts handed to a builder', () => {
  it.each(cases)('change nothing on the %s fixture', (name) => {
    const { snapshot, options } = codeCase(name);
    expect(fingerprintBuild(buildPrefilled(snapshot, options))).toBe(
      fingerprintBuild(buildCatalog(snapshot, options)),
    );
  });

  it.each(roots)('change nothing on the %s content fixture', (name) => {
    const snapshot = buildSnapshot(readFixture(name));
    expect(fingerprintBuild(buildPrefilled(snapshot))).toBe(fingerprintBuild(buildCatalog(snapshot)));
  });

  it('carry the parse and the directives of a document, with no text, no bytes and no digest', () => {
    const snapshot = buildSnapshot(readFixture('valid'));
    const [path] = [...snapshot.files.keys()].filter((p) => p.startsWith('knowledge/documents/'));
    const facts = factsOf(snapshot).get(path!)!;
    expect(facts.map((f) => f.name).sort()).toEqual(['documents.reads', 'lint.directives']);
    const sent = JSON.stringify(facts, (_k, v: unknown) => (v instanceof Map ? [...v] : v));
    expect(sent).not.toContain('\n## ');
  });

  it('carry the Markdown facts, links and credential findings of a skill reference', () => {
    const snapshot = buildSnapshot({
      'skills/a/references/r.md': '# R\n\nSee [x](other.md) and AKIAIOSFODNN7EXAMPLE.\n',
    });
    const facts = factsOf(snapshot).get('skills/a/references/r.md')!;
    expect(facts.map((f) => f.name).sort()).toEqual([
      'lint.directives',
      'lint.markdown.facts',
      'lint.secrets',
      'markdown.links',
    ]);
  });

  it("carry a binary file's digest (the build makes it) and no text's (made when asked, if ever)", () => {
    const snapshot = buildSnapshot({
      'skills/a/SKILL.md': '---\nname: a\ndescription: A.\n---\n# A\n',
      'skills/a/assets/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]),
      'skills/a/references/r.md': '# R\n',
    });
    const facts = factsOf(snapshot);
    expect(facts.get('skills/a/assets/logo.png')!.map((f) => f.name)).toContain('content.digests');
    expect(facts.get('skills/a/references/r.md')!.map((f) => f.name)).not.toContain('content.digests');
  });

  it('cross by table name, and every memo table and cell in src/core has a name of its own', () => {
    const names: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts')) {
          const text = readFileSync(path, 'utf8');
          for (const m of text.matchAll(/memo(?:Table|Cell)<[\s\S]*?>\(\s*'([^']+)'/g)) names.push(m[1]!);
        }
      }
    };
    walk(join(REPO_ROOT, 'src/core'));
    expect(names.length).toBeGreaterThan(15);
    expect(new Set(names).size).toBe(names.length);
  });

  it('are used as handed: facts of other bytes show in the result (so only facts of the same bytes may be handed)', () => {
    const snapshot = buildSnapshot({
      'skills/a/SKILL.md':
        '---\nname: a\ndescription: A.\n---\n# A\n\nSee [r](references/r.md) and [s](references/s.md).\n',
      'skills/a/references/r.md': '# R\n\nSee [gone](gone.md).\n',
      'skills/a/references/s.md': '# S\n',
    });
    const builder = createCatalogBuilder();
    builder.prefill(
      snapshot.files.get('skills/a/references/s.md')!,
      factsOf(snapshot).get('skills/a/references/r.md')!,
    );
    expect(fingerprintBuild(builder.build(snapshot))).not.toBe(fingerprintBuild(buildCatalog(snapshot)));
  });
});
