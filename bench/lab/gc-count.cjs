/**
 * Preloaded into a daemon (`node --require bench/lab/gc-count.cjs …`) by `bench/dashboard.mjs --gc-counts`: counts
 * the process's garbage collections by kind, and writes the counts to `$COMPANION_GC_COUNT_FILE` on every
 * SIGUSR2 (the bench asks before and after the saves). Scavenges count the garbage made (one per filled young
 * generation), mark-compacts what reached the old generation often enough to need collecting — numbers that do
 * not depend on when V8 happened to collect, unlike RSS. A bench tool only: nothing of companion loads it.
 * `memory-probe.cjs` requires it for the same counts (`module.exports`).
 */
const { writeFileSync } = require('node:fs');
const { PerformanceObserver, constants } = require('node:perf_hooks');

const file = process.env.COMPANION_GC_COUNT_FILE;
const counts = { scavenge: 0, markCompact: 0, incremental: 0, weak: 0, ms: 0 };
const kinds = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'markCompact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak',
};
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = kinds[entry.detail?.kind];
    if (kind !== undefined) counts[kind]++;
    counts.ms += entry.duration;
  }
}).observe({ entryTypes: ['gc'] });
if (file !== undefined) {
  process.on('SIGUSR2', () =>
    writeFileSync(file, JSON.stringify({ ...counts, heapMb: process.memoryUsage().heapUsed / 2 ** 20 })),
  );
}
module.exports = counts;
