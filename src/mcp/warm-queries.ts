/**
 * Warming what the first question needs (issue 18.4): the search index the first `document_lookup` would build
 * (2.8 s on a 10,000-document corpus) is built in the background instead, in slices of a millisecond or two with
 * a turn of the event loop between them (`setImmediate`), so a save's notification, a request or a frame never
 * waits more than one slice. Each published change is warmed too: a patch of a few documents, or (after a
 * change too large to patch) a new build in slices. The work itself is pure and resumable
 * (`CatalogQueries.warm`); this only decides when it runs and for how long. A lookup that comes first answers
 * the same, finishing whatever is left.
 */
import { performance } from 'node:perf_hooks';
import type { CatalogQueries } from '../core/queries.js';
import type { CatalogSource } from '../core/types.js';

/** How long one slice of warming aims to run before yielding. */
export const DEFAULT_WARM_SLICE_MS = 1.5;
/** Budget bounds, in `CatalogQueries.warm` units (about a character of text each, ~25 ns). */
const MIN_BUDGET = 2_000;
const MAX_BUDGET = 2_000_000;
const FIRST_BUDGET = 20_000;

export interface WarmReport {
  /** The generation now warm. */
  readonly generation: number;
  /** From the first slice of this warming to the last. */
  readonly elapsedMs: number;
  /** Time spent in the slices themselves. */
  readonly workMs: number;
  readonly slices: number;
}

export interface WarmQueriesOptions {
  /** @default DEFAULT_WARM_SLICE_MS */
  readonly sliceMs?: number;
  /** Called each time the newest generation is warm (once at first, then after each change warmed). */
  readonly onWarm?: (report: WarmReport) => void;
}

/**
 * Starts warming `queries` for `source`'s newest generation, now and after every change it publishes; answers
 * the function that stops it (idempotent). The slice budget adapts to how long the last slice took.
 */
export function warmQueries(
  source: CatalogSource,
  queries: CatalogQueries,
  options: WarmQueriesOptions = {},
): () => void {
  const sliceMs = options.sliceMs ?? DEFAULT_WARM_SLICE_MS;
  let budget = FIRST_BUDGET;
  let scheduled: NodeJS.Immediate | undefined;
  let stopped = false;
  let startedAt: number | undefined;
  let workMs = 0;
  let slices = 0;

  const run = (): void => {
    scheduled = undefined;
    if (stopped) return;
    const generation = source.current();
    const began = performance.now();
    startedAt ??= began;
    const done = queries.warm(generation.catalog, budget);
    const took = performance.now() - began;
    workMs += took;
    slices++;
    // Scale the next slice by how long this one took (at most doubling: one slow slice may be a GC pause).
    budget = Math.round(
      Math.min(MAX_BUDGET, Math.max(MIN_BUDGET, budget * Math.min(2, sliceMs / Math.max(took, 0.01)))),
    );
    if (!done) {
      scheduled = setImmediate(run);
      return;
    }
    options.onWarm?.({
      generation: generation.number,
      elapsedMs: performance.now() - startedAt,
      workMs,
      slices,
    });
    startedAt = undefined;
    workMs = 0;
    slices = 0;
  };
  const schedule = (): void => {
    if (!stopped) scheduled ??= setImmediate(run);
  };
  const unsubscribe = source.subscribe(schedule);
  schedule();
  return () => {
    if (stopped) return;
    stopped = true;
    unsubscribe();
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
  };
}

/** How long a door's hosts must have sent nothing before the warm-up begins (`warmWhenQuiet`). */
export const WARM_AFTER_QUIET_MS = 250;

export interface QuietWarmUp {
  /** A host sent something: a warm-up not begun yet waits `quietMs` more. */
  readonly activity: () => void;
  /** Begins waiting for quiet (idempotent); the warm-up starts once no activity came for `quietMs`. */
  readonly arm: () => void;
  /** Stops the warm-up, begun or not. */
  readonly stop: () => void;
}

/**
 * The warm-up of a door, begun only once its hosts have been quiet for a moment: a host that connects walks every
 * page of both lists at once, and a slice of warming between each of its requests (and the garbage the index build
 * makes) would stretch that burst. Once begun it runs to the end (a lookup never waits for a quiet that may not
 * come), in slices, as `warmQueries` does.
 */
export function warmWhenQuiet(
  source: CatalogSource,
  queries: CatalogQueries,
  options: WarmQueriesOptions & {
    readonly quietMs?: number;
    /** The door's gate, shared with its other work that waits for quiet (its `activity` is then the door's). */
    readonly gate?: QuietGate;
  } = {},
): QuietWarmUp {
  // A gate of its own is its to stop; the door's is the door's, and other work may still wait on it.
  const own = options.gate === undefined;
  const gate = options.gate ?? createQuietGate(options.quietMs);
  let armed = false;
  let stopped = false;
  let stopWarming: (() => void) | undefined;
  return {
    activity: gate.activity,
    arm: () => {
      if (armed || stopped) return;
      armed = true;
      gate.when(() => {
        if (!stopped) stopWarming = warmQueries(source, queries, options);
      });
    },
    stop: () => {
      stopped = true;
      if (own) gate.stop();
      stopWarming?.();
    },
  };
}

export interface QuietGate {
  /** A host sent something: whatever waits for quiet waits `quietMs` more. */
  readonly activity: () => void;
  /** Runs `run` once neither activity nor another `when` came for `quietMs` (after `stop`: never). */
  readonly when: (run: () => void) => void;
  /** Drops whatever still waits; later `when` calls never run. */
  readonly stop: () => void;
}

/**
 * "Once the hosts have been quiet for a moment", for a door's background work: activity before anything waits
 * changes nothing; each activity while something waits starts the quiet period again. The timer never keeps the
 * process alive.
 */
export function createQuietGate(quietMs: number = WARM_AFTER_QUIET_MS): QuietGate {
  let waiting: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const wait = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      const due = waiting;
      waiting = [];
      for (const run of due) run();
    }, quietMs);
    timer.unref();
  };
  return {
    activity: () => {
      if (waiting.length > 0) wait();
    },
    when: (run) => {
      if (stopped) return;
      waiting.push(run);
      wait();
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      waiting = [];
    },
  };
}
