/**
 * Faults on the disk side of a running daemon (store + real watcher + HTTP): unreadable files, files vanishing
 * between event and read, a directory renamed, a branch switch replacing 1,000 files at once, invalid UTF-8, a
 * 50 MB file, symlink loops, and a watcher that fails (forced or injected ENOSPC) and falls back to polling. After
 * each, the served catalog equals what `companion check` computes from the disk, within a bounded time.
 */
import { spawn, spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { type CatalogStore, createCatalogStore } from '../../src/fs/catalog-store.js';
import {
  createWatcher,
  type Watcher,
  type WatcherOptions,
  type WatcherStatus,
} from '../../src/fs/watcher.js';
import type { HttpServerHandle } from '../../src/mcp/serve-http.js';
import {
  connectHttp,
  expectRpcError,
  type McpConnection,
  repoRoot,
  startHttp,
  waitFor,
} from '../helpers/mcp-client.js';
import { binPath, spawnCli } from '../helpers/run-cli.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';
import { catalogDigests, diskDigests } from './served.js';

const CONVERGE_MS = 20_000;
const projects: TempProject[] = [];
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(() => {
  for (const project of projects) project.cleanup();
});

function createProject(): TempProject {
  const project = copyFixture('', { bundled: true, prefix: 'companion-hardening-faults-' });
  projects.push(project);
  return project;
}

interface Daemon {
  readonly project: TempProject;
  readonly store: CatalogStore;
  readonly watcher: Watcher;
  readonly server: HttpServerHandle;
  readonly client: McpConnection;
  readonly errors: unknown[];
}

/** A watched store served over HTTP with one connected session; torn down after the test. */
async function startDaemon(options: WatcherOptions = {}, project = createProject()): Promise<Daemon> {
  const errors: unknown[] = [];
  const store = createCatalogStore({ root: project.root, onError: (error) => errors.push(error) });
  const watcher = createWatcher(store, { onError: (error) => errors.push(error), ...options });
  await watcher.ready;
  const server = await startHttp(store);
  const client = await connectHttp(server.url, 'faults');
  cleanups.push(async () => {
    await client.close();
    await server.close();
    await watcher.close();
  });
  return { project, store, watcher, server, client, errors };
}

/** Waits until the served catalog equals `companion check`'s view of the disk; fails with the difference. */
async function expectConverged(daemon: Daemon, timeoutMs = CONVERGE_MS): Promise<void> {
  const same = () =>
    JSON.stringify([...catalogDigests(daemon.store.current().catalog)]) ===
    JSON.stringify([...diskDigests(daemon.project.root)]);
  await waitFor(same, timeoutMs, 'the served catalog to equal the disk').catch(() => {
    expect([...catalogDigests(daemon.store.current().catalog)]).toEqual([
      ...diskDigests(daemon.project.root),
    ]);
  });
  // And the protocol surface says the same as the store: the index reads, the session is alive.
  const index = await daemon.client.client.readResource({ uri: 'companion://guides' });
  expect(index.contents).toHaveLength(1);
}

const problemKinds = (store: CatalogStore) =>
  store
    .snapshot()
    .problems.map(
      (problem) => `${problem.path}:${problem.kind}${problem.detail ? `:${problem.detail}` : ''}`,
    );

describe('faults on disk', () => {
  const asRoot = process.getuid?.() === 0;
  const runuser = ['/usr/sbin/runuser', '/sbin/runuser', '/usr/bin/runuser'].find((path) =>
    fs.existsSync(path),
  );
  const canDrop = asRoot && runuser !== undefined && spawnSync('id', ['-u', 'nobody']).status === 0;
  if (asRoot && !canDrop)
    console.warn('skipping the EACCES case: running as root with no nobody/runuser to drop to');

  it.runIf(canDrop || !asRoot)(
    'unreadable files and directories (EACCES) become problems; the store keeps serving',
    {
      timeout: 30_000,
    },
    async () => {
      // Root reads anything, so the store runs in a child as `nobody`, from the built dist/ (npm run build first).
      const project = createProject();
      project.write('skills/write-a-skill/references/locked.md', 'locked\n');
      project.write('skills/write-a-skill/references/later.md', 'readable at start\n');
      project.write('knowledge/documents/any/locked-dir/x.md', '---\ndescription: x\n---\n# X\n');
      fs.chmodSync(project.root, 0o755);
      fs.chmodSync(project.path('skills/write-a-skill/references/locked.md'), 0o600);
      fs.chmodSync(project.path('knowledge/documents/any/locked-dir'), 0o700);
      const script = `
      import fs from 'node:fs';
      import { createCatalogStore } from ${JSON.stringify(`${repoRoot}dist/fs/catalog-store.js`)};
      const root = process.argv[1];
      const store = createCatalogStore({ root });
      const first = store.snapshot().problems;
      // Made unreadable after start: the re-read reports it, the previous bytes are not served any more.
      const later = 'skills/write-a-skill/references/later.md';
      const uri = 'companion://skill/write-a-skill/references/later.md';
      const servedBefore = store.current().catalog.contents.has(uri);
      process.stdout.write(JSON.stringify({ ready: true }) + '\\n');
      await new Promise((resolve) => process.stdin.once('data', resolve));
      store.applyChanges([later]);
      const diagnostics = store.current().diagnostics.map((d) => d.code + ' ' + d.file);
      console.log(JSON.stringify({
        uid: process.getuid(), first, after: store.snapshot().problems, servedBefore,
        servedAfter: store.current().catalog.contents.has(uri), diagnostics,
        generation: store.current().number,
      }));
    `;
      const [command, ...prefix] = asRoot
        ? [runuser!, '-u', 'nobody', '--', process.execPath]
        : [process.execPath];
      const child = spawn(command!, [...prefix, '--input-type=module', '-e', script, project.root], {
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      cleanups.push(() => {
        child.kill('SIGKILL');
      });
      // The child has read the tree; make a file it served unreadable, then let it re-read.
      await waitFor(() => stdout.includes('"ready"'), 15_000, `the child store\n${stderr}`);
      fs.chmodSync(project.path('skills/write-a-skill/references/later.md'), 0o000);
      child.stdin.end('go\n');
      expect(await exited).toBe(0);
      expect(stderr).toBe('');
      const output = { stdout };
      const lines = output.stdout.trim().split('\n');
      const result = JSON.parse(lines.at(-1)!);
      if (asRoot) expect(result.uid).not.toBe(0);
      expect(result.first).toEqual(
        expect.arrayContaining([
          { path: 'knowledge/documents/any/locked-dir', kind: 'unreadable', detail: 'EACCES' },
          { path: 'skills/write-a-skill/references/locked.md', kind: 'unreadable', detail: 'EACCES' },
        ]),
      );
      expect(result.servedBefore).toBe(true);
      expect(result.after).toContainEqual({
        path: 'skills/write-a-skill/references/later.md',
        kind: 'unreadable',
        detail: 'EACCES',
      });
      expect(result.servedAfter).toBe(false);
      expect(result.generation).toBe(2);
      expect(result.diagnostics.join('\n')).toContain('skills/write-a-skill/references/later.md');
    },
  );

  it('a file vanishing between the event and the read is simply gone', async () => {
    const daemon = await startDaemon();
    const path = 'skills/write-a-skill/references/flash.md';
    for (let i = 0; i < 20; i++) {
      daemon.project.write(path, `flash ${i}\n`);
      daemon.project.remove(path);
    }
    // The event is handled after the file is gone; and a direct re-read of a gone path publishes a removal or nothing.
    daemon.store.applyChanges([path, 'skills/write-a-skill/references/never-existed.md']);
    await expectConverged(daemon);
    expect(
      daemon.store.current().catalog.contents.has('companion://skill/write-a-skill/references/flash.md'),
    ).toBe(false);
    expect(problemKinds(daemon.store).filter((kind) => kind.includes('flash'))).toEqual([]);
    expect(daemon.errors).toEqual([]);
  });

  it('a directory renamed: old URIs refused, new ones served, catalog equals disk', async () => {
    const daemon = await startDaemon();
    const before = 'companion://skill/write-a-skill/references/base.md';
    await daemon.client.client.readResource({ uri: before });
    daemon.project.rename('knowledge/documents/any/hosts', 'knowledge/documents/any/hosts-renamed');
    daemon.project.rename('skills/write-a-skill/references', 'skills/write-a-skill/refs');
    await expectConverged(daemon);
    const error = await expectRpcError(
      daemon.client.client.readResource({ uri: 'companion://skill/write-a-skill/references/checklist.md' }),
    );
    expect(error.code).toBe(-32602);
    await daemon.client.client.readResource({ uri: 'companion://skill/write-a-skill/refs/checklist.md' });
    expect(daemon.errors).toEqual([]);
  });

  it('a branch switch replacing 1,000 files at once converges to the disk', { timeout: 60_000 }, async () => {
    const project = createProject();
    // Spread over four skills: one skill may hold at most 512 files (SEP-2640), beyond which it is refused.
    const skills = ['write-a-skill', 'plan-coverage', 'connect-a-host', 'fix-check-failures'];
    const bulk = (branch: string, i: number) =>
      `skills/${skills[i % 4]}/references/bulk/${branch}-${String(i).padStart(4, '0')}.md`;
    for (let i = 0; i < 1000; i++) project.write(bulk('main', i), `main ${i}\n`);
    const daemon = await startDaemon({}, project);
    expect(daemon.store.current().catalog.contents.size).toBeGreaterThan(1000);
    // What git does on checkout: every old file unlinked, every new one written, as fast as it can.
    for (let i = 0; i < 1000; i++) {
      fs.unlinkSync(project.path(bulk('main', i)));
      project.write(bulk(i % 2 === 0 ? 'feature' : 'main', i), `feature ${i}\n`);
    }
    project.write(
      'knowledge/documents/any/hosts/codex.md',
      fs
        .readFileSync(project.path('knowledge/documents/any/hosts/codex.md'), 'utf8')
        .replace('Codex', 'Codex (feature)'),
    );
    await expectConverged(daemon);
    expect(daemon.errors).toEqual([]);
  });

  it('invalid UTF-8 in a document and a skill file is diagnosed, and both keep their last good version', async () => {
    const daemon = await startDaemon();
    const digest = (uri: string) => daemon.store.current().catalog.contents.get(uri)?.digest;
    const document = 'companion://guides/any/hosts/codex';
    const reference = 'companion://skill/write-a-skill/references/checklist.md';
    const before = [digest(document), digest(reference)];
    const invalid = Buffer.from([
      0x2d, 0x2d, 0x2d, 0x0a, 0xc0, 0xae, 0xff, 0xfe, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a,
    ]);
    daemon.project.write('knowledge/documents/any/hosts/codex.md', invalid);
    daemon.project.write('skills/write-a-skill/references/checklist.md', invalid);
    await waitFor(
      () => (daemon.store.current().held ?? []).length === 2,
      CONVERGE_MS,
      'the document and the skill held at their last good version',
    );
    expect(daemon.store.current().held!.map((item) => `${item.kind}:${item.id}`)).toEqual([
      'document:any/hosts/codex',
      'skill:write-a-skill',
    ]);
    // Hosts keep reading exactly the bytes they read before the broken save.
    expect([digest(document), digest(reference)]).toEqual(before);
    const files = daemon.store.current().diagnostics.map((diagnostic) => diagnostic.file);
    expect(files).toContain('knowledge/documents/any/hosts/codex.md');
    expect(files).toContain('skills/write-a-skill/references/checklist.md');
    await daemon.client.client.readResource({ uri: 'companion://skill/write-a-skill/SKILL.md' });
  });

  it('a 50 MB (sparse) file is too large and never read', async () => {
    const daemon = await startDaemon();
    const readSync = vi.spyOn(fs, 'readSync');
    cleanups.push(() => readSync.mockRestore());
    const path = 'skills/write-a-skill/references/huge.md';
    // A small file written with it proves the spy sees the loader's reads.
    daemon.project.write('skills/write-a-skill/references/small.md', 'small\n');
    fs.writeFileSync(daemon.project.path(path), '');
    fs.truncateSync(daemon.project.path(path), 50 * 1024 * 1024);
    await waitFor(
      () =>
        problemKinds(daemon.store).includes(`${path}:too-large:${50 * 1024 * 1024}`) &&
        daemon.store.current().catalog.contents.has('companion://skill/write-a-skill/references/small.md'),
      CONVERGE_MS,
      'too-large',
    );
    expect(readSync.mock.calls.length).toBeGreaterThan(0);
    // No read of more than the 10 MiB cap was ever asked for.
    const largest = Math.max(0, ...readSync.mock.calls.map((call) => Number((call as unknown[])[3] ?? 0)));
    expect(largest).toBeLessThanOrEqual(10 * 1024 * 1024);
    const error = await expectRpcError(
      daemon.client.client.readResource({ uri: 'companion://skill/write-a-skill/references/huge.md' }),
    );
    expect(error.code).toBe(-32602);
    expect(daemon.store.current().diagnostics.some((diagnostic) => diagnostic.file === path)).toBe(true);
  });

  it('symlink loops are problems, not hangs', async () => {
    const daemon = await startDaemon();
    daemon.project.symlink('.', 'skills/write-a-skill/references/self');
    daemon.project.symlink('../..', 'skills/write-a-skill/references/up');
    daemon.project.symlink('b.md', 'skills/write-a-skill/references/a.md');
    daemon.project.symlink('a.md', 'skills/write-a-skill/references/b.md');
    const loops = [
      'skills/write-a-skill/references/a.md:symlink-broken:loop',
      'skills/write-a-skill/references/b.md:symlink-broken:loop',
      'skills/write-a-skill/references/self:symlink-broken:loop',
      // Two levels up is the skills/ directory: inside the root, but out of the skill's area.
      'skills/write-a-skill/references/up:link-outside-area:skills',
    ];
    await waitFor(
      () => loops.every((loop) => problemKinds(daemon.store).includes(loop)),
      CONVERGE_MS,
      'the loops',
    ).catch(() => expect(problemKinds(daemon.store)).toEqual(expect.arrayContaining(loops)));
    await expectConverged(daemon);
    expect(problemKinds(daemon.store)).toEqual(
      expect.arrayContaining([
        'skills/write-a-skill/references/a.md:symlink-broken:loop',
        'skills/write-a-skill/references/b.md:symlink-broken:loop',
        'skills/write-a-skill/references/self:symlink-broken:loop',
        'skills/write-a-skill/references/up:link-outside-area:skills',
      ]),
    );
  });

  it('a FIFO is not-regular and never blocks a read', async () => {
    const daemon = await startDaemon();
    const fifo = daemon.project.path('skills/write-a-skill/references/pipe.md');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    await waitFor(
      () => problemKinds(daemon.store).includes('skills/write-a-skill/references/pipe.md:not-regular'),
      CONVERGE_MS,
      'the FIFO problem',
    );
    await expectConverged(daemon);
  });

  it('a top-level skills/ swapped for a link outside the root serves no skill at all', async () => {
    const daemon = await startDaemon();
    const outside = createProject();
    outside.write('skills/write-a-skill/references/outside.md', 'OUTSIDE-MARKER\n');
    daemon.project.rename('skills', 'skills-moved');
    fs.symlinkSync(outside.path('skills'), daemon.project.path('skills'));
    await waitFor(() => daemon.store.current().catalog.skills.length === 0, CONVERGE_MS, 'no skills');
    expect(problemKinds(daemon.store)).toContain(`skills:symlink-escape:${outside.path('skills')}`);
    for (const content of daemon.store.current().catalog.contents.values()) {
      expect(Buffer.from(content.bytes).toString('utf8')).not.toContain('OUTSIDE-MARKER');
    }
    await expectConverged(daemon);
  });

  it('forced polling says so and still converges', async () => {
    const statuses: WatcherStatus[] = [];
    const daemon = await startDaemon({
      forcePolling: true,
      pollIntervalMs: 100,
      onStatus: (s) => statuses.push(s),
    });
    expect(daemon.watcher.status()).toMatchObject({ mode: 'polling', reason: 'polling forced' });
    expect(statuses[0]).toMatchObject({ mode: 'polling' });
    daemon.project.write('skills/write-a-skill/references/polled.md', 'polled\n');
    await expectConverged(daemon);
    expect(
      daemon.store.current().catalog.contents.has('companion://skill/write-a-skill/references/polled.md'),
    ).toBe(true);
  });

  it('`companion dev` that polls from the start says so in its log', { timeout: 30_000 }, async () => {
    const project = createProject();
    const dev = spawnCli(['dev', '--port', '0', '--root', project.root], {
      env: { COMPANION_WATCH: 'poll' },
    });
    cleanups.push(() => {
      dev.child.kill('SIGKILL');
    });
    await waitFor(
      () => /listening on /.test(dev.output.stdout),
      20_000,
      `dev to start\n${dev.output.stderr}`,
    );
    await waitFor(
      () => /^\[companion\] watcher polling: \S/m.test(dev.output.stdout),
      5000,
      `the polling line in\n${dev.output.stdout}`,
    );
    // And it does poll: a new file is picked up without any event.
    project.write('skills/write-a-skill/references/polled.md', 'polled\n');
    await waitFor(
      () => /generation 2 /.test(dev.output.stdout),
      10_000,
      `the rebuild in\n${dev.output.stdout}`,
    );
    dev.child.kill('SIGTERM');
    expect(await dev.exit).toEqual({ code: 0, signal: null });
  });

  it('`companion serve --watch` that polls says so on stderr', { timeout: 30_000 }, async () => {
    const project = createProject();
    const serve = spawnCli(['serve', '--watch', '--http', '--port', '0', '--root', project.root], {
      env: { COMPANION_WATCH: 'poll' },
    });
    cleanups.push(() => {
      serve.child.kill('SIGKILL');
    });
    await waitFor(
      () => /listening at /.test(serve.output.stderr),
      20_000,
      `serve to start\n${serve.output.stderr}`,
    );
    expect(serve.output.stderr).toMatch(/^companion serve: watch: polling \(\S.*\)$/m);
    serve.child.kill('SIGTERM');
    expect(await serve.exit).toEqual({ code: 0, signal: null });
  });

  // A real limit, not an injected error: in a user namespace of its own, root may lower the namespace's
  // inotify watch limit (user.max_inotify_watches) without touching the machine's.
  const lowLimit = (limit: number) => `echo ${limit} > /proc/sys/user/max_inotify_watches`;
  const canLimitWatches = spawnSync('unshare', ['-U', '-r', 'sh', '-c', lowLimit(3)]).status === 0;
  if (!canLimitWatches)
    console.warn('skipping the real inotify limit: this system cannot unshare a user namespace');
  it.skipIf(!canLimitWatches)(
    '`companion dev` that hits the real inotify limit falls back to polling, says so, and still serves every save',
    { timeout: 30_000 },
    async () => {
      const project = createProject();
      const dev = spawn(
        'unshare',
        [
          '-U',
          '-r',
          'sh',
          '-c',
          `${lowLimit(3)} && exec "$0" "$@"`,
          process.execPath,
          binPath,
          'dev',
          '--port',
          '0',
          '--root',
          project.root,
        ],
        { env: { ...process.env, CI: '1', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      dev.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
      });
      dev.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
      });
      const exited = new Promise<number | null>((resolve) => dev.once('close', resolve));
      cleanups.push(() => {
        dev.kill('SIGKILL');
      });
      await waitFor(
        () => /^\[companion\] watcher fell back to polling: ENOSPC: /m.test(stdout),
        20_000,
        `the fallback line in\n${stdout}\n${stderr}`,
      );
      // Polling: a new file is picked up without any event.
      project.write('skills/write-a-skill/references/polled.md', 'polled\n');
      await waitFor(() => /generation 2 /.test(stdout), 10_000, `the rebuild in\n${stdout}`);
      expect(stdout).not.toMatch(/^\[companion\] error: /m);
      dev.kill('SIGTERM');
      expect(await exited).toBe(0);
    },
  );

  it('a watcher that fails with ENOSPC (the inotify limit) falls back to polling, says why, and converges', async () => {
    const statuses: WatcherStatus[] = [];
    let fake: (EventEmitter & { close(): Promise<void>; getWatched(): Record<string, string[]> }) | undefined;
    const daemon = await startDaemon({
      pollIntervalMs: 100,
      onStatus: (status) => statuses.push(status),
      watch: () => {
        fake = Object.assign(new EventEmitter(), {
          close: async () => {},
          getWatched: () => ({}),
        });
        setImmediate(() => fake!.emit('ready'));
        return fake as never;
      },
    });
    expect(daemon.watcher.status().mode).toBe('events');
    fake!.emit(
      'error',
      Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), {
        code: 'ENOSPC',
      }),
    );
    expect(daemon.watcher.status()).toMatchObject({ mode: 'polling' });
    expect(daemon.watcher.status().reason).toMatch(/^ENOSPC: /);
    expect(statuses.at(-1)).toMatchObject({ mode: 'polling' });
    daemon.project.write('skills/write-a-skill/references/after-enospc.md', 'polled\n');
    await expectConverged(daemon);
    expect(
      daemon.store
        .current()
        .catalog.contents.has('companion://skill/write-a-skill/references/after-enospc.md'),
    ).toBe(true);
  });
});
