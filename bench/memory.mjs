#!/usr/bin/env node
/**
 * Memory: RSS of the in-process catalog store after the first load and after many edits (each followed by
 * `store.applyChanges([path])`), after a full GC each time it is sampled. Run with `--expose-gc` (run.mjs does).
 * Edits rotate over 10 documents and 10 skill references spread through the corpus, with different bytes every
 * time; every file is restored afterwards. Stops early when the time budget runs out and says so. Last, at rest:
 * after 6 s without work, then the same GCs (V8 gives back the young generation only then). Beside it, the
 * floor (`memory-floor.mjs`): a bare process holding the same files' bytes, and their bytes and decoded text.
 *
 *   node --expose-gc bench/memory.mjs <S|M|L> [--edits N] [--budget-ms MS] [--dir CORPUS_COPY] [--young cli|bare]
 *
 * `--young cli` starts the process as `companion check`, `serve` and `dev` do (src/cli/young-generation.ts: the
 * young generation held at 2 × 4 MB) before the store loads; `bare` (the default) leaves V8's defaults, as a
 * program that embeds the store without the CLI gets them.
 * `--dir` runs on a copy of the corpus (`cp -r bench/.corpus/L-g3 /tmp/x`), so two runs can edit at once.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureCorpus } from './generate-corpus.mjs';
import { assertBuilt, distDir, log, nowMs, readArgs } from './lib.mjs';

/** How long the store sits quiet before the at-rest sample (V8 judges the allocation rate over ~5 s). */
const REST_MS = 6000;

const importDist = (path) => import(pathToFileURL(join(distDir, path)).href);

/**
 * A full GC after the event loop has turned once, as it has in a process that serves: a text the core holds
 * through a `WeakRef` (decoded on demand, src/core/content.ts) stays alive until the job that made it ends.
 */
async function settle() {
  if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
  await new Promise((resolve) => setTimeout(resolve, 0));
  for (let i = 0; i < 3; i++) globalThis.gc();
  const m = process.memoryUsage();
  return { rssMb: m.rss / 1048576, heapUsedMb: m.heapUsed / 1048576, externalMb: m.external / 1048576 };
}

export async function runMemory({ size = 'L', edits = 1000, budgetMs = 150_000, dir, young = 'bare' } = {}) {
  assertBuilt();
  const info = ensureCorpus(size, { log, ...(dir === undefined ? {} : { dir }) });
  if (young === 'cli') (await importDist('cli/young-generation.js')).capYoungGeneration();
  else if (young !== 'bare') throw new Error(`--young is cli or bare, not ${young}`);
  const { createCatalogStore } = await importDist('fs/catalog-store.js');
  const before = await settle();
  const started = nowMs();
  const store = createCatalogStore({ root: info.root });
  const loadMs = nowMs() - started;
  const afterLoad = await settle();

  // 10 documents and 10 skill references spread evenly through the snapshot.
  const paths = [...store.snapshot().files.keys()];
  const pickEvery = (list, n) =>
    Array.from({ length: n }, (_, i) => list[Math.floor(((i + 0.5) * list.length) / n)]);
  const targets = [
    ...pickEvery(
      paths.filter((p) => p.startsWith('knowledge/documents/')),
      10,
    ),
    ...pickEvery(
      paths.filter((p) => /^skills\/[^/]+\/references\//.test(p)),
      10,
    ),
  ];
  const originals = new Map(targets.map((p) => [p, readFileSync(join(info.root, p))]));
  const samples = [{ edits: 0, ...afterLoad }];
  // Dense early (warm-up: JIT, memo entries of the rotated files), then every 100 edits.
  const sampleAt = new Set([10, 20, 50]);
  const deadline = nowMs() + budgetMs;
  let done = 0;
  const applyTimes = [];
  try {
    while (done < edits && nowMs() < deadline) {
      const path = targets[done % targets.length];
      const bytes = Buffer.concat([originals.get(path), Buffer.from(`\n\nMemory edit ${done + 1}.\n`)]);
      writeFileSync(join(info.root, path), bytes);
      const t = nowMs();
      const change = store.applyChanges([path]);
      applyTimes.push(nowMs() - t);
      if (!change) throw new Error(`edit ${done + 1} of ${path} published nothing`);
      done++;
      if (sampleAt.has(done) || done % 100 === 0) samples.push({ edits: done, ...(await settle()) });
    }
  } finally {
    for (const [path, bytes] of originals) writeFileSync(join(info.root, path), bytes);
  }
  const afterEdits = await settle();
  if (samples.at(-1).edits !== done) samples.push({ edits: done, ...afterEdits });
  // At rest: what a long-lived process holds once V8 has seen it quiet. The build grew the young generation to
  // its maximum (2 × 16 MB); V8 shrinks it to what is live only in a GC that finds the allocation rate low over
  // its last ~5 s, which the samples above, taken right after work, never are.
  await new Promise((resolve) => setTimeout(resolve, REST_MS));
  const atRest = await settle();
  const corpusMb = info.bytes / 1048576;
  const goalMb = 1.3 * corpusMb + 100;
  // Growth: the last sample against the one after 20 edits (every rotated file has been edited by then, so
  // the memo caches and the JIT are warm); against the first sample when the run was shorter.
  const reference = samples.find((s) => s.edits === 20 && s.edits < done) ?? samples[0];
  // The floor beside it: a bare process holding the same files' bytes, and their bytes and text.
  const floor = (mode) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        ['--expose-gc', new URL('./memory-floor.mjs', import.meta.url).pathname, info.root, mode],
        { encoding: 'utf8' },
      ),
    );
  return {
    size,
    young,
    corpusMb,
    goalMb,
    floorBytes: floor('bytes'),
    floorText: floor('text'),
    floorTextOnly: floor('text-only'),
    baselineRssMb: before.rssMb,
    loadMs,
    afterLoad,
    afterEdits,
    atRest,
    restMs: REST_MS,
    editsDone: done,
    editsRequested: edits,
    applyMedianMs: applyTimes.sort((a, b) => a - b)[applyTimes.length >> 1],
    growthFromEdits: reference.edits,
    growthMb: afterEdits.rssMb - reference.rssMb,
    heapGrowthMb: afterEdits.heapUsedMb - reference.heapUsedMb,
    samples,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { positional, option } = readArgs();
  const size = positional[0] ?? 'L';
  const row = await runMemory({
    size,
    edits: option('--edits', 1000),
    budgetMs: option('--budget-ms', 150_000),
    dir: option('--dir', undefined),
    young: option('--young', 'bare'),
  });
  process.stdout.write(`${JSON.stringify(row, null, 2)}\n`);
}
