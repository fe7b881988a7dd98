/**
 * `PostingTable` against a plain model (word → its (unit, value) pairs in the order added): whatever the pairs
 * (values past two bytes or the table's common one, runs of one unit, units out of order after the layout), however
 * `finishSlice` slices the layout, and whatever is added after it, `forEach` visits exactly the pairs added for that word, in order, and `has`,
 * `live` and `vocabulary` agree with the model.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PostingTable } from '../../src/core/search/posting-table.js';

const WORDS = ['a', 'b', 'c', 'render', 'rename', 'zeta', 'x'.repeat(20)];

const pair = fc.record({
  word: fc.constantFrom(...WORDS),
  // Mostly small, sometimes one at or past the two-byte boundary the table stores apart.
  value: fc.oneof(
    fc.constantFrom(0, 2),
    fc.integer({ min: 0, max: 40 }),
    fc.integer({ min: 0xfffe, max: 0x2ffff }),
  ),
  /** How far the unit moves from the last pair's: mostly on, sometimes the same unit, sometimes back or far. */
  step: fc.oneof(
    fc.constant(0),
    fc.constant(1),
    fc.integer({ min: -3, max: 5 }),
    fc.integer({ min: -300_000, max: 3_000_000 }),
  ),
});

function check(table: PostingTable, model: Map<string, [number, number][]>): void {
  for (const word of [...WORDS, 'absent']) {
    const seen: [number, number][] = [];
    table.forEach(word, (unit, value) => seen.push([unit, value]));
    expect(seen).toEqual(model.get(word) ?? []);
    expect(table.has(word)).toBe(model.has(word));
  }
  expect(table.vocabulary()).toEqual([...model.keys()].sort());
}

describe('PostingTable', () => {
  it('visits what was added, in order, however the layout is sliced and whatever is added after', () => {
    fc.assert(
      fc.property(
        fc.array(pair, { maxLength: 300 }),
        fc.array(pair, { maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 20 }),
        fc.constantFrom(0, 2),
        (before, after, budgets, common) => {
          const table = new PostingTable(common);
          const model = new Map<string, [number, number][]>();
          let unit = 0;
          let laidOut = false;
          const add = ({ word, value, step }: (typeof before)[number]): void => {
            // Before the layout a word's units never decrease (an index adds its sections in order); after it,
            // anything goes.
            unit = Math.max(0, unit + (laidOut ? step : Math.abs(step)));
            table.add(table.intern(word), unit, value);
            if (!model.has(word)) model.set(word, []);
            model.get(word)!.push([unit, value]);
          };
          for (const one of before) add(one);
          for (let at = 0; !table.finished; at++) table.finishSlice(budgets[at % budgets.length]!);
          check(table, model);
          laidOut = true;
          for (const one of after) add(one);
          check(table, model);
        },
      ),
      { numRuns: 300 },
    );
  });
  it('keeps every pair across the chunks, small and large, with runs and wide values split between them', () => {
    // 70,000 pairs and their unit markers fill every small chunk (256 … 16,384 slots, doubling) and run on into
    // the first large one; the seed makes runs of one unit, wide values and unit steps fall on the boundaries.
    const random = fc.sample(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { numRuns: 70_000, seed: 18 });
    const table = new PostingTable();
    const model = new Map<string, [number, number][]>();
    let unit = 0;
    for (const r of random) {
      unit += r % 3 === 0 ? 1 : 0;
      const word = WORDS[r % WORDS.length]!;
      const value = r % 97 === 0 ? 0xffff + (r % 5000) : r % 41;
      table.add(table.intern(word), unit, value);
      if (!model.has(word)) model.set(word, []);
      model.get(word)!.push([unit, value]);
    }
    for (let at = 0; !table.finished; at++) table.finishSlice(1 + ((at * 7919) % 20_000));
    check(table, model);
  });

  it('refuses a word whose units go back before the layout (it stores distances), naming the word', () => {
    const table = new PostingTable();
    table.add(table.intern('a'), 5, 2);
    table.add(table.intern('a'), 3, 2);
    expect(() => table.finish()).toThrow(/word 0: unit 3 added after unit 5/);
  });
});
