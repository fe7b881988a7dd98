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

/**
 * What a caller does with a memo's table: a `WeakMap`'s methods it uses (a `Map` or a `WeakMap` is one). A value
 * is never `undefined`: `get` answering it means no entry.
 */
export interface MemoMap<K extends object, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): unknown;
  delete(key: K): unknown;
}

export interface Memo {
  /** This memo's table for `slot`: the same one for the life of the memo. */
  table<K extends object, V>(slot: MemoTable<K, V>): MemoMap<K, V>;
  /**
   * Sets an entry of the table named `name` as if the function that owns the table had derived it: the seam for
   * per-file results derived elsewhere (another thread, src/fs/build-pool.ts) from bytes equal to `key`'s. The
   * caller vouches that `value` is what that function would have stored; a result is the same with or without.
   */
  seed(name: string, key: object, value: unknown): void;
  /** This memo's value in `cell`, if any. */
  get<V>(cell: MemoCell<V>): V | undefined;
  set<V>(cell: MemoCell<V>, value: V): void;
}

/**
 * Tables are found by name (unique per table: a `seed` names the table it fills). The entries of every table
 * keyed by a file's bytes (a `Uint8Array`: the texts, parses, directives, served content…) are kept together,
 * one record per bytes holding one property per table, so a file costs one weak entry, not one in each table
 * (a weak entry is ~40 bytes: on XL's 100,000 documents, four tables of 4 MB each); any other key has a weak
 * table per name.
 */
export function createMemo(): Memo {
  const records = new WeakMap<Uint8Array, Record<string, unknown>>();
  const tables = new Map<string, MemoMap<object, unknown>>();
  const weak = new Map<string, WeakMap<object, unknown>>();
  const weakTable = (name: string): WeakMap<object, unknown> => {
    let table = weak.get(name);
    if (table === undefined) {
      table = new WeakMap();
      weak.set(name, table);
    }
    return table;
  };
  const named = (name: string): MemoMap<object, unknown> => {
    let table = tables.get(name);
    if (table === undefined) {
      table = {
        get: (key) => (key instanceof Uint8Array ? records.get(key)?.[name] : weak.get(name)?.get(key)),
        set(key, value) {
          if (!(key instanceof Uint8Array)) return weakTable(name).set(key, value);
          const record = records.get(key);
          if (record === undefined) records.set(key, { [name]: value });
          else record[name] = value;
          return this;
        },
        delete(key) {
          if (!(key instanceof Uint8Array)) return weak.get(name)?.delete(key) === true;
          const record = records.get(key);
          // Set to undefined, not deleted: a deleted property would turn the record into a dictionary.
          if (record?.[name] === undefined) return false;
          record[name] = undefined;
          return true;
        },
      };
      tables.set(name, table);
    }
    return table;
  };
  const cells = new Map<MemoCell<unknown>, unknown>();
  return {
    table: <K extends object, V>(slot: MemoTable<K, V>) => named(slot.name) as MemoMap<K, V>,
    seed: (name, key, value) => {
      named(name).set(key, value);
    },
    get: <V>(cell: MemoCell<V>) => cells.get(cell) as V | undefined,
    set: (cell, value) => {
      cells.set(cell, value);
    },
  };
}

/** One entry a recording memo saw set: its table's name, its key and its value. */
export interface MemoEntry {
  readonly name: string;
  readonly key: object;
  readonly value: unknown;
}

/**
 * A memo for one file at a time that records every entry set in the tables named in `names`; `take` hands them
 * over and empties the memo for the next file. How a thread that derives per-file results learns what to send
 * back for `Memo.seed`. Its tables are plain maps, emptied by `take`: weak tables, one set per file, cost the
 * collector more than the work they memoize.
 */
export function createRecordingMemo(names: ReadonlySet<string>): Memo & { take(): MemoEntry[] } {
  const tables = new Map<string, Map<object, unknown>>();
  const cells = new Map<MemoCell<unknown>, unknown>();
  let recorded: MemoEntry[] = [];
  const named = (name: string): Map<object, unknown> => {
    let table = tables.get(name);
    if (table === undefined) {
      table = new Map();
      if (names.has(name)) {
        const plain = table;
        table.set = (key, value) => {
          recorded.push({ name, key, value });
          return Map.prototype.set.call(plain, key, value) as Map<object, unknown>;
        };
      }
      tables.set(name, table);
    }
    return table;
  };
  return {
    table: <K extends object, V>(slot: MemoTable<K, V>) => named(slot.name) as unknown as MemoMap<K, V>,
    seed: (name, key, value) => {
      named(name).set(key, value);
    },
    get: <V>(cell: MemoCell<V>) => cells.get(cell) as V | undefined,
    set: (cell, value) => {
      cells.set(cell, value);
    },
    take() {
      const taken = recorded;
      recorded = [];
      for (const table of tables.values()) table.clear();
      cells.clear();
      return taken;
    },
  };
}

/** A memo that keeps nothing: every lookup misses and every store is dropped, for a caller with no builder. */
export const NO_MEMO: Memo = Object.freeze({
  table: <K extends object, V>() => new WeakMap<K, V>(),
  seed: () => {},
  get: () => undefined,
  set: () => {},
});
