import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { ChokidarOptions, FSWatcher } from 'chokidar';
import { afterEach, describe, expect, it } from 'vitest';
import type { CatalogChange } from '../../src/core/types.js';
import { type CatalogStore, createCatalogStore, type WalkedPrints } from '../../src/fs/catalog-store.js';
import { buildChokidarOptions } from '../../src/fs/chokidar-config.js';
import { contentDirectories, createReader, createReadResult } from '../../src/fs/read-snapshot.js';
import * as fromSource from '../../src/fs/watch-thread.js';
import { createWatcher, type Watcher } from '../../src/fs/watcher.js';
import { createTempProject, type TempProject } from '../helpers/temp-project.js';
import { fakeBuildCatalog } from './fake-catalog.js';

// The thread runs the worker module that `npm run build` emits beside `dist/fs/watch-thread.js`; from the sources
// (which a worker cannot load as TypeScript) the look-alike falls back to chokidar on this thread.
type Module = typeof fromSource;
const fromDist = (await import(new URL('../../dist/fs/watch-thread.js', import.meta.url).href)) as Module;

interface Heard {
  readonly all: [string, string][];
  readonly raw: [string, string | undefined, string | undefined][];
  ready: boolean;
}

const open: {
  watcher?: FSWatcher;
  project: TempProject;
  thread: fromSource.WatchThread;
  companion?: Watcher;
}[] = [];
afterEach(async () => {
  for (const { watcher, project, thread, companion } of open.splice(0)) {
    await companion?.close();
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

function start(module: Module, tree: Record<string, string> = files) {
  const project = createTempProject(tree);
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

describe('the reconcile walk on the watcher thread', () => {
  const text = (store: CatalogStore, path: string) => {
    const file = store.snapshot().files.get(path);
    return file === undefined ? undefined : Buffer.from(file.bytes).toString();
  };

  /**
   * A store, and a watcher of it fed by the thread (or, from the sources, chokidar on this thread) that delivers no
   * file event at all (as if the kernel dropped every one): only the reconcile can see a change. Counts where the
   * reconcile walked.
   */
  function startDeaf(
    module: Module,
    tree: Record<string, string>,
    beforeWatch?: (project: TempProject) => void,
  ) {
    const { project, root, thread } = start(module, tree);
    const inner = createCatalogStore({ root: project.root, buildCatalog: fakeBuildCatalog });
    // A change after the store's first read and before anything watches: the first reconcile must find it.
    beforeWatch?.(project);
    const walks = { here: 0, onThread: [] as boolean[] };
    const store: CatalogStore = {
      ...inner,
      reconcile: (walked?: WalkedPrints) => {
        if (walked === undefined) walks.here++;
        else walks.onThread.push(walked.partial);
        return inner.reconcile(walked);
      },
    };
    const changes: CatalogChange[] = [];
    store.subscribe((change) => changes.push(change));
    const companion = createWatcher(store, {
      reconcileIntervalMs: 50,
      watch: (path, options) => {
        const watcher = thread.watch(path, options);
        const emit = watcher.emit.bind(watcher) as (event: string, ...args: unknown[]) => boolean;
        watcher.emit = ((event: string, ...args: unknown[]) =>
          event === 'all' || event === 'raw' ? true : emit(event, ...args)) as typeof watcher.emit;
        return watcher;
      },
    });
    open.at(-1)!.companion = companion;
    return { project, root, store: inner, companion, walks, changes };
  }

  it('finds on the thread what no event reported: before the first walk, then edits, adds and deletes', async () => {
    const { project, store, companion, walks, changes } = startDeaf(
      fromDist,
      { ...files, 'skills/a/base.md': 'v1', 'skills/a/gone.md': 'gone' },
      (p) => p.write('skills/a/base.md', 'v2 before the watcher'),
    );
    await companion.ready;
    // The first walk answered every entry, and the store compared them with what it read.
    expect(walks).toEqual({ here: 0, onThread: [false] });
    expect(text(store, 'skills/a/base.md')).toBe('v2 before the watcher');
    expect(changes.at(-1)?.changedPaths).toEqual(['skills/a/base.md']);

    project.write('skills/a/base.md', 'v3');
    project.write('skills/a/references/new.md', 'new');
    project.remove('skills/a/gone.md');
    await waitFor(
      () =>
        text(store, 'skills/a/base.md') === 'v3' &&
        text(store, 'skills/a/references/new.md') === 'new' &&
        !store.hasFile('skills/a/gone.md'),
      'the periodic reconcile to find the edit, the new file and the delete',
    );
    // Later walks answer only what changed since the one before, and the main thread never walked.
    expect(walks.here).toBe(0);
    expect(walks.onThread.slice(1).every((partial) => partial)).toBe(true);
    // What reached the store is what a reconcile on this thread publishes: the same paths, re-read.
    expect(changes.flatMap((change) => change.changedPaths).sort()).toEqual([
      'skills/a/base.md',
      'skills/a/base.md',
      'skills/a/gone.md',
      'skills/a/references/new.md',
    ]);
    // An unchanged tree: the walks go on and publish nothing.
    const published = store.current().number;
    const walked = walks.onThread.length;
    await waitFor(() => walks.onThread.length >= walked + 2, 'two more walks');
    expect(store.current().number).toBe(published);
  });

  it('walks on the main thread when there is no thread, and finds the same', async () => {
    const { project, store, companion, walks } = startDeaf(fromSource, files);
    await companion.ready;
    expect(walks.onThread).toEqual([]);
    expect(walks.here).toBeGreaterThan(0);
    project.write('skills/a/SKILL.md', 'A2');
    await waitFor(() => text(store, 'skills/a/SKILL.md') === 'A2', 'the reconcile on this thread');
  });

  it("answers the same prints as the store's own walk, and watches every directory of a larger tree", async () => {
    // 1,030 directories of 4 files: the thread's small young generation must not cost a directory or an entry,
    // and the first answer (4,121 prints) crosses in two messages (watch-thread-worker.ts, `ANSWER_PIECE`).
    const tree: Record<string, string> = {};
    for (let d = 0; d < 1030; d++) {
      for (let f = 0; f < 4; f++) tree[`knowledge/documents/d${d}/f${f}.md`] = `doc ${d} ${f}`;
    }
    tree['skills/a/SKILL.md'] = 'A';
    const { project, root, adopt } = start(fromDist, tree);
    const watcher = adopt() as FSWatcher & { walkTree(): Promise<WalkedPrints | undefined> };
    const heard = subscribe(watcher);
    await waitFor(() => heard.ready, 'ready');
    const directories = 1030 + 2 + 3; // d0…d1029, documents, knowledge; skills, a; the root
    expect(Object.values(watcher.getWatched()).flat().length).toBeGreaterThanOrEqual(directories - 1);

    const here = createReadResult();
    const reader = createReader(project.root);
    for (const directory of contentDirectories) reader.stat(directory, here);
    // The second walk is asked while the first's answer is still crossing, piece by piece: it follows it.
    const [walked, again] = await Promise.all([watcher.walkTree(), watcher.walkTree()]);
    expect(walked?.partial).toBe(false);
    // Every print, as text (what crosses to the main thread).
    expect(walked?.prints.size).toBe(4121);
    expect(walked?.prints).toEqual(here.prints.texts());
    expect(again).toMatchObject({ partial: true, prints: new Map() });

    project.write('knowledge/documents/d1029/f3.md', 'edited');
    await waitFor(
      () =>
        heard.raw.some(
          ([, name, dir]) => name === 'f3.md' && dir === join(root, 'knowledge/documents/d1029'),
        ),
      'a save in the last directory',
    );
    const after = await watcher.walkTree();
    expect([...(after?.prints.keys() ?? [])]).toEqual(['knowledge/documents/d1029/f3.md']);

    // A later walk's answer of many entries, changed and gone alike: every one arrives, and the next walk
    // answers nothing again.
    const changed: string[] = [];
    for (let d = 0; d < 150; d++) {
      for (let f = 0; f < 4; f++) changed.push(`knowledge/documents/d${d}/f${f}.md`);
    }
    for (const path of changed.slice(0, 500)) project.write(path, `edited ${path} once more`);
    for (const path of changed.slice(500)) project.remove(path);
    const many = await watcher.walkTree();
    expect(many?.partial).toBe(true);
    expect([...(many?.prints.keys() ?? [])].sort()).toEqual([...changed].sort());
    for (const path of changed.slice(500)) expect(many?.prints.get(path)).toBeUndefined();
    for (const path of changed.slice(0, 500)) expect(many?.prints.get(path)).toMatch(/./);
    expect((await watcher.walkTree())?.prints).toEqual(new Map());
  });
});
