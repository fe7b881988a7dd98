/**
 * Feeds a `CatalogStore` from chokidar 5 events: batches bursts, hands each batch to `store.applyChanges`, and
 * reconciles against the disk after bursts, periodically, and — when the OS will not give us more inotify
 * watches or file descriptors — instead of watching at all.
 *
 * Directories are watched, files are not: an inotify watch on a directory reports every change to the files in it
 * (a write, a rename over, a delete, a new file) by name, and those raw events are the hints. chokidar's own
 * per-file watch would cost one inotify watch, one `lstat` and one watcher object per file — on 100,000 small
 * documents, ten seconds of start-up on the event loop, 300 MB and most of the system's inotify watches — for
 * events the directory already gives.
 *
 * Events are hints; the disk is the truth. A batch carries only paths, and the store re-reads each path when
 * the batch runs, so an atomic save (unlink + add, or rename over) within a window resolves to "changed", and a
 * delete is published only if the path is really gone at that moment. Likewise a batch naming a file that is
 * empty at that moment waits a little for the write that usually follows a truncate (`maxBatchMs`).
 *
 * The reconcile's walk (one `lstat` per entry: 1.3 s on 100,000 files) runs on the watcher's thread when `watch`
 * gives one that walks (`walkTree`, watch-thread.ts); the main thread then only compares the few entries that
 * changed and re-reads those, as a walk here would have. Without it, the walk runs here.
 *
 * A busy machine is not an edit: what could not be read just now (`store.pending()`: EMFILE, EIO, …, or a tree
 * that read empty) is read again on a backoff timer until it reads, and after falling back to polling for lack of
 * watches or descriptors the watcher tries native events again, with backoff, until they work.
 *
 * Longer than ~400 lines on purpose: batching, the reconcile schedule, transient-error retries and the polling
 * fall-back share one clock and one pending set; split, each would need the others' state.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import type { ChokidarOptions, FSWatcher } from 'chokidar';
import type { CatalogChange } from '../core/types.js';
import type { CatalogStore, WalkedPrints } from './catalog-store.js';
import { buildChokidarOptions, watchContent } from './chokidar-config.js';
import { isContentPath } from './read-snapshot.js';

export interface WatcherBatch {
  /** Wall-clock ms when the batch ran. */
  readonly at: number;
  /** Distinct paths handed to the store. */
  readonly paths: number;
  /** chokidar events (not raw inotify events) folded into the batch. */
  readonly events: number;
  /** From the batch's first event to the moment it ran: the latency batching adds. */
  readonly waitMs: number;
  /** Re-read plus rebuild time, when a generation was published. */
  readonly rebuildMs?: number;
  /** The generation current after the batch. */
  readonly generation: number;
  /** False when the batch changed nothing a host sees (identical bytes) and no generation was published. */
  readonly published: boolean;
}

export interface WatcherStatus {
  /** `events`: chokidar is watching. `polling`: a full reconcile every `pollIntervalMs` instead. */
  readonly mode: 'events' | 'polling' | 'closed';
  /** Why the watcher polls (forced, or the error that made it give up on events). */
  readonly reason?: string;
  /** Directories chokidar watches (one inotify watch each; files are not watched one by one); up to a second old. */
  readonly watchedPaths?: number;
  /** Wall-clock ms of the last finished reconcile. */
  readonly lastReconcileAt?: number;
  readonly lastBatch?: WatcherBatch;
}

/** The reconcile's stat walk made on another thread, and how long it took there. */
export interface TreeWalk extends WalkedPrints {
  readonly ms: number;
}

/**
 * What a `watch` may add to chokidar's surface: the reconcile's walk made elsewhere (watch-thread.ts: on the
 * watcher's thread). Undefined: no walk was made there, and the watcher walks on its own thread.
 */
export interface TreeWalker {
  walkTree(): Promise<TreeWalk | undefined>;
}

export interface WatcherOptions {
  /**
   * Quiet time that closes a batch; the window opens at the first event. Every event of one save — a plain
   * write's several raw events, or an atomic save's temp file and rename — arrives within about 2.5 ms of the
   * first, so 4 ms folds a save into one batch while adding as little as possible to every edit's latency. A
   * batch naming a file that is 0 bytes long is held longer (see `maxBatchMs`).
   * @default 4
   */
  readonly batchMs?: number;
  /**
   * A batch runs at most this long after its first event, however busy the disk. Also bounds the hold on a
   * batch that names an empty file: an editor that truncates and then writes leaves the file 0 bytes long for
   * a moment, possibly longer than `batchMs`, so a due batch in which some changed regular file is empty waits
   * another quiet window (and another, while it stays empty) rather than publish a generation with that file
   * empty; a file that really was emptied is published at most this long after the first event.
   * @default 200
   */
  readonly maxBatchMs?: number;
  /**
   * A full reconcile this often while watching (the timer does not keep the process alive) — or less often on a
   * tree so large that walking it would take more than 2% of the time. @default 5000
   */
  readonly reconcileIntervalMs?: number;
  /** A full reconcile this often in polling mode, or less often when a walk would take more than 10%. @default 1000 */
  readonly pollIntervalMs?: number;
  /** A batch of more events than this reconciles when it ends, as does any new directory. @default 200 */
  readonly burstEvents?: number;
  /**
   * After a burst or a new directory, reconcile once more when no event came for this long: chokidar misses
   * files created in a directory it has just started watching, and no later event would reveal them.
   * @default 250
   */
  readonly settleMs?: number;
  /** Never start chokidar; poll from the start (for tests, and for file systems without inotify). */
  readonly forcePolling?: boolean;
  /**
   * First delay before reading again what could not be read just now; doubles while it persists, up to
   * `maxRetryMs`. @default 50
   */
  readonly retryMs?: number;
  /** @default 5000 */
  readonly maxRetryMs?: number;
  /**
   * After falling back to polling for lack of watches or descriptors, try native events again after this long;
   * doubles after each failed try, up to 16 times as long. @default 10000
   */
  readonly eventsRetryMs?: number;
  /**
   * Called after every batch that named a content path, with what the store published (undefined: nothing)
   * and the batch's paths.
   */
  readonly onBatch?: (change: CatalogChange | undefined, paths: readonly string[]) => void;
  /** Receives rebuild failures and chokidar errors that do not stop watching. */
  readonly onError?: (error: unknown) => void;
  /** Called when the mode changes: once ready, on falling back to polling, and on close. */
  readonly onStatus?: (status: WatcherStatus) => void;
  /** @default Date.now */
  readonly now?: () => number;
  /**
   * chokidar's `watch`, or a look-alike (watch-thread.ts: chokidar on a thread of its own, which also walks the
   * tree for the reconcile when its watcher has `walkTree`). Injectable for tests (e.g. to emit a fake ENOSPC).
   * @default chokidar's watch, on this thread
   */
  readonly watch?: (paths: string, options: ChokidarOptions) => FSWatcher & Partial<TreeWalker>;
  /**
   * When the first reconcile — the one after chokidar's initial scan, that makes the watcher ready — may begin: it
   * is handed the reconcile and calls it then. Events are applied from chokidar's ready on either way; the first
   * reconcile only finds what changed between the store's first read and the scan. `dev` defers it until its
   * hosts have been quiet for a moment, so that its walk (a stat of every entry, on L ~0.15 s of a core) and the
   * compare after it do not compete with a host's first requests. @default at once
   */
  readonly firstReconcile?: (begin: () => void) => void;
}

export interface Watcher {
  /** Resolves once events are flowing (or polling has started) and the first reconcile ran. Never rejects. */
  readonly ready: Promise<void>;
  /** Stops watching and every timer; a batch still pending is dropped. Idempotent. */
  close(): Promise<void>;
  status(): WatcherStatus;
}

// Errors after which chokidar cannot watch everything: out of inotify watches, or of file descriptors.
const fatalWatchErrors = new Set(['ENOSPC', 'EMFILE', 'ENFILE']);

/**
 * Starts watching `store.root`'s `knowledge/` and `skills/` and applying changes to `store` in batches. The
 * root itself is watched at its top level only, to notice those directories being created or removed. The
 * caller owns the store; the watcher only calls `applyChanges` and `reconcile`, one at a time, from timers.
 */
export function createWatcher(store: CatalogStore, options: WatcherOptions = {}): Watcher {
  const batchMs = options.batchMs ?? 4;
  const maxBatchMs = options.maxBatchMs ?? 200;
  const reconcileIntervalMs = options.reconcileIntervalMs ?? 5000;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const burstEvents = options.burstEvents ?? 200;
  const settleMs = options.settleMs ?? 250;
  const retryMs = options.retryMs ?? 50;
  const maxRetryMs = options.maxRetryMs ?? 5000;
  const eventsRetryMs = options.eventsRetryMs ?? 10_000;
  const now = options.now ?? Date.now;
  // chokidar reports paths under what it was given; give it the real root so `relative` always works.
  const root = realpathSync(store.root);

  let mode: WatcherStatus['mode'] = 'events';
  let reason: string | undefined;
  let lastReconcileAt: number | undefined;
  let lastBatch: WatcherBatch | undefined;
  let fsw: (FSWatcher & Partial<TreeWalker>) | undefined;

  let pending = new Set<string>();
  let pendingRaw = new Set<string>();
  let pendingEvents = 0;
  let reconcileAfterBatch = false;
  let firstEventAt = 0;
  let lastEventAt = 0;
  let batchTimer: NodeJS.Timeout | undefined;
  // While a due batch is held for an empty file: it runs no earlier than this (then looks again).
  let heldUntil = 0;
  let lastEmpty: string | undefined;
  let settleArmed = false;
  let settleTimer: NodeJS.Timeout | undefined;
  let intervalTimer: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryDelay = retryMs;
  let eventsTimer: NodeJS.Timeout | undefined;
  let eventsDelay = eventsRetryMs;
  // A reconcile walking on the watcher's thread; those asked for meanwhile wait for it, then walk once more.
  let walking = false;
  let walkAgain: ((tookMs: number) => void)[] | undefined;

  let resolveReady!: () => void;
  const ready = new Promise<void>((resolve) => {
    resolveReady = resolve;
  });

  const report = (error: unknown) => {
    try {
      options.onError?.(error);
    } catch {
      // A failing error reporter must not take the watcher down with it.
    }
  };
  const emitStatus = () => {
    try {
      options.onStatus?.(status());
    } catch (error) {
      report(error);
    }
  };

  function onEvent(event: string, absolute: string): void {
    if (mode !== 'events') return;
    const path = toContentPath(root, absolute);
    if (path === undefined) return;
    pendingEvents++;
    if (event === 'addDir') reconcileAfterBatch = true;
    hint(path);
  }

  /**
   * chokidar's own `change` logic drops the second of two atomic saves that follow each other closely (its
   * per-file watcher is being replaced when the next rename lands), so every raw inotify event it received is
   * a hint too. They are only collected here, deduplicated, and resolved to paths when the batch runs
   * (`resolveRawHints`): a burst repeats each path several times, and the event loop has better things to do.
   */
  function onRaw(_event: string, filename: unknown, details: unknown): void {
    if (mode !== 'events') return;
    const watched = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
    if (typeof watched !== 'string') return;
    const name = typeof filename === 'string' && filename !== '' ? filename : undefined;
    // A file's own watcher reports the file's name; any other name comes from a directory's watcher, and
    // then the entry alone decides, without a syscall: the root's other files and `.swp` files never batch.
    if (name !== undefined && name !== basename(watched)) {
      if (toContentPath(root, join(watched, name)) === undefined) return;
    } else if (toContentPath(root, watched) === undefined) return;
    pendingRaw.add(name === undefined ? watched : `${watched}\0${name}`);
    touchBatch();
  }

  /**
   * A raw event names either a watched file, or an entry of a watched directory. Directories are skipped:
   * their `addDir`/`unlinkDir` arrive reliably, and re-reading one walks its whole subtree.
   */
  function resolveRawHints(): void {
    for (const raw of pendingRaw) {
      const [watched, filename] = raw.split('\0') as [string, string | undefined];
      let candidate = watched;
      if (statKind(watched) === 'directory') {
        if (filename === undefined) continue;
        candidate = join(watched, filename);
        if (statKind(candidate) === 'directory') continue;
      }
      const path = toContentPath(root, candidate);
      if (path !== undefined) pending.add(path);
    }
    pendingRaw = new Set();
  }

  function hint(path: string): void {
    pending.add(path);
    touchBatch();
  }

  function touchBatch(): void {
    const at = now();
    lastEventAt = at;
    if (batchTimer === undefined) {
      firstEventAt = at;
      batchTimer = setTimeout(onBatchTimer, batchMs);
    }
    if (settleArmed && settleTimer === undefined) settleTimer = setTimeout(onSettleTimer, settleMs);
  }

  // Re-arming on fire instead of on every event keeps a 10,000-event burst at a handful of timer operations.
  function onBatchTimer(): void {
    const at = now();
    const deadline = firstEventAt + maxBatchMs;
    const due = Math.min(Math.max(lastEventAt + batchMs, heldUntil), deadline);
    if (at < due) {
      batchTimer = setTimeout(onBatchTimer, due - at);
      return;
    }
    if (at < deadline && namesEmptyFile()) {
      // Probably a truncate-then-write caught in between: give the write another quiet window.
      heldUntil = at + batchMs;
      batchTimer = setTimeout(onBatchTimer, Math.min(heldUntil, deadline) - at);
      return;
    }
    batchTimer = undefined;
    heldUntil = 0;
    runBatch(at);
  }

  /**
   * Whether a changed path of the pending batch is a regular file of 0 bytes (one `lstat` per path; the path
   * found empty last time is checked first, so holding a batch costs one `lstat` per window).
   */
  function namesEmptyFile(): boolean {
    resolveRawHints();
    if (lastEmpty !== undefined && pending.has(lastEmpty) && isEmptyFile(join(root, lastEmpty))) return true;
    lastEmpty = undefined;
    for (const path of pending) {
      if (isEmptyFile(join(root, path))) {
        lastEmpty = path;
        return true;
      }
    }
    return false;
  }

  function runBatch(at: number): void {
    if (mode !== 'events') return;
    resolveRawHints();
    const paths = [...pending];
    const events = pendingEvents;
    const reconcileAfter = reconcileAfterBatch || events > burstEvents;
    pending = new Set();
    pendingEvents = 0;
    reconcileAfterBatch = false;
    if (paths.length === 0 && !reconcileAfter) return;

    let change: CatalogChange | undefined;
    try {
      change = store.applyChanges(paths);
    } catch (error) {
      report(error);
    }
    if (reconcileAfter) {
      // While a burst trickles in, one reconcile per settle period is plenty: the settle reconcile after the
      // last event is the one that guarantees convergence.
      if (lastReconcileAt === undefined || now() - lastReconcileAt >= settleMs) reconcile();
      settleArmed = true;
      if (settleTimer === undefined) settleTimer = setTimeout(onSettleTimer, settleMs);
    }
    lastBatch = {
      at,
      paths: paths.length,
      events,
      waitMs: at - firstEventAt,
      ...(change === undefined ? {} : { rebuildMs: change.rebuildMs }),
      generation: store.current().number,
      published: change !== undefined,
    };
    try {
      options.onBatch?.(change, paths);
    } catch (error) {
      report(error);
    }
    scheduleRetry();
  }

  /** Reads again, on a doubling delay, whatever the store could not read just now; stops once all of it read. */
  function scheduleRetry(): void {
    if (mode === 'closed' || retryTimer !== undefined) return;
    if (store.pending().length === 0) {
      retryDelay = retryMs;
      return;
    }
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      if (mode === 'closed') return;
      const paths = store.pending();
      if (paths.length === 0) return;
      try {
        store.applyChanges(paths);
      } catch (error) {
        report(error);
      }
      retryDelay = Math.min(maxRetryMs, retryDelay * 2);
      scheduleRetry();
    }, retryDelay);
    retryTimer.unref();
  }

  function onSettleTimer(): void {
    const at = now();
    const due = lastEventAt + settleMs;
    if (at < due) {
      settleTimer = setTimeout(onSettleTimer, due - at);
      return;
    }
    settleTimer = undefined;
    settleArmed = false;
    reconcile();
  }

  /**
   * Reconciles: on the watcher's thread when the watcher walks there (`walkTree`: the main thread then only compares
   * what changed and re-reads it), else here and now. `then` is told how long the walk took, which spaces the next
   * periodic one; it is not called when the watcher closes meanwhile. One walk at a time: asked during a walk, a
   * reconcile runs once that one is done, since the running walk may have passed the entry that just changed.
   */
  function reconcile(then?: (tookMs: number) => void): void {
    if (mode === 'closed') return;
    const walker = fsw?.walkTree === undefined ? undefined : fsw;
    if (walker === undefined) {
      const took = reconcileHere();
      then?.(took);
      return;
    }
    if (walking) {
      walkAgain ??= [];
      if (then) walkAgain.push(then);
      return;
    }
    walking = true;
    const started = now();
    void walker.walkTree!().then((walk) => {
      walking = false;
      if (mode === 'closed') return;
      let took: number;
      if (walk === undefined) took = reconcileHere();
      else {
        try {
          store.reconcile(walk);
        } catch (error) {
          report(error);
        }
        lastReconcileAt = now();
        scheduleRetry();
        took = lastReconcileAt - started;
      }
      then?.(took);
      const waiting = walkAgain;
      walkAgain = undefined;
      if (waiting) {
        reconcile((again) => {
          for (const waiter of waiting) waiter(again);
        });
      }
    });
  }

  /** Reconciles now, walking on this thread; returns how long it took. */
  function reconcileHere(): number {
    if (mode === 'closed') return 0;
    const started = now();
    try {
      store.reconcile();
    } catch (error) {
      report(error);
    }
    lastReconcileAt = now();
    scheduleRetry();
    return lastReconcileAt - started;
  }

  /**
   * The periodic reconcile: every `every` ms, or `spacing` times as long as the last walk took, whichever is
   * longer — a 14,000-file tree takes ~0.3 s to stat, which every 5 s would keep 6% of a core busy for nothing.
   */
  function scheduleReconcile(every: number, spacing: number, lastMs = 0): void {
    const timer = setTimeout(
      () =>
        reconcile((took) => {
          // Unless the timers were cleared or replaced meanwhile (closing, or falling back to polling).
          if (intervalTimer === timer) scheduleReconcile(every, spacing, took);
        }),
      Math.max(every, lastMs * spacing),
    );
    timer.unref();
    intervalTimer = timer;
  }

  function startPolling(why: string): void {
    if (mode !== 'events') return;
    mode = 'polling';
    reason = why;
    clearTimers();
    pending = new Set();
    pendingRaw = new Set();
    pendingEvents = 0;
    const closing = fsw?.close();
    fsw = undefined;
    closing?.catch(report);
    scheduleReconcile(pollIntervalMs, 10, reconcileHere());
    emitStatus();
    resolveReady();
    if (!options.forcePolling) scheduleEventsRetry();
  }

  /**
   * While polling for lack of watches or descriptors: start chokidar again after a while; once it is ready
   * without hitting the limit, events replace polling (a reconcile covers what changed meanwhile), else it is
   * closed and tried again later, twice as late.
   */
  function scheduleEventsRetry(): void {
    eventsTimer = setTimeout(() => {
      eventsTimer = undefined;
      if (mode !== 'polling') return;
      let failed = false;
      const candidate = startChokidar({
        onFatal: (code) => {
          failed = true;
          // Promoted already: back to polling, as the first watcher would have gone.
          if (fsw === candidate) {
            startPolling(`${code}: the watcher cannot watch every file; polling every ${pollIntervalMs} ms`);
          }
        },
        onReady: () => {
          if (mode !== 'polling' || failed) return;
          clearTimers();
          fsw = candidate;
          mode = 'events';
          reason = undefined;
          eventsDelay = eventsRetryMs;
          emitStatus();
          reconcile((took) => {
            if (fsw === candidate) scheduleReconcile(reconcileIntervalMs, 50, took);
          });
        },
      });
      const giveUp = (): void => {
        if (fsw === candidate) return;
        candidate.close().catch(report);
        if (mode !== 'polling') return;
        eventsDelay = Math.min(eventsRetryMs * 16, eventsDelay * 2);
        scheduleEventsRetry();
      };
      candidate.once('error', () => {
        if (failed) giveUp();
      });
      candidate.once('ready', () => {
        if (failed) giveUp();
      });
    }, eventsDelay);
    eventsTimer.unref();
  }

  function clearTimers(): void {
    clearTimeout(batchTimer);
    clearTimeout(settleTimer);
    clearTimeout(intervalTimer);
    clearTimeout(eventsTimer);
    batchTimer = undefined;
    settleTimer = undefined;
    intervalTimer = undefined;
    eventsTimer = undefined;
    settleArmed = false;
    heldUntil = 0;
    lastEmpty = undefined;
  }

  // Counting walks chokidar's whole table, and a UI may ask on every render: recount at most once a second.
  let watchedCount: { at: number; count: number } | undefined;
  function watchedPaths(watcher: FSWatcher): number {
    const at = now();
    if (watchedCount === undefined || at - watchedCount.at >= 1000) {
      watchedCount = { at, count: countWatched(watcher) };
    }
    return watchedCount.count;
  }

  function status(): WatcherStatus {
    return {
      mode,
      ...(reason === undefined ? {} : { reason }),
      ...(fsw === undefined ? {} : { watchedPaths: watchedPaths(fsw) }),
      ...(lastReconcileAt === undefined ? {} : { lastReconcileAt }),
      ...(lastBatch === undefined ? {} : { lastBatch }),
    };
  }

  /** Starts chokidar on the root; `onFatal` when it hits the watch or descriptor limit. */
  function startChokidar(handlers: { onFatal: (code: string) => void; onReady: () => void }): FSWatcher {
    // The default is `watchContent`, which configures chokidar itself; an injected `watch` gets the same options.
    const watcher = options.watch ? options.watch(root, buildChokidarOptions(root)) : watchContent(root);
    watcher.on('all', (event: string, absolute: string) => {
      if (fsw === watcher) onEvent(event, absolute);
    });
    watcher.on('raw', (event: string, filename: unknown, details: unknown) => {
      if (fsw === watcher) onRaw(event, filename, details);
    });
    watcher.on('error', (error: unknown) => {
      const code = errorCode(error);
      if (code !== undefined && fatalWatchErrors.has(code)) handlers.onFatal(code);
      else if (fsw === watcher) report(error);
    });
    watcher.once('ready', handlers.onReady);
    return watcher;
  }

  if (options.forcePolling) {
    startPolling('polling forced');
  } else {
    fsw = startChokidar({
      onFatal: (code) =>
        startPolling(`${code}: the watcher cannot watch every file; polling every ${pollIntervalMs} ms`),
      onReady: () => {
        if (mode !== 'events') return;
        // Anything that changed between the store's first read and chokidar's initial scan. The walk it takes also
        // spaces the first periodic one: on 100,000 files, a second's walk every 5 s would be 20% of a core.
        const begin = (): void => {
          if (mode !== 'events') return;
          reconcile((took) => {
            if (mode !== 'events') return;
            scheduleReconcile(reconcileIntervalMs, 50, took);
            emitStatus();
            resolveReady();
          });
        };
        if (options.firstReconcile === undefined) begin();
        else options.firstReconcile(begin);
      },
    });
  }

  return {
    ready,
    status,
    async close() {
      if (mode === 'closed') return;
      mode = 'closed';
      clearTimers();
      clearTimeout(retryTimer);
      retryTimer = undefined;
      const closing = fsw?.close();
      fsw = undefined;
      resolveReady();
      emitStatus();
      await closing;
    },
  };
}

/** The root-relative posix content path of an absolute path chokidar reported, or undefined. */
function toContentPath(root: string, absolute: string): string | undefined {
  const path = relative(root, absolute).split(sep).join('/');
  return isContentPath(path) ? path : undefined;
}

function statKind(path: string): 'directory' | 'other' | 'missing' {
  try {
    return lstatSync(path).isDirectory() ? 'directory' : 'other';
  } catch {
    return 'missing';
  }
}

/** A regular file (not a link, not a directory) of 0 bytes. Missing or unreadable: no. */
function isEmptyFile(path: string): boolean {
  try {
    const stats = lstatSync(path);
    return stats.isFile() && stats.size === 0;
  } catch {
    return false;
  }
}

function countWatched(fsw: FSWatcher): number {
  let count = 0;
  for (const entries of Object.values(fsw.getWatched())) count += entries.length;
  return count;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}
