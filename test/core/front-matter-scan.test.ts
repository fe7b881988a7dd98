/**
 * Front matter on hostile input: lines of 1 MB and more. The fast path reads each line once; what it declines
 * goes to `yaml` only up to `MAX_YAML_BYTES` (`yaml` is not linear: a 64 KiB line of commas takes it seconds),
 * beyond which the answer is a clear error at line 2. What is asserted: the right answer for each input, and
 * that each completes (vitest's timeout is the liveness bound; no time is measured).
 */
import { describe, expect, it } from 'vitest';
import { MAX_YAML_BYTES, parseFrontMatter } from '../../src/core/front-matter.js';

const MB = 1 << 20;
const wrap = (yaml: string) => `---\n${yaml}\n---\n# Title\n`;

describe('parseFrontMatter on lines of 1 MB', () => {
  it('reads a 1 MB plain value on the fast path', () => {
    const value = 'a '.repeat(MB / 2).trim();
    const fm = parseFrontMatter(wrap(`description: ${value}`));
    expect(fm.kind === 'ok' && fm.data.description).toBe(value);
  });

  it('reads a 1 MB quoted value full of escapes on the fast path', () => {
    const n = Math.floor(MB / 3);
    const fm = parseFrontMatter(wrap(`description: "${'\\"x'.repeat(n)}"`));
    expect(fm.kind === 'ok' && (fm.data.description as string).length).toBe(n * 2);
  });

  it.each([
    ['flow brackets', `description: ${'['.repeat(MB)}`],
    ['closed deep nesting', `description: ${'['.repeat(MB / 2)}${']'.repeat(MB / 2)}`],
    ['colons', `description: ${'a: '.repeat(MB / 3)}`],
    ['anchors', `description: ${'&a '.repeat(MB / 3)}`],
    ['link openers', `description: ${'[]('.repeat(MB / 3)}`],
    ['backticks', `description: ${'`'.repeat(MB)}`],
    ['commas in a flow sequence', `description: [${','.repeat(MB)}`],
    ['many keys', Array.from({ length: MB / 16 }, (_, i) => `k${i}: [v]`).join('\n')],
  ])('answers %s beyond the yaml bound with an error at line 2, without parsing', (_, yaml) => {
    const fm = parseFrontMatter(wrap(yaml));
    expect(fm).toMatchObject({ kind: 'error', line: 2, column: 1 });
    expect(fm.kind === 'error' && fm.message).toContain(`at most ${MAX_YAML_BYTES}`);
  });

  it('still hands complex YAML under the bound to yaml', () => {
    const fm = parseFrontMatter(wrap(`description: [${'a, '.repeat(1000)}b]`));
    expect(fm.kind === 'ok' && (fm.data.description as string[]).length).toBe(1001);
  });

  it('finds no closing line in 1 MB of text after an opening one', () => {
    expect(parseFrontMatter(`---\n${'x\n'.repeat(MB / 2)}`)).toMatchObject({ kind: 'error', line: 1 });
  });
});
