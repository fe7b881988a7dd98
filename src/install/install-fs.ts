/**
 * The one seam between `companion install` and the disk. Planning reads only through an `InstallDisk`; applying
 * writes only through an `InstallFs` (the journal holds one). `nodeInstallFs` is the real one, over `node:fs`;
 * tests pass a disk made of values and a recording fs. The methods mirror `node:fs`'s synchronous calls, errors
 * included (a missing path throws an error whose `code` is `ENOENT`), so the planners keep their reasons.
 */
import fs from 'node:fs';
import { join } from 'node:path';
import { createDirectories, type FileOwnership, replaceFile } from './write-file.js';

/** What planning reads of one path: `node:fs`'s `Stats`, as far as install looks. */
export interface InstallStats {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
  readonly nlink: number;
}

/** The read side: what install plans from. Every method throws as its `node:fs` twin does. */
export interface InstallDisk {
  lstat(path: string): InstallStats;
  stat(path: string): InstallStats;
  readFile(path: string): Uint8Array;
  readlink(path: string): string;
  /** The real path, every link resolved. */
  realpath(path: string): string;
  /** The names in a directory, and which are directories. */
  readdir(path: string): readonly { readonly name: string; isDirectory(): boolean }[];
  /** Whether this user may write the file. */
  isWritable(path: string): boolean;
  /** The id of the user install runs as; undefined where there is none (Windows). */
  readonly uid: number | undefined;
}

/** The write side, which applying a plan goes through (all of it through one journal). */
export interface InstallFs extends InstallDisk {
  /**
   * Replaces `path` whole (a temp file and a rename): `keep` is the replaced file's ownership, else the new
   * file gets `mode`.
   */
  replaceFile(path: string, bytes: Uint8Array, keep?: FileOwnership, mode?: number): void;
  /** Creates `dir` and its missing ancestors; answers those it created, outermost first. */
  createDirectories(dir: string): string[];
  unlink(path: string): void;
  rmdir(path: string): void;
  mkdir(path: string, mode: number): void;
  /** Removes a file; a missing one is fine. */
  remove(path: string): void;
}

/** The user this process runs as: install's one reading of the process (root's writes keep their owners). */
const uid = process.getuid?.();

/** The real disk. */
export const nodeInstallFs: InstallFs = {
  lstat: (path) => fs.lstatSync(path),
  stat: (path) => fs.statSync(path),
  readFile: (path) => new Uint8Array(fs.readFileSync(path)),
  readlink: (path) => fs.readlinkSync(path),
  realpath: (path) => fs.realpathSync.native(path),
  readdir: (path) => fs.readdirSync(path, { withFileTypes: true }),
  isWritable(path) {
    try {
      fs.accessSync(path, fs.constants.W_OK);
      return true;
    } catch {
      return false;
    }
  },
  uid,
  replaceFile: (path, bytes, keep, mode) => replaceFile(path, bytes, keep, mode, uid === 0),
  createDirectories: (dir) => createDirectories(dir, uid === 0),
  unlink: (path) => fs.unlinkSync(path),
  rmdir: (path) => fs.rmdirSync(path),
  mkdir: (path, mode) => fs.mkdirSync(path, { mode }),
  remove: (path) => fs.rmSync(path, { force: true }),
};

/** The file's bytes, or undefined when nothing is there (ENOENT, or a path component that is not a directory). */
export function readBytesIfExists(path: string, disk: InstallDisk = nodeInstallFs): Uint8Array | undefined {
  try {
    return disk.readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

export function isDirectory(path: string, disk: InstallDisk = nodeInstallFs): boolean {
  try {
    return disk.stat(path).isDirectory();
  } catch {
    return false;
  }
}

export function exists(path: string, disk: InstallDisk = nodeInstallFs): boolean {
  try {
    disk.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** A path's real path when it exists, else the path itself. */
export function readRealOrSelf(path: string, disk: InstallDisk = nodeInstallFs): string {
  try {
    return disk.realpath(path);
  } catch {
    return path;
  }
}

/** The ownership of an existing path. */
export function readOwnership(path: string, disk: InstallDisk = nodeInstallFs): FileOwnership {
  const stats = disk.stat(path);
  return { mode: stats.mode & 0o7777, uid: stats.uid, gid: stats.gid };
}

/** Every entry below `dir` that is not a directory, as a posix path relative to it, sorted; empty when none. */
export function listFilesBelow(dir: string, disk: InstallDisk = nodeInstallFs): string[] {
  const out: string[] = [];
  const walk = (absolute: string, prefix: string) => {
    let entries: readonly { name: string; isDirectory(): boolean }[];
    try {
      entries = disk.readdir(absolute);
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) walk(join(absolute, entry.name), path);
      else out.push(path);
    }
  };
  walk(dir, '');
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
