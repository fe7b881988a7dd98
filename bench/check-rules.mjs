#!/usr/bin/env node
/**
 * What the lint rules cost (issue 15's Measure): `companion check` of this build against the build of a base
 * commit without them, beside the physical limit (bench/physical-limit.mjs: read + SHA-256 every file), on S and
 * L. Separate processes, interleaved base / new / limit with the order rotating each round, medians; the ratio
 * is the median of per-round ratios, so each pairs two runs that saw the same machine load. A second table takes
 * process start and file reading out: `readSnapshot` once, then `buildCatalog` of fresh copies of the same bytes
 * with each build's core, interleaved in one process.
 *
 *   node bench/check-rules.mjs --base-ref <commit> [--sizes S,L] [--rounds N]
 *
 * The base build is made once into bench/.base/<commit>/ (git archive of the commit, this checkout's
 * node_modules linked, tsc + the bundle script) and reused. Goal: L check ≤ 1.25 × the base.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureCorpus } from './generate-corpus.mjs';
import {
  assertBuilt,
  benchDir,
  binPath,
  distDir,
  fmtMs,
  fmtRatio,
  log,
  markdownTable,
  median,
  repoRoot,
  runMeasured,
} from './lib.mjs';

const limitScript = fileURLToPath(new URL('./physical-limit.mjs', import.meta.url));

function argValue(name, fallback) {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : process.argv[at + 1];
}

/** Builds `ref` into bench/.base/<sha>/ unless it is there already; returns that directory. */
export function ensureBaseBuild(ref) {
  const sha = execFileSync('git', ['rev-parse', ref], { cwd: repoRoot, encoding: 'utf8' }).trim();
  const dir = join(benchDir, '.base', sha);
  if (existsSync(join(dir, 'dist', 'bundle', 'main.js'))) return dir;
  log(`building the base ${sha.slice(0, 12)} into ${dir}…`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${sha} | tar -x -C "${dir}"`], { cwd: repoRoot });
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
  execFileSync(
    process.execPath,
    [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: dir,
    },
  );
  execFileSync(process.execPath, ['scripts/bundle.mjs'], { cwd: dir, stdio: 'ignore' });
  return dir;
}

function codesOf(result) {
  try {
    return JSON.parse(result.stdout)
      .diagnostics.map((d) => d.code)
      .sort();
  } catch {
    throw new Error(`check printed no JSON (exit ${result.code}): ${result.stderr.slice(0, 300)}`);
  }
}

async function measureProcesses(size, baseDir, rounds) {
  const info = ensureCorpus(size, { log });
  const sides = {
    base: [
      process.execPath,
      [join(baseDir, 'bin/companion.js'), 'check', '--root', info.root, '--format', 'json'],
    ],
    new: [process.execPath, [binPath, 'check', '--root', info.root, '--format', 'json']],
    limit: [process.execPath, [limitScript, info.root]],
  };
  const samples = { base: [], new: [], limit: [] };
  const names = Object.keys(sides);
  for (const name of names) await runMeasured(...sides[name]); // warm the page cache for all three
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const name of order) samples[name].push(await runMeasured(...sides[name]));
    log(
      `${size} round ${round + 1}/${rounds}: base ${samples.base.at(-1).wallMs.toFixed(0)} ms, new ${samples.new.at(-1).wallMs.toFixed(0)} ms, limit ${samples.limit.at(-1).wallMs.toFixed(0)} ms`,
    );
  }
  const newCodes = codesOf(samples.new[0]);
  const expected = [...info.expectedCodes].sort();
  if (JSON.stringify(newCodes) !== JSON.stringify(expected)) {
    throw new Error(
      `check on ${size} found ${JSON.stringify(newCodes)}, expected ${JSON.stringify(expected)}`,
    );
  }
  const med = (name, key) => median(samples[name].map((s) => s[key]));
  const ratio = (a, b, key) => median(samples[a].map((s, i) => s[key] / samples[b][i][key]));
  return {
    size,
    files: info.files,
    mb: info.bytes / 1e6,
    rounds,
    baseWallMs: med('base', 'wallMs'),
    newWallMs: med('new', 'wallMs'),
    limitWallMs: med('limit', 'wallMs'),
    wallRatio: ratio('new', 'base', 'wallMs'),
    baseCpuMs: med('base', 'cpuMs'),
    newCpuMs: med('new', 'cpuMs'),
    cpuRatio: ratio('new', 'base', 'cpuMs'),
    newOverLimit: ratio('new', 'limit', 'wallMs'),
    baseOverLimit: ratio('base', 'limit', 'wallMs'),
    baseRssMb: med('base', 'peakRssMb'),
    newRssMb: med('new', 'peakRssMb'),
  };
}

/** buildCatalog alone: one snapshot read, fresh copies of its bytes for every build so no memo helps. */
async function measureInProcess(size, baseDir, rounds) {
  const info = ensureCorpus(size, { log });
  const { readSnapshot } = await import(pathToFileURL(join(distDir, 'fs/read-snapshot.js')).href);
  const builds = {
    base: (await import(pathToFileURL(join(baseDir, 'dist/core/catalog.js')).href)).buildCatalog,
    new: (await import(pathToFileURL(join(distDir, 'core/catalog.js')).href)).buildCatalog,
  };
  const snapshot = readSnapshot(info.root);
  const fresh = () => ({
    files: new Map([...snapshot.files].map(([path, f]) => [path, { ...f, bytes: new Uint8Array(f.bytes) }])),
    problems: snapshot.problems,
  });
  const samples = { base: [], new: [] };
  for (let round = 0; round < rounds + 1; round++) {
    for (const name of round % 2 === 0 ? ['base', 'new'] : ['new', 'base']) {
      const input = fresh();
      globalThis.gc?.();
      const started = performance.now();
      builds[name](input);
      if (round > 0) samples[name].push(performance.now() - started); // round 0 warms the JIT
    }
  }
  return {
    size,
    rounds,
    baseMs: median(samples.base),
    newMs: median(samples.new),
    ratio: median(samples.new.map((ms, i) => ms / samples.base[i])),
  };
}

async function main() {
  assertBuilt();
  const ref = argValue('--base-ref');
  if (!ref) {
    process.stderr.write(
      'usage: node bench/check-rules.mjs --base-ref <commit> [--sizes S,L] [--rounds N]\n',
    );
    process.exit(2);
  }
  const baseDir = ensureBaseBuild(ref);
  const sizes = argValue('--sizes', 'S,L').split(',');
  const rounds = Number(argValue('--rounds', '0')) || undefined;
  const processes = [];
  const inProcess = [];
  for (const size of sizes) {
    processes.push(await measureProcesses(size, baseDir, rounds ?? (size === 'L' ? 7 : 11)));
    inProcess.push(await measureInProcess(size, baseDir, rounds ?? (size === 'L' ? 5 : 11)));
  }
  const goal = (row) => (row.size === 'L' ? (row.wallRatio <= 1.25 ? ' ✅' : ' ❌') : '');
  process.stdout.write(
    `${markdownTable(
      [
        'size',
        'files',
        'check before',
        'check after',
        'after / before (wall)',
        'CPU before',
        'CPU after',
        'after / before (CPU)',
        'read + hash limit',
        'before / limit',
        'after / limit',
        'peak RSS before → after',
      ],
      processes.map((r) => [
        r.size,
        String(r.files),
        fmtMs(r.baseWallMs),
        fmtMs(r.newWallMs),
        `${fmtRatio(r.wallRatio)}${goal(r)}`,
        fmtMs(r.baseCpuMs),
        fmtMs(r.newCpuMs),
        fmtRatio(r.cpuRatio),
        fmtMs(r.limitWallMs),
        fmtRatio(r.baseOverLimit),
        fmtRatio(r.newOverLimit),
        `${r.baseRssMb.toFixed(0)} → ${r.newRssMb.toFixed(0)} MB`,
      ]),
    )}\n\n${markdownTable(
      ['size', 'buildCatalog before', 'buildCatalog after', 'after / before'],
      inProcess.map((r) => [r.size, fmtMs(r.baseMs), fmtMs(r.newMs), fmtRatio(r.ratio)]),
    )}\n`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
