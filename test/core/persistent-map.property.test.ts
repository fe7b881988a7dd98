/**
 * The persistent map against a `Map` oracle: every version answers what a plain map given the same edits would,
 * old versions never change, `changedKeys` names exactly the keys whose values differ, and `from` makes the map
 * an editor on the empty map makes, iteration order included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type KeyForm, PersistentMap } from '../../src/core/persistent-map.js';

type Op =
  | { readonly kind: 'set'; readonly key: string; readonly value: number }
  | { readonly kind: 'delete'; readonly key: string };

/** Few distinct keys, so sets overwrite and deletes hit; some long, some sharing a prefix. */
const keyArb = fc.oneof(
  fc.constantFrom('a', 'b', 'bench://document/x', 'bench://document/y', 'knowledge/documents/t/z.md', 'doc:'),
  fc.string({ maxLength: 4 }).filter((key) => !key.startsWith('\u0000')),
  fc.nat(400).map((n) => `knowledge/documents/team/doc-${n}.md`),
  fc.nat(400).map((n) => `doc:team/doc-${n}`),
);

/**
 * A form that keeps `doc:<rest>` as `\0<rest>` (no key of the arbitrary starts with `\0`, as no URI is a path),
 * every other key as it is; the kept form for a value is made by concatenation, as the catalog's is a string
 * its value holds.
 */
const TEST_FORM: KeyForm<number> = {
  kept: (key) => (key.startsWith('doc:') ? `\u0000${key.slice(4)}` : key),
  keptFor: (key) => TEST_FORM.kept(key),
  key: (kept) => (kept.startsWith('\u0000') ? `doc:${kept.slice(1)}` : kept),
};
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key: keyArb, value: fc.nat(5) }),
  fc.record({ kind: fc.constant('delete' as const), key: keyArb }),
);
/** Versions, each made by one editor from the one before. */
const historyArb = fc.array(fc.array(opArb, { maxLength: 60 }), { minLength: 1, maxLength: 8 });

/** The map of `entries` made by one editor on the empty map, one set per entry. */
function editedFrom<V>(entries: Iterable<readonly [string, V]>, form?: KeyForm<V>): PersistentMap<V> {
  const editor = PersistentMap.empty<V>(form).edit();
  for (const [key, value] of entries) editor.set(key, value);
  return editor.done();
}

function expectSame(map: PersistentMap<number>, oracle: ReadonlyMap<string, number>): void {
  expect(map.size).toBe(oracle.size);
  expect(new Map(map)).toEqual(oracle);
  for (const key of oracle.keys()) {
    expect(map.has(key)).toBe(true);
    expect(map.get(key)).toBe(oracle.get(key));
  }
  expect(map.has('never-set')).toBe(false);
}

describe.each([
  ['as they are', undefined],
  ['in a key form', TEST_FORM],
])('PersistentMap against a Map, keys kept %s', (_, form) => {
  it('answers what the oracle does in every version, and keeps old versions as they were', () => {
    fc.assert(
      fc.property(historyArb, (history) => {
        const versions: [PersistentMap<number>, Map<string, number>][] = [
          [PersistentMap.empty(form), new Map()],
        ];
        for (const ops of history) {
          const [map, oracle] = versions.at(-1)!;
          const editor = map.edit();
          const next = new Map(oracle);
          for (const op of ops) {
            if (op.kind === 'set') {
              editor.set(op.key, op.value);
              next.set(op.key, op.value);
            } else {
              editor.delete(op.key);
              next.delete(op.key);
            }
            expect(editor.get(op.key)).toBe(next.get(op.key));
          }
          const done = editor.done();
          if (ops.length === 0) expect(done).toBe(map);
          versions.push([done, next]);
        }
        for (const [map, oracle] of versions) expectSame(map, oracle);
        for (let i = 1; i < versions.length; i++) {
          const [now, after] = versions[i]!;
          const [before, prior] = versions[i - 1]!;
          const expected = [...new Set([...after.keys(), ...prior.keys()])].filter(
            (key) => after.get(key) !== prior.get(key) || after.has(key) !== prior.has(key),
          );
          expect(new Set(now.changedKeys(before))).toEqual(new Set(expected));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('from makes the map one editor makes, iteration order included', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(keyArb, fc.nat(5)), { maxLength: 300 }), (entries) => {
        const made = PersistentMap.from(entries, form);
        const edited = editedFrom(entries, form);
        expect([...made]).toEqual([...edited]);
        expect(made.size).toBe(edited.size);
        expectSame(made, new Map(entries));
        // Edits of both go the same way (the chunks are the same).
        const a = made.edit();
        const b = edited.edit();
        for (const [key] of entries.slice(0, 5)) {
          a.delete(key);
          b.delete(key);
        }
        a.set('added', 9);
        b.set('added', 9);
        expect([...a.done()]).toEqual([...b.done()]);
      }),
      { numRuns: 300 },
    );
  });

  it('changedKeys between versions that keep keys in different forms names the keys whose values differ', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(keyArb, fc.nat(5)), { maxLength: 60 }),
        fc.array(keyArb, { maxLength: 10 }),
        (entries, gone) => {
          const before = PersistentMap.from(entries, form);
          const other = form === undefined ? TEST_FORM : undefined;
          const editor = PersistentMap.from(entries, other).edit();
          for (const key of gone) editor.delete(key);
          const after = editor.done();
          const expected = new Set(gone.filter((key) => before.has(key)));
          expect(new Set(after.changedKeys(before))).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('an editor used after done() throws', () => {
    const editor = PersistentMap.empty<number>().edit();
    editor.set('a', 1);
    editor.done();
    expect(() => editor.set('b', 2)).toThrow(/after done/);
  });
});
