/**
 * The one state owner: holds the snapshot read from disk and the generation built from it, re-reads only what
 * it is told changed, and publishes each rebuild to its subscribers. Wraps `readSnapshot`'s reader, the pure
 * incremental `createCatalogBuilder` (told which paths changed) and `diffCatalogs`.
 *
 * Last good: every build hands back the last good version of each item (`BuildResult.lastGood`) and the store
 * gives it to the next build, so an item that stops parsing, validating or reading while the store lives keeps
 * being served as it last was good, whole, until a save fixes it or it is deleted (`Generation.held` lists
 * them). A cold start has no last good versions: a broken item is withheld. And a re-read that would leave a
 * tree that had files with none at all is not published until a second read, a moment later, says the same.
 *
 * Longer than ~400 lines on purpose: it is the one state owner, and every change to what it holds — build,
 * re-read, reconcile, publish — is here, in the order it happens.
 */
import { createCatalogBuilder } from '../core/catalog.js';
import { diffCatalogs } from '../core/diff.js';
import { PersistentMap } from '../core/persistent-map.js';
import type {
  BuildOptions,
  BuildResult,
  CatalogChange,
  CatalogSource,
  FileChange,
  FileProblem,
  Generation,
  Snapshot,
  SourceFile,
} from '../core/types.js';
import { type BuildPoolOptions, type BuildPoolReport, createBuildPool } from './build-pool.js';
import { type ByteSlab, ByteSlabs } from './byte-slabs.js';
import {
  buildSnapshot,
  comparePaths,
  contentDirectories,
  createReader,
  createReadResult,
  isContentPath,
  type Reader,
} from './read-snapshot.js';

export interface CatalogStoreOptions {
  /** The content root. Must exist and be a directory, else `createCatalogStore` throws `RootError`. */
  readonly root: string;
  readonly build?: BuildOptions;
  /** @default 10 MiB */
  readonly maxFileBytes?: number;
  /** Wall clock for `Generation.builtAt`. @default Date.now */
  readonly now?: () => number;
  /**
   * Injectable for tests; when given, every rebuild calls it on the whole snapshot. @default an incremental
   * `createCatalogBuilder` from src/core/catalog.ts, told which paths changed
   */
  readonly buildCatalog?: (snapshot: Snapshot, options?: BuildOptions) => BuildResult;
  /**
   * Applied to every build's result before it is published, e.g. to put a notice learned at run time in front
   * of the instructions. Must not change what the result serves. @default none
   */
  readonly finish?: (built: BuildResult) => BuildResult;
  /** Receives what a subscriber threw. The store carries on either way. */
  readonly onError?: (error: unknown) => void;
  /**
   * The cold build's per-file work on worker threads (src/fs/build-pool.ts), for roots large enough; `false`
   * keeps it on this thread. Changes no result. @default false (on this 2-core machine it did not pay)
   */
  readonly pool?: BuildPoolOptions | false;
  /** Told what the pool did for the cold build (not called when it did not run). For benches and tests. */
  readonly onPool?: (report: BuildPoolReport) => void;
}

/**
 * A stat walk made off the store (`Reader.stat` of every content directory, by the same rules), for `reconcile`.
 */
export interface WalkedPrints {
  /**
   * Entry → its print as text (`PrintTable.get` of `ReadResult.prints`); in a partial walk, `undefined` for an
   * entry that is gone.
   */
  readonly prints: ReadonlyMap<string, string | undefined>;
  /**
   * Only the entries whose print changed since an earlier walk, all of whose changes the store was given: an
   * entry not named is as that walk found it.
   */
  readonly partial: boolean;
}

/**
 * A `CatalogSource` that owns the state behind it. Everything is synchronous, so one rebuild runs at a time by
 * construction; calling `applyChanges` or `reconcile` from inside a subscriber throws.
 */
export interface CatalogStore extends CatalogSource {
  /** The content root, absolute. */
  readonly root: string;
  /**
   * Re-reads exactly these root-relative posix paths (a directory: its whole subtree; a path that is gone:
   * removed with its subtree) and nothing else. Paths outside `knowledge/` and `skills/` or through an ignored
   * name are dropped; `''` means the whole tree. Returns undefined, publishing nothing, when every re-read
   * entry has the same bytes and the same problem as before (a save of identical bytes). Otherwise builds and
   * publishes the next generation — even when the diff is empty, since diagnostics may have changed — and
   * returns the change after every subscriber has been called. Throws what `buildCatalog` throws; the store
   * then keeps serving the previous generation and rebuilds on the next call.
   */
  applyChanges(paths: readonly string[]): CatalogChange | undefined;
  /**
   * A stat-only walk of the whole tree (kind, size, mtime, ctime, inode of each entry, and where each symlink
   * points) compared with what the store last read; re-reads only the entries that differ, through
   * `applyChanges`. Repairs whatever the watcher missed. Costs about one `lstat` per file.
   *
   * `walked`: that walk, made elsewhere (the watcher's thread), compared instead of walking here.
   */
  reconcile(walked?: WalkedPrints): CatalogChange | undefined;
  /** Whether the current snapshot holds this root-relative path as a file (read, with its bytes). */
  hasFile(path: string): boolean;
  /**
   * Paths worth reading again soon, without any event: files and directories that could not be read just now
   * (`unavailable`: EMFILE, EIO, …), and a re-read that found the whole tree empty and awaits confirmation.
   * Empty when nothing is pending. The watcher retries them with backoff (`applyChanges`).
   */
  pending(): readonly string[];
  /** The snapshot the current state was read into. For tests and diagnostics. */
  snapshot(): Snapshot;
}

/**
 * Reads the whole tree and builds generation 1 before returning. Throws `RootError` for an unusable root and
 * whatever `buildCatalog` throws. The store never watches by itself: without `createWatcher` it is a source that
 * never changes, which is what `serve` without `--watch` wants.
 */
export function createCatalogStore(options: CatalogStoreOptions): CatalogStore {
  const reader = createReader(
    options.root,
    options.maxFileBytes === undefined ? {} : { maxFileBytes: options.maxFileBytes },
  );
  const buildOptions = options.build ?? {};
  const builder = createCatalogBuilder(buildOptions);
  const finish = options.finish ?? ((built: BuildResult) => built);
  const build = (next: Snapshot, changed?: readonly string[]): BuildResult =>
    finish(
      options.buildCatalog
        ? options.buildCatalog(next, buildOptions)
        : changed === undefined
          ? builder.build(next)
          : builder.update(next, changed),
    );
  const now = options.now ?? Date.now;
  const listeners = new Set<(change: CatalogChange) => void>();

  // The cold build's per-file work starts on other threads while the walk goes on (src/fs/build-pool.ts).
  const pool = options.pool && options.buildCatalog === undefined ? createBuildPool(options.pool) : undefined;
  const initial = createReadResult(pool?.add, { slabs: true });
  for (const directory of contentDirectories) reader.read(directory, initial);
  const slabs = createSlabLedger(initial.slabs!.slabs);
  // Fingerprints and followed symlinks of what was last read. Internal bookkeeping, mutated in place; the
  // snapshot itself is never mutated once published.
  const prints = initial.prints;
  const links = initial.links;
  // The files as a map whose versions share structure: an edit copies a chunk, not 15,000 entries. The
  // builder does not need them sorted; `snapshot()` sorts on demand.
  let files = PersistentMap.from(initial.files);
  let problems: ReadonlyMap<string, FileProblem> = initial.problems;
  let snapshot: Snapshot = { files, problems: sortProblems(problems) };
  let sorted: Snapshot | undefined;
  // A cold start: nothing to hold yet.
  let lastGood: ReadonlyMap<string, SourceFile> = new Map();
  const report = pool?.finish(builder);
  if (report) options.onPool?.(report);
  const toGeneration = (number: number, result: BuildResult): Generation => {
    lastGood = result.lastGood ?? new Map();
    const { lastGood: _, held, ...rest } = result;
    return { number, ...rest, ...(held === undefined || held.length === 0 ? {} : { held }), builtAt: now() };
  };
  let generation: Generation = toGeneration(1, build(snapshot));
  // Set when a re-read found the whole tree empty and held off publishing it: these paths, read again.
  let unconfirmedEmpty: readonly string[] | undefined;
  // Set when a rebuild threw: the snapshot moved on without a generation, so the next call must rebuild.
  let stale = false;
  let busy = false;

  function assertIdle(): void {
    if (busy)
      throw new Error('CatalogStore: applyChanges/reconcile called from inside a rebuild or subscriber');
  }

  function applyChanges(paths: readonly string[]): CatalogChange | undefined {
    assertIdle();
    busy = true;
    try {
      return apply(paths);
    } finally {
      busy = false;
    }
  }

  function apply(paths: readonly string[]): CatalogChange | undefined {
    const started = performance.now();
    const targets = collapse(expandAliases(normalizeTargets(paths), reader, links));
    if (targets.length === 0 && !stale) return undefined;
    const targetSet = new Set(targets);

    // The leaves we knew in the affected subtrees. A known leaf has no subtree, so only unknown targets (new
    // paths, or directories) need the one pass over every known path.
    const affected = new Set<string>();
    const unknown = new Set<string>();
    for (const target of targets) {
      if (prints.has(target)) affected.add(target);
      else unknown.add(target);
    }
    if (unknown.size > 0) {
      for (const key of prints.keys()) if (isUnder(key, unknown)) affected.add(key);
    }

    const fresh = createReadResult();
    for (const target of targets) reader.read(target, fresh);

    const changedPaths: string[] = [];
    const nextFiles = new Map<string, SourceFile>();
    for (const key of affected) {
      if (!fresh.files.has(key) && !fresh.problems.has(key)) changedPaths.push(key);
    }
    for (const [key, file] of fresh.files) {
      const before = files.get(key);
      // Same bytes: keep the old entry, mtime included, so a no-op save changes nothing a host sees.
      if (before !== undefined && bytesEqual(before.bytes, file.bytes)) nextFiles.set(key, before);
      else {
        nextFiles.set(key, file);
        changedPaths.push(key);
      }
    }
    for (const [key, problem] of fresh.problems) {
      const before = problems.get(key);
      if (before === undefined || before.kind !== problem.kind || before.detail !== problem.detail) {
        changedPaths.push(key);
      }
    }

    // A tree that had files and would have none: an editor or a checkout caught mid-way, or the disk failing
    // us, far more often than an author deleting everything. Publish that only when a second read says so.
    let removed = 0;
    for (const key of affected) if (files.has(key) || problems.has(key)) removed++;
    const known = files.size + problems.size;
    const emptied = known > 0 && known - removed + fresh.files.size + fresh.problems.size === 0;
    if (emptied && unconfirmedEmpty === undefined) {
      unconfirmedEmpty = targets;
      return undefined;
    }
    unconfirmedEmpty = undefined;

    for (const key of affected) prints.delete(key);
    for (const key of fresh.prints.keys()) prints.copy(key, fresh.prints);
    for (const key of [...links.keys()]) if (isUnder(key, targetSet)) links.delete(key);
    for (const [key, real] of fresh.links) links.set(key, real);

    if (changedPaths.length === 0 && !stale) return undefined;

    const fileChanges = describeFileChanges(changedPaths, files, problems, nextFiles, fresh.problems);
    const filesCopy = files.edit();
    const problemsCopy = new Map(problems);
    for (const key of affected) {
      filesCopy.delete(key);
      problemsCopy.delete(key);
    }
    for (const [key, file] of nextFiles) filesCopy.set(key, file);
    for (const [key, problem] of fresh.problems) {
      filesCopy.delete(key);
      problemsCopy.set(key, problem);
    }
    for (const key of nextFiles.keys()) problemsCopy.delete(key);
    // The bytes each changed path held before leave their slab; a slab left mostly dead gives its survivors
    // a new home, rebuilt under their paths (same bytes, so no host sees a change) but not reported.
    for (const key of changedPaths) {
      const before = files.get(key);
      if (before !== undefined && filesCopy.get(key) !== before) slabs.release(before.bytes);
    }
    const rehomed = slabs.rehome(filesCopy);
    files = filesCopy.done();
    problems = problemsCopy;
    snapshot = { files, problems: sortProblems(problems), lastGood };
    sorted = undefined;

    // After a rebuild that threw, the builder starts over (it keeps no half-updated state), so the paths
    // changed since the last good build need no bookkeeping here.
    stale = true;
    const result = build(snapshot, rehomed.length === 0 ? changedPaths : [...changedPaths, ...rehomed]);
    stale = false;
    const previous = generation;
    const current = toGeneration(previous.number + 1, result);
    const diff = diffCatalogs(previous.catalog, current.catalog);
    generation = current;
    const change: CatalogChange = {
      ...diff,
      previous,
      current,
      changedPaths: changedPaths.sort(comparePaths),
      rebuildMs: performance.now() - started,
      files: fileChanges,
    };
    for (const listener of [...listeners]) {
      try {
        listener(change);
      } catch (error) {
        try {
          options.onError?.(error);
        } catch {
          // A failing error reporter must not take the store down with it.
        }
      }
    }
    return change;
  }

  function reconcile(walked?: WalkedPrints): CatalogChange | undefined {
    assertIdle();
    const differing: string[] = [];
    let seen: { has(path: string): boolean };
    if (walked === undefined) {
      const fresh = createReadResult();
      for (const directory of contentDirectories) reader.stat(directory, fresh);
      for (const key of fresh.prints.keys()) if (!prints.same(key, fresh.prints)) differing.push(key);
      seen = fresh.prints;
    } else {
      // A walk made on the watcher's thread crosses as text, so it is compared as text (`PrintTable.get`).
      for (const [key, print] of walked.prints) if (prints.get(key) !== print) differing.push(key);
      seen = walked.prints;
    }
    if (walked?.partial !== true) for (const key of prints.keys()) if (!seen.has(key)) differing.push(key);
    // A read that failed just now has the same print as before: only reading it again tells.
    differing.push(...pending());
    return applyChanges(differing);
  }

  function pending(): readonly string[] {
    const paths: string[] = [];
    for (const [key, problem] of problems) if (problem.kind === 'unavailable') paths.push(key);
    if (unconfirmedEmpty) paths.push(...unconfirmedEmpty);
    return paths;
  }

  return {
    root: reader.root,
    current: () => generation,
    subscribe(listener) {
      // Wrapped so the same function can subscribe twice and each unsubscribe removes only its own.
      const entry = (change: CatalogChange) => listener(change);
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    applyChanges,
    reconcile,
    pending,
    hasFile: (path) => files.has(path),
    snapshot: () => {
      sorted ??= buildSnapshot(files, problems);
      return sorted;
    },
  };
}

/**
 * What the store knows of the slabs its files' bytes live in (src/fs/byte-slabs.ts): each slab's live bytes.
 * The bound it keeps: a slab whose live bytes fall below half of what was placed in it is emptied at once
 * (its survivors copied into new slabs), so dead bytes pinned in slabs never exceed the live bytes in slabs
 * plus one half-empty slab per emptying — an edit or a branch switch cannot leave a whole tree's old bytes
 * behind. The one exception is a file a last good version still holds: its bytes are alive, not waste.
 */
interface SlabLedger {
  /** `bytes` is no longer the current version of its path. */
  release(bytes: Uint8Array): void;
  /**
   * Moves every current file of each mostly dead slab into a new slab, in `files` (being edited); answers
   * their paths, which the next build must re-derive (the core's memos are keyed by the old views).
   */
  rehome(files: {
    get(path: string): SourceFile | undefined;
    set(path: string, file: SourceFile): void;
  }): string[];
}

function createSlabLedger(initial: readonly ByteSlab[]): SlabLedger {
  const live = new Map<ArrayBuffer, { readonly slab: ByteSlab; bytes: number }>();
  const adopt = (list: readonly ByteSlab[]) => {
    for (const slab of list) live.set(slab.buffer, { slab, bytes: slab.live });
  };
  adopt(initial);
  let sparse: ByteSlab[] = [];
  return {
    release(bytes) {
      const entry = live.get(bytes.buffer as ArrayBuffer);
      if (entry === undefined) return;
      entry.bytes -= bytes.byteLength;
      if (entry.bytes * 2 < entry.slab.used) {
        live.delete(entry.slab.buffer);
        sparse.push(entry.slab);
      }
    },
    rehome(files) {
      if (sparse.length === 0) return [];
      const survivors: SourceFile[] = [];
      for (const slab of sparse) {
        for (const path of slab.paths) {
          const file = files.get(path);
          if (file !== undefined && file.bytes.buffer === slab.buffer) survivors.push(file);
        }
      }
      sparse = [];
      // One slab of exactly their size: a new home with no room left over.
      const into = new ByteSlabs(survivors.reduce((sum, file) => sum + file.bytes.byteLength, 0));
      for (const file of survivors)
        files.set(file.path, { ...file, bytes: into.copy(file.path, file.bytes) });
      adopt(into.slabs);
      return survivors.map((file) => file.path);
    },
  };
}

/** A `CatalogSource` over one fixed generation: `subscribe` never calls back. For tests and one-shot serving. */
export function createStaticSource(generation: Generation): CatalogSource {
  return { current: () => generation, subscribe: () => () => {} };
}

/**
 * Names each changed path as an author would: added, saved or deleted — and a file that vanished beside one
 * that appeared with the same bytes, renamed (a `mv`, a renamed directory, an editor's save-as).
 */
function describeFileChanges(
  changed: readonly string[],
  before: ReadonlyMap<string, SourceFile>,
  beforeProblems: ReadonlyMap<string, FileProblem>,
  after: ReadonlyMap<string, SourceFile>,
  afterProblems: ReadonlyMap<string, FileProblem>,
): FileChange[] {
  const added: string[] = [];
  const deleted: string[] = [];
  const out: FileChange[] = [];
  // Below a directory that could not be read just now, nothing was deleted: it is unknown for now.
  const unavailableBefore = [...beforeProblems.values()]
    .filter((p) => p.kind === 'unavailable')
    .map((p) => p.path);
  const unavailableAfter = [...afterProblems.values()]
    .filter((p) => p.kind === 'unavailable')
    .map((p) => p.path);
  const below = (path: string, dirs: readonly string[]) => dirs.some((dir) => path.startsWith(`${dir}/`));
  for (const path of [...changed].sort(comparePaths)) {
    const was = before.has(path) || beforeProblems.has(path);
    const is = after.has(path) || afterProblems.has(path);
    if (afterProblems.get(path)?.kind === 'unavailable') out.push({ path, kind: 'unavailable' });
    else if (beforeProblems.get(path)?.kind === 'unavailable') {
      if (is) out.push({ path, kind: 'read again' });
    } else if (!is && below(path, unavailableAfter)) continue;
    else if (!was && below(path, unavailableBefore)) out.push({ path, kind: 'read again' });
    else if (was && is) out.push({ path, kind: 'saved' });
    else if (is) added.push(path);
    else deleted.push(path);
  }
  const unmatched = new Set(deleted);
  for (const path of added) {
    const bytes = after.get(path)?.bytes;
    const from =
      bytes === undefined
        ? undefined
        : deleted.find((old) => unmatched.has(old) && sameBytes(before.get(old)?.bytes, bytes));
    if (from === undefined) out.push({ path, kind: 'added' });
    else {
      unmatched.delete(from);
      out.push({ path, kind: 'renamed', from });
    }
  }
  for (const path of unmatched) out.push({ path, kind: 'deleted' });
  return out.sort((a, b) => comparePaths(a.path, b.path));
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && bytesEqual(a, b);
}

function sortProblems(problems: ReadonlyMap<string, FileProblem>): FileProblem[] {
  return [...problems.values()].sort((a, b) => comparePaths(a.path, b.path));
}

/** Posix-normalises and keeps content paths; `''` or `.` stands for the whole tree. */
function normalizeTargets(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of paths) {
    const path = raw
      .split('/')
      .filter((segment) => segment !== '' && segment !== '.')
      .join('/');
    if (path === '') out.push(...contentDirectories);
    else if (isContentPath(path)) out.push(path);
  }
  return out;
}

/**
 * A change below the target of a symlink that resolves inside the root also changes what the link serves;
 * the watcher only reports the target's path, so add the link's path too (one level of aliasing; reconcile
 * catches the rest).
 */
function expandAliases(paths: string[], reader: Reader, links: ReadonlyMap<string, string>): string[] {
  if (links.size === 0) return paths;
  const out = [...paths];
  for (const path of paths) {
    const physical = `${reader.rootReal}/${path}`;
    for (const [link, real] of links) {
      if (physical === real) out.push(link);
      else if (physical.startsWith(`${real}/`)) out.push(link + physical.slice(real.length));
    }
  }
  return out;
}

/** Sorted, unique, and without any path whose ancestor is also present (the ancestor's walk covers it). */
function collapse(paths: string[]): string[] {
  const set = new Set(paths);
  return [...set].filter((path) => !hasAncestorIn(path, set)).sort(comparePaths);
}

function isUnder(path: string, set: ReadonlySet<string>): boolean {
  return set.has(path) || hasAncestorIn(path, set);
}

function hasAncestorIn(path: string, set: ReadonlySet<string>): boolean {
  for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) {
    if (set.has(path.slice(0, i))) return true;
  }
  return false;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.compare(a, b) === 0;
}
