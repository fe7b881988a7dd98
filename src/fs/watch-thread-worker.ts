/**
 * The thread `watch-thread.ts` starts: chokidar on the content root (configured as on the main thread), every
 * event posted to the main thread as it comes, and the reconcile's stat walk of the whole tree when asked. Only
 * paths, prints and codes cross: the watcher's logic stays on the main thread.
 *
 * The walk is `Reader.stat` of every content directory, the same walk the store would make (read-snapshot.ts).
 * The first answers every entry's print, for the store to compare with what it read; each later one only the
 * entries whose print differs from the walk before it (`undefined`: gone), so that what crosses, and what the main
 * thread compares, is a few entries rather than the whole tree (100,000 on XL). The thread keeps the last walk's
 * prints for that (`WalkPrints`, updated in place by each walk); nothing else.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { watchContent } from './chokidar-config.js';
import { contentDirectories, createReader, type Reader } from './read-snapshot.js';
import { WalkPrints } from './walk-prints.js';
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

/**
 * Entries per message of a walk's answer. The first answer is every entry (100,455 on XL): as one message, its
 * serializer's buffer doubled up to 16 MiB inside this thread's allocator arena, and glibc kept the ~28 MB of
 * freed buffers there for the life of the daemon (`bench/lab/dev-memory.mjs XL --malloc`: one thread arena of
 * 33 MB held, 28 free). In pieces of this many entries (~0.5 MB serialized), each sent once the main thread has
 * taken the one before (`more`), one piece's buffer is alive at a time and the next reuses its memory.
 */
const ANSWER_PIECE = 4096;

let reader: Reader | undefined;
// The last walk's prints, which the next walk updates in place and answers against (walk-prints.ts).
let lastPrints: WalkPrints | undefined;

/** The answer being sent, a piece at a time. */
interface Answering {
  readonly id: number;
  /** How long the walk took (not counting its answer). */
  readonly ms: number;
  readonly partial: boolean;
  readonly pieces: Generator<Map<string, string | undefined>, Map<string, string | undefined>>;
}
let answering: Answering | undefined;
/** Walks asked while an answer was being sent, made once it is (one walk at a time). */
const queued: number[] = [];

/** One stat walk of the tree, answered as `walked` (or as failed when the root cannot be opened). */
function walk(id: number): void {
  const started = performance.now();
  const first = lastPrints === undefined;
  const prints = lastPrints ?? new WalkPrints();
  // Until the walk is complete its table is neither the last walk's nor this one's: it is dropped if the walk fails.
  lastPrints = undefined;
  try {
    reader ??= createReader(root);
    prints.begin();
    const into = { files: new Map(), problems: new Map(), prints, links: new Map() };
    for (const directory of contentDirectories) reader.stat(directory, into);
  } catch {
    // The root is gone or unusable: the main thread walks it itself, as it would have without this thread.
    post({ type: 'walked', id, ms: performance.now() - started });
    return;
  }
  lastPrints = prints;
  // Every print the first time (the table held nothing), then only what changed and what is gone.
  const ms = performance.now() - started;
  answering = { id, ms, partial: !first, pieces: prints.finish(ANSWER_PIECE) };
  sendPiece();
}

/** Sends the next piece of the answer; after the last, the walk asked meanwhile, if any. */
function sendPiece(): void {
  const now = answering;
  if (now === undefined) return;
  const step = now.pieces.next();
  if (!step.done) {
    post({ type: 'walked', id: now.id, ms: 0, prints: step.value, more: true });
    return;
  }
  answering = undefined;
  post({ type: 'walked', id: now.id, ms: now.ms, prints: step.value, partial: now.partial });
  const next = queued.shift();
  if (next !== undefined) walk(next);
}

port.on('message', (message: ThreadRequest) => {
  if (message === 'close') {
    clearTimeout(countTimer);
    watcher.close().finally(() => port.close());
  } else if (message.type === 'more') {
    if (answering?.id === message.id) sendPiece();
  } else if (answering !== undefined) queued.push(message.id);
  else walk(message.id);
});
