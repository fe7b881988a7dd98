#!/usr/bin/env node
/**
 * What serializing the listed entries costs: `JSON.stringify` of every listed resource of a store's catalog, plus
 * each document's id, URI and title (what a full `resources/list` and the index read), 7 times in one process;
 * prints the CPU median and minimum. The entries' texts, times and fields are read when asked, so this is the
 * work a door does once per generation (src/mcp/list-pages.ts keeps the pages). Run it for two builds in turn:
 *
 *   COMPANION_BENCH_BUILD=/work/base5 node bench/lab/list-serialize.mjs [root]; node bench/lab/list-serialize.mjs [root]
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(process.argv[2] ?? 'bench/.corpus/L-g3');
const build = resolve(process.env.COMPANION_BENCH_BUILD ?? new URL('../..', import.meta.url).pathname);
const { createCatalogStore } = await import(pathToFileURL(join(build, 'dist/fs/catalog-store.js')).href);
const { catalog } = createCatalogStore({ root }).current();
const times = [];
let bytes = 0;
for (let i = 0; i < 7; i++) {
  const before = process.cpuUsage();
  const titles = catalog.documents.map((d) => ({ id: d.id, uri: d.uri, title: d.title }));
  bytes = JSON.stringify(catalog.resources).length + JSON.stringify(titles).length;
  const used = process.cpuUsage(before);
  times.push((used.user + used.system) / 1000);
}
times.sort((a, b) => a - b);
process.stdout.write(
  `${build}: ${catalog.resources.length} resources, ${bytes} characters; CPU median ${times[3].toFixed(1)} ms, min ${times[0].toFixed(1)} ms\n`,
);
