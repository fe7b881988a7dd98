/**
 * An immutable string-keyed map whose versions share structure: the keys are spread over a fixed number of
 * small chunks by a hash, and a new version copies only the chunks an edit touched. A rebuild after one saved
 * file derives a catalog whose `contents` (one entry per served file, 15,000 on a large corpus) differs from the
 * previous one in a handful of URIs; copying a whole `Map` for that costs milliseconds, copying two chunks costs
 * microseconds, and comparing two versions visits only the chunks they do not share.
 *
 * Iteration order is by chunk, then insertion order within a chunk — deterministic for the same edits, but not
 * sorted and not the insertion order overall. Callers that need an order sort.
 */

const CHUNK_BITS = 8;
const CHUNK_COUNT = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_COUNT - 1;

type Chunk<V> = ReadonlyMap<string, V>;

/**
 * How a map keeps its keys, when not as they are: the form each key is kept under (one form per key, and one key
 * per form), and the key a form stands for. A form may be a string the value already holds (`keptFor`), so that
 * the map holds no string of its own for the key: a catalog's `contents` keeps a document under its file's path,
 * which the file holds, not under a URI string of its own (on XL, 100,000 URIs were ~7.7 MB).
 */
export interface KeyForm<V> {
  /** The form `key` is kept under. */
  kept(key: string): string;
  /** The same form (equal to `kept(key)`), as a string `value` holds when it holds one. */
  keptFor(key: string, value: V): string;
  /** The key `kept` stands for (`key(kept(k)) === k`). */
  key(kept: string): string;
}

/** FNV-1a over the UTF-16 code units; stable across runs, so iteration order is too. */
function chunkOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash ^ (hash >>> CHUNK_BITS) ^ (hash >>> 16) ^ (hash >>> 24)) & CHUNK_MASK;
}

export class PersistentMap<V> implements ReadonlyMap<string, V> {
  private constructor(
    private readonly chunks: readonly (Chunk<V> | undefined)[],
    readonly size: number,
    /** How keys are kept; undefined: as they are. Iteration is by chunk of the kept form. */
    private readonly form: KeyForm<V> | undefined,
  ) {}

  static empty<V>(form?: KeyForm<V>): PersistentMap<V> {
    return new PersistentMap<V>(new Array<Chunk<V> | undefined>(CHUNK_COUNT).fill(undefined), 0, form);
  }

  static from<V>(entries: Iterable<readonly [string, V]>, form?: KeyForm<V>): PersistentMap<V> {
    const editor = PersistentMap.empty<V>(form).edit();
    for (const [key, value] of entries) editor.set(key, value);
    return editor.done();
  }

  get(key: string): V | undefined {
    const kept = this.form === undefined ? key : this.form.kept(key);
    return this.chunks[chunkOf(kept)]?.get(kept);
  }

  has(key: string): boolean {
    const kept = this.form === undefined ? key : this.form.kept(key);
    return this.chunks[chunkOf(kept)]?.has(kept) ?? false;
  }

  *entries(): MapIterator<[string, V]> {
    const form = this.form;
    for (const chunk of this.chunks) {
      if (chunk === undefined) continue;
      if (form === undefined) yield* chunk.entries();
      else for (const [kept, value] of chunk) yield [form.key(kept), value];
    }
  }

  *keys(): MapIterator<string> {
    const form = this.form;
    for (const chunk of this.chunks) {
      if (chunk === undefined) continue;
      if (form === undefined) yield* chunk.keys();
      else for (const kept of chunk.keys()) yield form.key(kept);
    }
  }

  *values(): MapIterator<V> {
    for (const chunk of this.chunks) if (chunk !== undefined) yield* chunk.values();
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }

  forEach(callback: (value: V, key: string, map: ReadonlyMap<string, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }

  get [Symbol.toStringTag](): string {
    return 'PersistentMap';
  }

  /**
   * A transient editor: each chunk is copied at most once, on its first write; `done()` returns the new version
   * and leaves `this` untouched. The editor must not be used after `done()`.
   */
  edit(): PersistentMapEditor<V> {
    const form = this.form;
    const chunks = [...this.chunks];
    /** Which chunks this editor copied (1), so owns and may write. */
    const copied = new Uint8Array(CHUNK_COUNT);
    let copies = 0;
    let size = this.size;
    let finished = false;
    const writable = (index: number): Map<string, V> => {
      if (finished) throw new Error('PersistentMap: editor used after done()');
      if (copied[index] === 0) {
        copied[index] = 1;
        copies++;
        chunks[index] = new Map(chunks[index]);
      }
      return chunks[index] as Map<string, V>;
    };
    return {
      get: (key) => {
        const kept = form === undefined ? key : form.kept(key);
        return chunks[chunkOf(kept)]?.get(kept);
      },
      set(key, value) {
        const kept = form === undefined ? key : form.keptFor(key, value);
        const chunk = writable(chunkOf(kept));
        // One probe of the chunk, not a `has` and a `set`.
        const before = chunk.size;
        chunk.set(kept, value);
        size += chunk.size - before;
      },
      delete(key) {
        const kept = form === undefined ? key : form.kept(key);
        const index = chunkOf(kept);
        if (!chunks[index]?.has(kept)) return;
        writable(index).delete(kept);
        size--;
      },
      done: () => {
        finished = true;
        return copies === 0 ? this : new PersistentMap(chunks, size, form);
      },
    };
  }

  /**
   * Every key whose value differs by identity (`!==`) between `this` and `previous`, or that only one of them
   * holds. Chunks both versions share are skipped, so comparing two versions one edit apart is O(chunk size).
   * Two versions that keep keys in different forms (`KeyForm`) are compared key by key.
   */
  changedKeys(previous: PersistentMap<V>): string[] {
    if (this.form !== previous.form) {
      const keys = new Set([...this.keys(), ...previous.keys()]);
      return [...keys].filter(
        (key) => this.get(key) !== previous.get(key) || this.has(key) !== previous.has(key),
      );
    }
    const load = this.form === undefined ? (kept: string) => kept : this.form.key.bind(this.form);
    const out: string[] = [];
    for (let i = 0; i < CHUNK_COUNT; i++) {
      const now = this.chunks[i];
      const before = previous.chunks[i];
      if (now === before) continue;
      if (now !== undefined) {
        for (const [key, value] of now) {
          if (before === undefined || before.get(key) !== value || !before.has(key)) out.push(load(key));
        }
      }
      if (before !== undefined) for (const key of before.keys()) if (!now?.has(key)) out.push(load(key));
    }
    return out;
  }
}

export interface PersistentMapEditor<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): void;
  done(): PersistentMap<V>;
}
