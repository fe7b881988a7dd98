import { describe, expect, it } from 'vitest';
import { createMemo, memoTable } from '../../src/core/memo.js';

const TEXTS = memoTable<Uint8Array, string>('test.texts');
const SIZES = memoTable<Uint8Array, number>('test.sizes');
const PARSES = memoTable<object, string>('test.parses');

describe('createMemo', () => {
  it('keeps each table of a bytes-keyed record apart: set, get, delete, seed', () => {
    const memo = createMemo();
    const a = new Uint8Array([1]);
    const b = new Uint8Array([1]);
    memo.table(TEXTS).set(a, 'text of a');
    expect(memo.table(SIZES).get(a)).toBeUndefined();
    memo.table(SIZES).set(a, 1);
    expect(memo.table(TEXTS).get(a)).toBe('text of a');
    expect(memo.table(SIZES).get(a)).toBe(1);
    // Keys are identities: equal bytes in another array are another file.
    expect(memo.table(TEXTS).get(b)).toBeUndefined();
    expect(memo.table(TEXTS).delete(a)).toBe(true);
    expect(memo.table(TEXTS).delete(a)).toBe(false);
    expect(memo.table(TEXTS).get(a)).toBeUndefined();
    expect(memo.table(SIZES).get(a)).toBe(1);
    memo.seed('test.texts', b, 'seeded');
    expect(memo.table(TEXTS).get(b)).toBe('seeded');
  });

  it('keys other objects by table, and answers the same table for a slot every time', () => {
    const memo = createMemo();
    const key = {};
    memo.table(PARSES).set(key, 'parsed');
    expect(memo.table(PARSES).get(key)).toBe('parsed');
    expect(memo.table(memoTable<object, string>('test.other')).get(key)).toBeUndefined();
    expect(memo.table(PARSES)).toBe(memo.table(PARSES));
    expect(memo.table(PARSES).delete(key)).toBe(true);
    expect(memo.table(PARSES).get(key)).toBeUndefined();
    // Another memo shares nothing.
    memo.table(TEXTS).set(new Uint8Array(1), 'x');
    expect(createMemo().table(PARSES).get(key)).toBeUndefined();
  });
});
