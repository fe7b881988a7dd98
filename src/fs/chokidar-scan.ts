/**
 * chokidar's directory scan without an `lstat` per entry.
 *
 * chokidar 5.0.0 lists every directory it scans with readdirp in `alwaysStat` + `lstat` mode: one `lstat` (and
 * one promise) per entry, files included, on the event loop the first host requests wait on. The watcher ignores
 * files (their directory's watch names them), and what chokidar's filters and handlers ask of an entry during the
 * scan is only its type (`isFile`, `isDirectory`, `isSymbolicLink`) — which the listing itself already knows
 * (`readdir` with file types; Node asks `lstat` by itself where the file system gives no type). So the scan lists
 * with types and hands each entry's `Dirent` where chokidar reads `stats`; a directory is still stat'ed by
 * chokidar when it is added, as before. On L (14,430 files) that was 14,430 lstats and ~0.4 s of a 1.2 s
 * watcher start that a first `skills/list` waited behind.
 *
 * Installed only on the chokidar release whose internals this was read against (`_readdirp(root, opts)` calling
 * `readdirp(root, { type, alwaysStat: true, lstat: true, ...opts, depth: 0 })`, so an `alwaysStat` in `opts` wins; `WatchHelper.filterPath`/`filterDir` and
 * `_handleRead` reading `entry.stats` only for its type, and `ignorePermissionErrors` skipping the mode check);
 * on any other chokidar scans as it always did.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The chokidar release `listWithTypes` was checked against. */
export const CHOKIDAR_VERSION = '5.0.0';

interface ScanEntry {
  dirent?: unknown;
  stats?: unknown;
}
type EntryFilter = (entry: ScanEntry) => boolean;
interface ScanOptions {
  readonly fileFilter?: EntryFilter;
  readonly directoryFilter?: EntryFilter;
}
/** What `listWithTypes` replaces on a chokidar `FSWatcher`. */
interface ScanningWatcher {
  _readdirp?: (root: string, opts?: ScanOptions) => unknown;
}

let installedVersion: string | null | undefined;

/** The version of the chokidar this module resolves, or null when it cannot tell. */
function readChokidarVersion(): string | null {
  if (installedVersion !== undefined) return installedVersion;
  try {
    const entry = createRequire(import.meta.url).resolve('chokidar');
    const manifest = JSON.parse(readFileSync(join(dirname(entry), 'package.json'), 'utf8')) as {
      name?: string;
      version?: string;
    };
    installedVersion = manifest.name === 'chokidar' ? (manifest.version ?? null) : null;
  } catch {
    installedVersion = null;
  }
  return installedVersion;
}

/** The entry with its `Dirent` where chokidar reads `stats`. */
function typed(filter: EntryFilter | undefined): EntryFilter | undefined {
  if (filter === undefined) return undefined;
  return (entry) => {
    entry.stats ??= entry.dirent;
    return filter(entry);
  };
}

/**
 * Makes `watcher` (a chokidar `FSWatcher`, right after `watch()` returned it: its first scan starts after an
 * `await`) list directories with types instead of an `lstat` per entry. True when installed; false, changing
 * nothing, for another chokidar release or an object that is no chokidar watcher (a test's fake).
 */
export function listWithTypes(watcher: object): boolean {
  const target = watcher as ScanningWatcher;
  if (typeof target._readdirp !== 'function' || readChokidarVersion() !== CHOKIDAR_VERSION) return false;
  const original = target._readdirp;
  target._readdirp = function (this: ScanningWatcher, root: string, opts: ScanOptions = {}) {
    // chokidar's own `_readdirp` (its stream bookkeeping included), whose options let `opts` override `alwaysStat`.
    const fileFilter = typed(opts.fileFilter);
    const directoryFilter = typed(opts.directoryFilter);
    return original.call(this, root, {
      ...opts,
      ...(fileFilter ? { fileFilter } : {}),
      ...(directoryFilter ? { directoryFilter } : {}),
      alwaysStat: false,
    } as ScanOptions);
  };
  return true;
}
