/**
 * A list's position of a path or id, found by binary search in the sorted membership, against its former
 * definition: a map of every position built with each membership.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findPosition } from '../../../src/core/build/served-lists.js';
import { compare } from '../../../src/core/diagnostics.js';

describe('findPosition', () => {
  it('finds what a map of every position finds, and nothing for a key not there', () => {
    const keyArb = fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.nat(300).map((n) => `knowledge/documents/team/doc-${n}.md`),
      fc.constantFrom('a', 'a/b', 'a-b', 'a/b/c', 'ä', '😀', 'A', ''),
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(keyArb, { maxLength: 200 }),
        fc.array(keyArb, { maxLength: 20 }),
        (keys, probes) => {
          const sorted = [...keys].sort(compare);
          const positions = new Map(sorted.map((key, i) => [key, i]));
          for (const key of [...sorted, ...probes])
            expect(findPosition(sorted, key)).toBe(positions.get(key));
        },
      ),
      { numRuns: 500 },
    );
  });
});
