/**
 * #17.7: a source file a newcomer opens fits one sitting. A file of `src/` longer than the limit says why at its
 * top, in its header comment ("Longer than ~400 lines on purpose: …"); this test finds every file that does not.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const LIMIT = 400;
const REASON = /^\s*\*\s*Longer than ~400 lines on purpose: \S/m;

function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listSources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The header comment: the first block comment, when the file starts with one. */
function readHeader(text: string): string {
  const match = /^\s*\/\*\*[\s\S]*?\*\//.exec(text);
  return match === null ? '' : match[0];
}

/** The files over the limit whose header gives no reason. */
function findUnexplained(files: readonly { path: string; text: string }[]): string[] {
  return files
    .filter((file) => file.text.split('\n').length > LIMIT && !REASON.test(readHeader(file.text)))
    .map((file) => file.path);
}

describe('source file size', () => {
  it('every file of src/ over 400 lines says at its top why', () => {
    const files = listSources(join(ROOT, 'src')).map((path) => ({
      path: relative(ROOT, path),
      text: readFileSync(path, 'utf8'),
    }));
    expect(files.length).toBeGreaterThan(100);
    expect(findUnexplained(files)).toEqual([]);
  });

  it('finds a long file without a reason, and one whose reason is not in its header', () => {
    const body = 'export const x = 1;\n'.repeat(LIMIT + 1);
    const reason = '/**\n * What it is.\n *\n * Longer than ~400 lines on purpose: a table.\n */\n';
    expect(
      findUnexplained([
        { path: 'long.ts', text: `/** What it is. */\n${body}` },
        { path: 'explained.ts', text: reason + body },
        { path: 'buried.ts', text: `/** What it is. */\n${body}// Longer than ~400 lines on purpose: no.\n` },
        { path: 'short.ts', text: '/** Short. */\nexport const y = 2;\n' },
      ]),
    ).toEqual(['long.ts', 'buried.ts']);
  });
});
