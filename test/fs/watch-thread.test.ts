import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { ChokidarOptions, FSWatcher } from 'chokidar';
import { afterEach, describe, expect, it } from 'vitest';
import { buildChokidarOptions } from '../../src/fs/chokidar-config.js';
import * as fromSource from '../../src/fs/watch-thread.js';
import { createTempProject, type TempProject } from '../helpers/temp-project.js';

// The thread runs the worker module that `npm run build` emits beside `dist/fs/watch-thread.js`; from the sources
// (which a worker cannot load as TypeScript) the look-alike falls back to chokidar on this thread.
type Module = typeof fromSource;
const fromDist = (await import(new URL('../../dist/fs/watch-thread.js', import.meta.url).href)) as Module;

interface Heard {
  readonly all: [string, string][];
  readonly raw: [string, string | undefined, string | undefined][];
  ready: boolean;
}

const open: { watcher?: FSWatcher; project: TempProject; thread: fromSource.WatchThread }[] = [];
afterEach(async () => {
  for (const { watcher, project, thread } of open.splice(0)) {
    thread.close();
    await watcher?.close();
    project.cleanup();
  }
});

function subscribe(watcher: FSWatcher): Heard {
  const heard: Heard = { all: [], raw: [], ready: false };
  watcher.on('all', (event: string, path: string) => heard.all.push([event, path]));
  watcher.on('raw', (event: string, filename: unknown, details: unknown) =>
    heard.raw.push([
      event,
      filename as string | undefined,
      (details as { watchedPath?: string }).watchedPath,
    ]),
  );
  watcher.once('ready', () => {
    heard.ready = true;
  });
  return heard;
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const files = { 'skills/a/SKILL.md': 'A', 'knowledge/documents/any/doc.md': 'doc' };

function start(module: Module) {
  const project = createTempProject(files);
  const root = realpathSync(project.root);
  const thread = module.startWatchThread(project.root);
  const entry: (typeof open)[number] = { project, thread };
  open.push(entry);
  const adopt = (): FSWatcher => {
    const watcher = thread.watch(root, buildChokidarOptions(root) as ChokidarOptions);
    entry.watcher = watcher;
    return watcher;
  };
  return { project, root, adopt, thread };
}

describe('startWatchThread', () => {
  it('scans on its own thread before it is adopted, then replays ready and what it heard meanwhile', async () => {
    const { project, root, adopt } = start(fromDist);
    // What the main thread does meanwhile: the first build, synchronous. The thread scans and becomes ready.
    const busyUntil = Date.now() + 1500;
    while (Date.now() < busyUntil) {
      // Busy, as a build is.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    const watcher = adopt();
    expect((watcher as unknown as { onThread(): boolean }).onThread()).toBe(true);
    const heard = subscribe(watcher);
    await waitFor(() => heard.ready, 'ready');
    expect(Object.values(watcher.getWatched()).flat().length).toBeGreaterThan(0);

    // After ready: a new directory and a file saved in a watched one are heard, with their paths.
    project.write('skills/b/SKILL.md', 'B');
    project.write('skills/a/SKILL.md', 'A again');
    await waitFor(
      () => heard.all.some(([event, path]) => event === 'addDir' && path === join(root, 'skills/b')),
      'addDir',
    );
    await waitFor(
      () => heard.raw.some(([, name, watched]) => name === 'SKILL.md' && watched === join(root, 'skills/a')),
      'a raw event naming the saved file in its directory',
    );
  });

  it('replays a save heard during the build to the watcher that adopts it', async () => {
    const { project, root, adopt, thread } = start(fromDist);
    await thread.scanned;
    project.write('skills/a/new.md', 'saved while the store was building');
    // Let the thread's message arrive before anyone subscribed (it is queued, then replayed).
    await new Promise((resolve) => setTimeout(resolve, 200));
    const heard = subscribe(adopt());
    await waitFor(
      () => heard.raw.some(([, name, watched]) => name === 'new.md' && watched === join(root, 'skills/a')),
      'the save from before adoption',
    );
    expect(heard.ready).toBe(true);
  });

  it('falls back to chokidar on this thread when the thread cannot start, and still hears saves', async () => {
    const { project, root, adopt } = start(fromSource);
    const watcher = adopt();
    const heard = subscribe(watcher);
    await waitFor(() => heard.ready, 'ready');
    expect((watcher as unknown as { onThread(): boolean }).onThread()).toBe(false);
    project.write('skills/c/SKILL.md', 'C');
    await waitFor(
      () => heard.all.some(([event, path]) => event === 'addDir' && path === join(root, 'skills/c')),
      'addDir',
    );
  });

  it('a second watch (a retry after polling) gets a fresh thread; close stops an unadopted one', async () => {
    const { root, adopt } = start(fromDist);
    const first = adopt();
    await first.close();
    const entry = open.at(-1)!;
    const second = entry.thread.watch(root, buildChokidarOptions(root) as ChokidarOptions);
    entry.watcher = second;
    expect(second).not.toBe(first);
    const heard = subscribe(second);
    await waitFor(() => heard.ready, 'ready of the fresh thread');
  });
});
