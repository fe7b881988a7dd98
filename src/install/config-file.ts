/**
 * Reading a host's config file the way `companion install` may change it: what is there, where a write would go,
 * whose it is, and every reason to leave it alone. A config is refused, with the reason said, when it is
 * read-only, belongs to another user, has more than one hard link (a replace would split it), is not a regular
 * file, or is a symlink that dangles or leads somewhere foreign (out of the directory the host keeps it in —
 * the project or the home directory — or to another user's file). A symlink that stays home, as a dotfile
 * manager makes, is followed: the write goes to its target and the link stays a link.
 */
import { isAbsolute, relative } from 'node:path';
import { type InstallDisk, type InstallStats, nodeInstallFs, readRealOrSelf } from './install-fs.js';
import type { FileOwnership } from './write-file.js';

export type ConfigFile =
  /** No file: a write creates `target` (the path itself). */
  | { readonly kind: 'absent'; readonly target: string }
  /** A file companion may change: its bytes, where a write goes (a symlink's target), and whose it is. */
  | {
      readonly kind: 'present';
      readonly target: string;
      readonly bytes: Uint8Array;
      readonly ownership: FileOwnership;
      /** Set when the config is a symlink: the link text, for messages. */
      readonly linkTo?: string;
    }
  | { readonly kind: 'refused'; readonly reason: string };

/**
 * Reads the config at `path` (shown as `shown`). `home` is the directory a symlinked config may lead into: the
 * project for a project's file, the home directory for a user's. Never throws for what it finds on disk.
 */
export function readConfigFile(
  path: string,
  shown: string,
  home: string,
  disk: InstallDisk = nodeInstallFs,
): ConfigFile {
  let lst: InstallStats;
  try {
    lst = disk.lstat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'absent', target: path };
    return { kind: 'refused', reason: `${shown} cannot be read (${code}).` };
  }
  let target = path;
  let linkTo: string | undefined;
  if (lst.isSymbolicLink()) {
    linkTo = disk.readlink(path);
    try {
      target = disk.realpath(path);
    } catch {
      return {
        kind: 'refused',
        reason: `${shown} is a symlink to ${linkTo}, which does not exist; companion install does not replace a link with a file. Create the file it points at, or remove the link, then run again.`,
      };
    }
    const homeReal = readRealOrSelf(home, disk);
    const rel = relative(homeReal, target);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
      return {
        kind: 'refused',
        reason: `${shown} is a symlink to ${linkTo}, outside ${home}; companion install does not write through a link that leaves it. Edit the file it points at by hand, or replace the link with a copy.`,
      };
    }
  }
  let stats: InstallStats;
  try {
    stats = disk.stat(target);
  } catch (error) {
    return { kind: 'refused', reason: `${shown} cannot be read (${(error as NodeJS.ErrnoException).code}).` };
  }
  if (!stats.isFile()) return { kind: 'refused', reason: `${shown} is not a regular file.` };
  if (linkTo !== undefined && stats.uid !== lst.uid) {
    return {
      kind: 'refused',
      reason: `${shown} is a symlink to ${linkTo}, a file of another user (uid ${stats.uid}); companion install does not write through it.`,
    };
  }
  const uid = disk.uid;
  if (uid !== undefined && uid !== 0 && stats.uid !== uid) {
    return {
      kind: 'refused',
      reason: `${shown} belongs to another user (uid ${stats.uid}); replacing it would make it yours. Run install as that user, or leave this client out.`,
    };
  }
  if ((stats.mode & 0o222) === 0 || !disk.isWritable(target)) {
    return {
      kind: 'refused',
      reason: `${shown} is read-only (mode ${(stats.mode & 0o777).toString(8).padStart(4, '0')}); companion install does not change a file you made read-only. Make it writable (chmod u+w), or leave this client out.`,
    };
  }
  if (stats.nlink > 1) {
    return {
      kind: 'refused',
      reason: `${shown} has ${stats.nlink} hard links; replacing it would leave the other names with the old text. Edit it by hand, or leave this client out.`,
    };
  }
  let bytes: Uint8Array;
  try {
    bytes = disk.readFile(target);
  } catch (error) {
    return { kind: 'refused', reason: `${shown} cannot be read (${(error as NodeJS.ErrnoException).code}).` };
  }
  return {
    kind: 'present',
    target,
    bytes,
    ownership: { mode: stats.mode & 0o7777, uid: stats.uid, gid: stats.gid },
    ...(linkTo === undefined ? {} : { linkTo }),
  };
}
