/**
 * The watcher thread's prints (watch-thread-worker.ts): the last walk's print of every entry, which the next walk
 * updates in place and answers only what changed. A walk records into it as into any `PrintSink` (between `begin`
 * and `finish`), each print compared with the one held for that path as it is recorded.
 *
 * Laid out for a tree of 100,000 entries held for the life of the daemon: no string and no object per entry. An
 * entry is a slot of a few typed arrays (its print's `PRINT_FIELDS` numbers, its directory's number, where its name
 * lies in a heap of UTF-8 bytes, a state byte), and an open-addressing table of `Int32Array` finds a path's slot by a
 * hash of its directory and name. On XL (100,455 entries, names of 23 bytes on average, 1,245 directories) that is
 * ~8.5 MB, where a `PrintTable` held 100,455 path strings as keys (8.9 MB), its map's tables (~4 MB) and its
 * numbers (4 MB) — and each walk built a fresh one, ~17 MB of garbage on the thread's heap every walk.
 *
 * Composite prints (a followed link, an error, an unreadable directory) are rare and stay strings, by slot.
 */
import {
  formatWrittenPrint,
  PRINT_FIELDS,
  type PrintSink,
  type StatPrint,
  writeStatPrint,
} from './print-table.js';

/** Slots per chunk of the per-entry arrays (one `ArrayBuffer` of ~209 KB a chunk; the table grows by chunks). */
const CHUNK_SLOTS = 4096;
/** Bytes per chunk of the name heap; a name lies whole inside one chunk (a file name is at most 255 bytes on Linux). */
const NAME_CHUNK = 1 << 16;
/** The longest name kept, in UTF-16 units (at most 3 bytes each: it fits in a chunk of the name heap). */
const MAX_NAME = 4096;
/** State bits of a slot. */
const LIVE = 1;
const SEEN = 2;
const CHANGED = 4;
/** The print is a composite's text, in `#texts`. */
const TEXT = 8;
/** The name is not all ASCII (decoded with a `TextDecoder`). */
const WIDE = 16;
/** `#hash` cells: 0 empty, -1 a removed entry's, otherwise the slot + 1. */
const REMOVED = -1;

interface Chunk {
  readonly fields: Float64Array;
  readonly dir: Int32Array;
  readonly nameAt: Uint32Array;
  readonly nameLength: Uint16Array;
  readonly state: Uint8Array;
}

function createChunk(): Chunk {
  const n = CHUNK_SLOTS;
  const buffer = new ArrayBuffer(n * (PRINT_FIELDS * 8 + 4 + 4 + 2 + 1));
  const dirAt = n * PRINT_FIELDS * 8;
  return {
    fields: new Float64Array(buffer, 0, n * PRINT_FIELDS),
    dir: new Int32Array(buffer, dirAt, n),
    nameAt: new Uint32Array(buffer, dirAt + n * 4, n),
    nameLength: new Uint16Array(buffer, dirAt + n * 8, n),
    state: new Uint8Array(buffer, dirAt + n * 10, n),
  };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A hash of a directory number and a name's bytes (FNV-1a, then a final mix for the low bits). */
function hashOf(dir: number, bytes: Uint8Array, at: number, length: number): number {
  let h = Math.imul(2166136261 ^ dir, 16777619);
  for (let i = 0; i < length; i++) h = Math.imul(h ^ bytes[at + i]!, 16777619);
  h ^= h >>> 15;
  h = Math.imul(h, 0x85ebca6b);
  return (h ^ (h >>> 13)) >>> 0;
}

/** The last walk's prints by root-relative path, answering what the next walk changed. */
export class WalkPrints implements PrintSink {
  readonly #chunks: Chunk[] = [];
  /** Slots ever used; slots below it are live or on `#free`. */
  #used = 0;
  readonly #free: number[] = [];
  #live = 0;
  #hash = new Int32Array(1024);
  /** `#hash` cells holding `REMOVED`. */
  #removed = 0;
  #names: Uint8Array[] = [];
  /** Where the next name goes in the name heap (chunk × NAME_CHUNK + offset). */
  #nameEnd = 0;
  /** Bytes of the name heap no live entry's name uses. */
  #nameWaste = 0;
  /** Directory path (no trailing slash; '' for the root) → its number, and back. */
  #dirIds = new Map<string, number>();
  #dirs: string[] = [];
  readonly #texts = new Map<number, string>();
  /** The name being looked up, as UTF-8. */
  #scratch = new Uint8Array(1024);

  /** Entries held. */
  get size(): number {
    return this.#live;
  }

  /** Starts a walk: from now on, an entry the walk does not record before `finish` is gone. */
  begin(): void {
    for (let slot = 0; slot < this.#used; slot++)
      this.#chunk(slot).state[slot % CHUNK_SLOTS]! &= ~(SEEN | CHANGED);
  }

  set(path: string, print: StatPrint | string): void {
    const slot = this.#find(path, true);
    const c = this.#chunk(slot);
    const i = slot % CHUNK_SLOTS;
    let state = c.state[i]! | SEEN;
    if (typeof print === 'string') {
      if ((state & TEXT) === 0 || this.#texts.get(slot) !== print) state |= CHANGED | TEXT;
      this.#texts.set(slot, print);
    } else {
      const at = i * PRINT_FIELDS;
      const t = c.fields;
      const before0 = t[at];
      const before1 = t[at + 1];
      const before2 = t[at + 2];
      const before3 = t[at + 3];
      const before4 = t[at + 4];
      writeStatPrint(t, at, print);
      if (
        (state & TEXT) !== 0 ||
        before0 !== t[at] ||
        before1 !== t[at + 1] ||
        before2 !== t[at + 2] ||
        before3 !== t[at + 3] ||
        before4 !== t[at + 4]
      ) {
        state |= CHANGED;
      }
      if ((state & TEXT) !== 0) this.#texts.delete(slot);
      state &= ~TEXT;
    }
    c.state[i] = state;
  }

  /** The walk forgets `path`'s print: unless it records it again, it is gone at `finish`. */
  delete(path: string): void {
    const slot = this.#find(path, false);
    if (slot !== -1) this.#chunk(slot).state[slot % CHUNK_SLOTS]! &= ~SEEN;
  }

  /** The print held at `path` as text (`PrintTable.get`'s form), or undefined. */
  get(path: string): string | undefined {
    const slot = this.#find(path, false);
    return slot === -1 ? undefined : this.#text(slot);
  }

  /**
   * Ends the walk begun with `begin`: answers, by path, the print of every entry it recorded that was new or
   * differed from the one held, and `undefined` for every entry held that it did not record (those are forgotten).
   * A table that held nothing answers every print. An entry may be answered with the print it had (a walk that
   * forgot a directory and walked it again); every entry whose print changed is answered. The answer comes in
   * maps of `piece` entries, yielded as they fill, the last (possibly empty, possibly the only one) returned; the
   * table must not be walked again until it is.
   */
  *finish(
    piece = Number.POSITIVE_INFINITY,
  ): Generator<Map<string, string | undefined>, Map<string, string | undefined>> {
    let answer = new Map<string, string | undefined>();
    for (let slot = 0; slot < this.#used; slot++) {
      const c = this.#chunk(slot);
      const i = slot % CHUNK_SLOTS;
      const state = c.state[i]!;
      if ((state & LIVE) === 0 || (state & (SEEN | CHANGED)) === SEEN) continue;
      if ((state & SEEN) === 0) {
        answer.set(this.#path(slot), undefined);
        this.#remove(slot);
      } else {
        answer.set(this.#path(slot), this.#text(slot));
      }
      if (answer.size >= piece) {
        yield answer;
        answer = new Map();
      }
    }
    if (this.#nameWaste > NAME_CHUNK * 16 && this.#nameWaste > this.#nameEnd / 2) this.#compact();
    return answer;
  }

  #chunk(slot: number): Chunk {
    return this.#chunks[Math.floor(slot / CHUNK_SLOTS)]!;
  }

  #text(slot: number): string {
    const c = this.#chunk(slot);
    const i = slot % CHUNK_SLOTS;
    return (c.state[i]! & TEXT) !== 0
      ? this.#texts.get(slot)!
      : formatWrittenPrint(c.fields, i * PRINT_FIELDS);
  }

  #path(slot: number): string {
    const c = this.#chunk(slot);
    const i = slot % CHUNK_SLOTS;
    const at = c.nameAt[i]!;
    const bytes = this.#names[Math.floor(at / NAME_CHUNK)]!.subarray(
      at % NAME_CHUNK,
      (at % NAME_CHUNK) + c.nameLength[i]!,
    );
    const name =
      (c.state[i]! & WIDE) !== 0
        ? decoder.decode(bytes)
        : String.fromCharCode.apply(null, bytes as unknown as number[]);
    const dir = this.#dirs[c.dir[i]!]!;
    return dir === '' ? name : `${dir}/${name}`;
  }

  /** Writes the name of `path` (after its last `/`) into `#scratch` as UTF-8; answers its length, negative when not ASCII. */
  #encodeName(path: string, from: number): number {
    const length = path.length - from;
    // No file system names an entry this long (255 bytes on Linux): the walk fails, and its caller walks itself.
    if (length > MAX_NAME) throw new RangeError(`A name of ${length} characters: ${path.slice(0, 80)}…`);
    if (this.#scratch.length < length * 3) this.#scratch = new Uint8Array(length * 3);
    const scratch = this.#scratch;
    for (let i = 0; i < length; i++) {
      const code = path.charCodeAt(from + i);
      if (code >= 0x80) return -encoder.encodeInto(path.slice(from), scratch).written - 1;
      scratch[i] = code;
    }
    return length;
  }

  /** The slot of `path`, or -1; with `insert`, a new slot (live, changed, unseen) when it has none. */
  #find(path: string, insert: boolean): number {
    const cut = path.lastIndexOf('/');
    const dirPath = cut === -1 ? '' : path.slice(0, cut);
    let dir = this.#dirIds.get(dirPath);
    if (dir === undefined) {
      if (!insert) return -1;
      dir = this.#dirs.length;
      this.#dirs.push(dirPath);
      this.#dirIds.set(dirPath, dir);
    }
    const encoded = this.#encodeName(path, cut + 1);
    const length = encoded < 0 ? -encoded - 1 : encoded;
    const scratch = this.#scratch;
    const mask = this.#hash.length - 1;
    let cell = hashOf(dir, scratch, 0, length) & mask;
    let firstRemoved = -1;
    for (;;) {
      const held = this.#hash[cell]!;
      if (held === 0) break;
      if (held === REMOVED) {
        if (firstRemoved === -1) firstRemoved = cell;
      } else if (this.#matches(held - 1, dir, scratch, length)) {
        return held - 1;
      }
      cell = (cell + 1) & mask;
    }
    if (!insert) return -1;
    const slot = this.#add(dir, scratch, length, encoded < 0);
    if (firstRemoved !== -1) {
      this.#hash[firstRemoved] = slot + 1;
      this.#removed--;
    } else {
      this.#hash[cell] = slot + 1;
    }
    if ((this.#live + this.#removed) * 2 > this.#hash.length) this.#rehash();
    return slot;
  }

  #matches(slot: number, dir: number, bytes: Uint8Array, length: number): boolean {
    const c = this.#chunk(slot);
    const i = slot % CHUNK_SLOTS;
    if (c.dir[i] !== dir || c.nameLength[i] !== length) return false;
    const at = c.nameAt[i]!;
    const names = this.#names[Math.floor(at / NAME_CHUNK)]!;
    const from = at % NAME_CHUNK;
    for (let k = 0; k < length; k++) if (names[from + k] !== bytes[k]) return false;
    return true;
  }

  /** A new slot for the name `bytes[0…length)` in directory `dir` (not yet in `#hash`). */
  #add(dir: number, bytes: Uint8Array, length: number, wide: boolean): number {
    const slot = this.#free.pop() ?? this.#used++;
    if (slot === this.#chunks.length * CHUNK_SLOTS) this.#chunks.push(createChunk());
    let at = this.#nameEnd;
    if ((at % NAME_CHUNK) + length > NAME_CHUNK) {
      this.#nameWaste += NAME_CHUNK - (at % NAME_CHUNK);
      at = Math.ceil(at / NAME_CHUNK) * NAME_CHUNK;
    }
    const chunk = Math.floor(at / NAME_CHUNK);
    if (chunk === this.#names.length) this.#names.push(new Uint8Array(NAME_CHUNK));
    this.#names[chunk]!.set(bytes.subarray(0, length), at % NAME_CHUNK);
    this.#nameEnd = at + length;
    const c = this.#chunk(slot);
    const i = slot % CHUNK_SLOTS;
    c.dir[i] = dir;
    c.nameAt[i] = at;
    c.nameLength[i] = length;
    c.state[i] = LIVE | CHANGED | (wide ? WIDE : 0);
    this.#live++;
    return slot;
  }

  #cellOf(slot: number): number {
    const c = this.#chunk(slot);
    const i = slot % CHUNK_SLOTS;
    const at = c.nameAt[i]!;
    const mask = this.#hash.length - 1;
    let cell =
      hashOf(c.dir[i]!, this.#names[Math.floor(at / NAME_CHUNK)]!, at % NAME_CHUNK, c.nameLength[i]!) & mask;
    while (this.#hash[cell] !== 0 && this.#hash[cell] !== slot + 1) cell = (cell + 1) & mask;
    return cell;
  }

  #remove(slot: number): void {
    this.#hash[this.#cellOf(slot)] = REMOVED;
    this.#removed++;
    const c = this.#chunk(slot);
    const i = slot % CHUNK_SLOTS;
    this.#nameWaste += c.nameLength[i]!;
    c.state[i] = 0;
    this.#texts.delete(slot);
    this.#free.push(slot);
    this.#live--;
  }

  /** `#hash` again at twice or more the live entries' cells, without removed cells. */
  #rehash(): void {
    let capacity = 1024;
    while (capacity < this.#live * 4) capacity *= 2;
    this.#hash = new Int32Array(capacity);
    this.#removed = 0;
    for (let slot = 0; slot < this.#used; slot++) {
      if ((this.#chunk(slot).state[slot % CHUNK_SLOTS]! & LIVE) !== 0)
        this.#hash[this.#cellOf(slot)] = slot + 1;
    }
  }

  /** The name heap and the directories again, with only the live entries' (after many entries have gone). */
  #compact(): void {
    const names = this.#names;
    const dirs = this.#dirs;
    this.#names = [];
    this.#nameEnd = 0;
    this.#nameWaste = 0;
    this.#dirs = [];
    this.#dirIds = new Map();
    for (let slot = 0; slot < this.#used; slot++) {
      const c = this.#chunk(slot);
      const i = slot % CHUNK_SLOTS;
      if ((c.state[i]! & LIVE) === 0) continue;
      const dirPath = dirs[c.dir[i]!]!;
      let dir = this.#dirIds.get(dirPath);
      if (dir === undefined) {
        dir = this.#dirs.length;
        this.#dirs.push(dirPath);
        this.#dirIds.set(dirPath, dir);
      }
      const length = c.nameLength[i]!;
      let at = this.#nameEnd;
      if ((at % NAME_CHUNK) + length > NAME_CHUNK) at = Math.ceil(at / NAME_CHUNK) * NAME_CHUNK;
      const chunk = Math.floor(at / NAME_CHUNK);
      if (chunk === this.#names.length) this.#names.push(new Uint8Array(NAME_CHUNK));
      const from = c.nameAt[i]!;
      const old = names[Math.floor(from / NAME_CHUNK)]!;
      this.#names[chunk]!.set(old.subarray(from % NAME_CHUNK, (from % NAME_CHUNK) + length), at % NAME_CHUNK);
      this.#nameEnd = at + length;
      c.dir[i] = dir;
      c.nameAt[i] = at;
    }
    this.#rehash();
  }
}
