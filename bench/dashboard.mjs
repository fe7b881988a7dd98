#!/usr/bin/env node
/**
 * The dashboard's cost to hosts, in both protocol eras: `companion dev` with its Ink dashboard on a real
 * pseudo-terminal (node-pty, 120×40) beside `companion dev` in plain-log mode, both running for the whole run on
 * two identical copies of the same corpus (the generator is deterministic). Each daemon has two hosts watching the
 * same two files: a 2025-11-25 host (`resources/subscribe`, notifications on its session's GET stream) and a
 * 2026-07-28 host (one `subscriptions/listen` stream) — what an author's Claude Code and VS Code look like.
 *
 * - Latency: the same edits (one document, one skill reference, different bytes every time) alternate between
 *   the two daemons write by write, in ABBA order, so load on this shared machine falls on both alike; the time
 *   from `writeFileSync` returning to `notifications/resources/updated` at each host of that daemon.
 * - Memory: then `saves` more saves alternate between them as fast as both hosts hear each (every save its own
 *   batch, its own redraw), sampling both daemons' RSS every 100 saves.
 *
 * Every edited file is restored to its original bytes afterwards.
 *
 *   node bench/dashboard.mjs <S|M|L> [--edits N] [--saves N] [--dashboard-node-args "--flag …"]
 *
 * `--dashboard-node-args` starts only the dashboard daemon with those Node flags (e.g. a V8 heap flag), to
 * measure a flag against plain-log mode without it. `--gc-counts` counts each daemon's scavenges and
 * mark-compacts over the saves (`bench/lab/gc-count.cjs`): how much garbage each side makes, which RSS, moved by
 * when V8 happens to collect, shows only through tens of MB of noise from run to run.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectSubscribed, startDevProcess } from './edit-latency.mjs';
import { corpusDir, ensureCorpus } from './generate-corpus.mjs';
import { assertBuilt, createRandom, log, nowMs, percentile, sleep } from './lib.mjs';

const SIDES = ['plain', 'dashboard'];
const ERAS = ['legacy', 'modern'];

export async function runDashboard({
  size = 'S',
  edits = 40,
  saves = 1000,
  cols = 120,
  rows = 40,
  dashboardNodeArgs = [],
  gcCounts = false,
} = {}) {
  assertBuilt();
  const corpora = {
    plain: ensureCorpus(size, { log }),
    dashboard: ensureCorpus(size, { log, dir: `${corpusDir(size)}-twin` }),
  };
  const daemons = {};
  const hosts = { plain: {}, dashboard: {} };
  const gcDir = gcCounts ? mkdtempSync(join(tmpdir(), 'companion-gc-')) : undefined;
  const gcFile = (side) => join(gcDir, `${side}.json`);
  const gcArgs = gcCounts ? ['--require', fileURLToPath(new URL('./lab/gc-count.cjs', import.meta.url))] : [];
  const gcEnv = (side) => (gcCounts ? { COMPANION_GC_COUNT_FILE: gcFile(side) } : {});
  /** Each side's GC counts so far, once its daemon wrote them. */
  const readGc = async () => {
    if (!gcCounts) return undefined;
    for (const side of SIDES) rmSync(gcFile(side), { force: true });
    for (const side of SIDES) process.kill(daemons[side].pid, 'SIGUSR2');
    const counts = {};
    for (const side of SIDES) {
      for (let tries = 0; counts[side] === undefined && tries < 100; tries++) {
        try {
          counts[side] = JSON.parse(readFileSync(gcFile(side), 'utf8'));
        } catch {
          await sleep(20);
        }
      }
    }
    return counts;
  };
  try {
    daemons.plain = await startDevProcess(corpora.plain.root, { nodeArgs: gcArgs, env: gcEnv('plain') });
    daemons.dashboard = await startDevProcess(corpora.dashboard.root, {
      tty: { cols, rows },
      nodeArgs: [...gcArgs, ...dashboardNodeArgs],
      env: gcEnv('dashboard'),
    });
    log(
      `dashboard ${size}: plain ready in ${daemons.plain.readyMs.toFixed(0)} ms, dashboard in ${daemons.dashboard.readyMs.toFixed(0)} ms`,
    );
    const targets = (side) => [
      { kind: 'document', ...corpora[side].editTargets.document },
      { kind: 'reference', ...corpora[side].editTargets.reference },
    ];
    for (const side of SIDES) {
      for (const era of ERAS) {
        hosts[side][era] = await connectSubscribed(
          daemons[side].url,
          targets(side).map((t) => t.uri),
          era,
        );
      }
    }
    // Each daemon warms its search index from ready on (issue 18.4; bench/warm-up.mjs measures edits during it):
    // one lookup finishes it, so both sides are measured warm, not one side while it still builds.
    for (const side of SIDES) {
      await hosts[side].legacy.client.callTool({ name: 'document_lookup', arguments: { query: 'warm up' } });
    }
    const rssAfterLoad = { plain: daemons.plain.rssMb(), dashboard: daemons.dashboard.rssMb() };
    const random = createRandom(`dashboard:${size}`);
    const originals = new Map();
    /** One save; resolves with each era's latency once both hosts of that daemon heard it. */
    const save = async (side, target, label) => {
      const path = join(corpora[side].root, target.path);
      if (!originals.has(path)) originals.set(path, readFileSync(path));
      const extra = Buffer.from(`\n\n${label} (${random.int(0, 1e9)}): the ${target.kind} changed again.\n`);
      writeFileSync(path, Buffer.concat([originals.get(path), extra]));
      const written = nowMs();
      const arrivals = await Promise.all(
        ERAS.map((era) => hosts[side][era].waitUpdated(target.uri, written, 60_000)),
      );
      return Object.fromEntries(ERAS.map((era, i) => [era, arrivals[i].at - written]));
    };

    const samples = { plain: [], dashboard: [] };
    try {
      for (let i = 0; i < edits; i++) {
        const order = i % 2 === 0 ? SIDES : [...SIDES].reverse();
        for (const side of order) {
          for (const target of targets(side)) {
            samples[side].push({ kind: target.kind, ...(await save(side, target, `Edit ${i + 1}`)) });
            // Quiet long enough to close the batch, plus jitter so writes do not lock step with timers.
            await sleep(60 + random.int(0, 60));
          }
        }
      }

      const memory = { plain: [], dashboard: [] };
      const sample = (done) => {
        for (const side of SIDES) memory[side].push({ saves: done, rssMb: daemons[side].rssMb() });
      };
      sample(0);
      const gcBefore = await readGc();
      const savesStarted = nowMs();
      for (let done = 1; done <= saves; done++) {
        for (const side of SIDES) await save(side, targets(side)[done % 2], `Save ${done}`);
        // Just past the 4 ms batch window, so every save is its own batch and its own redraw.
        await sleep(8);
        if (done % 100 === 0) sample(done);
      }
      const savesMs = nowMs() - savesStarted;
      const gcAfter = await readGc();

      const summary = (side, era) => {
        const values = samples[side].map((s) => s[era]);
        return { n: values.length, p50: percentile(values, 50), p95: percentile(values, 95) };
      };
      const result = { size, cols, rows, edits, saves, dashboardNodeArgs, savesMs, rssAfterLoad, memory };
      for (const side of SIDES) {
        result[side] = Object.fromEntries(ERAS.map((era) => [era, summary(side, era)]));
      }
      result.ratio = Object.fromEntries(
        ERAS.map((era) => [era, result.dashboard[era].p50 / result.plain[era].p50]),
      );
      result.memorySummary = summarizeMemory(memory, saves);
      result.ttyBytes = daemons.dashboard.ttyBytes();
      if (gcCounts) {
        // Over the saves only: what each side's GCs were while both got the same saves.
        result.gc = Object.fromEntries(
          SIDES.map((side) => [
            side,
            Object.fromEntries(
              Object.entries(gcAfter[side]).map(([kind, n]) => [
                kind,
                kind === 'heapMb' ? n : n - (gcBefore[side]?.[kind] ?? 0),
              ]),
            ),
          ]),
        );
      }
      return result;
    } finally {
      for (const [path, bytes] of originals) writeFileSync(path, bytes);
      await sleep(300);
    }
  } finally {
    for (const side of SIDES) for (const era of ERAS) await hosts[side][era]?.close().catch(() => {});
    for (const side of SIDES) await daemons[side]?.stop();
    if (gcDir !== undefined) rmSync(gcDir, { recursive: true, force: true });
  }
}

/**
 * What the RSS samples say against #11's goal: growth over the saves after a warm-up (the first 30% of them —
 * JIT, memo tables, V8 sizing its heap to the load), and how far the dashboard ends above plain-log mode. The
 * growth of plain-log mode over the same saves is the noise floor: both daemons build the same generations.
 */
export function summarizeMemory(memory, saves) {
  const after = (side, at) => memory[side].find((m) => m.saves >= at) ?? memory[side].at(-1);
  const warm = Math.round(saves * 0.3);
  const growth = (side) => memory[side].at(-1).rssMb - after(side, warm).rssMb;
  const peak = (side) => Math.max(...memory[side].filter((m) => m.saves >= warm).map((m) => m.rssMb));
  // V8 collects the old generation when it likes, so the end and the peak move by tens of MB from run to run;
  // the least-squares slope over the samples after warm-up says whether the trend is up.
  const slope = (side) => {
    const points = memory[side].filter((m) => m.saves >= warm);
    const mx = points.reduce((sum, m) => sum + m.saves, 0) / points.length;
    const my = points.reduce((sum, m) => sum + m.rssMb, 0) / points.length;
    const sxy = points.reduce((sum, m) => sum + (m.saves - mx) * (m.rssMb - my), 0);
    const sxx = points.reduce((sum, m) => sum + (m.saves - mx) ** 2, 0);
    return sxx === 0 ? 0 : (100 * sxy) / sxx;
  };
  return {
    warmUpSaves: warm,
    slopeMbPer100: { plain: slope('plain'), dashboard: slope('dashboard') },
    growthMb: { plain: growth('plain'), dashboard: growth('dashboard') },
    peakMb: { plain: peak('plain'), dashboard: peak('dashboard') },
    endMb: { plain: memory.plain.at(-1).rssMb, dashboard: memory.dashboard.at(-1).rssMb },
    aboveAtEndMb: memory.dashboard.at(-1).rssMb - memory.plain.at(-1).rssMb,
    abovePeakMb: peak('dashboard') - peak('plain'),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const size = args.find((a) => !a.startsWith('--')) ?? 'S';
  const option = (name, fallback) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : fallback;
  };
  const result = await runDashboard({
    size,
    edits: Number(option('--edits', '40')),
    saves: Number(option('--saves', '1000')),
    dashboardNodeArgs: option('--dashboard-node-args', '').split(' ').filter(Boolean),
    gcCounts: args.includes('--gc-counts'),
  });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  process.exit(0);
}
