/**
 * Holds the main thread's young generation at 2 × 4 MB while a command builds its catalog: the whole of `check`,
 * `serve` and `dev` until ready.
 *
 * A cold build allocates a few hundred MB in a few seconds and much of it survives (the catalog it builds), so V8
 * doubles the young generation at each scavenge that finds more survivors than the space holds, up to its maximum
 * (two 16 MB semi-spaces), and keeps it: 32 MB resident from the build on. At 4 MB, measured on L (RESULTS.md,
 * branch `young`): `dev` ~20 MB less RSS at ready, `check` ~20 MB less peak RSS, CPU the same within noise. A
 * daemon releases the cap at ready (`releaseYoungGeneration`): the search warm-up after it was slower at the cap.
 *
 * `--max-semi-space-size` would say so, but only on the command line (V8 reads it when the isolate is created), and
 * a command line is not ours: npm's shims and hosts write `node bin/companion.js`, and a re-exec keeps a second
 * process. V8 reads `--semi-space-growth-factor` at every growth instead, so at start this grows the young
 * generation in one step to the cap (growth factor = cap ÷ initial size, a few MB of survivors, ~5 ms), then sets
 * the factor to 1: it does not grow again. One thing undoes that: every new isolate (a worker thread) resets a
 * factor below 2 to 2 for the whole process, so it is set back to 1 as each thread comes online
 * (`whenYoungGenerationHeld`). A thread started inside a synchronous build (the build pool) cannot be heard: it sets
 * the factor back itself when asked (`isYoungGenerationHeld`, `BuildPoolOptions.holdYoungGeneration`).
 *
 * Only the CLI's composition root calls this: the core and the store are a library, and a library must not change
 * its host process's V8 flags behind its back.
 */
import { subscribe } from 'node:diagnostics_channel';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import type { Worker } from 'node:worker_threads';

/** One semi-space's size the young generation is held at (two of them are committed): measured in RESULTS.md. */
export const YOUNG_SEMI_SPACE_BYTES = 4 * 2 ** 20;

/** Past this many bytes of survivors allocated, V8 is not growing the space for the flag: give up. */
const GROW_BUDGET_FACTOR = 4;

/**
 * Grows this isolate's young generation to `semiSpaceBytes` per semi-space (or leaves it where it is, if it is
 * already larger) and stops V8 from growing it any further, for the rest of the process. Sets a process-wide V8
 * flag: call it once, at the start of a command.
 */
export function capYoungGeneration(semiSpaceBytes: number = YOUNG_SEMI_SPACE_BYTES): void {
  const start = readSemiSpaceCapacity();
  // V8 grows by factor × its capacity, rounded down to whole pages; 90% stands for "reached".
  const reached = semiSpaceBytes * 0.9;
  if (start > 0 && start < reached) {
    setFlagsFromString(`--semi-space-growth-factor=${Math.max(2, Math.round(semiSpaceBytes / start))}`);
    growYoung(() => readSemiSpaceCapacity() >= reached, GROW_BUDGET_FACTOR * semiSpaceBytes);
  }
  released = false;
  holdYoungGeneration();
  if (!capped) {
    capped = true;
    subscribe('worker_threads', (message) => {
      const { worker } = message as { worker: Worker };
      const online = new Promise<void>((resolve) => {
        worker.once('online', resolve);
        worker.once('exit', resolve);
      }).then(() => {
        if (!released) holdYoungGeneration();
      });
      starting.add(online);
      online.then(() => starting.delete(online));
    });
  }
}

/**
 * Settles once every worker thread started since `capYoungGeneration` is online, or after `timeoutMs` (at once when
 * none is starting, or when nothing was capped). A new isolate resets the growth factor (V8's heap set-up raises a
 * factor below 2 to 2, in every isolate it creates, for the whole process), so it is set back to 1 as each thread
 * comes online — which this thread hears only between tasks: a command that starts a thread right before a long
 * synchronous build awaits this first, or V8 grows this thread's young generation during the build. The wait
 * keeps the process alive (the threads it waits for may not).
 */
export function whenYoungGenerationHeld(timeoutMs = 1000): Promise<void> {
  if (starting.size === 0) return Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  return Promise.race([Promise.all(starting), late]).then(() => clearTimeout(timer));
}

/**
 * Lets V8 grow the young generation again as it would by default (growth factor 2), from now on; nothing when
 * `capYoungGeneration` did not run. For a daemon at ready: the search warm-up after it does ~4× the scavenges at
 * the cap (~+15% CPU, and edits during it slower), measured on L (RESULTS.md, branch `young`); the idle scavenge
 * (idle-heap.ts) gives the space back once quiet.
 */
export function releaseYoungGeneration(): void {
  // Nothing capped (a command run in-process by a test): the host's flags are not ours to set.
  if (!capped || released) return;
  released = true;
  setFlagsFromString('--semi-space-growth-factor=2');
}

/**
 * Whether the young generation is held now (`capYoungGeneration` ran and nothing released it): a thread started
 * where this thread cannot hear it come online (the build pool, inside a synchronous read) is asked to set the
 * growth factor back itself.
 */
export function isYoungGenerationHeld(): boolean {
  return capped && !released;
}

let released = false;
/** Whether `capYoungGeneration` ran in this process (and subscribed to new threads). */
let capped = false;
/** Threads started and not online yet: module state, as the V8 flag it stands for is the process's. */
const starting = new Set<Promise<void>>();

function holdYoungGeneration(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * Keeps 16 KB arrays alive until `done()` or `budget` bytes: V8 grows the young generation at a scavenge once more
 * has survived since the last growth than the space holds. What was kept is garbage once this returns.
 */
function growYoung(done: () => boolean, budget: number): void {
  const kept: number[][] = [];
  for (let bytes = 0; bytes < budget && !done(); bytes += 16 * 1024)
    kept.push(new Array<number>(2048).fill(0));
}

/** The usable bytes of one semi-space (new space's used + available), 0 when V8 does not say. */
function readSemiSpaceCapacity(): number {
  for (const space of getHeapSpaceStatistics()) {
    if (space.space_name === 'new_space') return space.space_used_size + space.space_available_size;
  }
  return 0;
}
