/**
 * Shared helpers for the benchmarks: paths, a seeded PRNG, statistics, peak-RSS measurement of child processes,
 * and table formatting. Everything here is plain Node; nothing imports the SDK.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));
export const benchDir = fileURLToPath(new URL('.', import.meta.url));
/**
 * The build under test: this repository's, or another checkout's (a directory holding `bin/companion.js` and
 * `dist/`) named by COMPANION_BENCH_BUILD — to measure a candidate fix against the same corpora.
 */
export const buildRoot = process.env.COMPANION_BENCH_BUILD
  ? resolve(process.env.COMPANION_BENCH_BUILD)
  : repoRoot;
export const binPath = join(buildRoot, 'bin/companion.js');
export const distDir = `${join(buildRoot, 'dist')}/`;

/** Fails early, with the fix, when the build output the benchmarks import is missing. */
export function assertBuilt() {
  if (!existsSync(`${distDir}bundle/main.js`)) {
    throw new Error('dist/ is missing: run `npm run build` first.');
  }
}

/** mulberry32: a small, fast, seeded 32-bit PRNG. Deterministic across Node versions. */
export function createRandom(seed) {
  let state = typeof seed === 'number' ? seed >>> 0 : hashString(String(seed));
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** Integer in [min, max]. */
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)],
    chance: (p) => next() < p,
  };
}

/** FNV-1a, 32 bit. */
export function hashString(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Nearest-rank percentile of numbers (p in 0..100). */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function median(values) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function mean(values) {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** High-resolution wall clock in ms since the epoch (sub-ms precision, comparable across processes). */
export function nowMs() {
  return performance.timeOrigin + performance.now();
}

/**
 * Runs a command to completion and reports its wall time (measured here, so process start is included) and peak
 * RSS. Peak RSS comes from `/usr/bin/time -v` ("Maximum resident set size") when it exists; otherwise from
 * polling `/proc/<pid>/status` VmHWM every 5 ms (which can miss the last few ms of growth).
 */
export async function runMeasured(command, args, options = {}) {
  const useTime = existsSync('/usr/bin/time');
  const file = useTime ? '/usr/bin/time' : command;
  const argv = useTime ? ['-v', command, ...args] : args;
  const started = performance.now();
  const child = spawn(file, argv, { cwd: options.cwd ?? repoRoot, env: options.env ?? process.env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  let polledKb = 0;
  const poll = useTime
    ? undefined
    : setInterval(() => {
        try {
          const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
          if (match) polledKb = Math.max(polledKb, Number(match[1]));
        } catch {
          // The process is gone.
        }
      }, 5);
  const code = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  const wallMs = performance.now() - started;
  if (poll) clearInterval(poll);
  let peakRssKb = polledKb;
  let cpuMs = Number.NaN;
  if (useTime) {
    const match = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
    if (match) peakRssKb = Number(match[1]);
    const user = /User time \(seconds\): ([\d.]+)/.exec(stderr);
    const system = /System time \(seconds\): ([\d.]+)/.exec(stderr);
    if (user && system) cpuMs = (Number(user[1]) + Number(system[1])) * 1000;
    stderr = stderr.replace(/\s*Command (being timed|exited)[\s\S]*$/, '');
  }
  return { code, wallMs, cpuMs, peakRssMb: peakRssKb / 1024, stdout, stderr };
}

/** RSS of this process in MB (current, not peak). */
export function rssMb() {
  return process.memoryUsage().rss / 1024 / 1024;
}

/** The 1-minute load average now (runnable processes; 2 here means both cores were busy). */
export function loadAverage() {
  return loadavg()[0];
}

/**
 * Samples the 1-minute load average every `everyMs` until `stop()`, which returns the lowest, median and highest
 * sample: how busy this shared machine was while a run measured it.
 */
export function sampleLoad(everyMs = 5000) {
  const samples = [loadAverage()];
  const timer = setInterval(() => samples.push(loadAverage()), everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      samples.push(loadAverage());
      return { min: Math.min(...samples), median: median(samples), max: Math.max(...samples) };
    },
  };
}

/** Describes this machine for RESULTS.md. */
export function describeMachine() {
  let model = cpus()[0]?.model ?? 'unknown';
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    if (line) model = line.split(':')[1].trim();
  } catch {
    // Not Linux.
  }
  return {
    nproc: cpus().length,
    cpu: model,
    ramGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

export function fmtMs(ms) {
  if (!Number.isFinite(ms)) return 'n/a';
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

export function fmtRatio(ratio) {
  if (!Number.isFinite(ratio)) return 'n/a';
  return ratio >= 100
    ? `${ratio.toFixed(0)}×`
    : ratio >= 10
      ? `${ratio.toFixed(1)}×`
      : `${ratio.toFixed(2)}×`;
}

export function fmtMb(mb) {
  return Number.isFinite(mb) ? `${mb.toFixed(0)} MB` : 'n/a';
}

/** A Markdown table from a header row and rows of cells. */
export function markdownTable(header, rows) {
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  return lines.join('\n');
}

/** One line per progress step, to stderr, so stdout stays the table. */
/**
 * A bench script's command line: the sizes (or other words) it was given, and `option('--name', fallback)` —
 * the value after `--name`, a number when the fallback is one, else the fallback.
 */
export function readArgs(argv = process.argv.slice(2)) {
  const positional = argv.filter((arg, i) => !arg.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  const option = (name, fallback) => {
    const at = argv.indexOf(name);
    if (at < 0 || argv[at + 1] === undefined) return fallback;
    return typeof fallback === 'number' ? Number(argv[at + 1]) : argv[at + 1];
  };
  return { positional, option };
}

export function log(message) {
  process.stderr.write(`[bench] ${message}\n`);
}
