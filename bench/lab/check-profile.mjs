#!/usr/bin/env node
/**
 * Where a cold `companion check` spends its main thread: runs `node --cpu-prof` of `check --format json` on a
 * root `--runs` times, then prints the share of each build phase (every sample goes to the innermost phase
 * function on its stack) and the functions with the most self time, averaged over the runs. The profiler
 * samples wall time on the thread: on a loaded machine a descheduled thread still collects samples, so compare
 * shares, and compare builds in the same run.
 *
 *   node bench/lab/check-profile.mjs <root> [--runs N] [--interval US] [--top N]
 *
 * COMPANION_BENCH_BUILD=<dir> profiles another build (as the benches do).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertBuilt, binPath } from '../lib.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
};
const root = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (root === undefined)
  throw new Error('usage: check-profile.mjs <root> [--runs N] [--interval US] [--top N]');
const runs = Number(option('--runs', 2));
const interval = Number(option('--interval', 200));
const top = Number(option('--top', 25));

/** Phase name → the functions that start it (the innermost one on a sample's stack wins). */
const PHASES = [
  ['hash (SHA-256)', ['hash']],
  ['decode (UTF-8 → text)', ['decode', 'decodeUtf8', 'decodeAscii', 'decodeLatin1']],
  ['directives (byte scan)', ['readDirectivesOf']],
  ['read: walk, open, fstat, read, close', ['walkDirectory']],
  ['documents: parse + lint', ['parseDocumentFile', 'readDocumentUnit']],
  ['documents: entries', ['deriveDocument']],
  ['skills: parse', ['readSkillUnit']],
  ['skills: lint', ['lintSkill']],
  ['skills: entries', ['deriveSkill']],
  ['links', ['checkEveryDocument', 'check']],
  ['index JSON', ['buildIndexText', 'encodeUtf8']],
  [
    'coverage, lists, membership, skill set',
    ['checkCoverage', 'buildLists', 'buildMembership', 'checkSkillSet'],
  ],
  ['frame (scope file, base.md)', ['readFrame']],
  ['classify', ['classifyPaths']],
  ['derive, the rest', ['derive', 'deriveHolding']],
  ['report', ['formatReport', 'sortDiagnostics', 'summarizeCheck']],
  ['GC', ['(garbage collector)']],
];
const phaseOf = new Map(PHASES.flatMap(([name, fns]) => fns.map((fn) => [fn, name])));

assertBuilt();
const dir = mkdtempSync(join(tmpdir(), 'companion-check-profile-'));
try {
  for (let i = 0; i < runs; i++) {
    const argv = [`--cpu-prof`, `--cpu-prof-dir=${dir}`, `--cpu-prof-interval`, String(interval), binPath];
    try {
      execFileSync(process.execPath, [...argv, 'check', '--root', root, '--format', 'json'], {
        stdio: ['ignore', 'ignore', 'inherit'],
        maxBuffer: 1 << 30,
      });
    } catch (error) {
      // Exit 1 is a check that found errors (L's CMP410): the profile is written all the same.
      if (error.status !== 1) throw error;
    }
  }
  const phases = new Map();
  const self = new Map();
  let total = 0;
  for (const file of readdirSync(dir)) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    profile.samples.forEach((id, i) => {
      const t = profile.timeDeltas[i] ?? 0;
      total += t;
      let phase = 'start-up, module load, other';
      for (let c = id; c !== undefined; c = parent.get(c)) {
        const found = phaseOf.get(nodes.get(c).callFrame.functionName);
        if (found !== undefined) {
          phase = found;
          break;
        }
      }
      phases.set(phase, (phases.get(phase) ?? 0) + t);
      const { functionName, url, lineNumber } = nodes.get(id).callFrame;
      const name = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
      self.set(name, (self.get(name) ?? 0) + t);
    });
  }
  const ms = (us) => (us / runs / 1000).toFixed(0).padStart(6);
  const rows = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
  process.stdout.write(
    `${runs} run(s), main thread ${ms(total).trim()} ms of samples each (profiler on)\n\nphase\n`,
  );
  for (const [name, t] of rows(phases, PHASES.length + 1)) {
    process.stdout.write(`${ms(t)} ms ${((100 * t) / total).toFixed(1).padStart(5)}%  ${name}\n`);
  }
  process.stdout.write('\nself time\n');
  for (const [name, t] of rows(self, top)) process.stdout.write(`${ms(t)} ms  ${name}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
