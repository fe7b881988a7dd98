/**
 * The loader's fingerprints (`ReadResult.prints`): for every leaf a walk found, what its stat said (kind,
 * size, mtime, ctime, inode, mode, links), so that a later walk tells an unchanged entry from a changed one.
 *
 * Kept as numbers, not strings: a plain entry's fields sit in one slot of a `Float64Array` and the path maps to
 * the slot (a small integer, no heap object). As strings (~60 characters joined), the prints of XL's 100,455
 * files held 11.4 MB of heap; as slots 2.7 MB of map and 4 MB of table, in chunks of 4,096 slots. The rare composite prints (a followed
 * link with its target, an error, an unreadable directory) stay strings. Equality is exact: two prints are the
 * same iff every field is the same number, as the joined strings were.
 */

/** What a stat says that a fingerprint keeps; `fs.Stats` is one. */
export interface StatPrint {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
  readonly mode: number;
  readonly nlink: number;
}

/** Numbers a stat print is kept as (`writeStatPrint`): kind, mode and nlink packed into one, then size, mtime, ctime, inode. */
export const PRINT_FIELDS = 5;
const FIELDS = PRINT_FIELDS;
/** Slots per chunk of the table: a chunk is 160 KB, and the table grows by chunks (no copy, no doubling). */
const CHUNK_SLOTS = 4096;
const KINDS = 'fdlo';

/**
 * One stat's print as text: the form composite prints are built from. With `join`, not a template: a template
 * of 13 parts is a tree of 12 concatenation cells that V8 keeps as such; `join` makes one flat string.
 */
export function formatStatPrint(stats: StatPrint): string {
  return [
    KINDS[kindOf(stats)],
    stats.size,
    stats.mtimeMs,
    stats.ctimeMs,
    stats.ino,
    stats.mode,
    stats.nlink,
  ].join(':');
}

function kindOf(stats: StatPrint): number {
  return stats.isFile() ? 0 : stats.isDirectory() ? 1 : stats.isSymbolicLink() ? 2 : 3;
}

/**
 * Writes `stats`' print as `PRINT_FIELDS` numbers at `t[at…]`: kind (2 bits), mode (16 bits) and nlink above in
 * the first (exact in a double for any nlink below 2^35), then size, mtime, ctime and inode. Two prints are the
 * same iff their numbers are.
 */
export function writeStatPrint(t: Float64Array, at: number, stats: StatPrint): void {
  t[at] = kindOf(stats) + 4 * stats.mode + 262144 * stats.nlink;
  t[at + 1] = stats.size;
  t[at + 2] = stats.mtimeMs;
  t[at + 3] = stats.ctimeMs;
  t[at + 4] = stats.ino;
}

/** The print written at `t[at…]` (`writeStatPrint`) as text: `formatStatPrint` of the stat it was written from. */
export function formatWrittenPrint(t: Float64Array, at: number): string {
  const packed = t[at]!;
  const kind = packed % 4;
  const mode = Math.floor(packed / 4) % 65536;
  const nlink = Math.floor(packed / 262144);
  return [KINDS[kind], t[at + 1], t[at + 2], t[at + 3], t[at + 4], mode, nlink].join(':');
}

/**
 * What a walk records prints into (`ReadResult.prints`): a `PrintTable`, or the watcher thread's table that
 * compares each print with the walk before as it is recorded (`WalkPrints`).
 */
export interface PrintSink {
  /** Records one stat's print, or a composite print's text, at `path`. */
  set(path: string, print: StatPrint | string): void;
  /** Forgets the print recorded at `path` (a walk forgets what it will walk again). */
  delete(path: string): void;
}

/** Fingerprints by root-relative path. */
export class PrintTable implements PrintSink {
  /** Path → slot in `#table`, for prints that are one stat. */
  readonly #slots = new Map<string, number>();
  /** Path → text, for composite prints. A path is in one of the two maps at most. */
  readonly #texts = new Map<string, string>();
  readonly #chunks: Float64Array[] = [];
  #used = 0;
  readonly #free: number[] = [];

  get size(): number {
    return this.#slots.size + this.#texts.size;
  }

  has(path: string): boolean {
    return this.#slots.has(path) || this.#texts.has(path);
  }

  /** Every path with a print. */
  *keys(): IterableIterator<string> {
    yield* this.#slots.keys();
    yield* this.#texts.keys();
  }

  /** The print at `path` as text (what a test or a log compares), or undefined. */
  get(path: string): string | undefined {
    const slot = this.#slots.get(path);
    if (slot === undefined) return this.#texts.get(path);
    return formatWrittenPrint(this.#chunks[Math.floor(slot / CHUNK_SLOTS)]!, (slot % CHUNK_SLOTS) * FIELDS);
  }

  /** Every print as text (`get`), by path: the form that crosses to another thread, or that a test compares. */
  texts(): Map<string, string> {
    const texts = new Map<string, string>();
    for (const path of this.keys()) texts.set(path, this.get(path)!);
    return texts;
  }

  /** Records one stat's print, or a composite print's text, at `path`. */
  set(path: string, print: StatPrint | string): void {
    if (typeof print === 'string') {
      this.delete(path);
      this.#texts.set(path, print);
      return;
    }
    const slot = this.#slotFor(path);
    writeStatPrint(this.#chunks[Math.floor(slot / CHUNK_SLOTS)]!, (slot % CHUNK_SLOTS) * FIELDS, print);
  }

  delete(path: string): boolean {
    const slot = this.#slots.get(path);
    if (slot !== undefined) {
      this.#slots.delete(path);
      this.#free.push(slot);
      return true;
    }
    return this.#texts.delete(path);
  }

  /** Whether `other` holds the same print at `path` as this table (both none counts as the same). */
  same(path: string, other: PrintTable): boolean {
    const slot = this.#slots.get(path);
    const theirs = other.#slots.get(path);
    if (slot === undefined || theirs === undefined) {
      return slot === theirs && this.#texts.get(path) === other.#texts.get(path);
    }
    const a = this.#chunks[Math.floor(slot / CHUNK_SLOTS)]!;
    const b = other.#chunks[Math.floor(theirs / CHUNK_SLOTS)]!;
    const at = (slot % CHUNK_SLOTS) * FIELDS;
    const bt = (theirs % CHUNK_SLOTS) * FIELDS;
    for (let i = 0; i < FIELDS; i++) if (a[at + i] !== b[bt + i]) return false;
    return true;
  }

  /** Copies `other`'s print at `path` here. */
  copy(path: string, other: PrintTable): void {
    const theirs = other.#slots.get(path);
    if (theirs === undefined) {
      const text = other.#texts.get(path);
      if (text === undefined) this.delete(path);
      else this.set(path, text);
      return;
    }
    const slot = this.#slotFor(path);
    const from = other.#chunks[Math.floor(theirs / CHUNK_SLOTS)]!;
    const bt = (theirs % CHUNK_SLOTS) * FIELDS;
    this.#chunks[Math.floor(slot / CHUNK_SLOTS)]!.set(
      from.subarray(bt, bt + FIELDS),
      (slot % CHUNK_SLOTS) * FIELDS,
    );
  }

  /** The slot for `path`'s stat print, taken (and a chunk added) when it has none yet. */
  #slotFor(path: string): number {
    this.#texts.delete(path);
    let slot = this.#slots.get(path);
    if (slot === undefined) {
      slot = this.#free.pop() ?? this.#used++;
      if (slot === this.#chunks.length * CHUNK_SLOTS)
        this.#chunks.push(new Float64Array(CHUNK_SLOTS * FIELDS));
      this.#slots.set(path, slot);
    }
    return slot;
  }
}
