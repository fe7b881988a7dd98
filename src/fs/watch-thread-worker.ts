/**
 * The thread `watch-thread.ts` starts: chokidar on the content root (configured as on the main thread), every
 * event posted to the main thread as it comes, and the reconcile's stat walk of the whole tree when asked. Only
 * paths, prints and codes cross: the watcher's logic stays on the main thread.
 *
 * The walk is `Reader.stat` of every content directory, the same walk the store would make (read-snapshot.ts).
 * The first answers every entry's print, for the store to compare with what it read; each later one only the
 * entries whose print differs from the walk before it (`undefined`: gone), so that what crosses, and what the main
 * thread compares, is a few entries rather than the whole tree (100,000 on XL). The thread keeps the last walk's
 * prints for that; nothing else.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { watchContent } from './chokidar-config.js';
import type { PrintTable } from './print-table.js';
import { contentDirectories, createReader, createReadResult, type Reader } from './read-snapshot.js';
import type { ThreadMessage, ThreadRequest } from './watch-thread.js';

const port = parentPort;
if (port === null) throw new Error('watch-thread-worker runs as a worker thread');
const post = (message: ThreadMessage): void => port.postMessage(message);
const root = (workerData as { root: string }).root;

const watcher = watchContent(root);
let ready = false;
let countTimer: NodeJS.Timeout | undefined;
const postCount = (): void => {
  let count = 0;
  for (const entries of Object.values(watcher.getWatched())) count += entries.length;
  post({ type: 'watched', count });
};
watcher.on('all', (event: string, path: string) => {
  post({ type: 'all', event, path });
  // The status shows how many directories are watched, up to a second old.
  if (ready && countTimer === undefined && (event === 'addDir' || event === 'unlinkDir')) {
    countTimer = setTimeout(() => {
      countTimer = undefined;
      postCount();
    }, 1000);
  }
});
watcher.on('raw', (event: string, filename: unknown, details: unknown) => {
  const watchedPath = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
  post({
    type: 'raw',
    event,
    filename: typeof filename === 'string' ? filename : undefined,
    watchedPath: typeof watchedPath === 'string' ? watchedPath : undefined,
  });
});
watcher.on('error', (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  post({
    type: 'error',
    message: error instanceof Error ? error.message : String(error),
    ...(typeof code === 'string' ? { code } : {}),
  });
});
watcher.once('ready', () => {
  ready = true;
  postCount();
  post({ type: 'ready' });
});

let reader: Reader | undefined;
// The prints of the last walk, which the next one answers against (numbers, not text: ~7 MB on XL, not ~22).
let lastPrints: PrintTable | undefined;

/** One stat walk of the tree, answered as `walked` (or as failed when the root cannot be opened). */
function walk(id: number): void {
  const started = performance.now();
  const fresh = createReadResult();
  try {
    reader ??= createReader(root);
    for (const directory of contentDirectories) reader.stat(directory, fresh);
  } catch {
    // The root is gone or unusable: the main thread walks it itself, as it would have without this thread.
    post({ type: 'walked', id, ms: performance.now() - started });
    return;
  }
  const previous = lastPrints;
  lastPrints = fresh.prints;
  const ms = performance.now() - started;
  // Prints cross as text (a `PrintTable` does not survive a structured clone): all of them the first time.
  if (previous === undefined) {
    postWalked(id, ms, fresh.prints.keys(), (key) => fresh.prints.get(key), false);
    return;
  }
  const changed = new Map<string, string | undefined>();
  for (const key of fresh.prints.keys()) {
    if (!previous.same(key, fresh.prints)) changed.set(key, fresh.prints.get(key));
  }
  for (const key of previous.keys()) if (!fresh.prints.has(key)) changed.set(key, undefined);
  postWalked(id, ms, changed.keys(), (key) => changed.get(key), true);
}

/**
 * Entries of one message of a walk's answer. A message is serialized into a buffer that doubles as it grows, and
 * freeing a buffer the allocator had mapped on its own (128 KiB and up) raises glibc's mmap and trim thresholds
 * to its size for the rest of the process: the first walk's 100,455 prints in one message on XL (a 16 MiB buffer)
 * raised the trim threshold to 32 MiB, so that no heap of the process gave freed memory back again. 512 entries
 * (~60 KB) stay below the threshold.
 */
const WALK_PART_ENTRIES = 512;

/** Posts a walk's answer: `walked-part` messages of `WALK_PART_ENTRIES` entries, then `walked` with the rest. */
function postWalked(
  id: number,
  ms: number,
  keys: Iterable<string>,
  print: (key: string) => string | undefined,
  partial: boolean,
): void {
  let prints = new Map<string, string | undefined>();
  for (const key of keys) {
    prints.set(key, print(key));
    if (prints.size === WALK_PART_ENTRIES) {
      post({ type: 'walked-part', id, prints });
      prints = new Map();
    }
  }
  post({ type: 'walked', id, ms, prints, partial });
}

port.on('message', (message: ThreadRequest) => {
  if (message === 'close') {
    clearTimeout(countTimer);
    watcher.close().finally(() => port.close());
  } else if (message.type === 'walk') walk(message.id);
});
