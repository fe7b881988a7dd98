/**
 * A reader thread for `parallel-read.mjs`: reads each path it is sent with the loader's own `Reader.read` and posts
 * back the files (their bytes transferred, not copied), problems, prints and links, and how long it was busy.
 */
import { parentPort, workerData } from 'node:worker_threads';

const { createReader, createReadResult } = await import(workerData.readSnapshotUrl);
const reader = createReader(workerData.root);
let busyMs = 0;
parentPort.on('message', (paths) => {
  const started = performance.now();
  const results = [];
  const transfer = [];
  for (const path of paths) {
    const result = createReadResult();
    reader.read(path, result);
    const files = [...result.files.values()];
    for (const file of files) transfer.push(file.bytes.buffer);
    results.push({
      files,
      problems: [...result.problems.values()],
      prints: [...result.prints],
      links: [...result.links],
    });
  }
  busyMs += performance.now() - started;
  parentPort.postMessage({ results, busyMs }, transfer);
});
