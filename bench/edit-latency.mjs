#!/usr/bin/env node
/**
 * Edit latency: a subscribed Streamable HTTP client (the SDK's `Client`), one document rewritten N times and one
 * skill reference rewritten N times, each write its own batch; the time from `writeFileSync` returning to the
 * `notifications/resources/updated` for that URI arriving at the client.
 *
 * Two modes:
 * - `cli` (the headline): `companion dev --root <corpus> --port 0` as its own process, exactly what ships. The
 *   rebuild time of each generation is read from its plain log ("generation N in X ms").
 * - `inproc` (the breakdown): the same composition in this process — `createCatalogStore` + `createWatcher`
 *   (with a sub-ms clock) + `serveHttp` — so each edit splits into: write → first watcher event, the batching
 *   window, re-read + rebuild, and notify → arrival.
 *
 * Every edited file is restored to its original bytes afterwards.
 *
 *   node bench/edit-latency.mjs <S|M|L> [--mode cli|inproc] [--edits N] [--dir COPY]
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ensureCorpus } from './generate-corpus.mjs';
import {
  assertBuilt,
  binPath,
  createRandom,
  distDir,
  log,
  median,
  nowMs,
  percentile,
  readArgs,
  sleep,
} from './lib.mjs';

const importDist = (path) => import(pathToFileURL(join(distDir, path)).href);

/** The watcher's batching defaults, read from the build so the report states what actually ran. */
export async function readWatcherDefaults() {
  const source = readFileSync(join(distDir, 'fs/watcher.js'), 'utf8');
  const batchMs = Number(/options\.batchMs \?\? (\d+)/.exec(source)?.[1]);
  const maxBatchMs = Number(/options\.maxBatchMs \?\? (\d+)/.exec(source)?.[1]);
  const reconcileIntervalMs = Number(/options\.reconcileIntervalMs \?\? (\d+)/.exec(source)?.[1]);
  return { batchMs, maxBatchMs, reconcileIntervalMs };
}

/**
 * Starts `companion dev` and resolves once it listens and its watcher is ready.
 *
 * `tty: false` (the default): plain-log mode, stdout a pipe — the rebuild time of each generation is read from its
 * log. `tty: { cols, rows }`: the Ink dashboard on a real pseudo-terminal (node-pty) of that size, drawn exactly
 * as an author sees it; its output is drained (and counted) but not rendered, and readiness is read from the
 * screen's text with escape codes stripped. `nodeArgs` go before the script (e.g. `--cpu-prof`, for profiling).
 * `waitReady: false` resolves as soon as it listens (`ready` resolves once the watcher is). `env` is added to the
 * daemon's environment.
 */
export async function startDevProcess(root, { tty = false, nodeArgs = [], waitReady = true, env = {} } = {}) {
  const args = [...nodeArgs, binPath, 'dev', '--root', root, '--port', '0'];
  const lines = [];
  const waiters = [];
  let buffer = '';
  let stderr = '';
  let exited;
  let kill;
  let pid;
  let ttyBytes = 0;
  const onText = (chunk) => {
    buffer += chunk;
    let at = buffer.indexOf('\n');
    while (at !== -1) {
      const text = tty ? stripAnsi(buffer.slice(0, at)) : buffer.slice(0, at);
      const line = { text, at: nowMs() };
      buffer = buffer.slice(at + 1);
      lines.push(line);
      // A dashboard redraws the same lines again and again: keep only the last few hundred.
      if (tty && lines.length > 400) lines.splice(0, lines.length - 200);
      for (const waiter of [...waiters]) {
        if (waiter.pattern.test(line.text)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
      at = buffer.indexOf('\n');
    }
  };
  if (tty) {
    const pty = (await import('node-pty')).default;
    const { CI: _ci, CONTINUOUS_INTEGRATION: _cci, NO_COLOR: _nc, ...inherited } = process.env;
    const child = pty.spawn(process.execPath, args, {
      name: 'xterm-256color',
      cols: tty.cols ?? 120,
      rows: tty.rows ?? 40,
      cwd: root,
      env: { ...inherited, ...env, TERM: 'xterm-256color', FORCE_COLOR: '1' },
    });
    pid = child.pid;
    exited = new Promise((resolve) => child.onExit(resolve));
    child.onData((data) => {
      ttyBytes += data.length;
      onText(data);
    });
    kill = (signal) => {
      try {
        child.kill(signal);
      } catch {
        // Already gone.
      }
    };
  } else {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env, NO_COLOR: '1', CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    pid = child.pid;
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.stdout.on('data', onText);
    exited = new Promise((resolve) => child.once('exit', resolve));
    kill = (signal) => child.kill(signal);
  }
  let hasExited = false;
  exited.then(() => {
    hasExited = true;
  });
  const waitLine = (pattern, timeoutMs) => {
    const found = lines.find((l) => pattern.test(l.text));
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `dev: no line matching ${pattern} after ${timeoutMs} ms; stderr: ${stderr.slice(-500)}` +
                (tty
                  ? `; screen: ${lines
                      .slice(-20)
                      .map((l) => l.text)
                      .join('\n')}`
                  : ''),
            ),
          ),
        timeoutMs,
      );
      exited.then(() => reject(new Error(`dev exited early; stderr: ${stderr.slice(-1000)}`)));
      waiters.push({
        pattern,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
    });
  };
  const started = nowMs();
  // Plain mode logs `listening on <url>`; the dashboard shows the URL in its header.
  const urlPattern = tty ? /companion dev .*?(http:\/\/\S+\/mcp)/ : /listening on (http\S+)/;
  const listening = await waitLine(urlPattern, 180_000);
  const ready = waitLine(
    tty ? /watching\b|polling/ : /watching\b.*for changes|watcher polling|fell back to polling/,
    300_000,
  ).then((line) => line.at);
  // Never an unhandled rejection when the caller stops the daemon before it is ready.
  ready.catch(() => {});
  const readyAt = waitReady ? await ready : undefined;
  const handle = {
    url: urlPattern.exec(listening.text)[1],
    pid,
    /** Spawn to `watching`; only when started with `waitReady` (the default). */
    readyMs: readyAt === undefined ? undefined : readyAt - started,
    listeningAt: listening.at,
    /** Set once the watcher is ready (`ready` resolves then). */
    readyAt,
    ready: undefined,
    lines,
    ttyBytes: () => ttyBytes,
    rssMb: () => readRssMb(pid),
    async stop() {
      kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (!hasExited) kill('SIGKILL');
    },
  };
  handle.ready = ready.then((at) => {
    handle.readyAt = at;
  });
  handle.ready.catch(() => {});
  return handle;
}

/** The text of a terminal line: CSI and OSC sequences and carriage returns removed. */
function stripAnsi(text) {
  return text.replace(
    /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|\r/g,
    '',
  );
}

/** Builds the same daemon in this process, with a sub-ms watcher clock and a record of every batch. */
async function startInProcess(root) {
  const { createCatalogStore } = await importDist('fs/catalog-store.js');
  const { createWatcher } = await importDist('fs/watcher.js');
  const { serveHttp } = await importDist('mcp/serve-http.js');
  const started = nowMs();
  const store = createCatalogStore({ root });
  const server = await serveHttp(store, { port: 0, cacheTtlMs: 0 });
  const batches = [];
  const watcher = createWatcher(store, {
    now: nowMs,
    onBatch: (change, paths) => {
      const last = watcher.status().lastBatch;
      batches.push({ paths, at: last?.at, waitMs: last?.waitMs, rebuildMs: change?.rebuildMs, end: nowMs() });
    },
  });
  await watcher.ready;
  return {
    url: server.url,
    readyMs: nowMs() - started,
    batches,
    rssMb: () => process.memoryUsage().rss / 1024 / 1024,
    async stop() {
      await watcher.close();
      await server.close();
    },
  };
}

function readRssMb(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * A connected client that timestamps every resources/updated it receives: a 2025-11-25 host subscribed to `uris`
 * (`era` 'legacy'), or a 2026-07-28 host with one `subscriptions/listen` stream naming them ('modern').
 */
export async function connectSubscribed(url, uris, era = 'legacy') {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const mode = era === 'modern' ? { pin: '2026-07-28' } : 'legacy';
  const client = new Client(
    { name: `companion-bench-${era}`, version: '1.0.0' },
    { versionNegotiation: { mode } },
  );
  const arrivals = [];
  const waiters = [];
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    const arrival = { uri: notification.params.uri, at: nowMs() };
    arrivals.push(arrival);
    for (const waiter of [...waiters]) {
      if (waiter.uri === arrival.uri && arrival.at >= waiter.after) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(arrival);
      }
    }
  });
  await client.connect(transport);
  let listening;
  if (era === 'modern') listening = await client.listen({ resourceSubscriptions: [...uris] });
  else for (const uri of uris) await client.subscribeResource({ uri });
  return {
    client,
    waitUpdated(uri, after, timeoutMs) {
      const found = arrivals.find((a) => a.uri === uri && a.at >= after);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { uri, after, resolve };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no resources/updated for ${uri} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiter.resolve = (arrival) => {
          clearTimeout(timer);
          resolve(arrival);
        };
        waiters.push(waiter);
      });
    },
    async close() {
      await listening?.close().catch(() => {});
      if (era === 'legacy') await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

/**
 * Rewrites each target `edits` times with different bytes (the original plus a changing paragraph), waiting for
 * its notification and then a pause, so every write is its own batch. Stops a kind early when its share of
 * `budgetMs` runs out.
 */
async function editLoop({ root, targets, edits, budgetMs, subscriber, random, afterEach }) {
  const results = {};
  for (const target of targets) {
    // Each kind gets an equal share of the budget.
    const deadline = nowMs() + budgetMs / targets.length;
    const path = join(root, target.path);
    const original = readFileSync(path);
    const samples = [];
    try {
      for (let i = 0; i < edits && nowMs() < deadline; i++) {
        const extra = Buffer.from(
          `\n\nEdit ${i + 1} (${random.int(0, 1e9)}): the ${target.kind} changed again.\n`,
        );
        writeFileSync(path, Buffer.concat([original, extra]));
        const written = nowMs();
        const arrival = await subscriber.waitUpdated(target.uri, written, 60_000);
        samples.push({ written, arrived: arrival.at, latencyMs: arrival.at - written });
        await afterEach?.(samples.at(-1), target);
        // Quiet long enough to close the batch, plus jitter so writes do not lock step with the daemon's timers.
        await sleep(60 + random.int(0, 60));
      }
    } finally {
      writeFileSync(path, original);
    }
    results[target.kind] = samples;
  }
  // Let the restore settle so the next bench starts from the corpus as generated.
  await sleep(300);
  return results;
}

function summarize(samples) {
  const latencies = samples.map((s) => s.latencyMs);
  return {
    n: latencies.length,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    max: Math.max(...latencies),
  };
}

/**
 * `after(daemon)` runs against the same daemon once the edits are done and restored (run.mjs measures protocol
 * costs there, so L is loaded once); its result is returned as `after`.
 */
export async function runEditLatency({
  size,
  mode = 'cli',
  edits = 50,
  budgetMs = 240_000,
  after,
  dir,
} = {}) {
  assertBuilt();
  const info = ensureCorpus(size, { log, ...(dir === undefined ? {} : { dir }) });
  const defaults = await readWatcherDefaults();
  const targets = [
    { kind: 'document', path: info.editTargets.document.path, uri: info.editTargets.document.uri },
    { kind: 'reference', path: info.editTargets.reference.path, uri: info.editTargets.reference.uri },
  ];
  const daemon = mode === 'cli' ? await startDevProcess(info.root) : await startInProcess(info.root);
  log(`edit latency ${size} (${mode}): daemon ready in ${daemon.readyMs.toFixed(0)} ms at ${daemon.url}`);
  const rssAfterLoadMb = daemon.rssMb();
  const subscriber = await connectSubscribed(
    daemon.url,
    targets.map((t) => t.uri),
  );
  // `companion dev` warms its search index from ready on (issue 18.4): one lookup finishes it, so the edits below
  // measure the daemon at rest (bench/warm-up.mjs measures edits during the warm-up).
  if (mode === 'cli') {
    await subscriber.client.callTool({ name: 'document_lookup', arguments: { query: 'warm up' } });
  }
  const random = createRandom(`edit-latency:${size}:${mode}`);
  const breakdown = [];
  let results;
  let afterResult;
  let rssAfterEditsMb;
  try {
    results = await editLoop({
      root: info.root,
      targets,
      edits,
      budgetMs,
      subscriber,
      random,
      afterEach: async (sample, target) => {
        if (mode === 'cli') {
          // The plain log line of the generation this write caused (printed before the notification is sent).
          const line = daemon.lines.find((l) => l.at >= sample.written && /generation \d+ in/.test(l.text));
          const match = line && /generation (\d+) in ([\d.]+) ?(ms|s)/.exec(line.text);
          if (match) sample.rebuildMs = Number(match[2]) * (match[3] === 's' ? 1000 : 1);
        } else {
          const batch = daemon.batches.find((b) => b.end >= sample.written && b.paths.includes(target.path));
          if (batch) {
            const firstEvent = batch.at - batch.waitMs;
            breakdown.push({
              kind: target.kind,
              toEventMs: firstEvent - sample.written,
              waitMs: batch.waitMs,
              rebuildMs: batch.rebuildMs,
              notifyMs: sample.arrived - (batch.at + (batch.rebuildMs ?? 0)),
              latencyMs: sample.latencyMs,
            });
            sample.rebuildMs = batch.rebuildMs;
          }
        }
      },
    });
    rssAfterEditsMb = daemon.rssMb();
    if (after) afterResult = await after(daemon);
  } finally {
    await subscriber.close().catch(() => {});
    await daemon.stop();
  }
  const all = [...results.document, ...results.reference];
  const rebuilds = all.map((s) => s.rebuildMs).filter((v) => v !== undefined);
  const row = {
    size,
    mode,
    readyMs: daemon.readyMs,
    rssAfterLoadMb,
    batchMs: defaults.batchMs,
    maxBatchMs: defaults.maxBatchMs,
    document: summarize(results.document),
    reference: summarize(results.reference),
    all: summarize(all),
    rebuildP50Ms: median(rebuilds),
    requestedEdits: edits,
    rssAfterEditsMb,
    ...(afterResult === undefined ? {} : { after: afterResult }),
  };
  if (breakdown.length > 0) {
    const med = (key) => median(breakdown.map((b) => b[key]).filter((v) => v !== undefined));
    row.breakdown = {
      n: breakdown.length,
      toEventMs: med('toEventMs'),
      waitMs: med('waitMs'),
      rebuildMs: med('rebuildMs'),
      notifyMs: med('notifyMs'),
      latencyMs: med('latencyMs'),
    };
  }
  return row;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { positional, option } = readArgs();
  const size = positional[0] ?? 'S';
  const row = await runEditLatency({
    size,
    mode: option('--mode', 'cli'),
    edits: option('--edits', 50),
    budgetMs: option('--budget-ms', 240_000),
    // A copy of the corpus to edit (`cp -r bench/.corpus/L-g3 /tmp/mine`), when others read the shared one.
    dir: option('--dir', undefined),
  });
  process.stdout.write(`${JSON.stringify(row, null, 2)}\n`);
}
