#!/usr/bin/env node
/**
 * Cold build: `companion check --root <corpus>` beside the physical limit (bench/physical-limit.mjs: one Node
 * process that reads and SHA-256-hashes the same files), as separate processes, interleaved A B A B, medians of
 * several rounds. Wall time is measured by the parent, so both include process start; peak RSS and CPU time
 * come from `/usr/bin/time -v`. A bare `node -e 0` is measured in the same rounds as the process-start floor.
 *
 * The page cache is warm after the first round (the corpus was just generated or read), for both sides alike.
 *
 *   node bench/cold-build.mjs [S,M,L] [--rounds N]
 */
import { fileURLToPath } from 'node:url';
import { ensureCorpus } from './generate-corpus.mjs';
import { assertBuilt, binPath, log, median, runMeasured } from './lib.mjs';

const limitScript = fileURLToPath(new URL('./physical-limit.mjs', import.meta.url));

/** Checks the JSON report: exactly the codes the corpus is expected to carry (L: one CMP410), nothing else. */
function validateCheck(result, info) {
  let report;
  try {
    report = JSON.parse(result.stdout);
  } catch {
    throw new Error(`companion check printed no JSON (exit ${result.code}): ${result.stderr.slice(0, 500)}`);
  }
  const codes = report.diagnostics.map((d) => d.code).sort();
  const expected = [...info.expectedCodes].sort();
  if (JSON.stringify(codes) !== JSON.stringify(expected)) {
    throw new Error(
      `companion check on ${info.size} found ${JSON.stringify(codes)}, expected ${JSON.stringify(expected)}`,
    );
  }
  const expectedExit = expected.length > 0 ? 1 : 0;
  if (result.code !== expectedExit)
    throw new Error(`companion check exited ${result.code}, expected ${expectedExit}`);
  return codes;
}

export async function runColdBuild({ sizes = ['S', 'M', 'L'], rounds } = {}) {
  assertBuilt();
  const rows = [];
  for (const size of sizes) {
    const info = ensureCorpus(size, { log });
    const n = rounds ?? (size === 'L' ? 3 : size === 'M' ? 5 : 7);
    const samples = { check: [], limit: [], floor: [] };
    let codes;
    // One unmeasured pass of each, so every measured round sees the same (warm) page cache.
    await runMeasured(process.execPath, [limitScript, info.root]);
    for (let round = 0; round < n; round++) {
      // Alternate which side goes first, so a slow moment on the shared machine does not always hit one side.
      const order = round % 2 === 0 ? ['limit', 'check', 'floor'] : ['check', 'limit', 'floor'];
      for (const side of order) {
        if (side === 'limit')
          samples.limit.push(await runMeasured(process.execPath, [limitScript, info.root]));
        else if (side === 'floor') samples.floor.push(await runMeasured(process.execPath, ['-e', '0']));
        else {
          const result = await runMeasured(process.execPath, [
            binPath,
            'check',
            '--root',
            info.root,
            '--format',
            'json',
          ]);
          codes = validateCheck(result, info);
          samples.check.push(result);
        }
      }
      log(
        `cold build ${size} round ${round + 1}/${n}: check ${samples.check.at(-1).wallMs.toFixed(0)} ms, limit ${samples.limit.at(-1).wallMs.toFixed(0)} ms`,
      );
    }
    const med = (side, key) => median(samples[side].map((s) => s[key]));
    // Per-round ratios, then the median: each ratio pairs two runs that saw the same machine load.
    const ratios = samples.check.map((s, i) => s.wallMs / samples.limit[i].wallMs);
    const cpuRatios = samples.check.map((s, i) => s.cpuMs / samples.limit[i].cpuMs);
    rows.push({
      size,
      documents: info.documents,
      skills: info.skills,
      files: info.files,
      corpusMb: info.bytes / 1e6,
      rounds: n,
      checkWallMs: med('check', 'wallMs'),
      limitWallMs: med('limit', 'wallMs'),
      floorWallMs: med('floor', 'wallMs'),
      wallRatio: median(ratios),
      checkCpuMs: med('check', 'cpuMs'),
      limitCpuMs: med('limit', 'cpuMs'),
      cpuRatio: median(cpuRatios),
      checkRssMb: med('check', 'peakRssMb'),
      limitRssMb: med('limit', 'peakRssMb'),
      limitInProcessMs: median(samples.limit.map((s) => JSON.parse(s.stdout).ms)),
      findings: codes,
    });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const sizes = (args.find((a) => !a.startsWith('--')) ?? 'S,M,L').split(',');
  const roundsAt = args.indexOf('--rounds');
  const rows = await runColdBuild({ sizes, rounds: roundsAt >= 0 ? Number(args[roundsAt + 1]) : undefined });
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
}
