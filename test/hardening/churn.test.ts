/**
 * Churn: a writer rewrites, adds, deletes and renames files at a high rate for a fixed time while 8 HTTP
 * hosts read, half of them in each protocol era. The real watcher (`createWatcher`) feeds the store. Every read is checked against the digest in
 * the same session's latest `skills/list`; a mismatch (or a refused read) is allowed only when the store
 * published a change touching that URI (or the list) between that `skills/list` being sent and the read
 * returning — and then the session must also have received the notification for it. After the writer stops, the
 * served catalog must equal, within a bounded time, what `companion check` computes from the disk.
 */
import { randomInt } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogChange } from '../../src/core/types.js';
import { type CatalogStore, createCatalogStore } from '../../src/fs/catalog-store.js';
import { createWatcher, type Watcher } from '../../src/fs/watcher.js';
import type { HttpServerHandle } from '../../src/mcp/serve-http.js';
import { connectHttp, type McpConnection, startHttp, waitFor } from '../helpers/mcp-client.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';
import { bytesOf, catalogDigests, diskDigests, sha256, skillDigests } from './served.js';

const WRITE_MS = 3000;
const CLIENTS = 8;
const SETTLE_MS = 15_000;
const SKILLS = ['write-a-skill', 'plan-coverage', 'connect-a-host'];
const SLOTS = 12;
const DOCUMENT = 'knowledge/documents/any/hosts/codex.md';
/** Files of the directory the writer renames between `dir-a` and `dir-b`. */
const DIRECTORY_FILES = ['one.md', 'two.md', 'nested/three.md'];

let project: TempProject;
let store: CatalogStore;
let watcher: Watcher;
let server: HttpServerHandle;
const sessions: McpConnection[] = [];
/** Every change the store published, in order: what a notifier could have sent. */
const published: CatalogChange[] = [];

const slotPath = (skill: string, slot: number) => `skills/${skill}/references/churn-${slot}.md`;
const slotUri = (skill: string, slot: number) => `companion://skill/${skill}/references/churn-${slot}.md`;

beforeAll(async () => {
  project = copyFixture('', { bundled: true, prefix: 'companion-hardening-churn-' });
  for (const skill of SKILLS) {
    for (let slot = 0; slot < SLOTS; slot += 2) project.write(slotPath(skill, slot), `seed ${slot}\n`);
    for (const name of DIRECTORY_FILES)
      project.write(`skills/${skill}/references/dir-a/${name}`, `${name}\n`);
  }
  store = createCatalogStore({ root: project.root });
  store.subscribe((change) => published.push(change));
  watcher = createWatcher(store);
  await watcher.ready;
  server = await startHttp(store);
  // Every file the writer may touch that exists now, and each skill's SKILL.md, whose resources/updated covers
  // every file of the skill — the ones the writer creates later included (an unserved URI cannot be subscribed).
  const served = store.current().catalog.contents;
  const watched = [
    ...SKILLS.flatMap((skill) => [
      `companion://skill/${skill}/SKILL.md`,
      ...Array.from({ length: SLOTS }, (_, slot) => slotUri(skill, slot)),
      ...['dir-a', 'dir-b'].flatMap((directory) =>
        DIRECTORY_FILES.map((name) => `companion://skill/${skill}/references/${directory}/${name}`),
      ),
    ]),
    'companion://guides/any/hosts/codex',
  ].filter((uri) => served.has(uri));
  // Half the hosts speak 2025-11-25 (subscribe), half 2026-07-28 (one subscriptions/listen stream).
  for (let i = 0; i < CLIENTS; i++) {
    const connection = await connectHttp(server.url, `churn-${i}`, i % 2 === 0 ? 'legacy' : 'modern');
    expect(await connection.watch({ uris: watched })).toEqual(watched);
    sessions.push(connection);
  }
});

afterAll(async () => {
  for (const connection of sessions) await connection.close();
  await server?.close();
  await watcher?.close();
  project?.cleanup();
});

/**
 * The writer, in a worker thread so it really runs concurrently with the watcher, the server and the readers
 * (which share the test's event loop): rewrite, add, delete, rename within the skills' references, atomic saves,
 * and appends to a document, for `ms` milliseconds. Posts how many operations it ran.
 */
const WRITER_SOURCE = `
const fs = require('node:fs');
const { workerData, parentPort } = require('node:worker_threads');
const { root, skills, slots, document, ms } = workerData;
const pick = (n) => Math.floor(Math.random() * n);
const slot = (skill, i) => root + '/skills/' + skill + '/references/churn-' + i + '.md';
const started = Date.now();
let count = 0;
while (Date.now() - started < ms) {
  const skill = skills[pick(skills.length)];
  const from = slot(skill, pick(slots));
  const to = slot(skill, pick(slots));
  const op = pick(10);
  try {
    if (op < 4) fs.writeFileSync(from, 'rewrite ' + count + ' ' + 'x'.repeat(pick(200)) + '\\n');
    else if (op < 6) fs.unlinkSync(from);
    else if (op < 8) fs.renameSync(from, to);
    else if (op < 9) { fs.writeFileSync(from + '.tmp', 'atomic ' + count + '\\n'); fs.renameSync(from + '.tmp', from); }
    else if (count % 2 === 0) fs.appendFileSync(root + '/' + document, '<!-- churn ' + count + ' -->\\n');
    else {
      // A whole directory renamed back and forth, files and all.
      const base = root + '/skills/' + skill + '/references/';
      if (fs.existsSync(base + 'dir-a')) fs.renameSync(base + 'dir-a', base + 'dir-b');
      else fs.renameSync(base + 'dir-b', base + 'dir-a');
    }
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  count++;
  // A short pause now and then: a fast editor, not a fork bomb; keeps the box responsive.
  if (count % 50 === 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
}
parentPort.postMessage(count);
`;

function runWriter(ms: number): Promise<number> {
  const worker = new Worker(WRITER_SOURCE, {
    eval: true,
    workerData: { root: project.root, skills: SKILLS, slots: SLOTS, document: DOCUMENT, ms },
  });
  return new Promise((resolve, reject) => {
    worker.once('message', (count: number) => resolve(count));
    worker.once('error', reject);
  });
}

interface Stats {
  reads: number;
  explained: number;
  violations: string[];
}

/** One session's loop: list, read a random listed file, check it against the list. */
async function readLoop(connection: McpConnection, until: () => boolean, stats: Stats): Promise<void> {
  while (!until()) {
    const mark = published.length;
    const digests = await skillDigests(connection);
    const uris = [...digests.keys(), 'companion://guides/any/hosts/codex'];
    for (let i = 0; i < 4; i++) {
      const uri = uris[randomInt(uris.length)]!;
      let digest: string | undefined;
      try {
        digest = sha256(bytesOf(await connection.client.readResource({ uri })));
      } catch {
        digest = undefined;
      }
      stats.reads++;
      const promised = digests.get(uri);
      if (promised === undefined || digest === promised) continue;
      // Allowed only if a change touching this URI (or the list) was published before the read returned.
      const explaining = published
        .slice(mark)
        .find((change) => change.listChanged || change.updatedUris.includes(uri));
      if (explaining === undefined) {
        stats.violations.push(
          `${uri}: listed ${promised}, read ${digest ?? 'an error'}, no change published`,
        );
        continue;
      }
      stats.explained++;
      // ...and this session was told: the notification reaches it, if not already — list_changed, the URI's own
      // resources/updated, or its skill's SKILL.md's (which announces a change to any file of the skill).
      const skillUri = uri.replace(/^(companion:\/\/skill\/[^/]+\/).*$/, '$1SKILL.md');
      const told = () =>
        connection.notifications.some(
          (notification) =>
            notification.method === 'notifications/resources/list_changed' ||
            notification.uri === uri ||
            notification.uri === skillUri,
        );
      await waitFor(told, 5000, `a notification for ${uri}`).catch(() => {
        stats.violations.push(`${uri}: changed under the session, never notified`);
      });
    }
  }
}

describe('churn', () => {
  it(`8 sessions read while a writer churns for ${WRITE_MS} ms; then the catalog equals the disk`, {
    timeout: 60_000,
  }, async () => {
    const started = Date.now();
    const done = () => Date.now() - started > WRITE_MS;
    const stats: Stats = { reads: 0, explained: 0, violations: [] };
    const [writes] = await Promise.all([
      runWriter(WRITE_MS),
      ...sessions.map((connection) => readLoop(connection, done, stats)),
    ]);

    expect(writes).toBeGreaterThan(100);
    expect(stats.reads).toBeGreaterThan(CLIENTS);
    expect(stats.violations).toEqual([]);

    // Convergence: the served catalog equals what `companion check` reads from the disk now.
    const reader = sessions[0]!;
    let served = new Map<string, string>();
    let disk = diskDigests(project.root);
    const deadline = Date.now() + SETTLE_MS;
    for (;;) {
      disk = diskDigests(project.root);
      served = await skillDigests(reader);
      const listed = await reader.client.listResources();
      for (const resource of listed.resources) {
        served.set(resource.uri, sha256(bytesOf(await reader.client.readResource({ uri: resource.uri }))));
      }
      served = new Map([...served].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      if (JSON.stringify([...served]) === JSON.stringify([...disk]) || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect([...served]).toEqual([...disk]);
    expect([...catalogDigests(store.current().catalog)]).toEqual([...disk]);
    console.info(
      `churn: ${writes} writes, ${stats.reads} reads, ${stats.explained} explained mismatches, ${stats.violations.length} violations, ${published.length} generations`,
    );
  });
});
