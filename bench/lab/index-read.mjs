/**
 * What one read of the index costs on a loaded in-process store: its `text` (what `resources/read` answers) and
 * its `bytes`, medians of 7 reads, wall and CPU. The index holds no bytes between reads, so each read builds the
 * text again from the catalog's lists.
 *
 *   node bench/lab/index-read.mjs bench/.corpus/XL-g3
 *
 * COMPANION_BENCH_BUILD=<dir> loads another build's dist/ (as the benches do).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = process.argv[2];
if (root === undefined) throw new Error('usage: node bench/lab/index-read.mjs <corpus root>');
const build = resolve(process.env.COMPANION_BENCH_BUILD ?? '.');
const { createCatalogStore } = await import(pathToFileURL(resolve(build, 'dist/fs/catalog-store.js')).href);
const { catalog } = createCatalogStore({ root: resolve(root) }).current();
const content = catalog.contents.get(catalog.indexUri);

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const time = (read) => {
  const wall = performance.now();
  const cpu = cpuMs();
  read();
  return { wall: performance.now() - wall, cpu: cpuMs() - cpu };
};
const median = (samples, key) => samples.map((s) => s[key]).sort((a, b) => a - b)[samples.length >> 1];
const texts = [];
const bytes = [];
for (let i = 0; i < 7; i++) {
  texts.push(time(() => content.text));
  bytes.push(time(() => content.bytes));
}
const round = (ms) => Math.round(ms * 10) / 10;
console.log(
  JSON.stringify({
    build,
    size: content.size,
    textWallMs: round(median(texts, 'wall')),
    textCpuMs: round(median(texts, 'cpu')),
    bytesWallMs: round(median(bytes, 'wall')),
  }),
);
process.exit(0);
