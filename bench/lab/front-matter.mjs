#!/usr/bin/env node
/**
 * The front matter fast path (src/core/front-matter.ts), measured two ways. The machine is shared and noisy:
 * every comparison is interleaved, rounds alternate their order, and ratios are medians of per-round ratios.
 *
 *   node bench/lab/front-matter.mjs parse [--size L] [--rounds 9] [--baseline <front-matter.js>]
 *     In one process: read every Markdown file of the corpus that has front matter (L: 10,000 documents and
 *     1,000 SKILL.md), then parse all of them per round with `parseFrontMatter` (fast path, `yaml` only as the
 *     fallback) and with `frontMatterInternals.yaml` (the `yaml` path forced), interleaved. `--baseline` adds a
 *     third side: another build's `parseFrontMatter` (e.g. the module before the fast path).
 *
 *   node bench/lab/front-matter.mjs cold --builds name=<dir>,name=<dir> [--root <dir> | --size L] [--rounds 5]
 *     Separate processes: `node <dir>/bin/companion.js check --root <root> --format json` for each build,
 *     interleaved (the order rotates every round), wall time from the parent (process start included). Every
 *     build must print the same report. A `node -e 0` floor is measured in the same rounds. CPU (user + system)
 *     comes from `/usr/bin/time -v` when it exists; it suffers less than wall time from a loaded machine.
 *
 * The module measured by `parse` is `dist/core/front-matter.js` of the build under test (COMPANION_BENCH_BUILD,
 * see bench/lib.mjs); build first.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureCorpus } from '../generate-corpus.mjs';
import { assertBuilt, distDir, fmtMs, fmtRatio, log, median, runMeasured } from '../lib.mjs';

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
}

function markdownFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

async function parseBench() {
  assertBuilt();
  const size = option('size', 'L');
  const rounds = Number(option('rounds', '9'));
  const info = ensureCorpus(size, { log });
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const texts = markdownFiles(info.root)
    .map((file) => decoder.decode(readFileSync(file)))
    .filter((text) => text.startsWith('---'));
  const module = await import(pathToFileURL(`${distDir}core/front-matter.js`).href);
  const { parseFrontMatter, frontMatterInternals } = module;
  if (!frontMatterInternals) throw new Error(`${distDir}core/front-matter.js has no fast path to measure`);
  const taken = texts.filter((text) => frontMatterInternals.fast(text) !== undefined).length;
  log(`${size}: ${texts.length} files with front matter; the fast path takes ${taken}`);
  const sides = {
    fast: parseFrontMatter,
    yaml: frontMatterInternals.yaml,
  };
  const baseline = option('baseline');
  if (baseline) sides.baseline = (await import(pathToFileURL(resolve(baseline)).href)).parseFrontMatter;
  const names = Object.keys(sides);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  let sink = 0;
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    const line = [];
    for (const name of order) {
      const parse = sides[name];
      const started = performance.now();
      for (const text of texts) {
        const fm = parse(text);
        if (fm.kind === 'ok') sink += fm.keys.size;
      }
      const ms = performance.now() - started;
      samples[name].push(ms);
      line.push(`${name} ${fmtMs(ms)}`);
    }
    log(`round ${round + 1}: ${line.join(', ')}`);
  }
  const ratios = (name) => samples[name].map((ms, i) => ms / samples.fast[i]);
  console.log(
    `\n${size}: ${texts.length} front matters, ${taken} on the fast path, ${rounds} rounds (${sink})`,
  );
  for (const name of names) {
    const first = samples[name][0];
    const rest = median(samples[name].slice(1));
    const ratio =
      name === 'fast' ? '' : `, ${fmtRatio(median(ratios(name)))} the fast path (median of per-round)`;
    console.log(`  ${name.padEnd(8)} first round ${fmtMs(first)}, median of the rest ${fmtMs(rest)}${ratio}`);
  }
}

async function coldBench() {
  const builds = Object.fromEntries(
    (option('builds') ?? '').split(',').map((pair) => {
      const [name, dir] = pair.split('=');
      if (!name || !dir) throw new Error('--builds name=<dir>,name=<dir>');
      return [name, resolve(dir)];
    }),
  );
  const root = option('root') ? resolve(option('root')) : ensureCorpus(option('size', 'L'), { log }).root;
  const rounds = Number(option('rounds', '5'));
  const names = [...Object.keys(builds), 'node -e 0'];
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  const cpu = Object.fromEntries(names.map((name) => [name, []]));
  const run = (name) =>
    name === 'node -e 0'
      ? runMeasured(process.execPath, ['-e', '0'])
      : runMeasured(process.execPath, [
          join(builds[name], 'bin/companion.js'),
          'check',
          '--root',
          root,
          '--format',
          'json',
        ]);
  // One unmeasured pass of each: the same warm page cache for every measured round.
  let report;
  for (const name of names) {
    const result = await run(name);
    if (name === 'node -e 0') continue;
    const normalized = `${result.code} ${result.stdout}`;
    report ??= normalized;
    if (normalized !== report) throw new Error(`${name} printed a different report than the first build`);
  }
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    const line = [];
    for (const name of order) {
      const result = await run(name);
      samples[name].push(result.wallMs);
      cpu[name].push(result.cpuMs);
      line.push(`${name} ${fmtMs(result.wallMs)} (CPU ${fmtMs(result.cpuMs)})`);
    }
    log(`round ${round + 1}: ${line.join(', ')}`);
  }
  const first = Object.keys(builds)[0];
  console.log(
    `\ncompanion check --root ${root} --format json, ${rounds} interleaved rounds, wall incl. start`,
  );
  for (const name of names) {
    const ratio = samples[name].map((ms, i) => ms / samples[first][i]);
    const delta = samples[name].map((ms, i) => ms - samples[first][i]);
    const cpuRatio = cpu[name].map((ms, i) => ms / cpu[first][i]);
    console.log(
      `  ${name.padEnd(10)} CPU median ${fmtMs(median(cpu[name]))}` +
        (name === first || name === 'node -e 0' ? '' : `  ${fmtRatio(median(cpuRatio))} of ${first}`),
    );
    console.log(
      `  ${name.padEnd(10)} wall median ${fmtMs(median(samples[name]))}  min ${fmtMs(Math.min(...samples[name]))}` +
        (name === first || name === 'node -e 0'
          ? ''
          : `  ${fmtRatio(median(ratio))} of ${first}, ${median(delta) > 0 ? '+' : ''}${median(delta).toFixed(1)} ms ` +
            '(medians of per-round ratios and differences)'),
    );
  }
}

const mode = process.argv[2];
if (mode === 'parse') await parseBench();
else if (mode === 'cold') await coldBench();
else {
  process.stderr.write('usage: node bench/lab/front-matter.mjs parse|cold [options] (see the header)\n');
  process.exit(2);
}
