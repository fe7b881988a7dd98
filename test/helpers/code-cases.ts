/**
 * The diagnostic-code fixtures: `test/fixtures/codes/<CODE>/` overlays the valid fixture with its `files/`, and
 * `case.json` says what to remove, which loader problems to inject, which build options to use, and which code,
 * file and line the build must report.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildOptions, FileProblem, Snapshot } from '../../src/core/types.js';
import { buildSnapshot, FIXTURES, readFixture } from './snapshot.js';

export interface CodeCase {
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

/** The name of every code fixture, sorted. */
export const codeCases: readonly string[] = readdirSync(CODES_DIR).sort();

/** The case `name` says, and the snapshot it builds. */
export function readCodeCase(name: string): { spec: CodeCase; snapshot: Snapshot } {
  const spec = JSON.parse(readFileSync(join(CODES_DIR, name, 'case.json'), 'utf8')) as CodeCase;
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
  return { spec, snapshot: buildSnapshot(files, spec.problems ?? []) };
}
