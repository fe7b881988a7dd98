/**
 * Both cores for a cold build: the per-file facts of every file (src/core/build/file-facts.ts: document parses
 * and lint, directives, a binary's digest, the Markdown facts, links and credential scans of skill files)
 * derived on worker threads *while this thread is still reading the tree*, then handed to the builder before it
 * builds (`CatalogBuilder.prefill`).
 *
 * Synchronous, like the store that uses it: the reader hands every file to `add` as it reads it; once the files
 * read reach `minBytes` the threads start, and every batch of files is posted to one of them as ranges of the
 * read's shared slabs (`SharedArrayBuffer`s, posted once to each thread: the bytes are read in place, never
 * copied; only a file too large for a slab is copied into the batch). `finish` derives, on this thread, every
 * batch no worker has claimed yet, from the last one back (a shared array of claims decides who derives a batch;
 * each is derived once), then waits on a shared counter (`Atomics.wait`, never the event loop) for the batches
 * the workers claimed, and takes their facts with `receiveMessageOnPort`. Only small things cross back
 * (findings, offsets, lines with links); never texts.
 *
 * Nothing here can change a result: a batch whose facts never arrive (a worker that could not start, threw or
 * died) is simply not prefilled, and the builder derives those files itself, as it does without a pool. The
 * threads are stopped as soon as the facts are in and never keep the process alive.
 *
 * `companion check` uses it by default when the machine has a second core to spare (`readPoolEnv(…, true)`,
 * `isCoreFree`); `dev` and `serve` only when `COMPANION_BUILD_THREADS` asks. What it gives and costs on L
 * (10,000 documents, 113 MB), measured on this 2-core machine (bench/RESULTS.md, round seven, `checkpool`): the
 * per-file facts are ~0.35 s of the building thread's ~1.6 s, so that is the most a second core can take; with
 * the worker deriving 2/3 of the batches, ~0.2–0.25 s, for ~0.5 s more CPU in all and ~20 MB more peak RSS.
 * Three costs that had made it a loss even with the core free are gone: a copy of every file's bytes (+100 MB,
 * ~0.15 s of this thread), SHA-256 of every text (a build hashes a text only when asked, and `check` never asks),
 * and the building thread's young generation growing while the thread starts (`holdYoungGeneration`). What the
 * threads cannot do: a skill's read and lint need base.md and the scope file; links, coverage, entries and the
 * index need every file.
 */
import { availableParallelism, loadavg } from 'node:os';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { type CatalogBuilder, createCatalogBuilder, type FileFacts } from '../core/catalog.js';
import type { BuildOptions, BuildResult, Snapshot, SourceFile } from '../core/types.js';
import {
  buildSnapshot,
  contentDirectories,
  createReader,
  createReadResult,
  type ReadOptions,
} from './read-snapshot.js';

export interface BuildPoolOptions {
  /**
   * Worker threads besides this one; 0 never starts a pool. @default `os.availableParallelism() - 1`, at least
   * 1: this thread derives the batches no worker claimed, so it is one of the pool.
   */
  readonly threads?: number;
  /** The threads start once the files read reach this many bytes. @default {@link POOL_MIN_BYTES} */
  readonly minBytes?: number;
  /** How long `finish` waits without any batch finishing before it leaves the rest to the builder. @default 2000 */
  readonly stallMs?: number;
  /** The worker's module. @default `build-pool-worker.js` beside this module (both layouts: dist/fs, dist/bundle) */
  readonly workerUrl?: URL;
  /**
   * Sets V8's semi-space growth factor back to 1 as each thread starts: a new isolate resets it to 2 for the whole
   * process, and the thread starts inside a synchronous read, where the caller cannot set it back (without this
   * the building thread's young generation grows to 2 × 16 MB: +25 MB peak RSS on L). For a caller that holds it
   * at 1 (the CLI: src/cli/young-generation.ts); a library's host keeps its own flags. @default false
   */
  readonly holdYoungGeneration?: boolean;
  /** For tests: the first worker throws at, or exits at, its first batch. */
  readonly testFail?: 'throw' | 'die';
  /** For tests: false leaves every batch to the workers (this thread only waits). @default true */
  readonly share?: boolean;
}

/** What a run of the pool did, for benches and tests. */
export interface BuildPoolReport {
  readonly threads: number;
  readonly batches: number;
  /** Batches whose facts came from a worker. */
  readonly fromWorkers: number;
  /** Batches this thread derived itself because no worker had claimed them yet. */
  readonly onThisThread: number;
  /** Batches a worker claimed whose facts never came (it threw or died): the builder derives them. */
  readonly lost: number;
}

export interface BuildPool {
  /** One file just read. */
  add(file: SourceFile): void;
  /**
   * Every file's facts into `builder`, then the threads stop. Undefined when no thread was started (the files
   * read were fewer than `minBytes`, or threads are 0): the builder then derives everything, as without a pool.
   */
  finish(builder: Pick<CatalogBuilder, 'prefill' | 'prederive'>): BuildPoolReport | undefined;
}

/**
 * Below this many bytes of files no thread starts: on M (11 MB, 1,100 units) a pool cost 29–56% more CPU and
 * 30–55% more wall time than one thread, the threads' start outlasting the whole read; S (1 MB) reads in ~20 ms.
 * On L the threshold comes ~15% into the read, so the thread's start (~50 ms of its CPU, ~0.1 s to its first
 * batch) overlaps the rest of the read.
 */
export const POOL_MIN_BYTES = 16 * 1024 * 1024;

/** About this many bytes (at most `BATCH_FILES` files) per batch: small enough to balance, big enough to amortize. */
const BATCH_BYTES = 256 * 1024;
const BATCH_FILES = 128;
/** Batches past this many are derived on this thread (the claims array is allocated up front). */
const MAX_BATCHES = 1 << 16;

/** Claims: who derives a batch. */
export const OPEN = 0;
export const WORKER = 1;
export const MAIN = 2;

/** What a worker gets once (`workerData`). */
export interface PoolWorkerData {
  /** Per batch: `OPEN`, `WORKER` or `MAIN`. */
  readonly claims: Int32Array;
  /** `[0]`: batches the workers finished (with facts or not). */
  readonly finished: Int32Array;
  readonly port: MessagePort;
  /** `BuildPoolOptions.holdYoungGeneration`. */
  readonly hold: boolean;
  readonly fail?: 'throw' | 'die';
}

/**
 * One batch, as posted to a worker. A file's bytes are read where they already are — a range of a shared slab
 * (the read's `SharedArrayBuffer`s, src/fs/byte-slabs.ts) — or, when not in one, a range of `buffer` (a copy,
 * transferred).
 */
export interface PoolBatch {
  readonly batch: number;
  /** The shared slabs this worker was not sent yet, to append to its list (the ranges' slab numbers index it). */
  readonly slabs: readonly SharedArrayBuffer[];
  /** The bytes of the batch's files that are in no shared slab, back to back. */
  readonly buffer: ArrayBuffer;
  /** Per file three numbers: its slab's number (-1: `buffer`), the offset and the length of its bytes there. */
  readonly ranges: Int32Array;
  readonly paths: readonly string[];
  readonly mtimes: Float64Array;
}

/** What a worker posts per batch it claimed. */
export type PoolMessage =
  | { readonly batch: number; readonly facts: readonly FileFacts[] }
  | { readonly batch: number; readonly failed: string };

const defaultWorkerUrl = new URL('./build-pool-worker.js', import.meta.url);

/**
 * What `COMPANION_BUILD_THREADS` asks for, for the CLI to pass on: `auto` a pool sized to the machine, a count
 * that many worker threads, anything else (0, a word) none. Unset, `byDefault` decides: for `companion check`,
 * a pool sized to the machine when a second core is free (`isCoreFree`), else none; for `dev`/`serve`
 * (`byDefault` false) none unless asked.
 */
export function readPoolEnv(
  value: string | undefined,
  byDefault = false,
  load: readonly number[] = loadavg(),
): BuildPoolOptions | false {
  if (value === undefined || value.trim() === '') return byDefault && isCoreFree(load) ? {} : false;
  if (value.trim().toLowerCase() === 'auto') return {};
  const threads = Number(value);
  return Number.isInteger(threads) && threads > 0 ? { threads } : false;
}

/**
 * Whether the machine has a core besides this thread's to spare: two or more, and the last minute's load
 * average at least one core under their number (as `make --load-average` decides whether to start another
 * job). The pool's worker is extra CPU (~0.45 s on L) that pays only on a core that would otherwise idle; on a
 * busy machine it took ~0.1 s off the building thread for ~0.6 s more CPU in all (bench/RESULTS.md).
 */
export function isCoreFree(load: readonly number[] = loadavg()): boolean {
  const cores = availableParallelism();
  return cores >= 2 && (load[0] ?? 0) <= cores - 1;
}

export function createBuildPool(options: BuildPoolOptions = {}): BuildPool {
  const threads = options.threads ?? Math.max(1, availableParallelism() - 1);
  const minBytes = options.minBytes ?? POOL_MIN_BYTES;
  const files: SourceFile[] = [];
  /** Per batch, its first file; the open batch runs from the last start to the end of `files`. */
  const starts: number[] = [0];
  let readBytes = 0;
  let openBytes = 0;
  let workers: { worker: Worker; port: MessagePort }[] | undefined;
  let claims: Int32Array | undefined;
  let finished: Int32Array | undefined;
  let posted = 0;

  function start(): void {
    claims = new Int32Array(new SharedArrayBuffer(MAX_BATCHES * Int32Array.BYTES_PER_ELEMENT));
    finished = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    workers = [];
    for (let t = 0; t < threads; t++) {
      try {
        const { port1, port2 } = new MessageChannel();
        const workerData: PoolWorkerData = {
          claims,
          finished,
          port: port2,
          hold: options.holdYoungGeneration === true,
          ...(options.testFail && t === 0 ? { fail: options.testFail } : {}),
        };
        const worker = new Worker(options.workerUrl ?? defaultWorkerUrl, {
          workerData,
          transferList: [port2],
        });
        // Heard after the build, if at all: a worker that failed only leaves its batches to this thread.
        worker.on('error', () => {});
        worker.unref();
        workers.push({ worker, port: port1 });
      } catch {
        // No thread: this one derives the batches.
      }
    }
  }

  /** Every shared slab a batch referred to, numbered in order of first use. */
  const slabNumbers = new Map<SharedArrayBuffer, number>();
  const slabs: SharedArrayBuffer[] = [];
  /** Per worker, how many of `slabs` it was sent. */
  const slabsSent: number[] = [];

  /** Posts every closed batch not posted yet, round robin (a worker skips a batch someone else claimed). */
  function post(): void {
    if (workers === undefined || workers.length === 0) return;
    for (; posted < starts.length - 1 && posted < MAX_BATCHES; posted++) {
      const first = starts[posted]!;
      const end = starts[posted + 1]!;
      const ranges = new Int32Array(3 * (end - first));
      const mtimes = new Float64Array(end - first);
      const paths: string[] = [];
      let copied = 0;
      for (let i = first; i < end; i++) {
        const { bytes } = files[i]!;
        if (!(bytes.buffer instanceof SharedArrayBuffer)) copied += bytes.byteLength;
      }
      const buffer = new ArrayBuffer(copied);
      const view = new Uint8Array(buffer);
      copied = 0;
      for (let i = first, r = 0; i < end; i++, r += 3) {
        const file = files[i]!;
        const { bytes } = file;
        if (bytes.buffer instanceof SharedArrayBuffer) {
          let number = slabNumbers.get(bytes.buffer);
          if (number === undefined) {
            number = slabs.push(bytes.buffer) - 1;
            slabNumbers.set(bytes.buffer, number);
          }
          ranges[r] = number;
          ranges[r + 1] = bytes.byteOffset;
        } else {
          view.set(bytes, copied);
          ranges[r] = -1;
          ranges[r + 1] = copied;
          copied += bytes.byteLength;
        }
        ranges[r + 2] = bytes.byteLength;
        paths.push(file.path);
        mtimes[i - first] = file.mtimeMs;
      }
      const to = posted % workers.length;
      const message: PoolBatch = {
        batch: posted,
        slabs: slabs.slice(slabsSent[to] ?? 0),
        buffer,
        ranges,
        paths,
        mtimes,
      };
      slabsSent[to] = slabs.length;
      workers[to]!.worker.postMessage(message, [buffer, ranges.buffer, mtimes.buffer]);
    }
  }

  return {
    add(file) {
      files.push(file);
      readBytes += file.bytes.byteLength;
      openBytes += file.bytes.byteLength;
      if (openBytes >= BATCH_BYTES || files.length - starts[starts.length - 1]! >= BATCH_FILES) {
        starts.push(files.length);
        openBytes = 0;
      }
      if (workers === undefined && threads > 0 && readBytes >= minBytes) start();
      post();
    },

    finish(builder) {
      if (workers === undefined || claims === undefined || finished === undefined) return undefined;
      if (starts[starts.length - 1] !== files.length) starts.push(files.length);
      post();
      const batches = starts.length - 1;
      // This thread's share: every batch no worker has claimed, from the last one back (the workers go forward).
      let onThisThread = 0;
      for (let batch = options.share === false ? -1 : batches - 1; batch >= 0; batch--) {
        if (batch < MAX_BATCHES && Atomics.compareExchange(claims, batch, OPEN, MAIN) !== OPEN) continue;
        for (let i = starts[batch]!; i < starts[batch + 1]!; i++) builder.prederive(files[i]!);
        onThisThread++;
      }
      // The workers' batches: wait while they keep finishing some, within `stallMs` of the last one.
      const claimed = batches - onThisThread;
      const stallMs = options.stallMs ?? 2000;
      for (let seen = Atomics.load(finished, 0); seen < claimed; seen = Atomics.load(finished, 0)) {
        if (Atomics.wait(finished, 0, seen, stallMs) === 'timed-out') break;
      }
      let fromWorkers = 0;
      for (const { port, worker } of workers) {
        for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) {
          const message = m.message as PoolMessage;
          if (!('facts' in message)) continue;
          fromWorkers++;
          const first = starts[message.batch]!;
          for (let i = 0; i < message.facts.length; i++)
            builder.prefill(files[first + i]!, message.facts[i]!);
        }
        port.close();
        void worker.terminate();
      }
      return {
        threads: workers.length,
        batches,
        fromWorkers,
        onThisThread,
        lost: claimed - fromWorkers,
      };
    },
  };
}

/**
 * `readSnapshot(root)` then `buildCatalog(snapshot, build)`, with the build's per-file work on threads while the
 * walk goes on when `options.pool` asks for them (default: none): what `companion check` runs. The same snapshot and result as those two, byte for byte. Throws
 * `RootError` as `readSnapshot` does.
 */
export function readAndBuildCatalog(
  root: string,
  build: BuildOptions = {},
  options: { readonly read?: ReadOptions; readonly pool?: BuildPoolOptions | false } = {},
): { readonly snapshot: Snapshot; readonly result: BuildResult; readonly pool?: BuildPoolReport } {
  const reader = createReader(root, options.read);
  const pool = options.pool ? createBuildPool(options.pool) : undefined;
  const read = createReadResult(pool?.add, { slabs: pool ? 'shared' : true });
  for (const directory of contentDirectories) reader.read(directory, read);
  const snapshot = buildSnapshot(read.files, read.problems);
  const builder = createCatalogBuilder(build);
  const report = pool?.finish(builder);
  return { snapshot, result: builder.build(snapshot), ...(report && { pool: report }) };
}
