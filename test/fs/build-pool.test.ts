/**
 * The cold build's thread pool, with real worker threads on real files: the result is the one a single thread
 * builds, whoever derives which batch, when a worker throws or dies, and from the sources (where a worker cannot
 * load its TypeScript module and this thread derives everything); small roots start no thread; `companion check`
 * with a pool exits by itself and prints what it prints without one.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fromSource from '../../src/fs/build-pool.js';
import { fingerprintBuild } from '../helpers/build-summary.js';
import { FIXTURES, REPO_ROOT } from '../helpers/snapshot.js';

// Workers run the module `npm run build` emits beside dist/fs/build-pool.js.
type Module = typeof fromSource;
const fromDist = (await import(pathToFileURL(join(REPO_ROOT, 'dist/fs/build-pool.js')).href)) as Module;

let tmp: string;
let corpus: string;
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'companion-pool-'));
  const { generateCorpus } = await import(pathToFileURL(join(REPO_ROOT, 'bench/generate-corpus.mjs')).href);
  // M: 1,000 documents and 100 skills, ~11 MB, above the pool's threshold.
  corpus = (generateCorpus('M', join(tmp, 'M')) as { root: string }).root;
});
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

const single = (root: string) =>
  fingerprintBuild(fromDist.readAndBuildCatalog(root, {}, { pool: false }).result);

describe('the build pool', () => {
  it('starts on a root above its threshold, sized to the machine, and builds what one thread builds', () => {
    const built = fromDist.readAndBuildCatalog(corpus, {}, { pool: { minBytes: 8 * 1024 * 1024 } });
    expect(built.pool).toBeDefined();
    const pool = built.pool!;
    // One fewer than the cores: this thread is one of the pool.
    expect(pool.threads).toBe(Math.max(1, availableParallelism() - 1));
    expect(pool.fromWorkers + pool.onThisThread).toBe(pool.batches);
    expect(pool.lost).toBe(0);
    expect(fingerprintBuild(built.result)).toBe(single(corpus));
  });

  it('runs under the catalog store, whose first generation is the one it builds without', async () => {
    const { createCatalogStore } = (await import(
      pathToFileURL(join(REPO_ROOT, 'dist/fs/catalog-store.js')).href
    )) as typeof import('../../src/fs/catalog-store.js');
    const reports: fromSource.BuildPoolReport[] = [];
    const pooled = createCatalogStore({
      root: corpus,
      pool: { threads: 2, minBytes: 0 },
      onPool: (report) => reports.push(report),
    }).current();
    const alone = createCatalogStore({ root: corpus }).current();
    expect(reports).toHaveLength(1);
    expect(reports[0]!.fromWorkers + reports[0]!.onThisThread).toBe(reports[0]!.batches);
    const built = (g: typeof alone) => ({
      catalog: g.catalog,
      diagnostics: g.diagnostics,
      ...(g.held && { held: g.held }),
    });
    expect(fingerprintBuild(built(pooled))).toBe(fingerprintBuild(built(alone)));
  });

  it('builds the same when the workers derive every batch', () => {
    const built = fromDist.readAndBuildCatalog(
      corpus,
      {},
      { pool: { threads: 2, minBytes: 0, share: false } },
    );
    expect(built.pool?.fromWorkers).toBe(built.pool?.batches);
    expect(fingerprintBuild(built.result)).toBe(single(corpus));
    // The workers read the bytes in place: the read's small files are in shared slabs.
    const files = [...built.snapshot.files.values()];
    expect(files.filter((f) => f.bytes.buffer instanceof SharedArrayBuffer).length).toBeGreaterThan(
      files.length / 2,
    );
  });

  it.each(['valid', 'check-golden', 'check-warnings', 'fs-basic', 'mcp-extra', 'typo3-conversion'])(
    'builds the %s fixture the same with a pool forced on',
    (name) => {
      const root = join(FIXTURES, name);
      const built = fromDist.readAndBuildCatalog(
        root,
        {},
        { pool: { threads: 2, minBytes: 0, share: false } },
      );
      expect(built.pool?.fromWorkers).toBe(built.pool?.batches);
      expect(fingerprintBuild(built.result)).toBe(single(root));
    },
  );

  it('holds the young generation from its thread when asked, and leaves the flags alone when not', () => {
    // A child with the flags probe: the thread's isolate reset V8's growth factor, and the thread sets it back.
    // (A file, not `-e`: a worker inherits `--input-type`, which a file cannot load under.)
    const script = join(tmp, 'hold.mjs');
    const buildPool = pathToFileURL(join(REPO_ROOT, 'dist/fs/build-pool.js')).href;
    writeFileSync(
      script,
      `const { readAndBuildCatalog } = await import(${JSON.stringify(buildPool)});
const pool = { threads: 1, minBytes: 0, share: false, holdYoungGeneration: process.argv[2] === 'hold' };
const { pool: report } = readAndBuildCatalog(${JSON.stringify(join(FIXTURES, 'valid'))}, {}, { pool });
if (report.fromWorkers !== report.batches) throw new Error('the worker derived ' + report.fromWorkers);
`,
    );
    const probe = join(REPO_ROOT, 'test/helpers/v8-flags-probe.cjs');
    const run = (hold: string) =>
      spawnSync(process.execPath, ['--require', probe, script, hold], { encoding: 'utf8', timeout: 30_000 });
    const held = run('hold');
    expect(held.status, held.stderr).toBe(0);
    expect(held.stderr).toMatch(/^v8-flags-probe-thread --semi-space-growth-factor=1$/m);
    const left = run('leave');
    expect(left.status, left.stderr).toBe(0);
    expect(left.stderr).not.toContain('v8-flags-probe-thread');
  });

  it('builds the same when a worker throws: its batch is derived by the builder', () => {
    const built = fromDist.readAndBuildCatalog(
      corpus,
      {},
      {
        pool: { threads: 1, minBytes: 0, share: false, testFail: 'throw' },
      },
    );
    expect(built.pool?.lost).toBe(1);
    expect(fingerprintBuild(built.result)).toBe(single(corpus));
  });

  it('builds the same when a worker dies mid-batch, after waiting at most its stall time', () => {
    const started = performance.now();
    const built = fromDist.readAndBuildCatalog(
      corpus,
      {},
      {
        pool: { threads: 1, minBytes: 0, share: false, testFail: 'die', stallMs: 200 },
      },
    );
    expect(built.pool?.fromWorkers).toBe(0);
    expect(built.pool?.lost).toBe(built.pool?.batches);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(fingerprintBuild(built.result)).toBe(single(corpus));
  });

  it('builds the same from the sources, where no worker can start: this thread derives every batch', () => {
    const built = fromSource.readAndBuildCatalog(corpus, {}, { pool: { threads: 2, minBytes: 0 } });
    expect(built.pool?.fromWorkers).toBe(0);
    expect(built.pool?.onThisThread).toBe(built.pool?.batches);
    const alone = fromSource.readAndBuildCatalog(corpus, {}, { pool: false }).result;
    expect(fingerprintBuild(built.result)).toBe(fingerprintBuild(alone));
  });

  it('starts no thread for a small root', () => {
    expect(fromDist.readAndBuildCatalog(join(FIXTURES, 'valid'), {}, { pool: {} }).pool).toBeUndefined();
    // And none unless asked.
    expect(fromDist.readAndBuildCatalog(corpus).pool).toBeUndefined();
    expect(fromDist.readPoolEnv(undefined)).toBe(false);
    expect(fromDist.readPoolEnv('0')).toBe(false);
    expect(fromDist.readPoolEnv('0', true)).toBe(false);
    expect(fromDist.readPoolEnv('auto')).toEqual({});
    expect(fromDist.readPoolEnv('3')).toEqual({ threads: 3 });
    // `check` asks for one by default, when a second core is free (the last minute's load a core under their
    // number); asked for, one starts whatever the load.
    const cores = availableParallelism();
    const idle = [0, 0, 0];
    const busy = [cores, cores, cores];
    expect(fromDist.readPoolEnv(undefined, true, idle)).toEqual(cores >= 2 ? {} : false);
    expect(fromDist.readPoolEnv(' ', true, [cores - 1, 0, 0])).toEqual(cores >= 2 ? {} : false);
    expect(fromDist.readPoolEnv(undefined, true, busy)).toBe(false);
    expect(fromDist.readPoolEnv(undefined, false, idle)).toBe(false);
    expect(fromDist.readPoolEnv('auto', true, busy)).toEqual({});
    expect(fromDist.isCoreFree(busy)).toBe(false);
  });

  it('finds its worker beside the bundle chunk that starts it (the layout bin/companion.js runs)', () => {
    const bundle = join(REPO_ROOT, 'dist/bundle');
    const starters = readdirSync(bundle).filter(
      (name) =>
        name.endsWith('.js') &&
        name !== 'build-pool-worker.js' &&
        readFileSync(join(bundle, name), 'utf8').includes('"./build-pool-worker.js"'),
    );
    expect(starters).not.toEqual([]);
    expect(existsSync(join(bundle, 'build-pool-worker.js'))).toBe(true);
  });

  it('lets `companion check` exit by itself, printing what it prints on one thread (by default and when asked)', async () => {
    // Above the threshold: M and 24 MB of assets in one skill (files too large for a slab: their bytes are copied).
    const { generateCorpus } = await import(pathToFileURL(join(REPO_ROOT, 'bench/generate-corpus.mjs')).href);
    const big = (generateCorpus('M', join(tmp, 'big')) as { root: string }).root;
    const [skill] = readdirSync(join(big, 'skills')).filter((name) => !name.endsWith('.md'));
    mkdirSync(join(big, 'skills', skill!, 'assets'), { recursive: true });
    for (let i = 0; i < 3; i++) {
      writeFileSync(join(big, 'skills', skill!, 'assets', `data-${i}.bin`), Buffer.alloc(8 * 1024 * 1024, i));
    }
    const run = (threads: string) =>
      spawnSync(
        process.execPath,
        [join(REPO_ROOT, 'bin/companion.js'), 'check', '--root', big, '--format', 'json'],
        {
          env: { ...process.env, COMPANION_BUILD_THREADS: threads },
          encoding: 'utf8',
          timeout: 30_000,
        },
      );
    const pooled = run('auto');
    const byDefault = run('');
    const alone = run('0');
    for (const other of [pooled, byDefault]) {
      expect(other.signal).toBeNull();
      expect(other.status).toBe(alone.status);
      expect(other.stdout).toBe(alone.stdout);
    }
    expect(pooled.stdout).toContain('"diagnostics"');
  });
});
