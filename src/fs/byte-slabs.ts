/**
 * Shared buffers for the bytes of small files: a cold walk reads each small file into the next free range of
 * one 128 KiB `ArrayBuffer` and hands over a `Uint8Array` view of exactly that range.
 *
 * Why: a file read into memory of its own is an `ArrayBuffer`, a `Uint8Array`, a V8 backing store and a malloc
 * block. For the 100,455 files of XL (~1.1 KB each) that is ~36 MB of RSS beyond the bytes themselves
 * (measured: 172 MB for 115 MB of bytes, against 136 MB in slabs); a view costs one heap object (~100 B).
 *
 * What a view keeps: its slab. Every memo of the core is keyed by the view's identity (a `WeakMap` on the
 * `Uint8Array`), which a view has as any array does, and whoever serves the bytes reads
 * `buffer`/`byteOffset`/`byteLength`, never the whole `buffer`. A slab stays alive while any of its views
 * does, so the catalog store counts each slab's live bytes and moves the survivors of a mostly dead slab
 * elsewhere (`src/fs/catalog-store.ts`); a one-shot read (`check`, `readSnapshot`) never replaces a file.
 */

/** Files up to this size share slabs; a larger file costs its own buffer a negligible ~2% more. */
export const SLAB_FILE_MAX = 16 * 1024;
/** The size of one slab. */
export const SLAB_BYTES = 128 * 1024;

/** One shared buffer and what was placed in it. */
export interface ByteSlab {
  /** A `SharedArrayBuffer` when the slabs are shared with other threads (`new ByteSlabs(size, true)`). */
  readonly buffer: ArrayBuffer;
  /** The path of every file placed here, in order (a path may have moved on since; its view says). */
  readonly paths: string[];
  /** Bytes handed out as views (the rest of the slab was never used). */
  used: number;
  /** Bytes handed out and not discarded since (`ByteSlabs.discard`). */
  live: number;
}

/** Slabs kept open for later files at once: a file that does not fit one may fit another. */
const OPEN_SLABS = 4;

/**
 * Places small files' bytes into slabs, each into the first open slab with room for it (so a file that does
 * not fit leaves no hole a smaller one could fill); `slabs` lists every slab it opened.
 */
export class ByteSlabs {
  readonly slabs: ByteSlab[] = [];
  readonly #slabBytes: number;
  readonly #shared: boolean;
  readonly #open: { readonly slab: ByteSlab; readonly view: Uint8Array }[] = [];
  #reserved: ByteSlab | undefined;

  /**
   * `slabBytes`: the size of each slab (a copy of known files can ask for exactly their total); `shared`: each
   * slab a `SharedArrayBuffer`, which a build pool's threads read in place (src/fs/build-pool.ts) instead of a
   * copy of every file's bytes.
   */
  constructor(slabBytes = SLAB_BYTES, shared = false) {
    this.#slabBytes = slabBytes;
    this.#shared = shared;
  }

  /**
   * Room for `size` bytes: the slab's whole view and the offset to write at, or undefined when `size` is too
   * large to share (the caller gives the file a buffer of its own). Nothing is reserved until `commit`.
   */
  reserve(size: number): { readonly view: Uint8Array; readonly offset: number } | undefined {
    if (size === 0 || size > SLAB_FILE_MAX) return undefined;
    let open = this.#open.find(({ slab }) => slab.used + size <= slab.buffer.byteLength);
    if (open === undefined) {
      const bytes = Math.max(this.#slabBytes, size);
      // A view of either reads and decodes the same; only the type differs (which the store never asks).
      const buffer = this.#shared
        ? (new SharedArrayBuffer(bytes) as unknown as ArrayBuffer)
        : new ArrayBuffer(bytes);
      open = { slab: { buffer, paths: [], used: 0, live: 0 }, view: new Uint8Array(buffer) };
      this.slabs.push(open.slab);
      this.#open.push(open);
      // The fullest open slab is closed: what it has left is the smallest hole.
      if (this.#open.length > OPEN_SLABS) {
        let fullest = 0;
        for (let i = 1; i < this.#open.length; i++) {
          if (this.#open[i]!.slab.used > this.#open[fullest]!.slab.used) fullest = i;
        }
        this.#open.splice(fullest, 1);
      }
    }
    this.#reserved = open.slab;
    return { view: open.view, offset: open.slab.used };
  }

  /** Hands out the `length` bytes written at the last `reserve`'s offset as `path`'s view. */
  commit(path: string, length: number): Uint8Array {
    const slab = this.#reserved!;
    const bytes = new Uint8Array(slab.buffer, slab.used, length);
    slab.used += length;
    slab.live += length;
    slab.paths.push(path);
    return bytes;
  }

  /** Says that a view handed out is not kept after all (a walk read again): its bytes count as dead. */
  discard(bytes: Uint8Array): void {
    for (let i = this.slabs.length - 1; i >= 0; i--) {
      const slab = this.slabs[i]!;
      if (slab.buffer !== bytes.buffer) continue;
      slab.live -= bytes.byteLength;
      return;
    }
  }

  /** A copy of `bytes` in a slab (or in a buffer of its own when too large to share), for `path`. */
  copy(path: string, bytes: Uint8Array): Uint8Array {
    const room = this.reserve(bytes.byteLength);
    if (room === undefined) return bytes.slice();
    room.view.set(bytes, room.offset);
    return this.commit(path, bytes.byteLength);
  }
}
