#!/usr/bin/env node
/**
 * Protocol costs against a running daemon (Streamable HTTP, the v2 SDK's `Client`), in either protocol era: a
 * full `resources/list` pagination, a full `skills/list` pagination, and `resources/read` throughput with 8
 * concurrent hosts over mixed URIs. Each is set beside a floor measured in the same run on the same connections:
 * the era's cheapest request through the same HTTP stack (`ping` in 2025-11-25; `server/discover` in 2026-07-28,
 * which has no ping), so the ratios say what companion adds on top of the transport. Then `document_lookup`: the
 * first search, the same again, and the first search after a save (`measureSearch`). `reads: false` measures the
 * two list paginations only.
 *
 *   node bench/protocol.mjs <S|M|L> [--seconds N] [--era legacy|modern]   (starts its own `companion dev`)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import * as z from 'zod';
import { startDevProcess } from './edit-latency.mjs';
import { ensureCorpus } from './generate-corpus.mjs';
import { assertBuilt, createRandom, log, median, sleep } from './lib.mjs';

const AnyResult = z.looseObject({});

export async function connect(url, name, era = 'legacy') {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const mode = era === 'modern' ? { pin: '2026-07-28' } : 'legacy';
  const client = new Client({ name, version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(transport);
  return {
    client,
    /** The era's cheapest round trip: `ping`, or `server/discover` where ping no longer exists. */
    floor: () =>
      era === 'modern' ? client.request({ method: 'server/discover', params: {} }, AnyResult) : client.ping(),
    async close() {
      if (era === 'legacy') await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

export async function timed(fn) {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

/** Page by page, as a host walks it (the v2 client's `listResources()` would aggregate the pages itself). */
export async function listResourcesAll(client) {
  const uris = [];
  let cursor;
  let pages = 0;
  do {
    const result = await client.request(
      { method: 'resources/list', params: cursor === undefined ? {} : { cursor } },
      AnyResult,
    );
    pages++;
    for (const r of result.resources) uris.push(r.uri);
    cursor = result.nextCursor;
  } while (cursor !== undefined);
  return { pages, uris };
}

export async function listSkillsAll(client) {
  const uris = [];
  let cursor;
  let pages = 0;
  do {
    const result = await client.request(
      { method: 'skills/list', params: cursor === undefined ? {} : { cursor } },
      AnyResult,
    );
    pages++;
    for (const skill of result.skills) for (const r of skill.resources) uris.push(r.uri);
    cursor = result.nextCursor;
  } while (cursor !== undefined);
  return { pages, uris };
}

/** `sessions` clients each run `op` back to back for `seconds`; returns completed operations per second. */
async function throughput(sessions, seconds, op) {
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  let bytes = 0;
  const started = performance.now();
  await Promise.all(
    sessions.map(async (session, i) => {
      let n = i;
      while (performance.now() < deadline) {
        bytes += await op(session, n++);
        done++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { perSecond: done / elapsed, mbPerSecond: bytes / 1e6 / elapsed, operations: done };
}

export async function measureProtocol(
  url,
  { seconds = 5, repeats = 3, sessionsCount = 8, seed = 'protocol', era = 'legacy', reads = true } = {},
) {
  const main = await connect(url, 'companion-bench-main', era);
  const sessions = [];
  try {
    // The floor: one round trip through the same HTTP stack with the era's cheapest answer, measured between the
    // walks (10 before each), so a busy moment on the shared machine weighs on both sides of the ratio.
    for (let i = 0; i < 20; i++) await main.floor();
    const pings = [];

    // One untimed walk of each list first, so neither era is timed while the JIT warms its path.
    await listResourcesAll(main.client);
    await listSkillsAll(main.client);
    const resourceRuns = [];
    const skillRuns = [];
    let resources;
    let skills;
    for (let i = 0; i < repeats; i++) {
      for (let j = 0; j < 10; j++) pings.push((await timed(() => main.floor())).ms);
      const r = await timed(() => listResourcesAll(main.client));
      resourceRuns.push(r.ms);
      resources = r.value;
      const s = await timed(() => listSkillsAll(main.client));
      skillRuns.push(s.ms);
      skills = s.value;
    }

    const pingMs = median(pings);
    const lists = {
      era,
      pingMs,
      resourcesList: {
        ms: median(resourceRuns),
        pages: resources.pages,
        entries: resources.uris.length,
        ratioToPings: median(resourceRuns) / (resources.pages * pingMs),
      },
      skillsList: {
        ms: median(skillRuns),
        pages: skills.pages,
        files: skills.uris.length,
        ratioToPings: median(skillRuns) / (skills.pages * pingMs),
      },
    };
    if (!reads) return lists;

    // Mixed URIs: every listed resource and every file of every skill manifest, shuffled with a seed.
    const random = createRandom(seed);
    const pool = [...new Set([...resources.uris, ...skills.uris])];
    for (let i = pool.length - 1; i > 0; i--) {
      const j = random.int(0, i);
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    for (let i = 0; i < sessionsCount; i++) sessions.push(await connect(url, `companion-bench-${i}`, era));
    const ping = async (session) => {
      await session.floor();
      return 0;
    };
    // A raw request, so no client-side cache (the 2026-07-28 client honours ttlMs) stands in for the server.
    const read = async ({ client }, n) => {
      const result = await client.request(
        { method: 'resources/read', params: { uri: pool[n % pool.length] } },
        AnyResult,
      );
      const content = result.contents[0];
      return content.text !== undefined ? content.text.length : content.blob.length;
    };
    // Warm both paths (JIT, connections), then pings before and after the reads: the floor is their mean.
    await throughput(sessions, 1, ping);
    await throughput(sessions, 1, read);
    const pingBefore = await throughput(sessions, Math.max(2, seconds / 2), ping);
    await sleep(200);
    const readRate = await throughput(sessions, seconds, read);
    await sleep(200);
    const pingAfter = await throughput(sessions, Math.max(2, seconds / 2), ping);
    const pingRate = { perSecond: (pingBefore.perSecond + pingAfter.perSecond) / 2 };
    return {
      ...lists,
      reads: {
        sessions: sessionsCount,
        seconds,
        perSecond: readRate.perSecond,
        mbPerSecond: readRate.mbPerSecond,
        pingsPerSecond: pingRate.perSecond,
        ratioToPings: readRate.perSecond / pingRate.perSecond,
        poolSize: pool.length,
      },
    };
  } finally {
    for (const session of sessions) await session.close().catch(() => {});
    await main.close().catch(() => {});
  }
}

/**
 * `document_lookup` (a `tools/call`): the first search (the index is built), the same search again, and the
 * first search after a save of one document (the index is patched) — each as one round trip from the client.
 * The edited document is restored afterwards.
 */
export async function measureSearch(url, info, query = 'migrate release token') {
  const main = await connect(url, 'companion-bench-search');
  const { uri, path } = info.editTargets.document;
  const file = join(info.root, path);
  const original = readFileSync(file);
  let waiting;
  main.client.setNotificationHandler('notifications/resources/updated', (notification) => {
    if (notification.params.uri === uri) waiting?.();
  });
  const search = () => timed(() => main.client.callTool({ name: 'document_lookup', arguments: { query } }));
  const save = async (bytes) => {
    const updated = new Promise((resolve) => {
      waiting = resolve;
    });
    writeFileSync(file, bytes);
    await updated;
  };
  try {
    await main.client.subscribeResource({ uri });
    const first = await search();
    const again = await search();
    const afterSave = [];
    for (let i = 0; i < 3; i++) {
      await save(Buffer.concat([original, Buffer.from(`\nSearch edit ${i}: migrate the release token.\n`)]));
      afterSave.push((await search()).ms);
    }
    await save(original);
    return { query, firstMs: first.ms, againMs: again.ms, afterSaveMs: median(afterSave) };
  } finally {
    writeFileSync(file, original);
    await main.close().catch(() => {});
  }
}

export async function runProtocol({ size = 'L', seconds = 5, era = 'legacy' } = {}) {
  assertBuilt();
  const info = ensureCorpus(size, { log });
  const daemon = await startDevProcess(info.root);
  try {
    const protocol = await measureProtocol(daemon.url, { seconds, era });
    return { size, ...protocol, search: await measureSearch(daemon.url, info) };
  } finally {
    await daemon.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const size = args.find((a) => !a.startsWith('--')) ?? 'L';
  const at = args.indexOf('--seconds');
  const eraAt = args.indexOf('--era');
  const row = await runProtocol({
    size,
    seconds: at >= 0 ? Number(args[at + 1]) : 5,
    era: eraAt >= 0 ? args[eraAt + 1] : 'legacy',
  });
  process.stdout.write(`${JSON.stringify(row, null, 2)}\n`);
}
