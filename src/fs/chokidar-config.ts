/**
 * How the watcher configures chokidar, in one place: the same whether chokidar runs on the main thread or on a
 * thread of its own (`watch-thread.ts`).
 */
import type { Stats } from 'node:fs';
import { relative, sep } from 'node:path';
import { type ChokidarOptions, type FSWatcher, watch } from 'chokidar';
import { listWithTypes } from './chokidar-scan.js';
import { isContentPath } from './read-snapshot.js';

/** chokidar's options for watching the content root `root` (its real path: chokidar reports paths under it). */
export function buildChokidarOptions(root: string): ChokidarOptions {
  return {
    ignoreInitial: true,
    atomic: true,
    // Never watch through a symlink: it may lead outside the root. Changes behind an in-root link are
    // mapped to the link by the store, and reconcile covers the rest.
    followSymlinks: false,
    // Report unreadable files as events (the store turns them into `unreadable` problems) rather than
    // skipping them silently.
    ignorePermissionErrors: true,
    // Regular files are left to their directory's watch (see watcher.ts); chokidar passes `stats` (during its
    // scan, the listing's `Dirent`: see chokidar-scan.ts) once it has them, and a path it asks about without
    // them is decided by name alone.
    ignored: (absolute: string, stats?: Pick<Stats, 'isFile'>) => {
      if (stats?.isFile()) return true;
      const path = relative(root, absolute);
      return path !== '' && !isContentPath(path.split(sep).join('/'));
    },
  };
}

/** Starts chokidar on `root` with `buildChokidarOptions`, its scan listing with types (chokidar-scan.ts). */
export function watchContent(root: string): FSWatcher {
  const watcher = watch(root, buildChokidarOptions(root));
  // Its scan would lstat every file only to learn that it is one.
  listWithTypes(watcher);
  return watcher;
}
