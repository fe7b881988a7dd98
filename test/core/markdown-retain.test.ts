/**
 * What a section read leaves alive: a heading read from a document's decoded text is a string of its own, so
 * whoever keeps it (the search index keeps every section's) does not keep the whole text alive with it. Run in
 * a child process of the built module, with V8's `gc` to measure what stays reachable.
 */
import { describe, expect, it } from 'vitest';
import { runWithGc } from '../helpers/gc-child.js';

const markdown = new URL('../../dist/core/markdown.js', import.meta.url).href;

/** Reads one section of each of 200 texts of ~50 KB, keeps only the headings, and answers the heap kept (MB). */
const script = `
import { keepSections, readSections } from ${JSON.stringify(markdown)};
const before = heap();
const kept = [];
for (let i = 0; i < 200; i++) {
  const head = '## A heading long enough to be sliced, number ' + i + '\\n';
  const text = head + 'body words '.repeat(4600) + i;
  const list = keepSections([{ heading: '', headingAt: 0, line: 1, from: head.length, to: text.length }]);
  kept.push(readSections(text, list)[0].heading);
}
const after = heap();
process.stdout.write(JSON.stringify({ keptMb: (after - before) / 1048576, sample: kept[7] }));
`;

describe('a section read from a text', () => {
  it('keeps its heading without the text it was read from', () => {
    const out = runWithGc<{ keptMb: number; sample: string }>(script);
    expect(out.sample).toBe('A heading long enough to be sliced, number 7');
    // 200 texts of ~50 KB are ~10 MB; 200 headings of ~45 characters are ~20 KB (plus the array).
    expect(out.keptMb).toBeLessThan(2);
  });
});
