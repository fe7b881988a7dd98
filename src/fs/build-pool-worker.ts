/**
 * A thread of the build pool (build-pool.ts): for every batch posted to it that nobody claimed yet, claims it,
 * derives each file's facts and posts them. Only facts cross back; the bytes are read in place (the read's shared
 * slabs) or from the batch's own buffer.
 */
import { setFlagsFromString } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { createFactsRecorder, type FileFacts } from '../core/build/file-facts.js';
import { OPEN, type PoolBatch, type PoolMessage, type PoolWorkerData, WORKER } from './build-pool.js';

const { claims, finished, port, hold, fail } = workerData as PoolWorkerData;
// First thing: this thread's isolate reset the process's growth factor to 2 (see `holdYoungGeneration`).
if (hold) setFlagsFromString('--semi-space-growth-factor=1');
const record = createFactsRecorder();
const shared: SharedArrayBuffer[] = [];
let first = true;

parentPort?.on('message', ({ batch, slabs, buffer, ranges, paths, mtimes }: PoolBatch) => {
  // Every batch's new slabs, claimed or not: a later batch may read them.
  for (const slab of slabs) shared.push(slab);
  if (Atomics.compareExchange(claims, batch, OPEN, WORKER) !== OPEN) return;
  // Uncaught, this ends the thread with the batch claimed and never finished: what a crash looks like.
  if (first && fail === 'die') throw new Error('build-pool-worker: dying as told');
  let message: PoolMessage;
  try {
    if (first && fail === 'throw') throw new Error('build-pool-worker: failing as told');
    const facts: FileFacts[] = [];
    for (let i = 0, r = 0; i < paths.length; i++, r += 3) {
      const slab = ranges[r]!;
      const bytes = new Uint8Array(slab < 0 ? buffer : shared[slab]!, ranges[r + 1]!, ranges[r + 2]!);
      facts.push(record(paths[i]!, bytes, mtimes[i]!));
    }
    message = { batch, facts };
  } catch (error) {
    message = { batch, failed: error instanceof Error ? error.message : String(error) };
  }
  first = false;
  // Posted before the count moves, so the thread that waits on the count finds the message.
  port.postMessage(message);
  Atomics.add(finished, 0, 1);
  Atomics.notify(finished, 0);
});
