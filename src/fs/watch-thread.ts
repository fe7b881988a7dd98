/**
 * chokidar on a thread of its own, so that its initial scan of the content tree runs on the second core while the
 * main thread reads and builds the first catalog, and never queues in front of a host's first requests.
 *
 * `companion dev` starts the thread before it builds (`startWatchThread`) and hands `createWatcher` its `watch`:
 * what `createWatcher` gets is an `FSWatcher` look-alike that replays the thread's events (`all`, `raw`, `error`,
 * `ready`) — only paths and codes cross the threads; batching, reconcile and the fall-back to polling stay in
 * watcher.ts, unchanged. Events the thread heard before `createWatcher` subscribed (a save during the build) are
 * replayed to it, `ready` included. When the thread cannot start or dies, the look-alike starts chokidar on the main
 * thread and relays it instead: watching never silently stops.
 *
 * The look-alike also walks the tree for the watcher's reconcile (`walkTree`), on the thread: on XL that is a
 * 1.3 s walk of 100,455 entries every ~50 s that would otherwise stop the main thread. Without a thread, the
 * watcher walks on the main thread as before.
 */
import { EventEmitter } from 'node:events';
import { realpathSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { ChokidarOptions, FSWatcher } from 'chokidar';
import { watchContent } from './chokidar-config.js';
import type { TreeWalk, TreeWalker } from './watcher.js';

/** What the thread posts. */
export type ThreadMessage =
  | { readonly type: 'all'; readonly event: string; readonly path: string }
  | {
      readonly type: 'raw';
      readonly event: string;
      readonly filename: string | undefined;
      readonly watchedPath: string | undefined;
    }
  | { readonly type: 'error'; readonly message: string; readonly code?: string }
  | { readonly type: 'watched'; readonly count: number }
  | { readonly type: 'ready' }
  | {
      readonly type: 'walked';
      readonly id: number;
      readonly ms: number;
      /** Absent when the thread could not walk (the root is gone): the main thread walks then. */
      readonly prints?: ReadonlyMap<string, string | undefined>;
      readonly partial?: boolean;
      /** A piece of a large answer: more of the walk's prints follow, the last in a message without `more`. */
      readonly more?: boolean;
    };

/** What the main thread asks of the thread. */
export type ThreadRequest =
  | 'close'
  | { readonly type: 'walk'; readonly id: number }
  /** The main thread took a piece of walk `id`'s answer (`more`): the thread sends the next. */
  | { readonly type: 'more'; readonly id: number };

/** The `FSWatcher` look-alike `watch` answers: chokidar's surface watcher.ts uses, plus the walk on the thread. */
export type ThreadFSWatcher = FSWatcher & TreeWalker;

export interface WatchThread {
  /**
   * For `createWatcher`'s `watch` option. The first call for the thread's root adopts the running thread; any
   * other call (a retry after polling, another root) starts a fresh one.
   */
  readonly watch: (root: string, options: ChokidarOptions) => ThreadFSWatcher;
  /** Stops the thread if nothing adopted it (the command ended before it watched). */
  close(): void;
  /** Settles when the thread started at once has finished its scan (or stopped), adopted or not. */
  readonly scanned: Promise<void>;
}

/** The worker's module, beside this one in both layouts (`dist/fs/` and the bundle's flat `dist/bundle/`). */
const workerUrl = new URL('./watch-thread-worker.js', import.meta.url);

/**
 * The thread's V8 heap: a young generation of 2 MB instead of V8's default of up to 32 MB (two 16 MB semi-spaces,
 * grown to the full size by the initial scan and then resident for the life of the daemon, since an idle thread
 * never collects again). Measured on L (2,554 directories watched): the thread's RSS 83 → 59 MB, its scan's CPU
 * the same or less (more, cheaper scavenges; 0.91–1.02 s vs 0.95–1.35 s). The old generation is not limited: a
 * limit would make the thread die of a tree with more directories than it allows (the watcher would fall back to
 * chokidar on the main thread, but that is what the thread is there to avoid).
 */
const resourceLimits = { maxYoungGenerationSizeMb: 2 };

/**
 * Starts chokidar on a thread for the content root `root` now. Never throws: a root that cannot be resolved gets no
 * thread, and `watch` then starts one (or, failing that, chokidar on the main thread) when asked.
 */
export function startWatchThread(root: string): WatchThread {
  let real: string | undefined;
  try {
    real = realpathSync.native(root);
  } catch {
    real = undefined;
  }
  let early: ThreadWatcher | undefined = real === undefined ? undefined : new ThreadWatcher(real);
  return {
    watch(watchRoot) {
      const adopted = early !== undefined && early.root === watchRoot ? early : undefined;
      early?.dropUnadopted(adopted);
      early = undefined;
      const watcher = adopted ?? new ThreadWatcher(watchRoot);
      watcher.adopt();
      return watcher as unknown as ThreadFSWatcher;
    },
    close() {
      early?.dropUnadopted(undefined);
      early = undefined;
    },
    scanned: early?.scanned ?? Promise.resolve(),
  };
}

/** The `FSWatcher` surface watcher.ts uses: `on`/`once` of `all`, `raw`, `error`, `ready`; `close`; `getWatched`. */
class ThreadWatcher extends EventEmitter {
  private worker: Worker | undefined;
  private local: FSWatcher | undefined;
  /** Messages heard before `adopt`, replayed then. */
  private queue: ThreadMessage[] | undefined = [];
  private watchedCount = 0;
  /** Walks asked of the thread and not answered yet, by id. */
  private readonly walks = new Map<number, (walk: TreeWalk | undefined) => void>();
  /** The pieces of an answer heard so far (`more`), by walk id. */
  private readonly pieces = new Map<number, Map<string, string | undefined>>();
  private lastWalk = 0;
  private closed = false;
  private closing: Promise<void> | undefined;
  private settleScan: () => void = () => {};
  /** Settles on the thread's `ready`, or when this watcher closes. */
  readonly scanned = new Promise<void>((resolve) => {
    this.settleScan = resolve;
  });

  constructor(readonly root: string) {
    super();
    try {
      const worker = new Worker(workerUrl, { workerData: { root }, resourceLimits });
      worker.on('message', (message: ThreadMessage) => this.receive(message));
      worker.on('error', () => this.fallBack());
      worker.on('exit', () => {
        if (!this.closed) this.fallBack();
      });
      // A thread that only watches must not keep the process alive on its own.
      worker.unref();
      this.worker = worker;
    } catch {
      this.fallBack();
    }
  }

  /** From now on every message is emitted; the ones heard so far are, on the next microtask (after subscribing). */
  adopt(): void {
    const queued = this.queue ?? [];
    queueMicrotask(() => {
      if (this.queue === undefined) return;
      this.queue = undefined;
      for (const message of queued) this.dispatch(message);
    });
  }

  /** Closes this early thread unless it is `kept`. */
  dropUnadopted(kept: ThreadWatcher | undefined): void {
    if (kept !== this) void this.close();
  }

  /** Whether chokidar runs on its own thread (false after a fall-back to this one). */
  onThread(): boolean {
    return this.worker !== undefined;
  }

  /**
   * The reconcile's stat walk, on the thread (see watch-thread-worker.ts): the first answers every entry, each
   * later one what changed since the walk before it. Undefined when there is no thread (it could not start, died,
   * or this watcher closed; also for a walk in flight then): the caller walks on its own thread instead.
   */
  walkTree(): Promise<TreeWalk | undefined> {
    const worker = this.worker;
    if (worker === undefined || this.closed) return Promise.resolve(undefined);
    const id = ++this.lastWalk;
    return new Promise((resolve) => {
      this.walks.set(id, resolve);
      worker.postMessage({ type: 'walk', id } satisfies ThreadRequest);
    });
  }

  getWatched(): Record<string, string[]> {
    if (this.local) return this.local.getWatched();
    // watcher.ts only counts the entries.
    return { [this.root]: new Array<string>(this.watchedCount).fill('') };
  }

  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.closed = true;
    this.queue = undefined;
    this.settleScan();
    this.dropWalks();
    const worker = this.worker;
    this.worker = undefined;
    const local = this.local;
    this.local = undefined;
    this.closing = (async () => {
      if (worker) {
        const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
        worker.postMessage('close' satisfies ThreadRequest);
        // Bounded: a thread that does not stop within a second is stopped.
        const timer = setTimeout(() => void worker.terminate(), 1000);
        await exited;
        clearTimeout(timer);
      }
      await local?.close();
    })();
    return this.closing;
  }

  private receive(message: ThreadMessage): void {
    if (this.closed) return;
    if (message.type === 'walked') {
      const heard = this.pieces.get(message.id);
      let prints = message.prints;
      if (heard !== undefined && prints !== undefined) {
        for (const [path, print] of prints) heard.set(path, print);
        prints = heard;
      }
      if (message.more === true) {
        this.pieces.set(message.id, prints as Map<string, string | undefined>);
        this.worker?.postMessage({ type: 'more', id: message.id } satisfies ThreadRequest);
        return;
      }
      this.pieces.delete(message.id);
      const resolve = this.walks.get(message.id);
      this.walks.delete(message.id);
      resolve?.(
        prints === undefined ? undefined : { ms: message.ms, prints, partial: message.partial === true },
      );
      return;
    }
    if (message.type === 'ready') this.settleScan();
    if (this.queue !== undefined) this.queue.push(message);
    else this.dispatch(message);
  }

  private dispatch(message: ThreadMessage): void {
    switch (message.type) {
      case 'all':
        this.emit('all', message.event, message.path);
        break;
      case 'raw':
        this.emit(
          'raw',
          message.event,
          message.filename,
          message.watchedPath === undefined ? {} : { watchedPath: message.watchedPath },
        );
        break;
      case 'error':
        this.emit(
          'error',
          Object.assign(new Error(message.message), message.code ? { code: message.code } : {}),
        );
        break;
      case 'watched':
        this.watchedCount = message.count;
        break;
      case 'ready':
        this.emit('ready');
        break;
    }
  }

  /** Walks that will not be answered (the thread is gone): their callers walk on their own thread. */
  private dropWalks(): void {
    const pending = [...this.walks.values()];
    this.walks.clear();
    this.pieces.clear();
    for (const resolve of pending) resolve(undefined);
  }

  /** The thread could not start or died: chokidar on this thread, relayed, from a fresh scan. */
  private fallBack(): void {
    if (this.closed || this.local) return;
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    this.dropWalks();
    const local = watchContent(this.root);
    this.local = local;
    const relay = (message: ThreadMessage): void => this.receive(message);
    local.on('all', (event: string, path: string) => relay({ type: 'all', event, path }));
    local.on('raw', (event: string, filename: unknown, details: unknown) => {
      const watchedPath = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
      relay({
        type: 'raw',
        event,
        filename: typeof filename === 'string' ? filename : undefined,
        watchedPath: typeof watchedPath === 'string' ? watchedPath : undefined,
      });
    });
    local.on('error', (error: unknown) => {
      const code = (error as { code?: unknown } | null)?.code;
      relay({
        type: 'error',
        message: error instanceof Error ? error.message : String(error),
        ...(typeof code === 'string' ? { code } : {}),
      });
    });
    local.once('ready', () => relay({ type: 'ready' }));
  }
}
