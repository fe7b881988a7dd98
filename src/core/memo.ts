/**
 * The memos of one builder. Deriving a catalog again after an edit is cheap because what was derived from an
 * unchanged file is looked up by the identity of its bytes (the store hands an unchanged file to the next build
 * as the same `Uint8Array`) or of what was parsed from them. Those tables have an owner: `createCatalogBuilder`
 * creates one `Memo`, passes it down to every phase and reader, and drops it with the builder — nothing in
 * `src/core` keeps state at module level (scripts/check-module-state.mjs enforces it).
 *
 * Each module declares the tables it uses with `memoTable` (a typed name, immutable), next to the function that
 * reads them; `memo.table(slot)` answers the builder's table for that slot. A memo is invisible to callers: a
 * result is the same with one, with another or with `NO_MEMO`.
 */

/** A name for one table, typed by its key and value. Declared once at module level; holds nothing itself. */
export interface MemoTable<K extends object, V> {
  readonly name: string;
  /** Carries the types only; never set. */
  readonly types?: (key: K) => V;
}

/** A name for one cell: a single remembered value (say, the last text read and its parse). */
export interface MemoCell<V> {
  readonly name: string;
  readonly types?: () => V;
}

export function memoTable<K extends object, V>(name: string): MemoTable<K, V> {
  return Object.freeze({ name });
}

export function memoCell<V>(name: string): MemoCell<V> {
  return Object.freeze({ name });
}

export interface Memo {
  /** This memo's table for `slot`: the same one for the life of the memo. */
  table<K extends object, V>(slot: MemoTable<K, V>): WeakMap<K, V>;
  /** This memo's value in `cell`, if any. */
  get<V>(cell: MemoCell<V>): V | undefined;
  set<V>(cell: MemoCell<V>, value: V): void;
}

export function createMemo(): Memo {
  const tables = new Map<MemoTable<object, unknown>, WeakMap<object, unknown>>();
  const cells = new Map<MemoCell<unknown>, unknown>();
  return {
    table<K extends object, V>(slot: MemoTable<K, V>): WeakMap<K, V> {
      let table = tables.get(slot as MemoTable<object, unknown>);
      if (table === undefined) {
        table = new WeakMap();
        tables.set(slot as MemoTable<object, unknown>, table);
      }
      return table as WeakMap<K, V>;
    },
    get: <V>(cell: MemoCell<V>) => cells.get(cell) as V | undefined,
    set: (cell, value) => {
      cells.set(cell, value);
    },
  };
}

/** A memo that keeps nothing: every lookup misses and every store is dropped, for a caller with no builder. */
export const NO_MEMO: Memo = Object.freeze({
  table: <K extends object, V>() => new WeakMap<K, V>(),
  get: () => undefined,
  set: () => {},
});
