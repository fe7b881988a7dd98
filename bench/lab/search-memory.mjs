#!/usr/bin/env node
/**
 * What the warm search index holds: loads `createCatalogStore` on a corpus, then builds the search index of its
 * document list the way the daemon's warm-up does (`beginIndex(…).step(budget)` in slices, one `WordSet` as
 * scratch), and prints each typed array of both posting tables (length used, capacity, element size, MB), the
 * word maps, the per-unit array and the scratch, plus `process.memoryUsage()` after the store and after the index
 * (3 full GCs each). One `document_lookup`-like search then runs, timed.
 *
 *   node --expose-gc bench/lab/search-memory.mjs <L|XL|root> [--budget N]
 *
 * COMPANION_BENCH_BUILD=<dir> loads another build's dist/ (as the benches do); the breakdown reads the tables'
 * fields by name, so a build whose fields differ prints what it finds.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
};
const MB = 1048576;
const here = resolve(new URL('..', import.meta.url).pathname);
const corpus = args[0] ?? 'L';
const root = existsSync(join(here, '.corpus', `${corpus}-g3`))
  ? join(here, '.corpus', `${corpus}-g3`)
  : resolve(corpus);
const build = resolve(process.env.COMPANION_BENCH_BUILD ?? join(here, '..'));
const budget = Number(option('--budget', 40_000));
const load = (path) => import(pathToFileURL(join(build, 'dist', path)).href);

const gc = () => {
  for (let i = 0; i < 3; i++) globalThis.gc();
};
const usage = () => {
  gc();
  const m = process.memoryUsage();
  return {
    rss: m.rss / MB,
    heapUsed: m.heapUsed / MB,
    external: m.external / MB,
    arrayBuffers: m.arrayBuffers / MB,
  };
};
const fmt = (row) =>
  Object.entries(row)
    .map(([k, v]) => `${k} ${typeof v === 'number' ? v.toFixed(1) : v}`)
    .join(', ');

const { createCatalogStore } = await load('fs/catalog-store.js');
const { beginIndex } = await load('core/search/section-index.js');
const { WordSet } = await load('core/search/posting-table.js');
const { searchIndex } = await load('core/search/rank.js');

const store = createCatalogStore({ root });
const documents = store.current().catalog.documents;
await new Promise((done) => setTimeout(done, 0));
const before = usage();
console.log(`build ${build}\nroot ${root}: ${documents.length} documents`);
console.log(`after store:  ${fmt(before)}`);

const scratch = new WordSet();
const cpu = process.cpuUsage();
const began = performance.now();
const building = beginIndex(documents, scratch);
let slices = 0;
while (!building.step(budget)) slices++;
const index = building.finish();
const buildMs = performance.now() - began;
const buildCpu = process.cpuUsage(cpu);
const after = usage();
console.log(
  `after index:  ${fmt(after)}  (build ${buildMs.toFixed(0)} ms, cpu ${((buildCpu.user + buildCpu.system) / 1000).toFixed(0)} ms, ${slices + 1} slices)`,
);
console.log(
  `index adds:   rss ${(after.rss - before.rss).toFixed(1)}, heap ${(after.heapUsed - before.heapUsed).toFixed(1)}, external ${(after.external - before.external).toFixed(1)} MB`,
);

/** Every typed array (or array of them) on `object`, with its length and bytes. */
function arrays(name, object, used = {}) {
  const rows = [];
  for (const [key, value] of Object.entries(object)) {
    if (ArrayBuffer.isView(value)) {
      rows.push({
        what: `${name}.${key}`,
        length: value.length,
        used: used[key] ?? '',
        bytesPer: value.BYTES_PER_ELEMENT,
        mb: value.byteLength / MB,
      });
    } else if (Array.isArray(value) && value.length > 0 && ArrayBuffer.isView(value[0])) {
      const bytes = value.reduce((sum, chunk) => sum + chunk.byteLength, 0);
      rows.push({
        what: `${name}.${key}[${value.length} chunks]`,
        length: value.reduce((s, c) => s + c.length, 0),
        used: '',
        bytesPer: value[0].BYTES_PER_ELEMENT,
        mb: bytes / MB,
      });
    } else if (value instanceof Map && key === 'wide') {
      rows.push({ what: `${name}.wide (Map)`, length: value.size, used: '', bytesPer: '', mb: NaN });
    }
  }
  return rows;
}
const tables = { postings: index.postings, titlePostings: index.titlePostings };
const rows = [];
for (const [name, table] of Object.entries(tables)) {
  const pairs = table.start?.[table.baseWords] ?? table.units?.length;
  rows.push(
    ...arrays(name, table, {
      live: table.words.length,
      start: (table.baseWords ?? 0) + 1,
      units: pairs,
      values: pairs,
      head: table.words.length,
      tail: table.words.length,
      extraUnits: table.extraLength,
      extraValues: table.extraLength,
      next: table.extraLength,
    }),
  );
  const chars = table.words.reduce((sum, word) => sum + word.length, 0);
  rows.push({
    what: `${name}.words/ids`,
    length: table.words.length,
    used: `${chars} chars`,
    bytesPer: '',
    mb: NaN,
  });
}
rows.push(
  ...arrays('scratch', scratch, {
    stamp: index.postings.words.length,
    count: index.postings.words.length,
    flag: index.postings.words.length,
  }),
);
rows.push({
  what: index.units ? 'units (SectionUnit objects)' : 'units (four columns)',
  length: (index.units ?? index.unitDocuments).length,
  used: '',
  bytesPer: '',
  mb: NaN,
});
rows.push({
  what: 'vocabulary + titleVocabulary',
  length: index.vocabulary.length + index.titleVocabulary.length,
  used: '',
  bytesPer: '',
  mb: NaN,
});
let total = 0;
for (const row of rows) {
  if (!Number.isNaN(row.mb)) total += row.mb;
  console.log(
    `  ${row.what.padEnd(36)} ${String(row.length).padStart(11)} ${String(row.used).padStart(14)} ${String(row.bytesPer).padStart(3)}  ${Number.isNaN(row.mb) ? '' : `${row.mb.toFixed(2)} MB`}`,
  );
}
console.log(`  typed arrays in all: ${total.toFixed(1)} MB`);

// Queries from the vocabulary itself (every 97th word, alone and in pairs), so they match; the digest of every
// answer compares builds (the same digest: the same answers, byte for byte).
const { createHash } = await import('node:crypto');
const queries = ['migrate release token'];
for (let at = 0; at < index.vocabulary.length; at += 97)
  queries.push(
    index.vocabulary[at],
    `${index.vocabulary[at]} ${index.vocabulary[(at * 7) % index.vocabulary.length]}`,
  );
const digest = createHash('sha256');
const times = [];
const c = process.cpuUsage();
let matches = 0;
for (const query of queries) {
  const t = performance.now();
  const result = searchIndex(() => index, query, {});
  times.push(performance.now() - t);
  matches += result.matches.length;
  digest.update(JSON.stringify(result));
}
const used = process.cpuUsage(c);
// Again, warm: the time of the lookups themselves once compiled.
const again = performance.now();
for (let round = 0; round < 5; round++) for (const query of queries) searchIndex(() => index, query, {});
console.log(`  5 more rounds of the searches: ${((performance.now() - again) / 5).toFixed(1)} ms a round`);
times.sort((a, b) => a - b);
console.log(
  `  ${queries.length} searches: ${matches} matches, p50 ${times[times.length >> 1].toFixed(2)} ms, max ${times.at(-1).toFixed(1)} ms, cpu ${((used.user + used.system) / 1000).toFixed(0)} ms; answers sha256 ${digest.digest('hex').slice(0, 16)}`,
);
