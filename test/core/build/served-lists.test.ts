/**
 * A list's position of a path or id, found by binary search in the sorted membership, against its former
 * definition: a map of every position built with each membership.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildDocumentPositions, findPosition } from '../../../src/core/build/served-lists.js';
import { compare } from '../../../src/core/diagnostics.js';
import { buildDocumentId } from '../../../src/core/documents.js';

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

  it('finds a document id where a map of every served id finds it (the former definition)', () => {
    // Ids whose paths sort apart from them: `a-b.md` before `a.md`, while `a` comes before `a-b`.
    const idArb = fc.oneof(
      fc.string({ unit: fc.constantFrom('a', 'b', '-', '.', '/', '_', 'é'), minLength: 1, maxLength: 6 }),
      fc.nat(300).map((n) => `team/doc-${n}`),
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(idArb, { maxLength: 200 }),
        fc.array(idArb, { maxLength: 20 }),
        (ids, probes) => {
          const paths = ids.map((id) => `knowledge/documents/${id}.md`).sort(compare);
          const former = new Map(paths.map((path, i) => [buildDocumentId(path)!, i]));
          const positions = buildDocumentPositions(paths);
          for (const id of [...ids, ...probes, 'knowledge', ''])
            expect(positions.get(id)).toBe(former.get(id));
        },
      ),
      { numRuns: 500 },
    );
  });
});
