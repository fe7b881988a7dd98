import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { type ChokidarOptions, type FSWatcher, watch } from 'chokidar';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CatalogChange } from '../../src/core/types.js';
import { type CatalogStore, createCatalogStore } from '../../src/fs/catalog-store.js';
import {
  contentDirectories,
  createReader,
  createReadResult,
  readSnapshot,
} from '../../src/fs/read-snapshot.js';
import {
  createWatcher,
  type TreeWalk,
  type TreeWalker,
  type Watcher,
  type WatcherOptions,
  type WatcherStatus,
} from '../../src/fs/watcher.js';
import { createTempProject, type TempProject } from '../helpers/temp-project.js';
import { digestsOf, fakeBuildCatalog } from './fake-catalog.js';

interface Harness {
  readonly project: TempProject;
  readonly store: CatalogStore;
  readonly watcher: Watcher;
  readonly changes: CatalogChange[];
  readonly batches: { change: CatalogChange | undefined; paths: readonly string[] }[];
  readonly errors: unknown[];
  readonly statuses: WatcherStatus[];
  /** Called once each, after the next batch. */
  readonly batchWaiters: (() => void)[];
}

const open: Harness[] = [];
afterEach(async () => {
  for (const harness of open.splice(0)) {
    await harness.watcher.close();
    harness.project.cleanup();
  }
});

/** A watcher a test drives by hand, closed (and its project removed) after the test like `start`'s. */
function closeAfter(project: TempProject, store: CatalogStore, watcher: Watcher): void {
  open.push({
    project,
    store,
    watcher,
    changes: [],
    batches: [],
    errors: [],
    statuses: [],
    batchWaiters: [],
  });
}

async function start(files: Record<string, string>, options: WatcherOptions = {}): Promise<Harness> {
  const project = createTempProject(files);
  const store = createCatalogStore({ root: project.root, buildCatalog: fakeBuildCatalog });
  const changes: CatalogChange[] = [];
  const batches: Harness['batches'] = [];
  const errors: unknown[] = [];
  const statuses: WatcherStatus[] = [];
  const batchWaiters: (() => void)[] = [];
  store.subscribe((change) => changes.push(change));
  const watcher = createWatcher(store, {
    onBatch: (change, paths) => {
      batches.push({ change, paths });
      for (const waiter of batchWaiters.splice(0)) waiter();
    },
    onError: (error) => errors.push(error),
    onStatus: (status) => statuses.push(status),
    ...options,
  });
  const harness = { project, store, watcher, changes, batches, errors, statuses, batchWaiters };
  open.push(harness);
  await watcher.ready;
  return harness;
}

const text = (store: CatalogStore, path: string) => {
  const file = store.snapshot().files.get(path);
  return file === undefined ? undefined : Buffer.from(file.bytes).toString();
};

/**
 * Resolves once `check` holds, re-checking after each published generation; rejects after `timeoutMs`.
 * Event-driven: nothing sleeps.
 */
function until(store: CatalogStore, check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (check()) return resolve();
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    const unsubscribe = store.subscribe(() => {
      if (!check()) return;
      clearTimeout(timer);
      unsubscribe();
      resolve();
    });
  });
}

/** Resolves after the watcher's next batch; rejects after `timeoutMs`. */
function nextBatch(h: Harness, what: string, timeoutMs = 5_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)),
      timeoutMs,
    );
    h.batchWaiters.push(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The store's snapshot and the disk agree, path → digest. */
function matchesDisk(store: CatalogStore): boolean {
  return JSON.stringify(digestsOf(store.snapshot())) === JSON.stringify(digestsOf(readSnapshot(store.root)));
}

describe('createWatcher', () => {
  it('publishes an edit, an add, a delete and a rename', async () => {
    const h = await start({ 'skills/a/SKILL.md': 'v1', 'skills/a/old.md': 'O', 'skills/a/gone.md': 'G' });
    expect(h.watcher.status()).toMatchObject({ mode: 'events' });
    expect(h.watcher.status().watchedPaths).toBeGreaterThan(0);
    expect(h.statuses.map((s) => s.mode)).toEqual(['events']);

    h.project.write('skills/a/SKILL.md', 'v2');
    await until(h.store, () => text(h.store, 'skills/a/SKILL.md') === 'v2', 'the edit');

    h.project.write('skills/a/added.md', 'N');
    await until(h.store, () => text(h.store, 'skills/a/added.md') === 'N', 'the add');

    h.project.remove('skills/a/gone.md');
    await until(h.store, () => !h.store.snapshot().files.has('skills/a/gone.md'), 'the delete');

    h.project.rename('skills/a/old.md', 'skills/a/new.md');
    await until(
      h.store,
      () => text(h.store, 'skills/a/new.md') === 'O' && !h.store.snapshot().files.has('skills/a/old.md'),
      'the rename',
    );
    expect(h.errors).toEqual([]);
    expect(matchesDisk(h.store)).toBe(true);
  });

  it('watches directories, not each file, and hears every kind of save from the directory alone', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`knowledge/documents/any/doc-${i}.md`] = `doc ${i}`;
    for (let i = 0; i < 20; i++) files[`skills/s${i % 2}/references/r${i}.md`] = `ref ${i}`;
    // No periodic reconcile within the test: what is published came from events.
    const h = await start(files, { reconcileIntervalMs: 600_000 });
    const watched = h.watcher.status().watchedPaths ?? 0;
    expect(watched).toBeGreaterThan(0);
    // knowledge/, documents/, any/, skills/, s0/, s1/, two references/ and their entries: far fewer than 60 files.
    expect(watched).toBeLessThan(20);

    h.project.write('knowledge/documents/any/doc-3.md', 'in place');
    await until(
      h.store,
      () => text(h.store, 'knowledge/documents/any/doc-3.md') === 'in place',
      'a write',
      2000,
    );
    // An editor's atomic save: a temporary file renamed over the document.
    h.project.write('knowledge/documents/any/.doc-4.md.tmp', 'renamed over');
    h.project.rename('knowledge/documents/any/.doc-4.md.tmp', 'knowledge/documents/any/doc-4.md');
    await until(
      h.store,
      () => text(h.store, 'knowledge/documents/any/doc-4.md') === 'renamed over',
      'a rename over',
      2000,
    );
    h.project.remove('skills/s1/references/r7.md');
    await until(h.store, () => !h.store.hasFile('skills/s1/references/r7.md'), 'a delete', 2000);
    h.project.write('skills/s0/references/new.md', 'new');
    await until(h.store, () => text(h.store, 'skills/s0/references/new.md') === 'new', 'a new file', 2000);
    h.project.write('skills/s2/SKILL.md', 'a new skill');
    await until(
      h.store,
      () => text(h.store, 'skills/s2/SKILL.md') === 'a new skill',
      'a new directory',
      2000,
    );
    expect(h.errors).toEqual([]);
    expect(matchesDisk(h.store)).toBe(true);
  });

  it('picks up new directories, a removed tree, and content directories created after start', async () => {
    const h = await start({ 'skills/base.md': 'B' });
    h.project.write('skills/fresh/SKILL.md', 'F');
    h.project.write('skills/fresh/refs/deep.md', 'D');
    await until(h.store, () => text(h.store, 'skills/fresh/refs/deep.md') === 'D', 'a new directory tree');

    h.project.remove('skills/fresh');
    await until(h.store, () => !h.store.snapshot().files.has('skills/fresh/SKILL.md'), 'the removed tree');

    h.project.write('knowledge/documents/general/doc.md', 'K');
    await until(
      h.store,
      () => text(h.store, 'knowledge/documents/general/doc.md') === 'K',
      'knowledge/ created',
    );
    expect(matchesDisk(h.store)).toBe(true);
  });

  it('never publishes a generation without a file that is saved atomically (temp file, rename over)', async () => {
    const path = 'skills/a/SKILL.md';
    const h = await start({ [path]: 'v0' });
    const missing: number[] = [];
    h.store.subscribe((change) => {
      if (!h.store.snapshot().files.has(path)) missing.push(change.current.number);
      if (!change.current.catalog.contents.has(`test://file/${path}`)) missing.push(change.current.number);
    });

    for (let i = 1; i <= 10; i++) {
      // The way vim, JetBrains and Claude Code save: write a sibling temp file, rename it over the target.
      h.project.write(`${path}.tmp`, `v${i}`);
      h.project.rename(`${path}.tmp`, path);
      await until(h.store, () => text(h.store, path) === `v${i}`, `atomic save ${i}`);
    }
    for (let i = 11; i <= 15; i++) {
      // Backup-then-write: the target really is absent for a moment.
      h.project.rename(path, `${path}~`);
      h.project.write(path, `v${i}`);
      await until(h.store, () => text(h.store, path) === `v${i}`, `backup save ${i}`);
    }

    expect(missing).toEqual([]);
    expect(h.changes.length).toBeGreaterThanOrEqual(15);
    // The temp and backup files never made it into a batch.
    expect(h.batches.flatMap((b) => b.paths).filter((p) => p !== path)).toEqual([]);
  });

  it('publishes nothing for a save of identical bytes, and ignores files outside the content', async () => {
    const h = await start({ 'skills/a/SKILL.md': 'same', 'skills/a/other.md': 'o1', 'README.md': 'r' });
    h.project.write('README.md', 'changed');
    h.project.write('skills/a/.SKILL.md.swp', 'swap');
    const batch = nextBatch(h, 'the batch of the identical save');
    h.project.write('skills/a/SKILL.md', 'same');
    await batch;
    expect(h.batches[0]).toEqual({ change: undefined, paths: ['skills/a/SKILL.md'] });
    expect(h.store.current().number).toBe(1);
    expect(h.watcher.status().lastBatch).toMatchObject({ published: false, generation: 1, paths: 1 });
  });

  it('repairs what no event reports with the periodic reconcile (an event the watcher never delivered)', async () => {
    let deaf = false;
    const h = await start(
      { 'skills/a/SKILL.md': 'A', 'skills/a/base.md': 'v1' },
      {
        reconcileIntervalMs: 100,
        // A watcher that stops delivering file events (as a lost inotify event would): only a reconcile sees.
        watch: (paths: string, options: ChokidarOptions) => {
          const watcher = watch(paths, options);
          const emit = watcher.emit.bind(watcher) as (event: string, ...args: unknown[]) => boolean;
          watcher.emit = ((event: string, ...args: unknown[]) =>
            deaf && event !== 'error' && event !== 'ready'
              ? true
              : emit(event, ...args)) as typeof watcher.emit;
          return watcher;
        },
      },
    );
    deaf = true;
    h.project.write('skills/a/base.md', 'v2');
    await until(h.store, () => text(h.store, 'skills/a/base.md') === 'v2', 'the periodic reconcile');
    expect(h.watcher.status().lastReconcileAt).toBeGreaterThan(0);
  });

  it('falls back to polling when the watcher runs out of inotify watches, and says so', async () => {
    let watcher: ReturnType<typeof watch> | undefined;
    const h = await start(
      { 'skills/a/SKILL.md': 'v1' },
      {
        pollIntervalMs: 50,
        watch: (paths: string, options: ChokidarOptions) => {
          watcher = watch(paths, options);
          return watcher;
        },
      },
    );
    watcher!.emit(
      'error',
      Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), {
        code: 'ENOSPC',
      }),
    );
    expect(h.watcher.status()).toMatchObject({ mode: 'polling', reason: expect.stringContaining('ENOSPC') });
    expect(h.watcher.status().watchedPaths).toBeUndefined();
    expect(h.statuses.map((s) => s.mode)).toEqual(['events', 'polling']);
    expect(watcher!.closed).toBe(true);

    h.project.write('skills/a/SKILL.md', 'v2');
    await until(h.store, () => text(h.store, 'skills/a/SKILL.md') === 'v2', 'the polling reconcile');
    expect(h.errors).toEqual([]);
  });

  it('polls from the start when forced, and stops on close', async () => {
    const h = await start({ 'skills/a/SKILL.md': 'v1' }, { forcePolling: true, pollIntervalMs: 50 });
    expect(h.watcher.status()).toMatchObject({ mode: 'polling', reason: 'polling forced' });
    h.project.write('skills/a/new.md', 'N');
    await until(h.store, () => text(h.store, 'skills/a/new.md') === 'N', 'the forced poll');

    await h.watcher.close();
    await h.watcher.close();
    expect(h.watcher.status().mode).toBe('closed');
    const generation = h.store.current().number;
    h.project.write('skills/a/after-close.md', 'X');
    // A negative check needs a bounded wait: three poll intervals.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(h.store.current().number).toBe(generation);
  });

  it('reports a watcher error it can survive without changing mode', async () => {
    let watcher: ReturnType<typeof watch> | undefined;
    const h = await start(
      { 'skills/a/SKILL.md': 'v1' },
      {
        watch: (paths: string, options: ChokidarOptions) => {
          watcher = watch(paths, options);
          return watcher;
        },
      },
    );
    const odd = Object.assign(new Error('something odd'), { code: 'EIO' });
    watcher!.emit('error', odd);
    expect(h.errors).toEqual([odd]);
    expect(h.watcher.status().mode).toBe('events');
  });

  it('converges on the disk after a burst of 2,000 new files in 40 new directories plus 2,000 edits', async () => {
    const files: Record<string, string> = {};
    for (let d = 0; d < 40; d++) {
      for (let f = 0; f < 50; f++) files[`skills/s${d}/f${f}.md`] = `original ${d}/${f}\n`;
    }
    const h = await start(files);
    expect(h.store.snapshot().files.size).toBe(2_000);

    // An external writer, like git checkout: its own process, so the watcher sees the events as they happen.
    const script = `
        const fs = require('node:fs');
        const root = process.argv[1];
        for (let d = 0; d < 40; d++) {
          fs.mkdirSync(root + '/knowledge/documents/n' + d, { recursive: true });
          for (let f = 0; f < 50; f++) {
            fs.writeFileSync(root + '/knowledge/documents/n' + d + '/f' + f + '.md', 'new ' + d + '/' + f + '\\n');
            fs.writeFileSync(root + '/skills/s' + d + '/f' + f + '.md', 'edited ' + d + '/' + f + '\\n');
          }
        }`;
    const writing = Date.now();
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', script, h.project.root], { stdio: 'inherit' });
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited ${code}`))));
    });
    const written = Date.now();

    // Poll with a deadline: a published generation may still lag the disk, so compare against a fresh read.
    const deadline = written + 20_000;
    while (!matchesDisk(h.store)) {
      if (Date.now() > deadline) throw new Error('the store did not converge on the disk within 20 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const converged = Date.now();

    expect(h.store.snapshot().files.size).toBe(4_000);
    expect(h.errors).toEqual([]);
    const paths = h.batches.reduce((sum, b) => sum + b.paths.length, 0);
    const lastBuilt = h.changes.at(-1)!.current.builtAt;
    console.info(
      `burst: writer ${written - writing} ms; last generation built ${lastBuilt - written} ms after it ` +
        `finished (seen equal to a fresh read after ${converged - written} ms); ${h.batches.length} batches, ` +
        `${paths} paths batched, ${h.changes.length} generations published`,
    );
  }, 45_000);
});

/** Resolves once chokidar reports any event (raw or not) about `absolute`; rejects after `timeoutMs`. */
function eventAbout(watcher: FSWatcher, absolute: string, timeoutMs = 5_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      watcher.off('all', onAll);
      watcher.off('raw', onRaw);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for an event about ${absolute}`));
    }, timeoutMs);
    const onAll = (_event: string, path: string) => {
      if (path !== absolute) return;
      done();
      resolve();
    };
    const onRaw = (_event: string, filename: unknown, details: unknown) => {
      const watched = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
      const name = typeof filename === 'string' ? filename : '';
      if (watched !== absolute && !(name !== '' && absolute.endsWith(`/${name}`))) return;
      done();
      resolve();
    };
    watcher.on('all', onAll);
    watcher.on('raw', onRaw);
  });
}

describe('createWatcher: a save that leaves a file empty for a moment', () => {
  it('holds a batch naming an emptied file until the write that follows the truncate (one generation)', async () => {
    const path = 'skills/a/SKILL.md';
    let chokidar: FSWatcher | undefined;
    // maxBatchMs far beyond the write, and no periodic reconcile, so only the hold decides.
    const h = await start(
      { [path]: 'v0' },
      {
        maxBatchMs: 10_000,
        reconcileIntervalMs: 600_000,
        watch: (paths: string, options: ChokidarOptions) => {
          chokidar = watch(paths, options);
          return chokidar;
        },
      },
    );
    const published: (string | undefined)[] = [];
    h.store.subscribe(() => published.push(text(h.store, path)));

    // An editor that truncates, then writes: here 30 ms after the truncate is seen, past any quiet window.
    const seen = eventAbout(chokidar!, h.project.path(path));
    h.project.write(path, '');
    await seen;
    await new Promise((resolve) => setTimeout(resolve, 30));
    h.project.write(path, 'v1 final');
    await until(h.store, () => text(h.store, path) === 'v1 final', 'the write after the truncate');

    expect(published).toEqual(['v1 final']);
    expect(h.batches.filter((batch) => batch.change !== undefined)).toHaveLength(1);
    expect(h.errors).toEqual([]);
  });

  it('still publishes a file that was really emptied, once maxBatchMs has passed', async () => {
    const path = 'skills/a/SKILL.md';
    const maxBatchMs = 150;
    const h = await start({ [path]: 'v0' }, { maxBatchMs, reconcileIntervalMs: 600_000 });
    let publishedAt: number | undefined;
    h.store.subscribe(() => {
      publishedAt ??= Date.now();
    });

    const truncatedAt = Date.now();
    h.project.write(path, '');
    await until(h.store, () => text(h.store, path) === '', 'the emptied file');

    // Held to the deadline (never earlier: the first event came after the truncate), and not much later.
    const elapsed = publishedAt! - truncatedAt;
    expect(elapsed).toBeGreaterThanOrEqual(maxBatchMs);
    expect(elapsed).toBeLessThan(maxBatchMs + 3_000);
    expect(h.changes).toHaveLength(1);
  });

  it('folds two writes of one tick into one generation', async () => {
    const h = await start({ 'skills/a/SKILL.md': 'v0', 'skills/a/other.md': 'o0' });
    h.project.write('skills/a/SKILL.md', 'v1');
    h.project.write('skills/a/other.md', 'o1');
    await until(
      h.store,
      () => text(h.store, 'skills/a/SKILL.md') === 'v1' && text(h.store, 'skills/a/other.md') === 'o1',
      'both writes',
    );
    expect(h.changes).toHaveLength(1);
    expect([...h.changes[0]!.changedPaths].sort()).toEqual(['skills/a/SKILL.md', 'skills/a/other.md']);
  });
});

/**
 * The batch window's timing, against a stand-in for chokidar driven by the test and a fake clock, so a loaded
 * machine cannot move the edges. The files and the store are real.
 */
describe('createWatcher: batch timing (fake clock)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * Starts a watcher over `store` whose chokidar is a stand-in driven by the test, and returns the stand-in once
   * the watcher is ready.
   */
  async function openFake(
    project: TempProject,
    store: CatalogStore,
    options: Pick<WatcherOptions, 'onBatch' | 'now'> = {},
  ) {
    const fake = Object.assign(new EventEmitter(), {
      close: async () => {},
      getWatched: () => ({}),
    });
    const watcher = createWatcher(store, { watch: () => fake as unknown as FSWatcher, ...options });
    closeAfter(project, store, watcher);
    fake.emit('ready');
    await watcher.ready;
    return fake;
  }

  function startFakeClock() {
    // Before createWatcher: it reads the clock through `Date.now`, taken when it starts.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  }

  /** A watcher over a store whose every reconcile walk takes `walkMs` on the watcher's clock; counts the walks. */
  async function startWalking(walkMs: number): Promise<{ readonly count: number }> {
    startFakeClock();
    const project = createTempProject({ 'skills/a/SKILL.md': 'v0' });
    const inner = createCatalogStore({ root: project.root, buildCatalog: fakeBuildCatalog });
    const walks = { count: 0 };
    const store = {
      ...inner,
      reconcile: () => {
        walks.count++;
        return inner.reconcile();
      },
    };
    await openFake(project, store, { now: () => Date.now() + walks.count * walkMs });
    return walks;
  }

  async function startFake(files: Record<string, string>) {
    startFakeClock();
    const project = createTempProject(files);
    const store = createCatalogStore({ root: project.root, buildCatalog: fakeBuildCatalog });
    const batches: { paths: readonly string[]; text: string | undefined }[] = [];
    const fake = await openFake(project, store, {
      onBatch: (_change, paths) => batches.push({ paths, text: text(store, 'skills/a/SKILL.md') }),
    });
    /** Writes `content` to `path` and reports it the way chokidar would. */
    const save = (path: string, content: string) => {
      project.write(path, content);
      fake.emit('all', 'change', project.path(path));
    };
    return { batches, save, advance: (ms: number) => vi.advanceTimersByTime(ms) };
  }

  it('spaces the periodic reconcile by how long a walk takes (50 × the walk, at least every 5 s), the first after ready too', async () => {
    // Each walk of this "large tree" takes 400 ms on the watcher's clock.
    const walks = await startWalking(400);
    const walked = () => walks.count;
    // The walk at ready took 400 ms: the first periodic one comes 20 s later, not after the 5 s minimum.
    expect(walked()).toBe(1);
    vi.advanceTimersByTime(19_999);
    expect(walked()).toBe(1);
    vi.advanceTimersByTime(1);
    expect(walked()).toBe(2);
    vi.advanceTimersByTime(19_999);
    expect(walked()).toBe(2);
    vi.advanceTimersByTime(1);
    expect(walked()).toBe(3);
  });

  it('reconciles every 5 s when a walk is quick', async () => {
    const walks = await startWalking(10);
    const walked = () => walks.count;
    expect(walked()).toBe(1);
    vi.advanceTimersByTime(4_999);
    expect(walked()).toBe(1);
    vi.advanceTimersByTime(1);
    expect(walked()).toBe(2);
  });

  it('closes a batch after 4 quiet ms by default, counted from the last event', async () => {
    const { batches, save, advance } = await startFake({ 'skills/a/SKILL.md': 'v0', 'skills/a/b.md': 'b0' });

    save('skills/a/SKILL.md', 'v1');
    advance(3);
    expect(batches).toHaveLength(0);
    advance(1);
    expect(batches).toEqual([{ paths: ['skills/a/SKILL.md'], text: 'v1' }]);

    // Two saves 1 ms apart: one batch, 4 ms after the second.
    save('skills/a/SKILL.md', 'v2');
    advance(1);
    save('skills/a/b.md', 'b2');
    advance(3);
    expect(batches).toHaveLength(1);
    advance(1);
    expect(batches).toHaveLength(2);
    expect([...batches[1]!.paths].sort()).toEqual(['skills/a/SKILL.md', 'skills/a/b.md']);

    // Two saves 30 ms apart: two batches.
    save('skills/a/SKILL.md', 'v3');
    advance(30);
    save('skills/a/SKILL.md', 'v4');
    advance(30);
    expect(batches.slice(2).map((batch) => batch.text)).toEqual(['v3', 'v4']);
  });

  it('holds a batch while a file it names is empty, at most maxBatchMs (200) from its first event', async () => {
    const { batches, save, advance } = await startFake({ 'skills/a/SKILL.md': 'v0' });

    // Truncate, then write 14 ms later: held, then one batch with the written bytes.
    save('skills/a/SKILL.md', '');
    advance(14);
    expect(batches).toHaveLength(0);
    save('skills/a/SKILL.md', 'v1');
    advance(3);
    expect(batches).toHaveLength(0);
    advance(1);
    expect(batches).toEqual([{ paths: ['skills/a/SKILL.md'], text: 'v1' }]);

    // Really emptied: published exactly maxBatchMs after the first event.
    save('skills/a/SKILL.md', '');
    advance(199);
    expect(batches).toHaveLength(1);
    advance(1);
    expect(batches).toEqual([
      { paths: ['skills/a/SKILL.md'], text: 'v1' },
      { paths: ['skills/a/SKILL.md'], text: '' },
    ]);
  });
});

describe('createWatcher: back from polling, and reads that failed just now', () => {
  it('tries native events again after falling back, and goes back to them once they work', async () => {
    const project = createTempProject({ 'skills/a/SKILL.md': 'A' });
    const store = createCatalogStore({ root: project.root, buildCatalog: fakeBuildCatalog });
    const fakes: (EventEmitter & { close(): Promise<void>; getWatched(): object })[] = [];
    const statuses: string[] = [];
    const watcher = createWatcher(store, {
      eventsRetryMs: 30,
      pollIntervalMs: 20,
      onStatus: (status) => statuses.push(status.mode),
      watch: () => {
        const fake = Object.assign(new EventEmitter(), { close: async () => {}, getWatched: () => ({}) });
        fakes.push(fake);
        // The first watcher runs out of descriptors; the one after works.
        setTimeout(() => {
          if (fakes.length === 1) fake.emit('error', Object.assign(new Error('EMFILE'), { code: 'EMFILE' }));
          else fake.emit('ready');
        }, 1);
        return fake as unknown as FSWatcher;
      },
    });
    try {
      await watcher.ready;
      expect(watcher.status().mode).toBe('polling');
      await vi.waitFor(() => expect(watcher.status().mode).toBe('events'), { timeout: 3000 });
      expect(fakes).toHaveLength(2);
      expect(statuses).toEqual(['polling', 'events']);
      // Events flow from the new watcher.
      project.write('skills/a/SKILL.md', 'A2');
      fakes[1]!.emit('all', 'change', join(realpathSync(project.root), 'skills/a/SKILL.md'));
      await vi.waitFor(() => expect(text(store, 'skills/a/SKILL.md')).toBe('A2'), { timeout: 3000 });
    } finally {
      await watcher.close();
      project.cleanup();
    }
  });

  it('reads again what the store could not read just now, until it reads', async () => {
    const project = createTempProject({ 'skills/a/SKILL.md': 'A' });
    const inner = createCatalogStore({ root: project.root, buildCatalog: fakeBuildCatalog });
    // A store whose first re-read of the file meets a busy machine: the path stays pending until read again.
    let failed = false;
    let pending = false;
    const store: CatalogStore = {
      ...inner,
      pending: () => (pending ? ['skills/a/SKILL.md'] : inner.pending()),
      applyChanges(paths) {
        if (paths.includes('skills/a/SKILL.md') && !failed) {
          failed = true;
          pending = true;
          return undefined;
        }
        pending = false;
        return inner.applyChanges(paths);
      },
    };
    const fake = Object.assign(new EventEmitter(), { close: async () => {}, getWatched: () => ({}) });
    const watcher = createWatcher(store, { watch: () => fake as unknown as FSWatcher, retryMs: 10 });
    try {
      fake.emit('ready');
      await watcher.ready;
      project.write('skills/a/SKILL.md', 'A2');
      fake.emit('all', 'change', join(realpathSync(project.root), 'skills/a/SKILL.md'));
      // No second event comes: only the retry reads it.
      await vi.waitFor(() => expect(text(inner, 'skills/a/SKILL.md')).toBe('A2'), { timeout: 3000 });
    } finally {
      await watcher.close();
      project.cleanup();
    }
  });
});

describe('createWatcher: the first reconcile when firstReconcile begins it', () => {
  it('applies events from the scan on, and is ready only after the first reconcile it held, which finds what no event did', async () => {
    const project = createTempProject({ 'skills/a/SKILL.md': 'v1', 'skills/b/SKILL.md': 'B1' });
    const store = createCatalogStore({ root: project.root, buildCatalog: fakeBuildCatalog });
    // Changed after the store's first read and before anything watches: no event will ever say so.
    project.write('skills/b/SKILL.md', 'B2 unseen');
    let begin: (() => void) | undefined;
    const watcher = createWatcher(store, {
      firstReconcile: (go) => {
        begin = go;
      },
    });
    closeAfter(project, store, watcher);
    let ready = false;
    watcher.ready.then(() => {
      ready = true;
    });
    // chokidar's initial scan is done: the reconcile is handed over, not run.
    await vi.waitFor(() => expect(begin).toBeDefined(), { timeout: 10_000 });
    project.write('skills/a/SKILL.md', 'v2 saved');
    await until(store, () => text(store, 'skills/a/SKILL.md') === 'v2 saved', 'a save before the reconcile');
    expect(ready).toBe(false);
    expect(text(store, 'skills/b/SKILL.md'), 'nothing walked yet').toBe('B1');
    begin!();
    await watcher.ready;
    expect(text(store, 'skills/b/SKILL.md')).toBe('B2 unseen');
    expect(watcher.status().lastReconcileAt).toBeDefined();
  });
});

describe('createWatcher: the reconcile walked elsewhere (walkTree)', () => {
  /** A chokidar stand-in whose `walkTree` answers when the test says: each call is one pending walk. */
  async function startWalker(files: Record<string, string>) {
    const project = createTempProject(files);
    const inner = createCatalogStore({ root: project.root, buildCatalog: fakeBuildCatalog });
    const walks: { resolve: (walk: TreeWalk | undefined) => void }[] = [];
    const here = { count: 0 };
    const store: CatalogStore = {
      ...inner,
      reconcile: (walked) => {
        if (walked === undefined) here.count++;
        return inner.reconcile(walked);
      },
    };
    const fake = Object.assign(new EventEmitter(), {
      close: async () => {},
      getWatched: () => ({}),
      walkTree: () => new Promise<TreeWalk | undefined>((resolve) => walks.push({ resolve })),
    });
    let ready = false;
    const watcher = createWatcher(store, {
      watch: () => fake as unknown as FSWatcher & TreeWalker,
      settleMs: 20,
      reconcileIntervalMs: 600_000,
    });
    watcher.ready.then(() => {
      ready = true;
    });
    closeAfter(project, store, watcher);
    fake.emit('ready');
    /** What the store's own stat walk would answer now. */
    const walkNow = (): TreeWalk => {
      const fresh = createReadResult();
      const reader = createReader(project.root);
      for (const directory of contentDirectories) reader.stat(directory, fresh);
      return { ms: 1, prints: fresh.prints.texts(), partial: false };
    };
    const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
    return { project, store: inner, fake, walks, here, walkNow, tick, isReady: () => ready };
  }

  it('is ready once the walk at ready is answered and compared; a reconcile asked meanwhile walks after it', async () => {
    const w = await startWalker({ 'skills/a/SKILL.md': 'v1' });
    await w.tick();
    expect(w.walks).toHaveLength(1);
    expect(w.isReady()).toBe(false);
    // A new directory while that walk runs: its settle reconcile must wait for the walk, then walk again.
    w.project.write('skills/b/SKILL.md', 'B');
    w.fake.emit('all', 'addDir', w.project.path('skills/b'));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(w.walks).toHaveLength(1);
    w.walks[0]!.resolve(w.walkNow());
    await w.tick();
    expect(w.isReady()).toBe(true);
    expect(text(w.store, 'skills/b/SKILL.md')).toBe('B');
    expect(w.walks).toHaveLength(2);
    w.walks[1]!.resolve({ ms: 1, prints: new Map(), partial: true });
    await w.tick();
    expect(w.here.count).toBe(0);
  });

  it('walks on this thread when the walk elsewhere cannot be made', async () => {
    const w = await startWalker({ 'skills/a/SKILL.md': 'v1' });
    await w.tick();
    w.project.write('skills/a/SKILL.md', 'v2 unseen');
    w.walks[0]!.resolve(undefined);
    await w.tick();
    expect(w.isReady()).toBe(true);
    expect(w.here.count).toBe(1);
    expect(text(w.store, 'skills/a/SKILL.md')).toBe('v2 unseen');
  });
});
