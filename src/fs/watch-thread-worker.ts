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
  // Prints cross as text (a `PrintTable` does not survive a structured clone): all of them the first time.
  if (previous === undefined) {
    post({
      type: 'walked',
      id,
      ms: performance.now() - started,
      prints: fresh.prints.texts(),
      partial: false,
    });
    return;
  }
  const changed = new Map<string, string | undefined>();
  for (const key of fresh.prints.keys()) {
    if (!previous.same(key, fresh.prints)) changed.set(key, fresh.prints.get(key));
  }
  for (const key of previous.keys()) if (!fresh.prints.has(key)) changed.set(key, undefined);
  post({ type: 'walked', id, ms: performance.now() - started, prints: changed, partial: true });
}

port.on('message', (message: ThreadRequest) => {
  if (message === 'close') {
    clearTimeout(countTimer);
    watcher.close().finally(() => port.close());
  } else if (message.type === 'walk') walk(message.id);
});
