/**
 * The storage of the search index: which sections hold each word, in a few flat typed arrays, and a reusable
 * set for collecting the distinct words of one section. Both belong to one index (`section-index.ts`), which
 * creates them and drops them with itself.
 */

import { detachText } from '../content.js';
import { pairLength, writePair } from './pair-bytes.js';

/** The `pendingValues` slot that says the value is in `pendingWide`. */
const WIDE = 0xffff;
/**
 * Slots of the first chunk of `pending`, and of the largest of the small chunks that double from it. A slot is
 * six bytes (a word id or a unit marker, and a value) in one `ArrayBuffer` a chunk.
 */
const FIRST_CHUNK = 256;
const SMALL_CHUNK_MAX = 1 << 14;
/**
 * Slots of every chunk after the small ones: a buffer just over 32 MiB (5.6 Mi slots). Deliberately above glibc's
 * largest mmap threshold (32 MiB; the threshold rises up to that as the process frees blocks that were mapped on
 * their own), so each large chunk is a mapping of its own whatever the threshold: the pages never written stay
 * unbacked (a `new ArrayBuffer` is a `calloc`, which a fresh mapping needs no clearing for), and the whole chunk
 * goes back to the system when it is freed. Middling chunks (1–16 MiB, doubling, as before) fell below a raised
 * threshold into the main heap, and their freed space stayed there under the index's live arrays: measured on XL
 * (`node bench/lab/dev-memory.mjs XL --malloc`), ~70 of the main heap's 185 MB free after the warm-up. No larger
 * than needed, as V8 counts a buffer's whole length as external memory, which paces its full collections.
 */
const LARGE_CHUNK = Math.floor((32 * 2 ** 20 + 64 * 1024) / 6);
/** Bytes of a chunk of `slots` slots: the word ids (or unit markers) then the values. */
const chunkBytes = (slots: number): number => slots * 6;

/**
 * Gives the memory of `buffer`, which nothing reads again, back at the next young collection rather than at the
 * next full one: `buffer` is left empty (detached) and its memory is owned by a buffer no one holds, created just
 * now. A build's pending slots outlive many young collections, so their buffers are old by the time they are
 * dropped, and a daemon that idles after its warm-up makes no full collection for a long time: on L the 53 MB
 * of them stayed resident while it idled (external memory 271 MB after the warm-up instead of 168).
 */
function release(buffer: ArrayBuffer): void {
  structuredClone(buffer, { transfer: [buffer] });
}

/** `array` with room for at least `size` elements (doubling), its contents kept. */
export function ensure(array: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  if (size <= array.length) return array;
  let capacity = Math.max(array.length, 16);
  while (capacity < size) capacity *= 2;
  const grown = new Int32Array(capacity);
  grown.set(array);
  return grown;
}

/**
 * A `finish` in progress: pass 0 counts the bytes of each word's pairs into `start`, pass 1 writes them through
 * `cursor`.
 */
interface Layout {
  pass: number;
  chunk: number;
  at: number;
  /** The pending slot `chunk`/`at` points at, counted from the first, and the unit its run is of. */
  slot: number;
  unit: number;
  readonly start: Int32Array<ArrayBuffer>;
  cursor: Int32Array<ArrayBuffer>;
  /** Per word: the unit of its pair before, which the next one is written relative to. */
  readonly last: Int32Array<ArrayBuffer>;
  bytes: Uint8Array<ArrayBuffer>;
}

/**
 * Scratch for collecting the distinct words of one section (or title) without a `Map`, indexed by word id (of
 * whichever table is collecting: a set is used up before the next `begin`): `stamp` says whether the word is in
 * the current set, `count` and `flag` are what the set holds for it. Read `count` and `flag` after `touch`,
 * which may replace them with larger arrays.
 */
export class WordSet {
  stamp = new Int32Array(0);
  count = new Int32Array(0);
  flag = new Int32Array(0);
  private now = 0;
  private readonly touched: number[] = [];

  /** Starts a new set of distinct words (`touch`); answers its ids, valid until the next `begin`. */
  begin(): number[] {
    this.now++;
    this.touched.length = 0;
    return this.touched;
  }

  /** Adds the word `id` to the current set, once; answers its id. */
  touch(id: number): number {
    if (id >= this.stamp.length) {
      this.stamp = ensure(this.stamp, id + 1);
      this.count = ensure(this.count, id + 1);
      this.flag = ensure(this.flag, id + 1);
    }
    if (this.stamp[id] !== this.now) {
      this.stamp[id] = this.now;
      this.count[id] = 0;
      this.flag[id] = 0;
      this.touched.push(id);
    }
    return id;
  }
}

/**
 * Where each word occurs, compactly: words are interned to integer ids once, and each word's postings are
 * (section, value) pairs in section order, where the value packs the section's body occurrences with a heading
 * flag (`count * 2 + inHeading`; 0 for title postings), as varints (see `bytes`). A full
 * build collects every pair in unit order (in chunks, `pending`) and then lays them out word by word (a
 * counting sort) in flat typed arrays, `start[id]…start[id + 1]`; a patch appends the pairs of the sections it
 * adds to a per-word linked list after them (`head`/`next`), so a word's postings stay in section order. No
 * per-word or per-pair object: a few typed arrays, the word `Map`, and the words themselves.
 *
 * Slots of dead sections stay until the next full build; `live` counts the others, and a word whose last live
 * section dies leaves the index (and its vocabulary) at once, so it answers exactly like an absent word: a word
 * is in the index while its `live` count is above zero.
 */
export class PostingTable {
  /**
   * @param common the value most pairs have, which the layout stores in no byte: 2 for heading and body words
   *   (once in a section's body, not in its heading), 0 for title words (every one).
   */
  constructor(private readonly common = 2) {}

  /** Word → id; ids are never reused or dropped until the next full build. */
  readonly ids = new Map<string, number>();
  readonly words: string[] = [];
  /** Per word id: live sections holding it. */
  live = new Int32Array(0);

  /** True until `finish`: pairs go to `pending`, in unit order. */
  private building = true;
  /**
   * The pairs in unit order, in chunks (growing copies nothing; sizes: `LARGE_CHUNK`), six bytes a slot, each
   * chunk one buffer: a slot is a pair (word id, value) or, before each run of one unit's pairs, a marker
   * (`~unit`, always negative). Values of `WIDE` and above read `WIDE` and sit in `pendingWide` by slot.
   */
  private pending: Int32Array<ArrayBuffer>[] = [];
  private pendingValues: Uint16Array<ArrayBuffer>[] = [];
  private pendingWide: Map<number, number> | undefined;
  /** Slots of `pending`'s last chunk in use. */
  private pendingFill = 0;
  /** Slots in `pending`. */
  private pendingLength = 0;
  /** The unit of the run the last pending pair is in (-1: none yet). */
  private pendingUnit = -1;
  /** Where a sliced `finish` stands: which pass, where in `pending`, and the arrays it fills. */
  private layout: Layout | undefined;

  /**
   * The laid-out postings of the words that had an id at `finish`: word `id`'s pairs are
   * `bytes[start[id]]…bytes[start[id + 1]]`, each its unit's distance from the pair before (from unit 0 for the
   * first) and its value, one or two varints (pair-bytes.ts): on L 11.3 MB (1.4 bytes a pair), where two varints a
   * pair took 16.5 MB and two arrays 6 bytes a pair.
   */
  private baseWords = 0;
  private start = new Int32Array(1);
  private bytes = new Uint8Array(0);

  /**
   * Pairs added since `finish`: per word id, a list through `next`. Links are positions plus one, so 0 (and a
   * word past the end of `head`) means none.
   */
  private head = new Int32Array(0);
  private tail = new Int32Array(0);
  private extraUnits = new Int32Array(0);
  private extraValues = new Int32Array(0);
  private next = new Int32Array(0);
  private extraLength = 0;

  /** The id of `word`, given one if it has none. */
  intern(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.words.length;
      // A copy: a word matched out of a section's lowercased text is a slice of it, and would keep it.
      const kept = detachText(word);
      this.ids.set(kept, id);
      this.words.push(kept);
      if (id >= this.live.length) this.live = ensure(this.live, id + 1);
    }
    return id;
  }

  /** True when `word` is in the index (some live section holds it). */
  has(word: string): boolean {
    const id = this.ids.get(word);
    return id !== undefined && this.live[id]! > 0;
  }

  /** The words in the index, sorted. */
  vocabulary(): string[] {
    const words: string[] = [];
    for (let id = 0; id < this.words.length; id++) if (this.live[id]! > 0) words.push(this.words[id]!);
    return words.sort();
  }

  /**
   * Records that section `unit` holds word `id`, with `value`; answers whether the word entered the index. Until
   * `finish`, a word's units must not decrease (an index adds its sections in order): the layout stores each pair
   * as its distance from the one before.
   */
  add(id: number, unit: number, value: number): boolean {
    if (this.building) {
      if (unit !== this.pendingUnit) {
        this.pendingUnit = unit;
        this.appendPending(~unit, 0);
      }
      this.appendPending(id, value);
    } else {
      const at = this.extraLength++;
      if (at >= this.next.length) {
        this.extraUnits = ensure(this.extraUnits, at + 1);
        this.extraValues = ensure(this.extraValues, at + 1);
        this.next = ensure(this.next, at + 1);
      }
      this.extraUnits[at] = unit;
      this.extraValues[at] = value;
      this.next[at] = 0;
      if (id >= this.head.length) {
        this.head = ensure(this.head, id + 1);
        this.tail = ensure(this.tail, id + 1);
      }
      const last = this.tail[id]!;
      if (last === 0) this.head[id] = at + 1;
      else this.next[last - 1] = at + 1;
      this.tail[id] = at + 1;
    }
    return this.live[id]!++ === 0;
  }

  /** Writes one slot at the end of `pending`, opening a chunk when the last is full. */
  private appendPending(idOrMarker: number, value: number): void {
    let chunk = this.pending[this.pending.length - 1];
    if (chunk === undefined || this.pendingFill === chunk.length) {
      const slots =
        chunk === undefined ? FIRST_CHUNK : chunk.length < SMALL_CHUNK_MAX ? chunk.length * 2 : LARGE_CHUNK;
      const buffer = new ArrayBuffer(chunkBytes(slots));
      chunk = new Int32Array(buffer, 0, slots);
      this.pending.push(chunk);
      this.pendingValues.push(new Uint16Array(buffer, slots * 4, slots));
      this.pendingFill = 0;
    }
    const slot = this.pendingLength++;
    const offset = this.pendingFill++;
    chunk[offset] = idOrMarker;
    const values = this.pendingValues[this.pendingValues.length - 1]!;
    if (value >= WIDE) {
      values[offset] = WIDE;
      this.pendingWide ??= new Map();
      this.pendingWide.set(slot, value);
    } else {
      values[offset] = value;
    }
  }

  /** Lays the pairs collected so far out word by word; later ones are appended to per-word lists. */
  finish(): void {
    this.finishSlice(Number.POSITIVE_INFINITY);
  }

  /** True once the pairs are laid out (`finish`, or `finishSlice` until it said so). */
  get finished(): boolean {
    return !this.building;
  }

  /**
   * Does up to about `budget` slot visits of `finish` (a counting sort: one pass over the pending slots to count
   * each word's pairs, one to place them, each slot visited once per pass) and answers the visits done; `finished`
   * says when the layout is complete. Slices end anywhere inside a chunk, and the layout is the same as one
   * `finish` lays out: the passes visit the pairs in the same order however they are sliced. Nothing may be
   * added until it is finished.
   */
  finishSlice(budget: number): number {
    if (!this.building) return 0;
    const wordCount = this.words.length;
    this.layout ??= {
      pass: 0,
      chunk: 0,
      at: 0,
      slot: 0,
      unit: 0,
      start: new Int32Array(wordCount + 1),
      cursor: new Int32Array(0),
      last: new Int32Array(wordCount),
      bytes: new Uint8Array(0),
    };
    const layout = this.layout;
    const pending = this.pending;
    const { start, last } = layout;
    const { pendingWide, common } = this;
    let used = 0;
    while (layout.pass < 2 && used < budget) {
      if (layout.chunk === pending.length) {
        if (layout.pass === 0) {
          for (let id = 0; id < wordCount; id++) start[id + 1]! += start[id]!;
          layout.cursor = start.slice(0, wordCount);
          layout.bytes = new Uint8Array(start[wordCount]!);
          last.fill(0);
          used += wordCount;
        }
        layout.pass++;
        layout.chunk = 0;
        layout.at = 0;
        layout.slot = 0;
        continue;
      }
      const chunk = pending[layout.chunk]!;
      const chunkValues = this.pendingValues[layout.chunk]!;
      const end = layout.chunk === pending.length - 1 ? this.pendingFill : chunk.length;
      const stop = Math.min(end, layout.at + Math.ceil(budget - used));
      const counting = layout.pass === 0;
      const { cursor, bytes } = layout;
      let unit = layout.unit;
      for (let at = layout.at, slot = layout.slot; at < stop; at++, slot++) {
        const id = chunk[at]!;
        if (id < 0) {
          unit = ~id;
          continue;
        }
        const distance = unit - last[id]!;
        if (distance < 0) throw new RangeError(`word ${id}: unit ${unit} added after unit ${last[id]}`);
        last[id] = unit;
        const stored = chunkValues[at]!;
        const value = stored === WIDE ? pendingWide!.get(slot)! : stored;
        if (counting) start[id + 1]! += pairLength(distance, value, common);
        else cursor[id] = writePair(bytes, cursor[id]!, distance, value, common);
      }
      layout.unit = unit;
      used += stop - layout.at;
      layout.slot += stop - layout.at;
      layout.at = stop;
      if (stop === end) {
        // Written: the chunk is not read again, and its memory goes back at once (see `release`).
        if (!counting) release(chunk.buffer);
        layout.chunk++;
        layout.at = 0;
      }
    }
    if (layout.pass < 2) return used;
    this.baseWords = wordCount;
    this.start = start;
    this.bytes = layout.bytes;
    this.layout = undefined;
    this.pending = [];
    this.pendingValues = [];
    this.pendingWide = undefined;
    this.pendingFill = 0;
    this.pendingLength = 0;
    this.pendingUnit = -1;
    this.building = false;
    return used;
  }

  /** Calls `visit` with each (unit, value) pair of `word`, in unit order, dead sections included. */
  forEach(word: string, visit: (unit: number, value: number) => void): void {
    const id = this.ids.get(word);
    if (id === undefined) return;
    if (id < this.baseWords) {
      const bytes = this.bytes;
      let unit = 0;
      for (let at = this.start[id]!, end = this.start[id + 1]!; at < end; ) {
        let byte = bytes[at++]!;
        let head = byte & 0x7f;
        for (let shift = 7; byte >= 0x80; shift += 7) {
          byte = bytes[at++]!;
          head |= (byte & 0x7f) << shift;
        }
        let value = this.common;
        if ((head & 1) === 1) {
          byte = bytes[at++]!;
          value = byte & 0x7f;
          for (let shift = 7; byte >= 0x80; shift += 7) {
            byte = bytes[at++]!;
            value |= (byte & 0x7f) << shift;
          }
        }
        unit += head >>> 1;
        visit(unit, value);
      }
    }
    if (id < this.head.length) {
      for (let link = this.head[id]!; link !== 0; link = this.next[link - 1]!) {
        visit(this.extraUnits[link - 1]!, this.extraValues[link - 1]!);
      }
    }
  }
}
