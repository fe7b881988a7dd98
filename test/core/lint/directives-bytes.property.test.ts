/**
 * The byte scan that decides whether a file may hold a directive answers what its former definition did, and
 * `readDirectivesOf` (bytes) what `readDirectives` (the decoded text) answers.
 *
 * - `indexOfAscii` against the scan it replaced (the first character found with `TypedArray.indexOf`, then a
 *   compare at each hit), on random bytes with the needles planted, at random bounds, inside a larger buffer
 *   (a slab's view: the search must see only the view's bytes).
 * - `readDirectivesOf` against `readDirectives` of the text, on random Markdown and text files built from the
 *   pieces that matter (front matter fences, comments, the marker, codes, code spans).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexOfAscii, readDirectives, readDirectivesOf } from '../../../src/core/lint/directives.js';
import { createMemo } from '../../../src/core/memo.js';

/** The definition `indexOfAscii` replaced, verbatim. */
function formerIndexOfAscii(bytes: Uint8Array, needle: string, from: number, to: number): number {
  const key = needle.charCodeAt(0);
  const last = to - needle.length;
  for (let at = bytes.indexOf(key, from); at !== -1 && at <= last; at = bytes.indexOf(key, at + 1)) {
    let i = 1;
    while (i < needle.length && bytes[at + i] === needle.charCodeAt(i)) i++;
    if (i === needle.length) return at;
  }
  return -1;
}

const encoder = new TextEncoder();
const NEEDLES = ['<!--', '\n---', 'companion-disable'];

/** Bytes over a small alphabet with pieces of the needles, so that near misses are common. */
const bytesArb = fc
  .array(
    fc.oneof(
      fc.constantFrom('<', '!', '-', '\n', 'c', 'companion-', 'companion-disabl', 'x', 'é'),
      fc.constantFrom(...NEEDLES),
    ),
    { maxLength: 60 },
  )
  .map((parts) => encoder.encode(parts.join('')));

describe('indexOfAscii', () => {
  it('answers what the scan it replaced answered, on a view inside a larger buffer', () => {
    fc.assert(
      fc.property(
        bytesArb,
        fc.constantFrom(...NEEDLES),
        fc.nat(),
        fc.nat(),
        fc.nat({ max: 8 }),
        (content, needle, a, b, pad) => {
          // The view sits between padding that holds the needle: a search past the view would find it.
          const needleBytes = encoder.encode(needle);
          const backing = new Uint8Array(pad + content.length + needleBytes.length + pad);
          backing.set(needleBytes.subarray(0, Math.min(pad, needleBytes.length)), 0);
          backing.set(content, pad);
          backing.set(needleBytes, pad + content.length);
          const view = new Uint8Array(backing.buffer, pad, content.length);
          const from = content.length === 0 ? 0 : a % (content.length + 1);
          const to = from + (content.length === 0 ? 0 : b % (content.length - from + 1));
          expect(indexOfAscii(view, needle, from, to)).toBe(formerIndexOfAscii(view, needle, from, to));
          expect(indexOfAscii(view, needle, 0, view.length)).toBe(
            formerIndexOfAscii(view, needle, 0, view.length),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });
});

/** Lines of a file built from what the directive reader looks at. */
const lineArb = fc.oneof(
  fc.constantFrom(
    '---',
    '...',
    'title: T',
    '# companion-disable CMP504',
    '<!-- companion-disable CMP504 -->',
    '<!-- companion-disable-next-line CMP600, CMP612 -- why -->',
    'text <!-- companion-disable-line CMP504 -->',
    '`<!-- companion-disable CMP504 -->`',
    '```',
    '<!-- a comment -->',
    '// companion-disable-next-line CMP600',
    'plain prose',
    'companion-disable CMPX',
    '',
  ),
  fc.string({ maxLength: 12 }),
);
const fileArb = fc.array(lineArb, { maxLength: 12 }).map((lines) => lines.join('\n'));

describe('readDirectivesOf', () => {
  it('answers what readDirectives answers for the decoded text, in Markdown and other text', () => {
    fc.assert(
      fc.property(
        fileArb,
        fc.constantFrom('knowledge/a.md', 'skills/s/references/r.txt', 'skills/s/script.sh', 'x.json'),
        (text, path) => {
          const bytes = encoder.encode(text);
          const expected = path.endsWith('.json') ? [] : readDirectives(path, text);
          expect(readDirectivesOf(path, bytes, createMemo())).toEqual(expected);
        },
      ),
      { numRuns: 1500 },
    );
  });
});
