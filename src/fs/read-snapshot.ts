/**
 * The loader: reads a content root's `knowledge/`, `skills/` and `prompts/` trees from disk into a `Snapshot`,
 * keeping every byte it hands over inside the root.
 *
 * Everything here is synchronous on purpose: `readFileSync`-style calls are 10–25× faster than `fs.promises` on
 * small files, and a synchronous walk cannot interleave with a rebuild. Every byte goes through one primitive
 * (`readFileBytes`), and every path through one dispatch (`visitEntry`), so the full read, the incremental
 * re-read and the stat-only reconcile walk apply exactly the same rules.
 *
 * Longer than ~400 lines on purpose: the one primitive and the one dispatch stay in one file so that the full
 * read, the re-read and the reconcile walk cannot drift apart.
 */
import fs from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { FileProblem, FileProblemKind, Snapshot, SourceFile } from '../core/types.js';
import { ByteSlabs } from './byte-slabs.js';
import { formatStatPrint, type PrintSink, PrintTable } from './print-table.js';

/** The top-level directories of a content root that hold content; everything else under the root is ignored. */
export const contentDirectories = ['knowledge', 'skills', 'prompts'] as const;
const contentDirectorySet: ReadonlySet<string> = new Set(contentDirectories);

/** The per-file cap when none is given: 10 MiB. */
export const defaultMaxFileBytes = 10 * 1024 * 1024;

export interface ReadOptions {
  /** Files larger than this are reported as `too-large` and their bytes are not read. @default 10 MiB */
  readonly maxFileBytes?: number;
}

/** Why a content root cannot be used at all. The CLI turns it into exit code 2. */
export class RootError extends Error {
  override readonly name = 'RootError';
  constructor(
    /** The root as given. */
    readonly root: string,
    readonly reason: 'missing' | 'not-directory' | 'unreadable',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Names that are never content: hidden names (which covers `.#lock` files and `.git`), `node_modules`, and the
 * temporary files editors and tools write on the way to a save (`isEditorTempName`: vim, Emacs, sed -i,
 * JetBrains, …). The watcher ignores the same names, so a temp file never causes a rebuild or a timeline row.
 */
export function isIgnoredName(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules' || isEditorTempName(name);
}

/**
 * Names editors and tools give the files they write on the way to a save, never content. Decided from what they
 * really do (each checked against its source or by watching it save):
 *
 * - vim: the `4913` probe it creates to test a directory, `.name.swp`/`.swx`/`.swo` swap files (hidden names),
 *   and `name~` backups.
 * - Emacs: `#name#` auto-saves, `.#name` lock links (hidden) and `name~` backups.
 * - GNU sed `-i` (and `perl -i` via its own temp): `sedXXXXXX` — "sed" and six random letters or digits, created
 *   beside the file and renamed over it.
 * - JetBrains IDEs' safe write: `name___jb_tmp___` and `name___jb_old___`.
 * - Kate/KWrite swap files `.name.kate-swp` (hidden); Chromium's File System Access saves `name.crswap`.
 * - GIO (gedit, GNOME apps) `.goutputstream-XXXXXX`, rsync `.name.XXXXXX` (both hidden), and generic `*.tmp`.
 *
 * Hidden names (a leading dot) are never content anyway; `isIgnoredName` checks them first. Kept in this module,
 * which imports only node builtins (and its slabs and prints, which import nothing) at run time (see
 * `comparePaths`).
 */

const SED_TEMP = /^sed[A-Za-z0-9]{6}$/;

/** True for a file name an editor or tool writes only on the way to a save. */
export function isEditorTempName(name: string): boolean {
  return (
    name.endsWith('~') ||
    name.endsWith('.swp') ||
    name.endsWith('.swx') ||
    name.endsWith('.swo') ||
    name.endsWith('.tmp') ||
    name.endsWith('.crswap') ||
    name.endsWith('.kate-swp') ||
    name.endsWith('___jb_tmp___') ||
    name.endsWith('___jb_old___') ||
    (name.startsWith('#') && name.endsWith('#')) ||
    name === '4913' ||
    SED_TEMP.test(name)
  );
}

/**
 * True when `path` (posix, relative to the root) is a content root's top-level directory or lies below one,
 * and none of its segments is ignored. The root itself (`''`) is not a content path.
 */
export function isContentPath(path: string): boolean {
  if (path === '') return false;
  const segments = path.split('/');
  const first = segments[0]!;
  if (!contentDirectorySet.has(first)) return false;
  return segments.every((segment) => segment !== '' && segment !== '..' && !isIgnoredName(segment));
}

/**
 * What one walk found, keyed by posix path relative to the root. Maps are filled in place by `Reader.read` and
 * `Reader.stat`; the caller owns them.
 */
export interface ReadResult<Prints extends PrintSink = PrintTable> {
  /** Files whose bytes were read (empty for a stat walk). */
  readonly files: Map<string, SourceFile>;
  /** Entries that cannot be served, one per path. */
  readonly problems: Map<string, FileProblem>;
  /**
   * A fingerprint of every leaf (file or problem) from `lstat` (kind, size, mtime, ctime, inode) plus, for a
   * followed symlink, its real target and the target's stat. Two walks give the same print for an entry
   * (`PrintTable.same`) iff nothing a reader could notice changed. ctime is included because `chmod` moves only ctime, and the inode
   * because a replace can keep size and mtime.
   */
  readonly prints: Prints;
  /**
   * Symlinks that point inside the root: link path → real target path (a file or a directory), or for a
   * dangling link the path it would resolve to. Lets a change reported at the target re-read the link.
   */
  readonly links: Map<string, string>;
  /** Told every file as it is read (the cold build's thread pool starts on the files while the walk goes on). */
  readonly onFile?: (file: SourceFile) => void;
  /**
   * When present, small files' bytes are views into shared slabs (src/fs/byte-slabs.ts), which it lists;
   * otherwise each file's bytes are memory of their own. For walks of many files: a cold read.
   */
  readonly slabs?: ByteSlabs;
}

/**
 * An empty `ReadResult` to walk into; `slabs` places small files into shared buffers (for a cold read of a
 * whole tree, not for the re-read of an edit), `'shared'` into `SharedArrayBuffer`s a build pool reads in place.
 */
export function createReadResult(
  onFile?: (file: SourceFile) => void,
  options: { readonly slabs?: boolean | 'shared' } = {},
): ReadResult {
  return {
    files: new Map(),
    problems: new Map(),
    prints: new PrintTable(),
    links: new Map(),
    ...(onFile && { onFile }),
    ...(options.slabs && { slabs: new ByteSlabs(undefined, options.slabs === 'shared') }),
  };
}

/** A content root opened once: its real path is resolved at creation and every later read is checked against it. */
export interface Reader {
  /** The root as given, made absolute. */
  readonly root: string;
  /** `realpath(root)`: every byte read lies below it. */
  readonly rootReal: string;
  readonly maxFileBytes: number;
  /**
   * Reads `path` into `into`: a file's bytes, or every file below it when it is a directory; nothing when it
   * is gone, not a content path, or lies below an entry that is not a readable directory inside the root (that
   * entry carries the problem). Never throws for anything on disk.
   */
  read(path: string, into: ReadResult<PrintSink>): void;
  /** The same walk as `read`, recording `prints`, `problems` and `links` but never opening a file. */
  stat(path: string, into: ReadResult<PrintSink>): void;
}

/**
 * Opens a content root. Throws `RootError` when `root` does not exist, is not a directory, or cannot be
 * resolved; nothing below the root ever throws.
 */
export function createReader(root: string, options: ReadOptions = {}): Reader {
  const absolute = resolve(root);
  let rootReal: string;
  try {
    rootReal = fs.realpathSync.native(absolute);
    if (!fs.statSync(rootReal).isDirectory()) {
      throw new RootError(root, 'not-directory', `The content root ${absolute} is not a directory.`);
    }
  } catch (error) {
    if (error instanceof RootError) throw error;
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new RootError(root, 'missing', `The content root ${absolute} does not exist.`);
    }
    throw new RootError(
      root,
      'unreadable',
      `The content root ${absolute} cannot be read (${code ?? 'error'}).`,
    );
  }
  const context: Context = {
    rootReal,
    maxFileBytes: options.maxFileBytes ?? defaultMaxFileBytes,
    readBytes: true,
  };
  const statContext: Context = { ...context, readBytes: false };
  return {
    root: absolute,
    rootReal,
    maxFileBytes: context.maxFileBytes,
    read: (path, into) => readPath(context, path, into),
    stat: (path, into) => readPath(statContext, path, into),
  };
}

/**
 * Reads the whole content tree under `root`: every file below the content directories that is not ignored,
 * with a `FileProblem` for each entry that cannot be served. Missing content directories are fine (empty).
 * Files are keyed in code-point order of their path and problems are sorted by path, so two reads of the same
 * tree are equal. Throws `RootError` when the root itself is unusable.
 */
export function readSnapshot(root: string, options: ReadOptions = {}): Snapshot {
  const reader = createReader(root, options);
  const result = createReadResult(undefined, { slabs: true });
  for (const directory of contentDirectories) reader.read(directory, result);
  return buildSnapshot(result.files, result.problems);
}

/** What `readEntry` found at one path. `directory` means the path is a directory: walk it with `Reader.read`. */
export type EntryResult =
  | { readonly file: SourceFile }
  | { readonly problem: FileProblem }
  | { readonly missing: true }
  | { readonly directory: true };

/**
 * Reads one path by the same rules as `readSnapshot`. `missing` covers a path that is gone, ignored, outside
 * the content directories, or below an entry that carries its own problem (an escaping or broken symlinked
 * directory). Throws `RootError` when the root itself is unusable.
 */
export function readEntry(root: string, path: string, options: ReadOptions = {}): EntryResult {
  const reader = createReader(root, options);
  const result = createReadResult();
  reader.read(path, result);
  const file = result.files.get(path);
  if (file) return { file };
  const problem = result.problems.get(path);
  if (problem) return { problem };
  if (result.files.size > 0 || result.problems.size > 0 || isWalkableDirectory(reader, path)) {
    return { directory: true };
  }
  return { missing: true };
}

/**
 * Builds an immutable-by-contract `Snapshot`: files in code-point path order, problems sorted by path. The
 * caller hands `files` over and never writes it again (each caller passes a finished walk's map or one
 * version of a persistent map). The walk usually yields the files in that order already (a directory's
 * entries are sorted; only a sibling such as `name-2`, which sorts between `name` and `name/…`, breaks it), and
 * then a walk's `Map` is the snapshot's map as it is: on XL a copy of its 100,000 entries costs ~50 ms. Any
 * other map (a persistent map's version, ordered by chunk) becomes a `Map` in path order.
 */
export function buildSnapshot(
  files: ReadonlyMap<string, SourceFile>,
  problems: ReadonlyMap<string, FileProblem>,
): Snapshot {
  const sortedFiles =
    files instanceof Map && isSortedByPath(files.keys())
      ? files
      : new Map([...files].sort(([a], [b]) => comparePaths(a, b)));
  const sortedProblems = [...problems.values()].sort((a, b) => comparePaths(a.path, b.path));
  return { files: sortedFiles, problems: sortedProblems };
}

function isSortedByPath(paths: Iterable<string>): boolean {
  let previous: string | undefined;
  for (const path of paths) {
    if (previous !== undefined && comparePaths(previous, path) > 0) return false;
    previous = path;
  }
  return true;
}

/**
 * Code-point order, independent of locale (the catalog's `compare`). Written out here because this module
 * imports nothing but node builtins, its slabs and its prints at run time: the EACCES test runs it alone, as an
 * unprivileged user.
 */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Context {
  readonly rootReal: string;
  readonly maxFileBytes: number;
  /** False for the stat-only reconcile walk: never open a file. */
  readonly readBytes: boolean;
}

/**
 * The content area a path is served from, relative to the root: every file of a skill is served from that
 * skill's directory (`skills/<name>`), every document from `knowledge/documents`, every prompt from `prompts`, and
 * everything else
 * (`skills/base.md`, `knowledge/server-scope.json`, a stray file) from exactly its own path. A file is served
 * only when its real path lies inside its area; a link may point anywhere inside the area, never out of it.
 */
export function buildContentArea(path: string): string {
  if (path.startsWith('knowledge/documents/') || path === 'knowledge/documents') return 'knowledge/documents';
  if (path.startsWith('prompts/') || path === 'prompts') return 'prompts';
  if (path.startsWith('skills/')) {
    const end = path.indexOf('/', 'skills/'.length);
    return end === -1 ? path : path.slice(0, end);
  }
  return path;
}

/** Why a real path may not be served at `path`, or undefined when it may. */
type Refusal =
  | { readonly kind: 'symlink-escape' }
  | { readonly kind: 'link-outside-area' | 'link-to-hidden'; readonly target: string };

/**
 * Judges where `path`'s bytes really come from. Outside the root: an escape (never named: where it points is
 * none of our business, and an absolute outside path must not travel). Inside the root: the target, as a
 * root-relative path, may hold no name the walk ignores (`.git/config`, `.env`, `notes.md~`) — what the walk
 * never serves, a link cannot serve either — and must lie inside `path`'s content area.
 */
function judgeRealPath(rootReal: string, path: string, real: string): Refusal | undefined {
  if (real !== rootReal && !isInside(rootReal, real)) return { kind: 'symlink-escape' };
  const target = real === rootReal ? '' : real.slice(rootReal === '/' ? 1 : rootReal.length + 1);
  if (target.split('/').some(isIgnoredName)) return { kind: 'link-to-hidden', target };
  const area = buildContentArea(path);
  if (target !== area && !target.startsWith(`${area}/`)) {
    return { kind: 'link-outside-area', target: target === '' ? '.' : target };
  }
  return undefined;
}

// Linux exposes what an open descriptor really points at. Every file opened by path is asked, so whatever was
// swapped between the walk and the open (the file, or any directory above it), the bytes read are those of the
// file the descriptor holds, and that file is judged where it really is. A file opened through its held
// directory's descriptor needs no question: `holdDirectory` says why.
// `/proc/<pid>/fd` rather than `/proc/self/fd`: resolving the `self` link costs a third of each question.
const procFd = (() => {
  const dir = `/proc/${process.pid}/fd`;
  try {
    return fs.statSync(dir).isDirectory() ? dir : undefined;
  } catch {
    return undefined;
  }
})();

const openFlags = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/** A fingerprint as the walk passes it on: one stat (kept as numbers), or a composite print's text. */
type Print = fs.Stats | string;

/** A print as text, to build a composite print from. */
function formatPrint(print: Print): string {
  return typeof print === 'string' ? print : formatStatPrint(print);
}

/**
 * The `ReadResult` a walk fills, as the walk sees it. `recorded`, kept by a walk that holds directories: every
 * path it recorded a file, problem, print or link at, in recording order. The walk is depth-first and records
 * only at or below the entry it dispatches, so what one directory's walk recorded is the journal's tail since
 * that walk began: a failed release forgets exactly that tail (`forgetRecorded`), never a scan of every path.
 */
interface Walk extends ReadResult<PrintSink> {
  readonly recorded?: string[];
}

function readPath(context: Context, path: string, into: ReadResult<PrintSink>): void {
  if (!isContentPath(path)) return;
  const segments = path.split('/');
  // Resolve the ancestors the way the full walk would have reached them. When one of them is not a directory
  // inside its area, the full walk never gets below it, and that ancestor's own entry carries the problem.
  let parentReal = context.rootReal;
  const chain = [context.rootReal];
  for (let i = 0; i < segments.length - 1; i++) {
    const ancestor = segments.slice(0, i + 1).join('/');
    const next = resolveDirectory(context, ancestor, `${parentReal}/${segments[i]}`, chain);
    if (next === undefined) return;
    parentReal = next;
    chain.push(next);
  }
  // Only a walk from a top-level content directory holds its directories open: a deeper re-read's ancestors
  // are not held, so nothing would vouch that they stayed where they are (see `holdDirectory`).
  const hold = segments.length === 1 && context.readBytes && procFd !== undefined;
  const walk: Walk = hold ? { ...into, recorded: [] } : into;
  visitEntry(context, path, parentReal, segments[segments.length - 1]!, chain, walk, hold);
}

/** The real path of a directory the walk would descend into at `path`, or undefined when it would not. */
function resolveDirectory(
  context: Context,
  path: string,
  candidate: string,
  chain: readonly string[],
): string | undefined {
  try {
    const lst = fs.lstatSync(candidate);
    if (lst.isDirectory()) return candidate;
    if (!lst.isSymbolicLink()) return undefined;
    const real = fs.realpathSync.native(candidate);
    if (judgeRealPath(context.rootReal, path, real) !== undefined || chain.includes(real)) return undefined;
    return fs.statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Dispatches one entry. `parentReal` is the real path of its directory (inside the root), `chain` the real
 * paths of the directories on the way down, used to stop a symlinked directory from looping. `hold`: a plain
 * directory here may be read through a descriptor held open (`holdDirectory`); true only when every directory
 * above it up to its top-level content directory is held too. `parent`: the held directory it is listed
 * through, if any (a directory on its device is held without a `statfs`, `holdDirectory`).
 */
function visitEntry(
  context: Context,
  path: string,
  parentReal: string,
  name: string,
  chain: readonly string[],
  into: Walk,
  hold: boolean,
  parent?: HeldDirectory,
): void {
  const candidate = `${parentReal}/${name}`;
  let lst: fs.Stats;
  try {
    lst = fs.lstatSync(candidate);
  } catch (error) {
    // Gone between readdir and lstat: simply absent.
    if (isVanished(error)) return;
    addProblem(into, path, unreadableKind(error), errorCode(error), `error:${errorCode(error)}`);
    return;
  }
  const print: Print = lst;

  if (lst.isSymbolicLink()) {
    visitLink(context, path, candidate, print, chain, into);
    return;
  }
  if (lst.isDirectory()) {
    // A directory changed just now is not worth opening to hold: `holdDirectory` would refuse it.
    const quiet = hold && lst.ctimeMs < Date.now() - DIRECTORY_QUIET_MS;
    const mark = into.recorded?.length ?? 0;
    const held = quiet ? holdDirectory(candidate, parent) : undefined;
    if (walkDirectory(context, path, candidate, [...chain, candidate], into, print, held)) return;
    // The held directory cannot vouch for what was read through it (it changed or moved meanwhile): forget
    // all of it and dispatch the path again as the walk finds it now, every file judged by its descriptor. A
    // held walk keeps its journal (`readPath`), and only a held directory's release fails.
    forgetRecorded(into, into.recorded!, mark);
    visitEntry(context, path, parentReal, name, chain, into, false);
  } else if (lst.isFile()) visitFile(context, path, candidate, lst, print, into);
  else addProblem(into, path, 'not-regular', undefined, print);
}

/** A symlink at `path`: served as what it resolves to, when that lies in `path`'s area. */
function visitLink(
  context: Context,
  path: string,
  candidate: string,
  print: Print,
  chain: readonly string[],
  into: Walk,
): void {
  let real: string;
  try {
    real = fs.realpathSync.native(candidate);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EACCES' || code === 'EPERM') addProblem(into, path, 'unreadable', code, print);
    else addProblem(into, path, 'symlink-broken', code === 'ELOOP' ? 'loop' : 'dangling', print);
    // Remember where a dangling link would point, so creating that file also re-reads the link.
    const target = readLinkTarget(candidate);
    if (target !== undefined && isInside(context.rootReal, target)) recordLink(into, path, target);
    return;
  }
  const refusal = judgeRealPath(context.rootReal, path, real);
  if (refusal?.kind === 'symlink-escape') {
    // Never stat or read the target. The message names the link as the author wrote it, not where it lands.
    addProblem(into, path, 'symlink-escape', readLinkText(candidate), `${formatPrint(print)}>${real}`);
    return;
  }
  recordLink(into, path, real);
  if (refusal !== undefined) {
    addProblem(into, path, refusal.kind, refusal.target, `${formatPrint(print)}>${real}`);
    return;
  }
  let target: fs.Stats;
  try {
    target = fs.statSync(real);
  } catch (error) {
    if (isVanished(error)) addProblem(into, path, 'symlink-broken', 'dangling', print);
    else addProblem(into, path, 'unreadable', errorCode(error), print);
    return;
  }
  const linkPrint = `${formatPrint(print)}>${real}|${formatStatPrint(target)}`;
  if (target.isDirectory()) {
    if (chain.includes(real)) {
      addProblem(into, path, 'symlink-broken', 'loop', linkPrint);
      return;
    }
    // Never held: the real directory's own ancestors are not on the walk's way down.
    walkDirectory(context, path, real, [...chain, real], into, linkPrint, undefined);
  } else if (target.isFile()) {
    visitFile(context, path, real, target, linkPrint, into);
  } else {
    addProblem(into, path, 'not-regular', undefined, linkPrint);
  }
}

/**
 * Walks the directory at `real`. With `held` (`holdDirectory(real, …)`), it is read through that descriptor,
 * held open for the whole walk, and the answer says whether the descriptor still vouches for every file read
 * through it (false: the caller forgets the subtree and walks it again unheld). Without, always true. `print`
 * is the directory's own, for a listing that fails; a held listing that fails is walked again unheld, which
 * reports it, so a directory that is held needs none.
 */
function walkDirectory(
  context: Context,
  path: string,
  real: string,
  chain: readonly string[],
  into: Walk,
  print: Print | undefined,
  held: HeldDirectory | undefined,
): boolean {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(held === undefined ? real : held.self, { withFileTypes: true });
  } catch (error) {
    if (held !== undefined) {
      // Walked again unheld, which reports what this listing could not say.
      releaseDirectory(held, real);
      return false;
    }
    if (isVanished(error)) return true;
    addProblem(into, path, unreadableKind(error), errorCode(error), `dir:${formatPrint(print!)}`);
    return true;
  }
  entries.sort((a, b) => comparePaths(a.name, b.name));
  for (const entry of entries) {
    const name = entry.name;
    if (isIgnoredName(name)) continue;
    // Joined, not concatenated: `${path}/${name}` is a cell over the directory's path and the name, which V8
    // flattens in place once the path is hashed and keeps as a cell over the copy (32 bytes more a file kept:
    // ~3.4 MB on XL's 100,000 files); `join` makes one flat string.
    const child = [path, name].join('/');
    // A plain file needs no lstat when its bytes are read: the descriptor's fstat says everything (and is the
    // only stat worth trusting). Anything else, or a file that turns out not to be one, takes the full dispatch.
    if (
      context.readBytes &&
      entry.isFile() &&
      readPlainFile(
        context,
        child,
        held === undefined ? `${real}/${name}` : `${held.self}/${name}`,
        held !== undefined,
        into,
      )
    )
      continue;
    if (held !== undefined && entry.isDirectory()) {
      visitHeldDirectory(context, child, real, name, chain, into, held);
      continue;
    }
    visitEntry(context, child, real, name, chain, into, held !== undefined, held);
  }
  return held === undefined || releaseDirectory(held, real);
}

/**
 * A directory entry of a held walk that `readdir` reported as a directory, held and walked without an lstat: the
 * descriptor's own fstat (`holdDirectory`) says whether it is a quiet directory where the walk looked, which is
 * all the lstat was asked for (a link swapped in fails the open: O_NOFOLLOW). One that cannot be held (changed
 * just now, swapped, gone) is dispatched in full, unheld, as the walk would have after an lstat that found it
 * not quiet; one whose release fails is forgotten and walked again unheld, as `visitEntry` does.
 */
function visitHeldDirectory(
  context: Context,
  path: string,
  parentReal: string,
  name: string,
  chain: readonly string[],
  into: Walk,
  parent: HeldDirectory,
): void {
  const real = `${parentReal}/${name}`;
  const held = holdDirectory(real, parent);
  if (held !== undefined) {
    const mark = into.recorded!.length;
    if (walkDirectory(context, path, real, [...chain, real], into, undefined, held)) return;
    forgetRecorded(into, into.recorded!, mark);
  }
  visitEntry(context, path, parentReal, name, chain, into, false);
}

/** How long a directory must have been unchanged before its descriptor may vouch for it (see below). */
const DIRECTORY_QUIET_MS = 2000;

/**
 * File systems known to set a directory's ctime when it is renamed or moved (`statfs` magic numbers): ext2/3/4,
 * xfs, btrfs, tmpfs, f2fs. A directory anywhere else (NFS, FUSE, overlay, …) is never held.
 */
const CTIME_ON_RENAME: ReadonlySet<number> = new Set([
  0xef53, 0x58465342, 0x9123683e, 0x01021994, 0xf2f52010,
]);

const directoryFlags =
  fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0) | (fs.constants.O_NOFOLLOW ?? 0);

/** A directory held open for its walk: `self` names it through its descriptor (`/proc/<pid>/fd/<fd>`). */
interface HeldDirectory {
  readonly fd: number;
  readonly self: string;
  readonly ctimeNs: bigint;
  readonly ino: bigint;
  /** The file system it lies on (`st_dev`): one whose type `CTIME_ON_RENAME` holds. */
  readonly dev: bigint;
}

/**
 * Holds the directory at `real` open, so that its files are opened through its descriptor
 * (`/proc/<pid>/fd/<fd>/<name>`, O_NOFOLLOW) instead of by path with a `readlink` of each file's descriptor
 * afterwards (~3 µs a file, ~0.3 s on XL). Undefined — walk it by path — when there is no `/proc`, it cannot
 * be opened, is not where the walk looked (`readlink` of the descriptor), or changed too recently.
 *
 * Why a file opened so is inside its area, as sure as the per-file `readlink`:
 * - `<name>` comes from the listing of this very descriptor: one segment, never `.` or `..`, and O_NOFOLLOW
 *   refuses it when it is a symlink (ELOOP: the entry is dispatched by path, as any link is). So the file
 *   opened is an entry of the directory the descriptor holds, at the moment of the open; a file swapped for a
 *   link between the listing and the open is never followed.
 * - That directory was at `real`, inside the area, when it was held (`readlink` of its descriptor). It is
 *   still there, and never left in between, if at release (`releaseDirectory`) its descriptor still reads
 *   `real` and its ctime is unchanged: the file systems of `CTIME_ON_RENAME` (asked of the held directory
 *   itself, `statfs` through its descriptor, or known from its held parent on the same device) set the ctime of a directory renamed or moved, and of one that
 *   gains or loses an entry, to the current time; a directory on any other file system is not held. The current
 *   time can equal the ctime seen at hold only within the same clock tick of the file system's granularity
 *   (a jiffy, or up to 2 s on coarse file systems): hence a directory changed less than
 *   `DIRECTORY_QUIET_MS` ago is not held at all.
 * - A move of a directory above it moves it too without touching its ctime; but every directory above it up
 *   to its top-level content directory is held as well (`hold` is passed down only from a held walk), and
 *   each is released after all of its subtree, so such a move fails that directory's release. The top-level
 *   directory is an entry of the root: moving it out and back changes its own ctime. Where the root itself
 *   sits is not the question: what lies under it is.
 * - A release that fails discards everything read below that directory; the walk dispatches it again by
 *   path (`visitEntry`, unheld), every file judged where its own descriptor really is.
 */
function holdDirectory(real: string, parent?: HeldDirectory): HeldDirectory | undefined {
  if (procFd === undefined) return undefined;
  let fd: number;
  try {
    fd = fs.openSync(real, directoryFlags);
  } catch {
    return undefined;
  }
  try {
    // The clock is read before the stat: a ctime older than this by the margin is older than the stat.
    const quietBefore = Date.now() - DIRECTORY_QUIET_MS;
    const stats = fs.fstatSync(fd, { bigint: true });
    const self = `${procFd}/${fd}`;
    if (
      stats.isDirectory() &&
      stats.ctimeMs < BigInt(quietBefore) &&
      fs.readlinkSync(self) === real &&
      // On the held parent's file system (the same device), the type is the one its hold asked: a device
      // number names one mounted file system, and the parent's descriptor, open, keeps it mounted.
      (stats.dev === parent?.dev || CTIME_ON_RENAME.has(fs.statfsSync(self).type))
    ) {
      return { fd, self, ctimeNs: stats.ctimeNs, ino: stats.ino, dev: stats.dev };
    }
  } catch {
    // Not held: walked by path.
  }
  fs.closeSync(fd);
  return undefined;
}

/** Closes a held directory; true when it still vouches for every file read through it (`holdDirectory`). */
function releaseDirectory(held: HeldDirectory, real: string): boolean {
  try {
    const stats = fs.fstatSync(held.fd, { bigint: true });
    return stats.ctimeNs === held.ctimeNs && stats.ino === held.ino && fs.readlinkSync(held.self) === real;
  } catch {
    return false;
  } finally {
    fs.closeSync(held.fd);
  }
}

/**
 * Removes from `into` what a walk recorded at the paths `recorded` lists from `mark` on (the files, their slab
 * bytes, problems, prints and links), and drops them from the list: with `mark` taken when a directory's walk
 * began, everything that walk recorded at and below the directory, to walk it again (`Walk`). Costs what that
 * walk recorded. `onFile` was told of those files already; the build's pool derives facts for bytes no
 * snapshot holds, which costs only that work.
 */
export function forgetRecorded(into: ReadResult<PrintSink>, recorded: string[], mark: number): void {
  for (let i = mark; i < recorded.length; i++) {
    const key = recorded[i]!;
    const file = into.files.get(key);
    if (file !== undefined) into.slabs?.discard(file.bytes);
    into.files.delete(key);
    into.problems.delete(key);
    into.prints.delete(key);
    into.links.delete(key);
  }
  recorded.length = mark;
}

/** Records `path`'s print (every leaf has one), and journals the path for `forgetRecorded`. */
function recordPrint(into: Walk, path: string, print: Print): void {
  into.prints.set(path, print);
  into.recorded?.push(path);
}

/** Records where the link at `path` leads, and journals the path for `forgetRecorded`. */
function recordLink(into: Walk, path: string, target: string): void {
  into.links.set(path, target);
  into.recorded?.push(path);
}

/**
 * Reads a directory entry that `readdir` reported as a regular file, without an lstat. Answers false when the
 * entry is no plain file any more (swapped for a link, a directory or a FIFO since the listing): the caller
 * dispatches it again. `throughHeld`: `candidate` names the file through its held directory's descriptor.
 */
function readPlainFile(
  context: Context,
  path: string,
  candidate: string,
  throughHeld: boolean,
  into: Walk,
): boolean {
  const outcome = readFileBytes(context, path, candidate, into.slabs, throughHeld);
  // Without a descriptor there is no fstat to print from: the full dispatch lstats it, as the stat walk does.
  if (outcome === 'retry' || (outcome !== undefined && outcome.print === undefined)) return false;
  recordRead(into, path, outcome, undefined);
  return true;
}

function visitFile(
  context: Context,
  path: string,
  real: string,
  stats: fs.Stats,
  print: Print,
  into: Walk,
): void {
  if (!context.readBytes) {
    // The stat walk reports what a read would report without opening anything: size and links are all it can
    // check.
    if (stats.nlink > 1) addProblem(into, path, 'hardlinked', String(stats.nlink), print);
    else if (stats.size > context.maxFileBytes)
      addProblem(into, path, 'too-large', String(stats.size), print);
    else recordPrint(into, path, print);
    return;
  }
  const outcome = readFileBytes(context, path, real, into.slabs, false);
  // Not a plain file any more: the change that did it brings its own event and re-read.
  if (outcome === 'retry') return;
  recordRead(into, path, outcome, print);
}

/** Files a read's outcome under `path`; `linkPrint` is the print of the link that led there, if one did. */
function recordRead(into: Walk, path: string, outcome: ReadOutcome, linkPrint: Print | undefined): void {
  if (outcome === undefined) return;
  const print = linkPrint ?? outcome.print ?? '';
  if ('problem' in outcome) {
    addProblem(into, path, outcome.problem, outcome.detail, print);
    return;
  }
  const file = { path, bytes: outcome.bytes, mtimeMs: outcome.mtimeMs, mode: outcome.mode };
  into.files.set(path, file);
  recordPrint(into, path, print);
  into.onFile?.(file);
}

type ReadOutcome =
  | {
      readonly bytes: Uint8Array;
      readonly mtimeMs: number;
      readonly mode: number;
      readonly print: Print;
    }
  | {
      readonly problem: FileProblemKind;
      readonly detail?: string;
      /** The descriptor's fingerprint; undefined when no descriptor was had (the open failed). */
      readonly print?: Print;
    }
  | undefined;

/**
 * The one primitive that reads bytes, for the file served at `path` and found at `candidate` (a path inside
 * the root, or with `throughHeld` an entry named through its held directory's descriptor). The open refuses to
 * follow a symlink and never blocks (a FIFO swapped in stays harmless); what was opened is then judged from the
 * descriptor alone — a regular file with one link, really inside `path`'s area (`/proc/<pid>/fd` says where,
 * or the held directory vouches for its entry), not over the cap — before a single byte is read. Undefined
 * when the file vanished; `retry` when what the descriptor holds is no plain file (a link, a directory, a FIFO
 * swapped in). Small files go into `slabs` when given.
 */
function readFileBytes(
  context: Context,
  path: string,
  candidate: string,
  slabs: ByteSlabs | undefined,
  throughHeld: boolean,
): ReadOutcome | 'retry' {
  let fd: number;
  try {
    fd = fs.openSync(candidate, openFlags);
  } catch (error) {
    const code = errorCode(error);
    if (isVanished(error)) return undefined;
    if (code === 'ELOOP') return 'retry';
    return { problem: unreadableKind(error), detail: code };
  }
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) return 'retry';
    const print: Print = stats;
    // Opened through a held directory, the file is that directory's own entry (see `holdDirectory`): where it
    // was looked for, inside its area.
    const opened = throughHeld ? candidate : locateDescriptor(fd, candidate);
    if (opened === undefined) return undefined;
    // The walk only forms candidates inside their area (it descends into nothing else), so a file found where
    // it was looked for is judged already; anything else is judged where it really is.
    const refusal = opened === candidate ? undefined : judgeRealPath(context.rootReal, path, opened);
    if (refusal !== undefined) {
      // An outside path is never named; inside the root, the place it was found is.
      return 'target' in refusal
        ? { problem: refusal.kind, detail: refusal.target, print }
        : { problem: 'symlink-escape', print };
    }
    if (stats.nlink > 1) return { problem: 'hardlinked', detail: String(stats.nlink), print };
    if (stats.size > context.maxFileBytes) return { problem: 'too-large', detail: String(stats.size), print };
    return {
      bytes: readAll(fd, stats.size, path, slabs),
      mtimeMs: stats.mtimeMs,
      mode: stats.mode & 0o777,
      print,
    };
  } catch (error) {
    if (isVanished(error)) return undefined;
    return { problem: unreadableKind(error), detail: errorCode(error) };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Where the file open on `fd` really is. Linux answers from the descriptor (`/proc/<pid>/fd`), so no swap of a
 * path can fool it; elsewhere the opened path is resolved again and must still lead to the same inode.
 * Undefined when the file was deleted or moved meanwhile.
 */
function locateDescriptor(fd: number, candidate: string): string | undefined {
  if (procFd !== undefined) {
    const opened = fs.readlinkSync(`${procFd}/${fd}`);
    return opened.endsWith(' (deleted)') ? undefined : opened;
  }
  try {
    const real = fs.realpathSync.native(candidate);
    const byPath = fs.statSync(real);
    const held = fs.fstatSync(fd);
    return byPath.ino === held.ino && byPath.dev === held.dev ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads the `size` bytes `fstat` reported, as `readFileSync` does: a file that grows meanwhile is being
 * written, and the write brings its own event and re-read. A small file goes into `slabs` when given (a view of
 * exactly its bytes); anything else into a plain `Uint8Array` over memory of its own (never Node's shared
 * pool), so `bytes.buffer` holds nothing else.
 */
function readAll(fd: number, size: number, path: string, slabs: ByteSlabs | undefined): Uint8Array {
  const room = slabs?.reserve(size);
  if (room !== undefined) return slabs!.commit(path, readInto(fd, room.view, room.offset, size));
  const buffer = Buffer.allocUnsafeSlow(size);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, readInto(fd, buffer, 0, size));
}

/** Reads up to `size` bytes from the start of `fd` into `view` at `offset`; answers how many it read. */
function readInto(fd: number, view: Uint8Array, offset: number, size: number): number {
  let length = 0;
  while (length < size) {
    const read = fs.readSync(fd, view, offset + length, size - length, length);
    if (read === 0) break;
    length += read;
  }
  return length;
}

function readLinkTarget(link: string): string | undefined {
  try {
    return resolve(dirname(link), fs.readlinkSync(link));
  } catch {
    return undefined;
  }
}

/** A link's text as the author wrote it (what `git` stores), for the message of a link that leaves the root. */
function readLinkText(link: string): string | undefined {
  try {
    return fs.readlinkSync(link);
  } catch {
    return undefined;
  }
}

function isWalkableDirectory(reader: Reader, path: string): boolean {
  if (!isContentPath(path)) return false;
  try {
    const real = fs.realpathSync.native(`${reader.rootReal}/${path}`);
    return judgeRealPath(reader.rootReal, path, real) === undefined && fs.statSync(real).isDirectory();
  } catch {
    return false;
  }
}

function addProblem(
  into: Walk,
  path: string,
  kind: FileProblemKind,
  detail: string | undefined,
  print: Print,
): void {
  into.problems.set(path, detail === undefined ? { path, kind } : { path, kind, detail });
  recordPrint(into, path, print);
}

function isInside(rootReal: string, real: string): boolean {
  return rootReal === '/' ? real.startsWith('/') : real.startsWith(`${rootReal}/`);
}

/** Errors that say the machine is busy, not that the file is unreadable: reading again later may work. */
const TRANSIENT_CODES = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'EIO', 'EBUSY']);

/** `unavailable` for a transient error (retried; the item keeps its last good version), else `unreadable`. */
function unreadableKind(error: unknown): 'unavailable' | 'unreadable' {
  const code = errorCode(error);
  return code !== undefined && TRANSIENT_CODES.has(code) ? 'unavailable' : 'unreadable';
}

function isVanished(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}
