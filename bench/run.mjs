#!/usr/bin/env node
/**
 * Runs every benchmark and prints the results as Markdown tables (stdout); progress goes to stderr. The raw
 * numbers go to bench/.out/results.json and the tables to bench/.out/results.md.
 *
 *   node bench/run.mjs            S, M and L (generates and caches the corpora first; ~2.5 minutes)
 *   node bench/run.mjs --quick    S only, under a minute
 *
 * The machine is shared: every comparison is measured side by side in this run and reported as a ratio.
 * Build first (`npm run build`): the benches import ../dist, what ships.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runColdBuild } from './cold-build.mjs';
import { runDashboard } from './dashboard.mjs';
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
} from './lib.mjs';
import { runPeer } from './peer.mjs';
import { measureProtocol, measureSearch } from './protocol.mjs';

const quick = process.argv.includes('--quick');
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
  const machine = describeMachine();
  const sizes = quick ? ['S'] : ['S', 'M', 'L'];
  const big = quick ? 'S' : 'L';
  const results = {
    machine,
    quick,
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
        ...(await measureProtocol(daemon.url, { seconds: 5 })),
        search: await measureSearch(daemon.url, corpora.L),
      }),
    });
    protocol = l.after;
    delete l.after;
    results.editLatency.push(l);
  }
  log('dashboard vs plain log (companion dev on a pty beside plain-log mode)…');
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
        ...(await measureProtocol(daemon.url, { seconds: 2, repeats: 2 })),
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
  const markdown = renderTables(results);
  const outDir = join(benchDir, '.out');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(outDir, 'results.md'), markdown);
  process.stdout.write(markdown);
  log(`done in ${fmtMs(results.totalMs)}; raw numbers in bench/.out/results.json`);
}

function renderTables(r) {
  const out = [];
  const m = r.machine;
  out.push(
    `Machine: ${m.nproc} × ${m.cpu}, ${m.ramGb} GB RAM, ${m.platform}, Node ${m.node}. ` +
      `Run ${r.startedAt}, ${fmtMs(r.totalMs)}${r.quick ? ' (--quick: S only)' : ''}.`,
    '',
  );

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
      "### The dashboard's cost to hosts: `companion dev` on a 120×40 pseudo-terminal beside plain-log mode (two copies of the corpus, edits alternating write by write)",
      '',
    );
    out.push(
      markdownTable(
        [
          'size',
          'edits per side',
          'plain p50',
          'dashboard p50',
          'ratio',
          'plain p95',
          'dashboard p95',
          'RSS after load: plain / dashboard',
          'dashboard RSS every 100 saves',
          'plain RSS after the saves',
          'goal',
        ],
        r.dashboard.map((d) => {
          const rss = d.memory.dashboard.map((m) => m.rssMb);
          return [
            d.size,
            d.plain.all.n,
            fmtMs(d.plain.all.p50),
            fmtMs(d.dashboard.all.p50),
            fmtRatio(d.ratio),
            fmtMs(d.plain.all.p95),
            fmtMs(d.dashboard.all.p95),
            `${fmtMb(d.rssAfterLoad.plain)} / ${fmtMb(d.rssAfterLoad.dashboard)}`,
            `${rss.map((v) => v.toFixed(0)).join(' → ')} MB (${d.saves} saves)`,
            fmtMb(d.memory.plain.at(-1).rssMb),
            `p50 ≤ 1.2× ${ok(d.ratio <= 1.2)}`,
          ];
        }),
      ),
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
            `\`resources/read\`, ${p.reads.sessions} sessions, ${p.reads.seconds} s, ${p.reads.poolSize} mixed URIs`,
            `${p.reads.perSecond.toFixed(0)} reads/s (${p.reads.mbPerSecond.toFixed(1)} MB/s)`,
            `${p.reads.pingsPerSecond.toFixed(0)} pings/s`,
            fmtRatio(p.reads.ratioToPings),
          ],
          ...(p.search
            ? [
                [
                  `\`document_lookup\` "${p.search.query}": first call (builds the index) / again / first call after a save`,
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
      ['row', 'peer', 'companion', 'peer / companion', 'goal: ahead (> 1×)', 'note'],
      peer.rows.map((row) => [
        row.row,
        fmtMs(row.peerMs),
        fmtMs(row.companionMs),
        fmtRatio(row.ratio),
        ok(row.ratio > 1),
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
        'floor: bytes held / bytes + text held',
        'RSS after edits',
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
          `${fmtMb(mem.floorBytes.rssMb)} / ${fmtMb(mem.floorText.rssMb)}`,
          fmtMb(mem.afterEdits.rssMb),
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
