/**
 * scripts/check-module-state.mjs, the lint that keeps state in src/core owned: the real tree passes, and a copy
 * with one planted violation of each kind fails, naming the file, line and binding.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const script = join(repoRoot, 'scripts/check-module-state.mjs');

function runCheck(root: string): { code: number; stdout: string } {
  try {
    const stdout = execFileSync(process.execPath, [script, root], {
      encoding: 'utf8',
      stdio: 'pipe',
      timeout: 60_000,
    });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { status: number; stdout: string };
    return { code: failed.status, stdout: failed.stdout };
  }
}

const PLANTED: Record<string, { source: string; finding: RegExp }> = {
  'a let': { source: 'export let last: string | undefined;\n', finding: /`last`: a module-level `let`/ },
  'a memo': {
    source: 'const memo = new WeakMap<object, string>();\nexport const read = (k: object) => memo.get(k);\n',
    finding: /`memo`: a module-level WeakMap/,
  },
  'a mutable Map': {
    source: 'const seen = new Map<string, number>();\nexport const count = () => seen.size;\n',
    finding: /`seen`: a module-level Map must be declared ReadonlyMap/,
  },
  'a pushed array': {
    source: 'const scratch: number[] = [];\nexport function note(n: number) {\n  scratch.push(n);\n}\n',
    finding: /:3:3 `scratch` is module-level and mutated here \(`push`\)/,
  },
  'an object assigned through': {
    source: 'const state = { count: 0 };\nexport function bump() {\n  state.count += 1;\n}\n',
    finding: /`state` is module-level and mutated here/,
  },
  'a factory product': {
    source: 'declare function createIndex(): object;\nexport const index = createIndex();\n',
    finding: /`index`: what `createIndex` makes is state/,
  },
  'a global RegExp with exec': {
    source: 'const WORD = /\\w+/g;\nexport const first = (s: string) => WORD.exec(s);\n',
    finding: /`WORD` is a module-level global RegExp: `exec` keeps its lastIndex/,
  },
};

describe('check-module-state', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'companion-module-state-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes on src/core as it is', () => {
    expect(runCheck(join(repoRoot, 'src/core'))).toEqual({ code: 0, stdout: '' });
  });

  it('allows what holds no state: readonly tables, frozen objects, local state, a shadowing local', () => {
    const root = join(dir, 'clean');
    cpSync(join(repoRoot, 'src/core/memo.ts'), join(root, 'memo.ts'));
    writeFileSync(
      join(root, 'clean.ts'),
      [
        "const KEYS: ReadonlySet<string> = new Set(['a']);",
        'const LIMITS = Object.freeze({ max: 1 });',
        "const decoder = new TextDecoder('utf-8', { fatal: true });",
        'const WORDS = /\\w+/g;',
        'const scratch: number[] = [];',
        'export function run(text: string) {',
        '  const scratch: number[] = [];',
        '  scratch.push(LIMITS.max);',
        '  const seen = new Map<string, number>();',
        "  seen.set('a', 1);",
        '  return [KEYS.has(text), decoder.decode(new Uint8Array()), text.match(WORDS), scratch, seen];',
        '}',
        'export const size = () => scratch.length;',
        '',
      ].join('\n'),
    );
    expect(runCheck(root)).toEqual({ code: 0, stdout: '' });
  });

  it('fails on each kind of violation planted in a copy of src/core, naming file, line and binding', () => {
    const root = join(dir, 'planted');
    cpSync(join(repoRoot, 'src/core'), root, { recursive: true });
    const kinds = Object.entries(PLANTED);
    kinds.forEach(([, { source }], i) => {
      writeFileSync(join(root, `planted-${i}.ts`), source);
    });
    const result = runCheck(root);
    expect(result.code).toBe(1);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(kinds.length);
    kinds.forEach(([kind, { finding }], i) => {
      const line = lines.find((l) => l.includes(`planted-${i}.ts:`));
      expect(line, kind).toMatch(finding);
    });
  });
});
