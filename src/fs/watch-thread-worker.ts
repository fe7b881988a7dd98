/**
 * The thread `watch-thread.ts` starts: chokidar on the content root (configured as on the main thread), every
 * event posted to the main thread as it comes. Only paths and codes cross: the watcher's logic stays on the main
 * thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { watchContent } from './chokidar-config.js';
import type { ThreadMessage } from './watch-thread.js';

const port = parentPort;
if (port === null) throw new Error('watch-thread-worker runs as a worker thread');
const post = (message: ThreadMessage): void => port.postMessage(message);

const watcher = watchContent((workerData as { root: string }).root);
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
port.on('message', (message: unknown) => {
  if (message !== 'close') return;
  clearTimeout(countTimer);
  watcher.close().finally(() => port.close());
});
