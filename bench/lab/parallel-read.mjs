#!/usr/bin/env node
/**
 * Is reading a content root on worker threads faster than the loader's one synchronous walk (issue 18.2)? Each
 * round, in fresh processes, interleaved: `readSnapshot(root)` on the main thread, against a pool of N reader
 * threads (`parallel-read-worker.mjs`) fed chunks of the tree's paths (the walk split below the content
 * directories; each thread runs the same `Reader.read`) whose files come back with their bytes transferred. Wall
 * from the process's first line (process start excluded, thread start included); the threads' busy time beside it.
 *
 *   node bench/lab/parallel-read.mjs <S|M|L|XL> [--rounds N] [--threads N]
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { ensureCorpus } from '../generate-corpus.mjs';
import { distDir, log, median } from '../lib.mjs';

const readSnapshotUrl = new URL(`${distDir}fs/read-snapshot.js`, 'file://').href;

async function readOnThreads(root, threads) {
  const { contentDirectories, isIgnoredName, comparePaths } = await import(readSnapshotUrl);
  const started = performance.now();
  const paths = [];
  const split = (path, depth) => {
    let entries;
    try {
      entries = readdirSync(`${root}/${path}`, { withFileTypes: true });
    } catch {
      paths.push(path);
      return;
    }
    entries.sort((a, b) => comparePaths(a.name, b.name));
    for (const entry of entries) {
      if (isIgnoredName(entry.name)) continue;
      const child = `${path}/${entry.name}`;
      if (entry.isDirectory() && depth > 0) split(child, depth - 1);
      else paths.push(child);
    }
  };
  for (const directory of contentDirectories) split(directory, 2);
  const size = Math.max(1, Math.ceil(paths.length / 64));
  const chunks = [];
  for (let i = 0; i < paths.length; i += size) chunks.push(paths.slice(i, i + size));
  const results = new Array(chunks.length);
  const busy = [];
  const workers = Array.from(
    { length: threads },
    () =>
      new Worker(new URL('./parallel-read-worker.mjs', import.meta.url), {
        workerData: { root, readSnapshotUrl },
      }),
  );
  let next = 0;
  await new Promise((resolve) => {
    let done = 0;
    const feed = (worker, index) => {
      if (next >= chunks.length) return;
      const at = next++;
      worker.once('message', (message) => {
        results[at] = message.results;
        busy[index] = message.busyMs;
        if (++done === chunks.length) resolve();
        else feed(worker, index);
      });
      worker.postMessage(chunks[at]);
    };
    workers.forEach(feed);
  });
  let files = 0;
  for (const chunk of results) for (const result of chunk) files += result.files.length;
  const ms = performance.now() - started;
  await Promise.all(workers.map((worker) => worker.terminate()));
  return { files, ms, busyMs: busy };
}

async function readOnMain(root) {
  const { readSnapshot } = await import(readSnapshotUrl);
  const started = performance.now();
  const snapshot = readSnapshot(root);
  return { files: snapshot.files.size, ms: performance.now() - started };
}

const [mode, root, threads] = process.argv.slice(2);
if (mode === '--child-main') {
  process.stdout.write(JSON.stringify(await readOnMain(root)));
} else if (mode === '--child-threads') {
  process.stdout.write(JSON.stringify(await readOnThreads(root, Number(threads))));
} else {
  const args = process.argv.slice(2);
  const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
  const size = args.find((a) => !a.startsWith('--')) ?? 'L';
  const rounds = option('--rounds', 5);
  const threadCount = option('--threads', 2);
  const info = ensureCorpus(size, { log });
  const run = (...childArgs) =>
    JSON.parse(
      execFileSync(process.execPath, [new URL(import.meta.url).pathname, ...childArgs], { encoding: 'utf8' }),
    );
  const main = [];
  const pool = [];
  for (let i = 0; i < rounds; i++) {
    main.push(run('--child-main', info.root));
    pool.push(run('--child-threads', info.root, String(threadCount)));
  }
  const row = {
    size,
    files: main[0].files,
    rounds,
    threads: threadCount,
    mainMs: median(main.map((r) => r.ms)),
    threadsMs: median(pool.map((r) => r.ms)),
    threadsBusyMs: pool.map((r) => r.busyMs.map(Math.round)),
  };
  process.stdout.write(`${JSON.stringify(row, null, 2)}\n`);
}
