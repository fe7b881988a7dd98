/**
 * Every code in the catalogue has a fixture that triggers it: `test/fixtures/codes/<CODE>/` overlays the valid
 * fixture with its `files/`, and `case.json` says what to remove, which loader problems to inject, and which
 * code, file and line the build must report.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/core/catalog.js';
import { codes } from '../../src/core/diagnostics.js';
import type { BuildOptions, FileProblem } from '../../src/core/types.js';
import { buildSnapshot, FIXTURES, readFixture } from '../helpers/snapshot.js';

interface Case {
  code: string;
  file?: string;
  line?: number;
  remove?: string[];
  problems?: FileProblem[];
  options?: BuildOptions;
  binary?: Record<string, string>;
  generate?: { prefix: string; count: number; bytes: number };
}

const CODES_DIR = join(FIXTURES, 'codes');
const cases = readdirSync(CODES_DIR).sort();

function buildCase(name: string) {
  const spec = JSON.parse(readFileSync(join(CODES_DIR, name, 'case.json'), 'utf8')) as Case;
  const files: Record<string, string | Uint8Array> = { ...readFixture('valid') };
  const overlay = join(CODES_DIR, name, 'files');
  if (existsSync(overlay)) Object.assign(files, readFixture(overlay));
  for (const path of spec.remove ?? []) delete files[path];
  for (const [path, base64] of Object.entries(spec.binary ?? {})) files[path] = Buffer.from(base64, 'base64');
  if (spec.generate) {
    for (let i = 0; i < spec.generate.count; i++) {
      files[`${spec.generate.prefix}${i}.bin`] = new Uint8Array(spec.generate.bytes);
    }
  }
  return { spec, result: buildCatalog(buildSnapshot(files, spec.problems ?? []), spec.options) };
}

describe('diagnostic codes', () => {
  it('every code in the catalogue has a fixture, and every fixture names a code', () => {
    const all = Object.values(codes)
      .map((c) => c.code)
      .sort();
    expect(cases).toEqual(all);
  });

  it('codes are unique', () => {
    const all = Object.values(codes).map((c) => c.code);
    expect(new Set(all).size).toBe(all.length);
  });

  it.each(cases)('%s is reported at its file and line', (name) => {
    const { spec, result } = buildCase(name);
    const found = result.diagnostics.filter((d) => d.code === spec.code);
    expect(found, JSON.stringify(result.diagnostics, null, 2)).not.toHaveLength(0);
    const match = found.find(
      (d) => d.file === spec.file && (spec.line === undefined || d.line === spec.line),
    );
    expect(match, JSON.stringify(found, null, 2)).toBeDefined();
    const entry = Object.values(codes).find((c) => c.code === spec.code)!;
    expect(match!.severity).toBe(entry.severity);
    expect(match!.message).not.toBe('');
    expect(match!.hint).not.toBe('');
  });
});
