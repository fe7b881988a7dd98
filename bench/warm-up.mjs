#!/usr/bin/env node
/**
 * The search index warmed after ready (issue 18.4), from a host's side, on the real `companion dev` (plain log):
 *
 * - **edits during the warm-up vs after it**: a subscribed 2025-11-25 host; a document and a skill reference
 *   rewritten in turn from the moment the daemon is ready (each write its own batch), every write timed to its
 *   `notifications/resources/updated`; a write counts as *during* when its notification arrived before the plain
 *   log's `search index ready`, *after* otherwise, and as many writes after as during. The first two writes of
 *   each kind are left out of both (the edit path's first run compiles it). Several daemons in turn (`--rounds`).
 * - **the warm-up**: ready → `search index ready`, and the work it says it did; RSS at ready and once warm.
 * - **the first `document_lookup`**: once warm, and (another daemon) the moment it is ready, which finishes the
 *   build itself; both answers must be byte for byte the same.
 *
 *   node bench/warm-up.mjs <S|M|L|XL> [--rounds N] [--dir CORPUS_COPY]
 *
 * It edits files (and puts them back): `--dir` runs on a copy of the corpus (`cp -r bench/.corpus/L-g3 /tmp/x`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectSubscribed, startDevProcess } from './edit-latency.mjs';
import { ensureCorpus } from './generate-corpus.mjs';
import { assertBuilt, createRandom, log, median, nowMs, percentile, sleep } from './lib.mjs';
import { connect } from './protocol.mjs';

const READY_LINE = /search index ready in ([\d.]+) ?(ms|s) \(([\d.]+) ?(ms|s) of work\)/;
const JIT_EDITS = 2;

const toMs = (value, unit) => Number(value) * (unit === 's' ? 1000 : 1);

async function lookup(url, query) {
  const host = await connect(url, 'companion-bench-warm', 'legacy');
  try {
    const started = nowMs();
    const result = await host.client.callTool({ name: 'document_lookup', arguments: { query } });
    return { ms: nowMs() - started, text: JSON.stringify(result.content) };
  } finally {
    await host.close().catch(() => {});
  }
}

async function editRound(info, targets, random, query) {
  const daemon = await startDevProcess(info.root);
  const rssAtReadyMb = daemon.rssMb();
  const warmLine = () => daemon.lines.find((line) => READY_LINE.test(line.text));
  const subscriber = await connectSubscribed(
    daemon.url,
    targets.map((t) => t.uri),
  );
  const originals = targets.map((t) => readFileSync(join(info.root, t.path)));
  const during = [];
  const after = [];
  let rssWarmMb;
  try {
    const deadline = nowMs() + 120_000;
    for (let i = 0; nowMs() < deadline; i++) {
      const at = i % targets.length;
      const target = targets[at];
      const extra = Buffer.from(`\n\nWarm-up edit ${i} (${random.int(0, 1e9)}).\n`);
      writeFileSync(join(info.root, target.path), Buffer.concat([originals[at], extra]));
      const written = nowMs();
      const arrival = await subscriber.waitUpdated(target.uri, written, 60_000);
      const warm = warmLine();
      if (i >= JIT_EDITS * targets.length) {
        (warm === undefined || arrival.at < warm.at ? during : after).push(arrival.at - written);
      }
      if (warm !== undefined) rssWarmMb ??= daemon.rssMb();
      if (warm !== undefined && after.length >= Math.max(during.length, 30)) break;
      await sleep(30 + random.int(0, 40));
    }
  } finally {
    for (const [at, t] of targets.entries()) writeFileSync(join(info.root, t.path), originals[at]);
    await subscriber.close().catch(() => {});
  }
  await sleep(300);
  const warm = warmLine();
  const match = warm && READY_LINE.exec(warm.text);
  const first = await lookup(daemon.url, query);
  const rssAfterLookupMb = daemon.rssMb();
  await daemon.stop();
  return {
    during,
    after,
    warmMs: warm ? warm.at - daemon.readyAt : Number.NaN,
    warmLoggedMs: match ? toMs(match[1], match[2]) : Number.NaN,
    warmWorkMs: match ? toMs(match[3], match[4]) : Number.NaN,
    rssAtReadyMb,
    rssWarmMb,
    rssAfterLookupMb,
    firstLookupWarm: first,
  };
}

export async function runWarmUp({ size = 'L', rounds = 2, query = 'migrate release token', dir } = {}) {
  assertBuilt();
  const info = ensureCorpus(size, { log, ...(dir === undefined ? {} : { dir }) });
  const targets = [
    { kind: 'document', path: info.editTargets.document.path, uri: info.editTargets.document.uri },
    { kind: 'reference', path: info.editTargets.reference.path, uri: info.editTargets.reference.uri },
  ];
  const random = createRandom(`warm-up:${size}`);
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    samples.push(await editRound(info, targets, random, query));
    const last = samples.at(-1);
    log(
      `warm-up ${size} ${round + 1}/${rounds}: warm ${last.warmMs.toFixed(0)} ms after ready, edits during ${last.during.length} p50 ${median(last.during).toFixed(1)} ms, after ${last.after.length} p50 ${median(last.after).toFixed(1)} ms, first lookup ${last.firstLookupWarm.ms.toFixed(0)} ms`,
    );
  }
  // A lookup the moment the daemon is ready: it finishes the build itself, and answers what a warm index answers.
  const daemon = await startDevProcess(info.root);
  let atReady;
  try {
    atReady = await lookup(daemon.url, query);
  } finally {
    await daemon.stop();
  }
  const during = samples.flatMap((s) => s.during);
  const after = samples.flatMap((s) => s.after);
  const med = (key) => median(samples.map((s) => s[key]));
  const result = {
    size,
    rounds,
    query,
    during: { n: during.length, p50: median(during), p95: percentile(during, 95) },
    after: { n: after.length, p50: median(after), p95: percentile(after, 95) },
    ratio: median(during) / median(after),
    warmMs: med('warmMs'),
    warmWorkMs: med('warmWorkMs'),
    rssAtReadyMb: med('rssAtReadyMb'),
    rssWarmMb: med('rssWarmMb'),
    rssAfterLookupMb: med('rssAfterLookupMb'),
    firstLookupWarmMs: median(samples.map((s) => s.firstLookupWarm.ms)),
    firstLookupAtReadyMs: atReady.ms,
    sameAnswer: samples.every((s) => s.firstLookupWarm.text === atReady.text),
    answerChars: atReady.text.length,
  };
  log(
    `warm-up ${size}: edits during ${result.during.n} p50 ${result.during.p50.toFixed(1)} ms vs after ${result.after.n} p50 ${result.after.p50.toFixed(1)} ms (${result.ratio.toFixed(2)}×); lookup warm ${result.firstLookupWarmMs.toFixed(0)} ms, at ready ${result.firstLookupAtReadyMs.toFixed(0)} ms, same answer: ${result.sameAnswer}`,
  );
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const size = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? 'L';
  const at = args.indexOf('--rounds');
  const dirAt = args.indexOf('--dir');
  const result = await runWarmUp({
    size,
    rounds: at >= 0 ? Number(args[at + 1]) : 2,
    ...(dirAt >= 0 ? { dir: args[dirAt + 1] } : {}),
  });
  const { samples: _samples, ...summary } = result;
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  process.exit(0);
}
