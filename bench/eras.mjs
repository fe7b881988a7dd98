#!/usr/bin/env node
/**
 * The two protocol eras side by side, in one run against one `companion dev` process (the CLI as it ships):
 *
 * - **Edit latency**: a 2025-11-25 host (`resources/subscribe`, notifications on its session's GET stream) and a
 *   2026-07-28 host (one `subscriptions/listen` stream) watch the same document and skill reference; every write
 *   is timed from `writeFileSync` returning to each host's `notifications/resources/updated`. Both hear the same
 *   change, so the ratio compares the two delivery paths and nothing else.
 * - **Protocol table**: the era's cheapest round trip (`ping`, `server/discover`) and full `resources/list` and
 *   `skills/list` paginations, one host of each era taking turns request by request (A B B A), so the load of a
 *   shared machine falls on both alike; then `resources/read` throughput with 8 hosts per era
 *   (`measureProtocol`), alternated legacy, modern, modern, legacy.
 *
 * Goal (issue #12): the modern era's p50 within 1.2× of the legacy one. Every edited file is restored.
 *
 *   node bench/eras.mjs [S|M|L ...] [--edits N] [--seconds N] [--rounds N]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectSubscribed, startDevProcess } from './edit-latency.mjs';
import { ensureCorpus } from './generate-corpus.mjs';
import { assertBuilt, createRandom, log, median, nowMs, percentile, readArgs, sleep } from './lib.mjs';
import { connect, listResourcesAll, listSkillsAll, measureProtocol, timed } from './protocol.mjs';

const ERAS = ['legacy', 'modern'];

/** Each write waits for both hosts' notification, then a pause, so every write is its own batch. */
async function editBoth({ root, targets, edits, hosts, random }) {
  const samples = { legacy: [], modern: [] };
  for (const target of targets) {
    const path = join(root, target.path);
    const original = readFileSync(path);
    try {
      for (let i = 0; i < edits; i++) {
        writeFileSync(
          path,
          Buffer.concat([original, Buffer.from(`\n\nEra edit ${i} (${random.int(0, 1e9)}).\n`)]),
        );
        const written = nowMs();
        const arrivals = await Promise.all(
          ERAS.map((era) => hosts[era].waitUpdated(target.uri, written, 60_000)),
        );
        ERAS.forEach((era, at) => {
          samples[era].push({ kind: target.kind, latencyMs: arrivals[at].at - written });
        });
        await sleep(60 + random.int(0, 60));
      }
    } finally {
      writeFileSync(path, original);
    }
  }
  await sleep(300);
  return samples;
}

function summarize(samples) {
  const latencies = samples.map((sample) => sample.latencyMs);
  return { n: latencies.length, p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
}

/** Floors and list walks, the two eras taking turns A B B A, `rounds` times; medians per era. */
async function interleaved(url, rounds) {
  const hosts = {
    legacy: await connect(url, 'eras-legacy', 'legacy'),
    modern: await connect(url, 'eras-modern', 'modern'),
  };
  const times = {
    legacy: { floor: [], resources: [], skills: [] },
    modern: { floor: [], resources: [], skills: [] },
  };
  const pages = {};
  try {
    for (const era of ERAS) {
      await listResourcesAll(hosts[era].client);
      await listSkillsAll(hosts[era].client);
      for (let i = 0; i < 20; i++) await hosts[era].floor();
    }
    for (let round = 0; round < rounds; round++) {
      for (const era of round % 2 === 0
        ? ['legacy', 'modern', 'modern', 'legacy']
        : ['modern', 'legacy', 'legacy', 'modern']) {
        const host = hosts[era];
        for (let i = 0; i < 5; i++) times[era].floor.push((await timed(() => host.floor())).ms);
        const resources = await timed(() => listResourcesAll(host.client));
        times[era].resources.push(resources.ms);
        const skills = await timed(() => listSkillsAll(host.client));
        times[era].skills.push(skills.ms);
        pages[era] = { resources: resources.value.pages, skills: skills.value.pages };
      }
    }
  } finally {
    for (const host of Object.values(hosts)) await host.close().catch(() => {});
  }
  return Object.fromEntries(
    ERAS.map((era) => [
      era,
      {
        floorMs: median(times[era].floor),
        resourcesListMs: median(times[era].resources),
        resourcesPages: pages[era].resources,
        skillsListMs: median(times[era].skills),
        skillsPages: pages[era].skills,
      },
    ]),
  );
}

export async function runEras({ size, edits = 30, seconds = 3, rounds = 10 }) {
  assertBuilt();
  const info = ensureCorpus(size, { log });
  const targets = [
    { kind: 'document', path: info.editTargets.document.path, uri: info.editTargets.document.uri },
    { kind: 'reference', path: info.editTargets.reference.path, uri: info.editTargets.reference.uri },
  ];
  const daemon = await startDevProcess(info.root);
  log(`eras ${size}: daemon ready in ${daemon.readyMs.toFixed(0)} ms at ${daemon.url}`);
  const hosts = {};
  try {
    for (const era of ERAS) {
      hosts[era] = await connectSubscribed(
        daemon.url,
        targets.map((target) => target.uri),
        era,
      );
    }
    const samples = await editBoth({
      root: info.root,
      targets,
      edits,
      hosts,
      random: createRandom(`eras:${size}`),
    });
    const protocol = await interleaved(daemon.url, rounds);
    const reads = { legacy: [], modern: [] };
    for (const era of ['legacy', 'modern', 'modern', 'legacy']) {
      reads[era].push((await measureProtocol(daemon.url, { seconds, repeats: 1, era })).reads.perSecond);
    }
    for (const era of ERAS) protocol[era].readsPerSecond = (reads[era][0] + reads[era][1]) / 2;
    const edit = Object.fromEntries(ERAS.map((era) => [era, summarize(samples[era])]));
    return {
      size,
      rounds,
      documents: info.documents,
      skills: info.skills,
      edit,
      editP50Ratio: edit.modern.p50 / edit.legacy.p50,
      protocol,
      ratios: {
        resourcesList: protocol.modern.resourcesListMs / protocol.legacy.resourcesListMs,
        skillsList: protocol.modern.skillsListMs / protocol.legacy.skillsListMs,
        reads: protocol.legacy.readsPerSecond / protocol.modern.readsPerSecond,
      },
    };
  } finally {
    for (const host of Object.values(hosts)) await host.close().catch(() => {});
    await daemon.stop();
  }
}

function formatTable(rows) {
  const f = (value, digits = 1) => value.toFixed(digits);
  const lines = ['| corpus | measure | 2025-11-25 | 2026-07-28 | modern / legacy |', '|---|---|---|---|---|'];
  for (const row of rows) {
    const { legacy, modern } = row.protocol;
    lines.push(
      `| ${row.size} | edit → updated p50 (p95), ${row.edit.legacy.n} edits | ${f(row.edit.legacy.p50)} (${f(row.edit.legacy.p95)}) ms | ${f(row.edit.modern.p50)} (${f(row.edit.modern.p95)}) ms | ${f(row.editP50Ratio, 2)}× |`,
      `| ${row.size} | floor (ping / server/discover), ${row.rounds} × 10 each | ${f(legacy.floorMs, 2)} ms | ${f(modern.floorMs, 2)} ms | ${f(modern.floorMs / legacy.floorMs, 2)}× |`,
      `| ${row.size} | resources/list, ${legacy.resourcesPages} pages, ${row.rounds} × 2 walks each | ${f(legacy.resourcesListMs)} ms | ${f(modern.resourcesListMs)} ms | ${f(row.ratios.resourcesList, 2)}× |`,
      `| ${row.size} | skills/list, ${legacy.skillsPages} pages, ${row.rounds} × 2 walks each | ${f(legacy.skillsListMs)} ms | ${f(modern.skillsListMs)} ms | ${f(row.ratios.skillsList, 2)}× |`,
      `| ${row.size} | resources/read, 8 hosts | ${f(legacy.readsPerSecond, 0)}/s | ${f(modern.readsPerSecond, 0)}/s | ${f(row.ratios.reads, 2)}× (time per read) |`,
    );
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { positional: sizes, option } = readArgs();
  const rows = [];
  for (const size of sizes.length > 0 ? sizes : ['S']) {
    rows.push(
      await runEras({
        size,
        edits: option('--edits', 30),
        seconds: option('--seconds', 3),
        rounds: option('--rounds', 10),
      }),
    );
  }
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n\n${formatTable(rows)}\n`);
  const worst = Math.max(...rows.map((row) => row.editP50Ratio));
  process.stdout.write(`\nedit p50 modern/legacy, worst: ${worst.toFixed(2)}× (goal ≤ 1.2×)\n`);
}
