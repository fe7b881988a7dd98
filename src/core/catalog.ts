/**
 * `buildCatalog(snapshot, options) → { catalog, diagnostics }`: the one place where what the server serves is
 * derived from the files. Pure and deterministic — no fs, no clock, no SDK — so the same snapshot always gives
 * the same catalog, byte for byte, and every adapter (MCP, UI, check) reads the same answer.
 *
 * This file is the facade: the phases are modules in `build/` (the frame, classifying paths, reading units,
 * entries, coverage, links, the skill set, the index, assembling the result), run by the incremental engine in
 * `build/engine.ts`, which owns every piece of per-file state; a builder owns the engine and its memos.
 */

import { createEngine, type Engine } from './build/engine.js';
import { deriveFileFacts, type FileFacts, seedFileFacts } from './build/file-facts.js';
import { DEFAULT_DESCRIPTION_BUDGET } from './limits.js';
import { resolveLink } from './links.js';
import { createMemo } from './memo.js';
import type { BuildOptions, BuildResult, Snapshot, SourceFile } from './types.js';

export { withNotice } from './build/assemble.js';
export { DRAFT_SENTENCE, PRIORITY, SKILL_SENTENCE } from './build/entries.js';
export type { FileFacts };
export { DEFAULT_DESCRIPTION_BUDGET, resolveLink };

/**
 * Builds everything the server serves from one snapshot, and every finding on the way. Never throws on
 * content: a file that cannot be served is left out and said why. A builder's `update` answers exactly this
 * for the same snapshot (test/core/catalog-builder.property.test.ts holds it to that).
 */
export function buildCatalog(snapshot: Snapshot, options: BuildOptions = {}): BuildResult {
  return createCatalogBuilder(options).build(snapshot);
}

/**
 * Derives catalogs one snapshot after another, keeping what each file derived so that the next snapshot costs
 * what changed, not what exists: an edit of one document on a corpus of 10,000 re-reads that document, replaces
 * its entries and re-checks the links that could have changed meaning, without walking the others.
 *
 * Pure like `buildCatalog` (no fs, no clock), but stateful: it remembers the last snapshot it was given.
 */
export interface CatalogBuilder {
  /** Everything from scratch; the same as `buildCatalog(snapshot, options)`. */
  build(snapshot: Snapshot): BuildResult;
  /**
   * The result for `snapshot`, which differs from the last snapshot given to this builder at most at
   * `changedPaths` (files or problems added, removed or replaced). Equal, value for value, to
   * `build(snapshot)`. Without a last snapshot (or after a call threw) it builds from scratch.
   */
  update(snapshot: Snapshot, changedPaths: Iterable<string>): BuildResult;
  /**
   * Hands the builder the per-file facts of `file` derived elsewhere (`createFactsRecorder` on another thread,
   * from a copy of the same bytes), for the next build to find instead of deriving them. Changes no result.
   */
  prefill(file: SourceFile, facts: FileFacts): void;
  /** Derives the per-file facts of `file` now, as the next build would (a thread's share of a pool's work). */
  prederive(file: SourceFile): void;
}

export function createCatalogBuilder(options: BuildOptions = {}): CatalogBuilder {
  /** Memos by identity of bytes and parsed files: kept across builds, dropped with the builder. */
  const memo = createMemo();
  let engine: Engine | undefined;
  const run = (snapshot: Snapshot, changed: Iterable<string> | undefined): BuildResult => {
    const previous = engine;
    engine = undefined; // a call that throws leaves no half-updated state behind: the next one starts over
    // A builder made `once` keeps nothing an update would read (`BuildOptions.once`): each call starts over.
    const fresh = previous === undefined || changed === undefined || options.once === true;
    const next = fresh ? createEngine(options, memo) : previous;
    const result = next.derive(snapshot, fresh ? undefined : new Set(changed));
    engine = next;
    return result;
  };
  return {
    build: (snapshot) => run(snapshot, undefined),
    update: (snapshot, changedPaths) => run(snapshot, changedPaths),
    prefill: (file, facts) => seedFileFacts(memo, file.bytes, facts),
    prederive: (file) => deriveFileFacts(file.path, file.bytes, file.mtimeMs, memo),
  };
}
