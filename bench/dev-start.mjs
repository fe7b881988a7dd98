#!/usr/bin/env node
/**
 * `companion dev` from a host's point of view, from the moment it is started (issue 18's rows about start-up):
 *
 * - **start → listening**: spawn to the plain log's `listening on <url>`.
 * - **start → a full `skills/list` answered**: a 2026-07-28 host connects the moment the daemon listens and walks
 *   every page of `skills/list` (what a Skills host does first); spawn to its last page.
 * - **start → ready**: spawn to `watching … for changes` (edits are noticed from then on).
 * - **RSS after ready**, after the idle time and after the first search.
 * - **the search index warm**: ready → the plain log's `search index ready` (built in the background from ready on),
 *   and the work it took.
 * - **CPU after ready**: once the index is warm, the daemon's CPU time (user + system, from `/proc/<pid>/stat`) over
 *   `idleSeconds` with no host and no edit, in 5-second windows: an idle daemon should cost nothing but its
 *   reconcile walk (`idleMain…`: the main thread's alone; the walk runs on the watcher's thread).
 * - **first `document_lookup` after ready** (and the idle time): what the first question costs.
 *
 * `--era legacy` connects the first host in the 2025-11-25 era instead (initialize, a session). `--tty` runs the
 * daemon with its dashboard on a 120×40 pseudo-terminal, as an author starts it: "listening" is then the first
 * frame that shows the URL, and only the start-up rows are measured (the dashboard prints no warm-up line).
 *
 *   node bench/dev-start.mjs <S|M|L|XL> [--idle-seconds N] [--runs N] [--era modern|legacy] [--tty]
 */
import { readFileSync } from 'node:fs';
import { startDevProcess } from './edit-latency.mjs';
import { ensureCorpus } from './generate-corpus.mjs';
import { assertBuilt, log, median, nowMs, readArgs, sleep } from './lib.mjs';
import { connect, listSkillsAll } from './protocol.mjs';

const CLOCK_TICKS = 100;
/** The plain log's line once the search index is warm. */
const WARM_LINE = /search index ready in ([\d.]+) ?(ms|s) \(([\d.]+) ?(ms|s) of work\)/;

/** The first line of the daemon's log matching `pattern`, polled; undefined after `timeoutMs`. */
async function waitForLine(daemon, pattern, timeoutMs) {
  const deadline = nowMs() + timeoutMs;
  for (;;) {
    const line = daemon.lines.find((l) => pattern.test(l.text));
    if (line || nowMs() > deadline) return line;
    await sleep(20);
  }
}

/**
 * User + system CPU time of a process, in ms (Linux); with `tid`, of that one thread (the main thread's is the
 * process id).
 */
export function readCpuMs(pid, tid) {
  try {
    const stat = tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`;
    const fields = readFileSync(stat, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

async function startOnce(info, { idleSeconds, query, era, tty }) {
  const spawned = nowMs();
  const daemon = await startDevProcess(info.root, {
    waitReady: false,
    tty: tty ? { cols: 120, rows: 40 } : false,
  });
  try {
    const listeningMs = daemon.listeningAt - spawned;
    const host = await connect(daemon.url, 'companion-bench-start', era);
    let skills;
    try {
      skills = await listSkillsAll(host.client);
    } finally {
      await host.close().catch(() => {});
    }
    const skillsListedMs = nowMs() - spawned;
    await daemon.ready;
    const readyMs = daemon.readyAt - spawned;
    // The daemon's CPU (all threads) to ready: what load on a shared machine inflates far less than wall time.
    const cpuToReadyMs = readCpuMs(daemon.pid);
    const startUp = {
      listeningMs,
      skillsListedMs,
      skillPages: skills.pages,
      readyMs,
      cpuToReadyMs,
      rssAfterReadyMb: daemon.rssMb(),
    };
    if (tty) return startUp;
    // The search index is warmed in the background from ready on (issue 18.4): its own row; idle begins after it.
    const warmLine = await waitForLine(daemon, WARM_LINE, 180_000);
    const warmMatch = warmLine && WARM_LINE.exec(warmLine.text);
    const warmMs = warmLine ? warmLine.at - daemon.readyAt : Number.NaN;
    const warmWorkMs = warmMatch ? Number(warmMatch[3]) * (warmMatch[4] === 's' ? 1000 : 1) : Number.NaN;
    const rssAfterWarmMb = daemon.rssMb();
    // Idle first, as the issue measured it: nothing asked, nothing edited, from the moment the watcher is ready.
    const windows = [];
    const mainWindows = [];
    let cpu = readCpuMs(daemon.pid);
    let mainCpu = readCpuMs(daemon.pid, daemon.pid);
    let at = nowMs();
    for (let i = 0; i < Math.ceil(idleSeconds / 5); i++) {
      await sleep(5000);
      const nextCpu = readCpuMs(daemon.pid);
      const nextMainCpu = readCpuMs(daemon.pid, daemon.pid);
      const nextAt = nowMs();
      windows.push((nextCpu - cpu) / (nextAt - at));
      mainWindows.push((nextMainCpu - mainCpu) / (nextAt - at));
      cpu = nextCpu;
      mainCpu = nextMainCpu;
      at = nextAt;
    }
    const rssAfterIdleMb = daemon.rssMb();
    const searcher = await connect(daemon.url, 'companion-bench-search', 'legacy');
    let firstSearchMs;
    try {
      const started = nowMs();
      await searcher.client.callTool({ name: 'document_lookup', arguments: { query } });
      firstSearchMs = nowMs() - started;
    } finally {
      await searcher.close().catch(() => {});
    }
    return {
      ...startUp,
      warmMs,
      warmWorkMs,
      rssAfterWarmMb,
      idleCpuWindows: windows,
      idleMainCpuWindows: mainWindows,
      rssAfterIdleMb,
      firstSearchMs,
      rssAfterSearchMb: daemon.rssMb(),
    };
  } finally {
    await daemon.stop();
  }
}

export async function runDevStart({
  size = 'L',
  runs = 1,
  idleSeconds = 10,
  query = 'migrate release token',
  era = 'modern',
  tty = false,
}) {
  assertBuilt();
  const info = ensureCorpus(size, { log });
  const samples = [];
  for (let run = 0; run < runs; run++) {
    samples.push(await startOnce(info, { idleSeconds, query, era, tty }));
    const last = samples.at(-1);
    log(
      `dev start ${size} (${era}${tty ? ', dashboard' : ''}) ${run + 1}/${runs}: listening ${last.listeningMs.toFixed(0)} ms, skills/list ${last.skillsListedMs.toFixed(0)} ms, ready ${last.readyMs.toFixed(0)} ms (CPU ${last.cpuToReadyMs.toFixed(0)} ms), RSS ${last.rssAfterReadyMb.toFixed(0)} MB${tty ? '' : `, first search ${last.firstSearchMs.toFixed(0)} ms`}`,
    );
  }
  const med = (key) => median(samples.map((s) => s[key]));
  if (tty) {
    return {
      size,
      runs,
      era,
      tty,
      listeningMs: med('listeningMs'),
      skillsListedMs: med('skillsListedMs'),
      skillPages: samples[0].skillPages,
      readyMs: med('readyMs'),
      cpuToReadyMs: med('cpuToReadyMs'),
      rssAfterReadyMb: med('rssAfterReadyMb'),
      samples,
    };
  }
  const windows = samples.flatMap((s) => s.idleCpuWindows);
  const mainWindows = samples.flatMap((s) => s.idleMainCpuWindows);
  return {
    size,
    runs,
    era,
    corpusMb: info.bytes / 1048576,
    files: info.files,
    listeningMs: med('listeningMs'),
    skillsListedMs: med('skillsListedMs'),
    skillPages: samples[0].skillPages,
    readyMs: med('readyMs'),
    cpuToReadyMs: med('cpuToReadyMs'),
    rssAfterReadyMb: med('rssAfterReadyMb'),
    warmMs: med('warmMs'),
    warmWorkMs: med('warmWorkMs'),
    rssAfterWarmMb: med('rssAfterWarmMb'),
    firstSearchMs: med('firstSearchMs'),
    rssAfterSearchMb: med('rssAfterSearchMb'),
    idleSeconds,
    idleCpuShare: windows.reduce((sum, v) => sum + v, 0) / windows.length,
    idleCpuMaxWindow: Math.max(...windows),
    // The main thread alone: what answers hosts and saves (the watcher's thread walks the tree for the reconcile).
    idleMainCpuShare: mainWindows.reduce((sum, v) => sum + v, 0) / mainWindows.length,
    idleMainCpuMaxWindow: Math.max(...mainWindows),
    rssAfterIdleMb: med('rssAfterIdleMb'),
    query,
    samples,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { positional, option } = readArgs();
  const size = positional[0] ?? 'L';
  const result = await runDevStart({
    size,
    runs: option('--runs', 1),
    idleSeconds: option('--idle-seconds', 30),
    era: option('--era', 'modern'),
    tty: process.argv.includes('--tty'),
  });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  process.exit(0);
}
