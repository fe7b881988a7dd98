/**
 * Gives back the young generation a long-running command (`dev`, `serve`) grew and no longer uses.
 *
 * A cold build allocates a few hundred MB in a few seconds, so V8 grows the young generation to its limit (two
 * 16 MB semi-spaces; young-generation.ts holds it at two 4 MB ones until ready, the warm-up after it grows it) and
 * keeps it: V8 shrinks it only at the end of a garbage collection that finds the allocation rate low, and a daemon
 * that sits idle after its warm-up collects nothing at all. So it stays resident for the life of the process (on
 * L, measured: new space 32 MB committed once warm, for as long as the daemon idled). One scavenge once the
 * process has been quiet for a while is such a collection: V8 shrinks the space to what is live (~1 MB), in
 * ~4 ms. V8 decides: when the process is busy the scavenge just collects, as V8 would have a moment later, and the
 * young generation keeps its size.
 *
 * The scavenge needs V8's `gc` function, which only `--expose-gc` gives. Process-wide flags cannot be set on a
 * command line npm's shims and hosts write, so the flag is set for the moment of creating one context that holds
 * `gc`, and unset again: no other context ever sees `gc` (checked by its test).
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How often to look, and the young generation's committed size above which a look scavenges. */
export interface IdleHeapOptions {
  /** @default 10_000 (V8 judges the allocation rate over the last 5 s) */
  readonly everyMs?: number;
  /** @default 4 MiB (V8 starts with 1 MiB semi-spaces: 2 MiB) */
  readonly youngBytes?: number;
  /** For tests. @default new space's committed size, from `v8.getHeapSpaceStatistics` */
  readonly readYoung?: () => number;
}

/**
 * Looks every `everyMs` and, while the young generation is larger than `youngBytes`, calls `collect` (a scavenge:
 * `minorCollection()`, taken before any other thread starts) once per look. The timer never keeps the process
 * alive. Answers the function that stops it. Does nothing (and answers a no-op) without `collect`.
 */
export function startIdleHeap(collect: (() => void) | undefined, options: IdleHeapOptions = {}): () => void {
  if (collect === undefined) return () => {};
  const readYoung = options.readYoung ?? readYoungCommitted;
  const youngBytes = options.youngBytes ?? 4 * 2 ** 20;
  const timer = setInterval(() => {
    if (readYoung() > youngBytes) collect();
  }, options.everyMs ?? 10_000);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * A scavenge of this isolate, or undefined when V8 will not give its `gc` function. Sets a process-wide V8 flag
 * for a moment: call it before starting any worker thread.
 */
export function minorCollection(): (() => void) | undefined {
  type Gc = (options: { type: 'minor' }) => void;
  const given = (globalThis as { gc?: unknown }).gc;
  // Started with --expose-gc (a bench, a profile): the flag is left as it was.
  let gc: unknown = given;
  if (typeof given !== 'function') {
    try {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc');
    } catch {
      gc = undefined;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  if (typeof gc !== 'function') return undefined;
  const scavenge = gc as Gc;
  return () => scavenge({ type: 'minor' });
}

function readYoungCommitted(): number {
  for (const space of getHeapSpaceStatistics()) if (space.space_name === 'new_space') return space.space_size;
  return 0;
}
