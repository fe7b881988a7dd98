#!/usr/bin/env node
/**
 * What `companion dev`'s RSS after ready is made of, and what V8 gives back by itself while the daemon idles
 * (issue 18, the dev RSS rows). Starts the daemon in plain-log mode with `memory-probe.cjs` preloaded and samples,
 * at ready and then `--at` seconds after it (default 0,5,10,20,30): RSS (anonymous / file-backed), the main
 * thread's heap (used vs committed, per space: the young generation is `new`), external memory, every worker
 * thread's isolate (the watcher's thread), GC counts, and CPU per thread (main, each worker, the rest: GC helpers
 * and libuv) between samples. No host connects and nothing is edited; the search warm-up runs from ready on, as it
 * does for an author.
 *
 *   node bench/lab/dev-memory.mjs <S|M|L|XL> [--at 0,5,10,20,30] [--malloc] [--host] [--json]
 *
 * `--host` does what `bench/dev-start.mjs` does at start: a 2026-07-28 host connects the moment the daemon listens
 * and walks every page of `skills/list` (then leaves), so that the samples are of the row that bench measures.
 *
 * `--malloc` also says where the memory glibc's allocator holds is (each sample): the main arena (the `brk` heap)
 * and the other threads' arenas, each as held from the system / free inside it, and the blocks mapped on their own
 * — from `malloc_info()`, by `malloc-info.c` compiled with gcc and preloaded (LD_PRELOAD) into the daemon.
 *
 * COMPANION_BENCH_BUILD=<dir> runs another build (e.g. /work/base); extra node flags: COMPANION_BENCH_NODE_ARGS.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDevProcess } from '../edit-latency.mjs';
import { ensureCorpus } from '../generate-corpus.mjs';
import { assertBuilt, buildRoot, log, nowMs, readArgs, sleep } from '../lib.mjs';
import { connect, listSkillsAll } from '../protocol.mjs';

const probe = fileURLToPath(new URL('./memory-probe.cjs', import.meta.url));
const CLOCK_TICKS = 100;

/** CPU ms per OS thread of `pid`. */
function readThreadCpu(pid) {
  const cpu = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
      cpu.set(Number(tid), ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return cpu;
}

function readLines(file) {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

/** `malloc-info.c` compiled into `dir` (gcc); its path. */
function buildMallocInfo(dir) {
  const source = fileURLToPath(new URL('./malloc-info.c', import.meta.url));
  const library = join(dir, 'malloc-info.so');
  execFileSync('gcc', ['-O2', '-shared', '-fPIC', '-o', library, source, '-lpthread']);
  return library;
}

const mib = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10;

/**
 * glibc's `malloc_info()` of the daemon, now, summed: the main arena, the other arenas, the mapped blocks
 * (MiB; `held` is what an arena holds from the system, `free` the free chunks inside it).
 */
async function readMallocInfo(dir) {
  const n = readdirSync(dir).filter((name) => name.startsWith('done-')).length;
  writeFileSync(join(dir, 'trigger'), '');
  const deadline = nowMs() + 5000;
  while (!existsSync(join(dir, `done-${n}`))) {
    if (nowMs() > deadline) throw new Error('malloc-info did not answer');
    await sleep(20);
  }
  const xml = readFileSync(join(dir, `info-${n}.xml`), 'utf8');
  const arenas = [...xml.matchAll(/<heap nr="\d+">([\s\S]*?)<\/heap>/g)].map(([, body]) => {
    const size = (pattern) => Number(pattern.exec(body)?.[1] ?? 0);
    return {
      held: size(/<system type="current" size="(\d+)"/),
      free:
        size(/<total type="fast" count="\d+" size="(\d+)"/) +
        size(/<total type="rest" count="\d+" size="(\d+)"/),
    };
  });
  const tail = xml.slice(xml.lastIndexOf('</heap>'));
  const others = arenas.slice(1);
  return {
    main: { held: mib(arenas[0]?.held ?? 0), free: mib(arenas[0]?.free ?? 0) },
    threads: {
      arenas: others.length,
      held: mib(others.reduce((sum, a) => sum + a.held, 0)),
      free: mib(others.reduce((sum, a) => sum + a.free, 0)),
    },
    mapped: mib(Number(/<total type="mmap" count="\d+" size="(\d+)"/.exec(tail)?.[1] ?? 0)),
    mappedBlocks: Number(/<total type="mmap" count="(\d+)"/.exec(tail)?.[1] ?? 0),
    // Each thread arena as held/free, largest first (which thread owns one, malloc_info does not say).
    each: others
      .map((a) => `${mib(a.held)}/${mib(a.free)}`)
      .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a)),
  };
}

/** Asks the probe for one sample of every thread; resolves with them once every known thread answered. */
async function probeOnce(daemon, dir) {
  const before = readLines(join(dir, 'main.jsonl')).length;
  process.kill(daemon.pid, 'SIGUSR2');
  const deadline = nowMs() + 5000;
  for (;;) {
    await sleep(50);
    const mains = readLines(join(dir, 'main.jsonl'));
    if (mains.length > before) {
      const main = mains.at(-1);
      await sleep(100);
      const workers = readdirSync(dir)
        .filter((name) => name.startsWith('worker-'))
        .map((name) => readLines(join(dir, name)).find((s) => s.tag === main.tag))
        .filter(Boolean);
      return { main, workers };
    }
    if (nowMs() > deadline) throw new Error('the probe did not answer');
  }
}

export async function runDevMemory({
  size = 'L',
  at = [0, 5, 10, 20, 30],
  malloc = false,
  host = false,
} = {}) {
  assertBuilt();
  const info = ensureCorpus(size, { log });
  const dir = mkdtempSync(join(tmpdir(), 'companion-probe-'));
  const extra = (process.env.COMPANION_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const mallocEnv = malloc ? { LD_PRELOAD: buildMallocInfo(dir), COMPANION_MALLOC_DIR: dir } : {};
  const spawned = nowMs();
  const daemon = await startDevProcess(info.root, {
    nodeArgs: [...extra, '--require', probe],
    env: { COMPANION_PROBE_DIR: dir, ...mallocEnv },
    waitReady: !host,
  });
  const samples = [];
  try {
    if (host) {
      const client = await connect(daemon.url, 'companion-bench-memory', 'modern');
      try {
        await listSkillsAll(client.client);
      } finally {
        await client.close().catch(() => {});
      }
      await daemon.ready;
    }
    const readyAt = daemon.readyAt;
    let lastCpu = readThreadCpu(daemon.pid);
    for (const seconds of at) {
      const wait = readyAt + seconds * 1000 - nowMs();
      if (wait > 0) await sleep(wait);
      const { main, workers } = await probeOnce(daemon, dir);
      const allocator = malloc ? await readMallocInfo(dir) : undefined;
      const cpu = readThreadCpu(daemon.pid);
      const delta = (tid) => (cpu.get(tid) ?? 0) - (lastCpu.get(tid) ?? 0);
      let total = 0;
      for (const tid of cpu.keys()) total += delta(tid);
      const mainCpu = delta(main.tid);
      const workerCpu = workers.map((w) => delta(w.tid));
      lastCpu = cpu;
      samples.push({
        afterReadyS: Math.round((nowMs() - readyAt) / 100) / 10,
        warm: daemon.lines.some((l) => /search index ready/.test(l.text)),
        rss: main.proc.rss,
        anon: main.proc.anon,
        file: main.proc.file,
        main: {
          heapUsed: main.heapUsed,
          heapCommitted: main.heapCommitted,
          young: main.spaces.new,
          old: main.spaces.old,
          largeObjects: main.spaces.large_object,
          external: main.external,
          arrayBuffers: main.arrayBuffers,
          malloced: main.malloced,
          gcs: main.gcs,
        },
        workers: workers.map((w) => ({
          heapUsed: w.heapUsed,
          heapCommitted: w.heapCommitted,
          young: w.spaces.new,
          external: w.external,
          malloced: w.malloced,
        })),
        ...(allocator && { malloc: allocator }),
        cpuMs: {
          main: mainCpu,
          workers: workerCpu,
          other: total - mainCpu - workerCpu.reduce((a, b) => a + b, 0),
        },
      });
    }
    return { size, build: buildRoot, readyMs: daemon.readyAt - spawned, samples };
  } finally {
    await daemon.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function formatSample(s) {
  const w = s.workers
    .map((x) => `thread heap ${x.heapUsed}/${x.heapCommitted} (young ${x.young?.committed ?? 0})`)
    .join(', ');
  return (
    `+${String(s.afterReadyS).padStart(4)} s${s.warm ? ' warm' : '     '}: RSS ${s.rss} (anon ${s.anon}, file ${s.file}) | ` +
    `main heap ${s.main.heapUsed}/${s.main.heapCommitted} (young ${s.main.young.used}/${s.main.young.committed}, ` +
    `old ${s.main.old.used}/${s.main.old.committed}, lo ${s.main.largeObjects?.committed ?? 0}) ext ${s.main.external} ` +
    `malloc ${s.main.malloced} gc ${s.main.gcs.scavenge}s/${s.main.gcs.markCompact}mc | ${w} | ` +
    `cpu ms main ${s.cpuMs.main} workers ${s.cpuMs.workers.join('/')} other ${s.cpuMs.other}` +
    (s.malloc === undefined
      ? ''
      : ` | malloc main ${s.malloc.main.held}/${s.malloc.main.free} free, ${s.malloc.threads.arenas} thread arenas ` +
        `${s.malloc.threads.held}/${s.malloc.threads.free} free [${s.malloc.each.join(' ')}], mapped ${s.malloc.mapped} (${s.malloc.mappedBlocks})`)
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { positional, option } = readArgs();
  const at = String(option('--at', '0,5,10,20,30')).split(',').map(Number);
  const result = await runDevMemory({
    size: positional[0] ?? 'L',
    at,
    malloc: process.argv.includes('--malloc'),
    host: process.argv.includes('--host'),
  });
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    process.stdout.write(`${result.build} ${result.size}: ready ${result.readyMs.toFixed(0)} ms\n`);
    for (const s of result.samples) process.stdout.write(`${formatSample(s)}\n`);
  }
  process.exit(0);
}
