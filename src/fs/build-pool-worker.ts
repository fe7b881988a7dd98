/**
 * A thread of the build pool (build-pool.ts): for every batch posted to it that nobody claimed yet, claims it,
 * derives each file's facts and posts them. Only facts cross back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createFactsRecorder, type FileFacts } from '../core/build/file-facts.js';
import { OPEN, type PoolBatch, type PoolMessage, type PoolWorkerData, WORKER } from './build-pool.js';

const { claims, finished, port, fail } = workerData as PoolWorkerData;
const record = createFactsRecorder();
let first = true;

parentPort?.on('message', ({ batch, buffer, offsets, paths, mtimes }: PoolBatch) => {
  if (Atomics.compareExchange(claims, batch, OPEN, WORKER) !== OPEN) return;
  // Uncaught, this ends the thread with the batch claimed and never finished: what a crash looks like.
  if (first && fail === 'die') throw new Error('build-pool-worker: dying as told');
  let message: PoolMessage;
  try {
    if (first && fail === 'throw') throw new Error('build-pool-worker: failing as told');
    const facts: FileFacts[] = [];
    for (let i = 0; i < paths.length; i++) {
      facts.push(
        record(paths[i]!, new Uint8Array(buffer, offsets[i]!, offsets[i + 1]! - offsets[i]!), mtimes[i]!),
      );
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
