#!/usr/bin/env node
/**
 * Runs every benchmark and prints the results as Markdown tables (stdout); progress goes to stderr. The raw
 * numbers go to bench/.out/results.json and the tables to bench/.out/results.md.
 *
 *   node bench/run.mjs            S, M and L (generates and caches the corpora first; ~8 minutes here)
 *   node bench/run.mjs --xl       the same, plus the XL corpus (100,000 small documents): `companion dev` start-up,
 *                                 idle CPU and memory on it (~2 more minutes; generating XL once takes ~15 s)
 *   node bench/run.mjs --quick    S only, about a minute
 *
 * The first tables are issue 18's and issue 11's goals, one row each, with the command that measures the row alone.
 * The machine is shared: every comparison is measured side by side in this run and reported as a ratio.
 * Build first (`npm run build`): the benches import ../dist, what ships.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runColdBuild } from './cold-build.mjs';
import { runDashboard } from './dashboard.mjs';
import { runDevStart } from './dev-start.mjs';
import { runEditLatency } from './edit-latency.mjs';
import { ensureCorpus, GENERATOR_VERSION } from './generate-corpus.mjs';
import {
  assertBuilt,
  benchDir,
  describeMachine,
  fmtMb,
  fmtMs,
  fmtRatio,
  log,
  markdownTable,
  nowMs,
  sampleLoad,
} from './lib.mjs';
import { runPeer } from './peer.mjs';
import { measureProtocol, measureSearch } from './protocol.mjs';
import { runWarmUp } from './warm-up.mjs';

const quick = process.argv.includes('--quick');
const xl = process.argv.includes('--xl') && !quick;
const memoryScript = fileURLToPath(new URL('./memory.mjs', import.meta.url));
const ok = (pass) => (pass ? '✅' : '❌');

function runMemoryChild(size, edits, budgetMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', memoryScript, size, '--edits', String(edits), '--budget-ms', String(budgetMs)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let stdout = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`memory exited ${code}`)),
    );
  });
}

async function main() {
  assertBuilt();
  const started = nowMs();
  const load = sampleLoad();
  const machine = describeMachine();
  const sizes = quick ? ['S'] : ['S', 'M', 'L'];
  const big = quick ? 'S' : 'L';
  const results = {
    machine,
    quick,
    xl,
    generatorVersion: GENERATOR_VERSION,
    startedAt: new Date().toISOString(),
  };

  const corpora = {};
  for (const size of sizes) corpora[size] = ensureCorpus(size, { log });
  results.corpora = corpora;

  log('cold build…');
  results.coldBuild = await runColdBuild({ sizes, rounds: quick ? 5 : undefined });

  log('edit latency (companion dev)…');
  results.editLatency = [];
  results.editLatency.push(
    await runEditLatency({ size: 'S', mode: 'cli', edits: 50, budgetMs: quick ? 25_000 : 120_000 }),
  );
  let protocol;
  if (!quick) {
    const l = await runEditLatency({
      size: 'L',
      mode: 'cli',
      edits: 50,
      budgetMs: 240_000,
      after: async (daemon) => ({
        ...(await measureProtocol(daemon.url, { seconds: 5, repeats: 10 })),
        modern: await measureProtocol(daemon.url, { era: 'modern', repeats: 10, reads: false }),
        search: await measureSearch(daemon.url, corpora.L),
      }),
    });
    protocol = l.after;
    delete l.after;
    results.editLatency.push(l);
  }
  log('companion dev start-up (a host connects as soon as it listens)…');
  results.devStart = [await runDevStart({ size: big, runs: quick ? 1 : 3, idleSeconds: quick ? 5 : 10 })];
  if (xl) {
    corpora.XL = ensureCorpus('XL', { log });
    results.devStart.push(await runDevStart({ size: 'XL', idleSeconds: 60 }));
  }
  log('the search index warmed after ready: edits during the warm-up vs after…');
  results.warmUp = await runWarmUp({ size: big, rounds: quick ? 1 : 2 });
  log('dashboard vs plain log (companion dev on a pty beside plain-log mode, both eras)…');
  results.dashboard = [];
  for (const size of quick ? ['S'] : ['S', 'L']) {
    results.dashboard.push(await runDashboard({ size, edits: quick ? 15 : 40, saves: quick ? 200 : 1000 }));
  }
  log('edit latency breakdown (in-process)…');
  results.breakdown = [];
  results.breakdown.push(await runEditLatency({ size: 'S', mode: 'inproc', edits: 10, budgetMs: 20_000 }));
  if (!quick)
    results.breakdown.push(await runEditLatency({ size: 'L', mode: 'inproc', edits: 10, budgetMs: 90_000 }));

  if (quick) {
    log('protocol costs (S)…');
    const { startDevProcess } = await import('./edit-latency.mjs');
    const daemon = await startDevProcess(corpora.S.root);
    try {
      protocol = {
        ...(await measureProtocol(daemon.url, { seconds: 2, repeats: 3 })),
        modern: await measureProtocol(daemon.url, { era: 'modern', repeats: 3, reads: false }),
        search: await measureSearch(daemon.url, corpora.S),
      };
    } finally {
      await daemon.stop();
    }
  }
  results.protocol = { size: big, ...protocol };

  log('peer…');
  results.peer = await runPeer({ size: big, rounds: quick ? 2 : undefined });

  log('memory…');
  results.memory = await runMemoryChild(big, quick ? 200 : 1000, quick ? 8_000 : 150_000);

  results.totalMs = nowMs() - started;
  results.load = load.stop();
  const markdown = renderTables(results);
  const outDir = join(benchDir, '.out');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(outDir, 'results.md'), markdown);
  process.stdout.write(markdown);
  log(`done in ${fmtMs(results.totalMs)}; raw numbers in bench/.out/results.json`);
}

/** Issue 18's table and issue 11's dashboard goals: one row per goal, what this run measured, and how to rerun it. */
function renderGoals(r) {
  const out = [];
  const size = r.quick ? 'S' : 'L';
  const cold = r.coldBuild.find((c) => c.size === size);
  const start = r.devStart.find((d) => d.size === size);
  const xlStart = r.devStart.find((d) => d.size === 'XL');
  const corpus = r.corpora[size];
  const corpusMb = corpus.bytes / 1048576;
  const p = r.protocol;
  const stdioList = r.peer.rows.find((row) => row.goal !== undefined);
  const mem = r.memory;
  const rows = [
    [
      `cold \`check\` on ${size} vs reading + SHA-256 of the same files in one process`,
      '5.0× (1.96 s vs 0.36 s)',
      `${fmtRatio(cold.wallRatio)} (${fmtMs(cold.checkWallMs)} vs ${fmtMs(cold.limitWallMs)})`,
      '≤ 2×',
      ok(cold.wallRatio <= 2),
      `node bench/cold-build.mjs ${size}`,
    ],
    [
      `\`companion dev\` on ${size}: start → a full \`skills/list\` answered`,
      '3.7 s',
      `${fmtMs(start.skillsListedMs)} (listening after ${fmtMs(start.listeningMs)})`,
      '≤ 2.5 s',
      ok(start.skillsListedMs <= 2500),
      `node bench/dev-start.mjs ${size}`,
    ],
    [
      `\`companion dev\` RSS on ${size} after ready`,
      '546–572 MB',
      `${fmtMb(start.rssAfterReadyMb)} (goal for ${fmtMb(corpusMb)} of corpus: ${fmtMb(2 * corpusMb + 100)})`,
      '≤ 2 × corpus + 100 MB',
      ok(start.rssAfterReadyMb <= 2 * corpusMb + 100),
      `node bench/dev-start.mjs ${size}`,
    ],
    [
      `in-process store RSS on ${size}`,
      '379 MB (floor: bytes only 167 MB, bytes + text 290 MB)',
      `${fmtMb(mem.afterLoad.rssMb)} (floor ${fmtMb(mem.floorBytes.rssMb)} / ${fmtMb(mem.floorText.rssMb)}; goal ${fmtMb(mem.goalMb)})`,
      '≤ 1.3 × corpus + 100 MB',
      ok(mem.afterLoad.rssMb <= mem.goalMb),
      `node --expose-gc bench/memory.mjs ${size}`,
    ],
    [
      `first \`document_lookup\` after ready on ${size}`,
      '2.3–2.7 s',
      `${fmtMs(start.firstSearchMs)} (index warm ${fmtMs(start.warmMs)} after ready, ${fmtMs(start.warmWorkMs)} of work in slices)`,
      '≤ 500 ms, without slowing edits',
      ok(start.firstSearchMs <= 500),
      `node bench/dev-start.mjs ${size}`,
    ],
    ...(r.warmUp
      ? [
          [
            `edits on ${r.warmUp.size} while the index warms vs after (write → updated p50)`,
            '— (the first lookup built the index: 2.8 s)',
            `${fmtRatio(r.warmUp.ratio)} (${fmtMs(r.warmUp.during.p50)}, ${r.warmUp.during.n} edits, vs ${fmtMs(r.warmUp.after.p50)}, ${r.warmUp.after.n} edits); a lookup at ready ${fmtMs(r.warmUp.firstLookupAtReadyMs)}, same answer: ${r.warmUp.sameAnswer ? 'yes' : 'NO'}`,
            '≤ 1.2×',
            ok(r.warmUp.ratio <= 1.2 && r.warmUp.sameAnswer),
            `node bench/warm-up.mjs ${r.warmUp.size}`,
          ],
        ]
      : []),
    [
      '`skills/list` full pagination vs `@modelcontextprotocol/server` 2.4 `loadSkills`',
      '0.74× (behind)',
      `${fmtRatio(stdioList.ratio)} over stdio (${fmtMs(stdioList.peerMs)} vs ${fmtMs(stdioList.companionMs)})`,
      '≥ 1.2× ahead',
      ok(stdioList.ratio >= 1.2),
      `node bench/peer.mjs ${size}`,
    ],
    [
      '`resources/list` full pagination vs pings',
      '5.3×',
      `${fmtRatio(p.resourcesList.ratioToPings)} (2026-07-28 vs server/discover: ${fmtRatio(p.modern.resourcesList.ratioToPings)})`,
      '≤ 3×',
      ok(p.resourcesList.ratioToPings <= 3 && p.modern.resourcesList.ratioToPings <= 3),
      `node bench/protocol.mjs ${size} --era legacy (and --era modern)`,
    ],
  ];
  if (xlStart) {
    const xlMb = xlStart.corpusMb;
    rows.push([
      `100,000 small documents (XL, ${fmtMb(xlMb)}, ${xlStart.files} files)`,
      'dev listens after 8 s, then ~25 s at 100% CPU, 1.39 GB RSS',
      `listens after ${fmtMs(xlStart.listeningMs)}, ready after ${fmtMs(xlStart.readyMs)}; search index warm ${fmtMs(xlStart.warmMs)} after that; CPU after it ${(100 * xlStart.idleCpuShare).toFixed(1)}% of a core over ${xlStart.idleSeconds} s (worst 5 s: ${(100 * xlStart.idleCpuMaxWindow).toFixed(0)}%); RSS ${fmtMb(xlStart.rssAfterIdleMb)} after it (goal ${fmtMb(2 * xlMb + 150)})`,
      'ready ≤ 10 s, idle CPU after ready, RSS ≤ 2 × corpus + 150 MB',
      `${ok(xlStart.readyMs <= 10_000)} ready; ${ok(xlStart.idleCpuShare < 0.05)} idle; ${ok(xlStart.rssAfterIdleMb <= 2 * xlMb + 150)} RSS`,
      'node bench/dev-start.mjs XL',
    ]);
  } else {
    rows.push([
      '100,000 small documents (XL)',
      'dev listens after 8 s, then ~25 s at 100% CPU, 1.39 GB RSS',
      'not measured in this run: `npm run bench -- --xl`',
      'ready ≤ 10 s, idle CPU after ready, RSS ≤ 2 × corpus + 150 MB',
      '—',
      'node bench/dev-start.mjs XL',
    ]);
  }
  out.push("### Issue 18's table", '');
  out.push(markdownTable(['what', 'in the issue', 'this run', 'goal', 'met', 'reproduce alone'], rows), '');

  if (r.dashboard?.length) {
    const rows11 = [];
    for (const d of r.dashboard) {
      for (const era of ['legacy', 'modern']) {
        rows11.push([
          `${d.size}: dashboard p50 / plain p50, ${era === 'legacy' ? '2025-11-25' : '2026-07-28'} host`,
          `${fmtRatio(d.ratio[era])} (${fmtMs(d.dashboard[era].p50)} vs ${fmtMs(d.plain[era].p50)})`,
          '≤ 1.2×',
          ok(d.ratio[era] <= 1.2),
        ]);
      }
      const mm = d.memorySummary;
      rows11.push(
        [
          `${d.size}: RSS trend over saves ${mm.warmUpSaves}–${d.saves}, per 100 saves (plain-log mode beside it: both daemons build the same generations, so its trend is the noise floor); growth from first to last sample`,
          `dashboard ${signedMb(mm.slopeMbPer100.dashboard)}, plain ${signedMb(mm.slopeMbPer100.plain)}; growth ${signedMb(mm.growthMb.dashboard)} / ${signedMb(mm.growthMb.plain)}`,
          'flat beyond noise',
          ok(mm.slopeMbPer100.dashboard <= Math.max(2, mm.slopeMbPer100.plain + 2)),
        ],
        [
          `${d.size}: dashboard RSS above plain-log mode (at the end; at the peak after warm-up)`,
          `${signedMb(mm.aboveAtEndMb)}; ${signedMb(mm.abovePeakMb)}`,
          '≤ ~30 MB',
          ok(mm.aboveAtEndMb <= 30 && mm.abovePeakMb <= 30),
        ],
      );
    }
    out.push("### Issue 11's dashboard goals (`node bench/dashboard.mjs S`, `… L`)", '');
    out.push(markdownTable(['what', 'this run', 'goal', 'met'], rows11), '');
  }
  return out;
}

function signedMb(mb) {
  return `${mb >= 0 ? '+' : '−'}${fmtMb(Math.abs(mb))}`;
}

function renderTables(r) {
  const out = [];
  const m = r.machine;
  out.push(
    `Machine: ${m.nproc} × ${m.cpu}, ${m.ramGb} GB RAM, ${m.platform}, Node ${m.node}. ` +
      `Run ${r.startedAt}, ${fmtMs(r.totalMs)}${r.quick ? ' (--quick: S only)' : ''}${r.xl ? ' (with --xl)' : ''}. ` +
      `Load average during the run: ${r.load.min.toFixed(1)}–${r.load.max.toFixed(1)} (median ${r.load.median.toFixed(1)}) on ${m.nproc} cores.`,
    '',
  );
  out.push(...renderGoals(r));

  out.push('### Corpora', '');
  out.push(
    markdownTable(
      ['size', 'documents', 'skills', 'files', 'bytes', 'check findings'],
      Object.values(r.corpora).map((c) => [
        c.size,
        c.documents,
        c.skills,
        c.files,
        `${(c.bytes / 1e6).toFixed(1)} MB`,
        c.expectedCodes.length === 0
          ? 'none'
          : `${c.expectedCodes.join(', ')} (expected: 1,000 skills cannot fit the 3970-char listing budget)`,
      ]),
    ),
    '',
  );

  out.push(
    '### Cold build: `companion check` vs the physical limit (read + SHA-256 every file, one process)',
    '',
  );
  out.push(
    markdownTable(
      [
        'size',
        'check wall',
        'limit wall',
        'wall ratio',
        'check CPU',
        'limit CPU',
        'CPU ratio',
        'check peak RSS',
        'limit peak RSS',
        '`node -e 0` wall',
        'goal',
      ],
      r.coldBuild.map((c) => {
        const goal =
          c.size === 'L'
            ? `≤ 1.5× ${ok(c.wallRatio <= 1.5)}`
            : c.size === 'S'
              ? `< 400 ms wall ${ok(c.checkWallMs < 400)}`
              : '—';
        return [
          c.size,
          fmtMs(c.checkWallMs),
          fmtMs(c.limitWallMs),
          fmtRatio(c.wallRatio),
          fmtMs(c.checkCpuMs),
          fmtMs(c.limitCpuMs),
          fmtRatio(c.cpuRatio),
          fmtMb(c.checkRssMb),
          fmtMb(c.limitRssMb),
          fmtMs(c.floorWallMs),
          goal,
        ];
      }),
    ),
    '',
    'Medians of interleaved rounds (S 7, M 5, L 3); ratios are medians of per-round ratios. Wall includes process start for both sides.',
    '',
  );

  out.push('### Edit latency: write → `notifications/resources/updated` at a subscribed HTTP client', '');
  const s = r.editLatency.find((e) => e.size === 'S');
  const l = r.editLatency.find((e) => e.size === 'L');
  out.push(
    markdownTable(
      [
        'size',
        'daemon',
        'edits (doc + ref)',
        'p50',
        'p95',
        'doc p50',
        'ref p50',
        'rebuild p50',
        'batch window (configured)',
        'window share of p50',
        'daemon ready',
        'daemon RSS',
      ],
      r.editLatency.map((e) => [
        e.size,
        '`companion dev`',
        `${e.document.n} + ${e.reference.n}${e.document.n + e.reference.n < 2 * e.requestedEdits ? ' (time-capped)' : ''}`,
        fmtMs(e.all.p50),
        fmtMs(e.all.p95),
        fmtMs(e.document.p50),
        fmtMs(e.reference.p50),
        fmtMs(e.rebuildP50Ms),
        `${e.batchMs} ms quiet (max ${e.maxBatchMs})`,
        `${((e.batchMs / e.all.p50) * 100).toFixed(0)}%`,
        fmtMs(e.readyMs),
        `${fmtMb(e.rssAfterLoadMb)} → ${fmtMb(e.rssAfterEditsMb)}`,
      ]),
    ),
    '',
  );
  if (s && l) {
    out.push(
      `Goals: L p50 ≤ 25 ms: ${fmtMs(l.all.p50)} ${ok(l.all.p50 <= 25)}; L p50 / S p50 ≤ 1.5: ${fmtRatio(l.all.p50 / s.all.p50)} ${ok(l.all.p50 / s.all.p50 <= 1.5)}.`,
      '',
    );
  }
  out.push(
    'Breakdown (same composition in-process: `createCatalogStore` + `createWatcher` + `serveHttp`, sub-ms watcher clock; medians):',
    '',
  );
  out.push(
    markdownTable(
      [
        'size',
        'edits',
        'write → first fs event',
        'batching window (measured)',
        're-read + rebuild',
        'notify → client',
        'total p50',
        'window share',
      ],
      r.breakdown.map((e) => [
        e.size,
        e.breakdown?.n ?? 0,
        fmtMs(e.breakdown?.toEventMs),
        fmtMs(e.breakdown?.waitMs),
        fmtMs(e.breakdown?.rebuildMs),
        fmtMs(e.breakdown?.notifyMs),
        fmtMs(e.breakdown?.latencyMs),
        `${((e.breakdown?.waitMs / e.breakdown?.latencyMs) * 100).toFixed(0)}%`,
      ]),
    ),
    '',
  );

  if (r.dashboard?.length) {
    out.push(
      "### The dashboard's cost to hosts: `companion dev` on a 120×40 pseudo-terminal beside plain-log mode (two copies of the corpus, each with a 2025-11-25 and a 2026-07-28 host; edits alternating write by write)",
      '',
    );
    out.push(
      markdownTable(
        [
          'size',
          'era',
          'edits per side',
          'plain p50',
          'dashboard p50',
          'ratio',
          'plain p95',
          'dashboard p95',
          'goal',
        ],
        r.dashboard.flatMap((d) =>
          ['legacy', 'modern'].map((era) => [
            d.size,
            era === 'legacy' ? '2025-11-25' : '2026-07-28',
            d.plain[era].n,
            fmtMs(d.plain[era].p50),
            fmtMs(d.dashboard[era].p50),
            fmtRatio(d.ratio[era]),
            fmtMs(d.plain[era].p95),
            fmtMs(d.dashboard[era].p95),
            `p50 ≤ 1.2× ${ok(d.ratio[era] <= 1.2)}`,
          ]),
        ),
      ),
      '',
    );
    out.push(
      markdownTable(
        [
          'size',
          'RSS after load: plain / dashboard',
          'RSS every 100 saves: plain',
          'dashboard',
          'saves took',
        ],
        r.dashboard.map((d) => [
          d.size,
          `${fmtMb(d.rssAfterLoad.plain)} / ${fmtMb(d.rssAfterLoad.dashboard)}`,
          `${d.memory.plain.map((m) => m.rssMb.toFixed(0)).join(' ')} MB`,
          `${d.memory.dashboard.map((m) => m.rssMb.toFixed(0)).join(' ')} MB`,
          fmtMs(d.savesMs),
        ]),
      ),
      '',
    );
  }

  if (r.devStart?.length) {
    out.push('### `companion dev` start-up: a 2026-07-28 host connects as soon as it listens', '');
    out.push(
      markdownTable(
        [
          'size',
          'files',
          'listening',
          'full `skills/list` answered',
          'ready (watching)',
          'RSS after ready',
          'search index warm (work)',
          'RSS warm',
          'CPU after warm (mean / worst 5 s)',
          'RSS after it',
          'then the first `document_lookup`',
          'RSS after it',
        ],
        r.devStart.map((d) => [
          d.size,
          d.files,
          fmtMs(d.listeningMs),
          `${fmtMs(d.skillsListedMs)} (${d.skillPages} pages)`,
          fmtMs(d.readyMs),
          fmtMb(d.rssAfterReadyMb),
          `${fmtMs(d.warmMs)} after ready (${fmtMs(d.warmWorkMs)})`,
          fmtMb(d.rssAfterWarmMb),
          `${(100 * d.idleCpuShare).toFixed(1)}% / ${(100 * d.idleCpuMaxWindow).toFixed(0)}% over ${d.idleSeconds} s`,
          fmtMb(d.rssAfterIdleMb),
          fmtMs(d.firstSearchMs),
          fmtMb(d.rssAfterSearchMb),
        ]),
      ),
      '',
      "All times from spawning the process (medians of the runs); ready is the plain log's `watching … for changes`.",
      '',
    );
  }

  const p = r.protocol;
  if (p?.resourcesList) {
    out.push(`### Protocol costs on ${p.size} (\`companion dev\`, Streamable HTTP, SDK \`Client\`)`, '');
    out.push(
      markdownTable(
        ['operation', 'result', 'floor in the same run', 'ratio to floor'],
        [
          [
            '`resources/list`, full pagination',
            `${fmtMs(p.resourcesList.ms)} (${p.resourcesList.pages} pages, ${p.resourcesList.entries} entries)`,
            `${p.resourcesList.pages} × ping ${fmtMs(p.pingMs)}`,
            fmtRatio(p.resourcesList.ratioToPings),
          ],
          [
            '`skills/list`, full pagination',
            `${fmtMs(p.skillsList.ms)} (${p.skillsList.pages} pages, ${p.skillsList.files} files)`,
            `${p.skillsList.pages} × ping ${fmtMs(p.pingMs)}`,
            fmtRatio(p.skillsList.ratioToPings),
          ],
          [
            '2026-07-28: `resources/list`, full pagination',
            `${fmtMs(p.modern.resourcesList.ms)} (${p.modern.resourcesList.pages} pages)`,
            `${p.modern.resourcesList.pages} × server/discover ${fmtMs(p.modern.pingMs)}`,
            fmtRatio(p.modern.resourcesList.ratioToPings),
          ],
          [
            '2026-07-28: `skills/list`, full pagination',
            `${fmtMs(p.modern.skillsList.ms)} (${p.modern.skillsList.pages} pages)`,
            `${p.modern.skillsList.pages} × server/discover ${fmtMs(p.modern.pingMs)}`,
            fmtRatio(p.modern.skillsList.ratioToPings),
          ],
          [
            `\`resources/read\`, ${p.reads.sessions} sessions, ${p.reads.seconds} s, ${p.reads.poolSize} mixed URIs`,
            `${p.reads.perSecond.toFixed(0)} reads/s (${p.reads.mbPerSecond.toFixed(1)} MB/s)`,
            `${p.reads.pingsPerSecond.toFixed(0)} pings/s`,
            fmtRatio(p.reads.ratioToPings),
          ],
          ...(p.search
            ? [
                [
                  `\`document_lookup\` "${p.search.query}": first call (the index warmed since ready) / again / first call after a save`,
                  `${fmtMs(p.search.firstMs)} / ${fmtMs(p.search.againMs)} / ${fmtMs(p.search.afterSaveMs)}`,
                  `ping ${fmtMs(p.pingMs)}`,
                  `${fmtRatio(p.search.againMs / p.pingMs)} (again)`,
                ],
              ]
            : []),
        ],
      ),
      '',
    );
  }

  const peer = r.peer;
  out.push(
    `### Peer: \`@modelcontextprotocol/server\` 2.4 \`loadSkills\` vs companion, ${peer.size} (${peer.skills} skills), ${peer.rounds} interleaved rounds`,
    '',
  );
  out.push(
    markdownTable(
      ['row', 'peer', 'companion', 'peer / companion', 'goal: ahead (> 1×; the stdio row ≥ 1.2×)', 'note'],
      peer.rows.map((row) => [
        row.row,
        fmtMs(row.peerMs),
        fmtMs(row.companionMs),
        fmtRatio(row.ratio),
        row.goal === undefined ? ok(row.ratio > 1) : `≥ ${row.goal}× ${ok(row.ratio >= row.goal)}`,
        row.note ?? '',
      ]),
    ),
    '',
  );

  const mem = r.memory;
  out.push(`### Memory on ${mem.size} (in-process store, GC before each sample)`, '');
  out.push(
    markdownTable(
      [
        'corpus',
        'goal (1.3 × corpus + 100 MB)',
        'RSS after load',
        'floor: bytes held / bytes + text held / text held (bytes of binaries)',
        'RSS after edits',
        'RSS at rest (quiet 6 s, then GC)',
        'edits',
        'heap used after load → after',
        'growth after warm-up',
        'apply p50',
        'goal',
      ],
      [
        [
          fmtMb(mem.corpusMb),
          fmtMb(mem.goalMb),
          fmtMb(mem.afterLoad.rssMb),
          `${fmtMb(mem.floorBytes.rssMb)} / ${fmtMb(mem.floorText.rssMb)} / ${fmtMb(mem.floorTextOnly.rssMb)}`,
          fmtMb(mem.afterEdits.rssMb),
          mem.atRest ? fmtMb(mem.atRest.rssMb) : '—',
          `${mem.editsDone}${mem.editsDone < mem.editsRequested ? ` of ${mem.editsRequested} (time-capped)` : ''}`,
          `${fmtMb(mem.afterLoad.heapUsedMb)} → ${fmtMb(mem.afterEdits.heapUsedMb)}`,
          `${mem.growthMb >= 0 ? '+' : ''}${mem.growthMb.toFixed(0)} MB (from edit ${mem.growthFromEdits}); heap ${mem.heapGrowthMb >= 0 ? '+' : ''}${mem.heapGrowthMb.toFixed(1)} MB`,
          fmtMs(mem.applyMedianMs),
          `${ok(mem.afterLoad.rssMb <= mem.goalMb && mem.afterEdits.rssMb <= mem.goalMb)} size; ${ok(Math.abs(mem.heapGrowthMb) < 0.05 * mem.afterLoad.heapUsedMb + 5)} heap growth`,
        ],
      ],
    ),
    '',
  );
  return `${out.join('\n')}\n`;
}

await main();
// Keep-alive sockets of the HTTP clients must not hold the process open.
process.exit(0);
