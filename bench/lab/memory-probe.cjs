/**
 * Preloaded into a daemon (`node --require bench/lab/memory-probe.cjs …`) by `bench/lab/dev-memory.mjs`: on every
 * SIGUSR2 the main thread appends one JSON line to `$COMPANION_PROBE_DIR/main.jsonl` — `process.memoryUsage()`, V8's
 * heap statistics and heap spaces (used vs committed, the young generation's semi-spaces), `/proc/self/status`'s
 * RSS split (anonymous, file-backed) — and asks every worker thread (over a BroadcastChannel; `--require` runs in
 * workers too) to append its own isolate's numbers to `worker-<threadId>.jsonl`, GC counts by kind included. A bench
 * tool only: nothing of companion loads it.
 */
const { appendFileSync, readFileSync, readlinkSync } = require('node:fs');
const { join } = require('node:path');
const v8 = require('node:v8');
const { BroadcastChannel, isMainThread, threadId } = require('node:worker_threads');
// GC counts by kind, observed in this thread (each thread preloads its own copy).
const gcs = require('./gc-count.cjs');

const dir = process.env.COMPANION_PROBE_DIR;
const mb = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10;

function sample(tag) {
  const heap = v8.getHeapStatistics();
  const spaces = {};
  for (const space of v8.getHeapSpaceStatistics()) {
    if (space.space_size === 0) continue;
    spaces[space.space_name.replace(/_space$/, '')] = {
      committed: mb(space.space_size),
      used: mb(space.space_used_size),
      physical: mb(space.physical_space_size),
    };
  }
  const usage = process.memoryUsage();
  return {
    tag,
    thread: threadId,
    // The OS thread id, for per-thread CPU from /proc/<pid>/task/<tid>/stat.
    tid: Number(readlinkSync('/proc/thread-self').split('/').pop()),
    at: Date.now(),
    heapCommitted: mb(heap.total_heap_size),
    heapPhysical: mb(heap.total_physical_size),
    heapUsed: mb(heap.used_heap_size),
    heapLimit: mb(heap.heap_size_limit),
    malloced: mb(heap.malloced_memory),
    external: mb(usage.external),
    arrayBuffers: mb(usage.arrayBuffers),
    spaces,
    gcs: { ...gcs, ms: Math.round(gcs.ms) },
  };
}

function readStatus() {
  const status = readFileSync('/proc/self/status', 'utf8');
  const field = (name) => {
    const match = new RegExp(`${name}:\\s+(\\d+) kB`).exec(status);
    return match ? Math.round(Number(match[1]) / 102.4) / 10 : undefined;
  };
  return { rss: field('VmRSS'), anon: field('RssAnon'), file: field('RssFile') };
}

if (dir !== undefined) {
  const channel = new BroadcastChannel('companion-memory-probe');
  channel.unref();
  if (isMainThread) {
    process.on('SIGUSR2', () => {
      const tag = Date.now();
      appendFileSync(join(dir, 'main.jsonl'), `${JSON.stringify({ ...sample(tag), proc: readStatus() })}\n`);
      channel.postMessage(tag);
    });
  } else {
    channel.onmessage = (event) =>
      appendFileSync(join(dir, `worker-${threadId}.jsonl`), `${JSON.stringify(sample(event.data))}\n`);
  }
}
