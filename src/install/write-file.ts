/**
 * The writes `companion install` and `uninstall` make, and how they keep what the user had: a file is replaced
 * whole through a temp file and a rename in its own directory (a host reading its config at that moment sees the
 * old or the new bytes, never half), with the replaced file's permission bits and owner; a file or directory
 * created by a run as root gets the owner of the directory it is created in, so `sudo companion install` leaves
 * nothing the user cannot edit or delete.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Who owns a file and its permission bits, as kept across a replace. */
export interface FileOwnership {
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
}

/** The ownership of an existing path. */
function readOwnership(path: string): FileOwnership {
  const stats = fs.statSync(path);
  return { mode: stats.mode & 0o7777, uid: stats.uid, gid: stats.gid };
}

/**
 * Writes `bytes` to `target` through a temp file beside it and a rename. `keep` (an existing file's ownership)
 * is given to the new file; without it the file gets `mode` (or the umask's default) and, when `asRoot` (the run
 * is root's), the owner of its directory.
 */
export function replaceFile(
  target: string,
  bytes: Uint8Array,
  keep: FileOwnership | undefined,
  mode: number | undefined,
  asRoot: boolean,
): void {
  const directory = dirname(target);
  const temp = join(directory, `.${basename(target)}.companion-${randomBytes(6).toString('hex')}.tmp`);
  const fd = fs.openSync(temp, 'wx', keep?.mode ?? mode ?? 0o666);
  try {
    try {
      writeAll(fd, bytes);
      if (keep !== undefined || mode !== undefined) fs.fchmodSync(fd, keep?.mode ?? mode!);
      const owner = keep ?? (asRoot ? readOwnership(directory) : undefined);
      if (owner !== undefined && asRoot) fs.fchownSync(fd, owner.uid, owner.gid);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, target);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.byteLength) written += fs.writeSync(fd, bytes, written, bytes.byteLength - written);
}

/**
 * Creates `dir` and every missing ancestor, one at a time, and answers the directories it created (outermost
 * first); a root run (`asRoot`) gives each the owner of its parent. A path component that is a file fails with
 * ENOTDIR, an unwritable parent with EACCES.
 */
export function createDirectories(dir: string, asRoot: boolean): string[] {
  const missing: string[] = [];
  for (let at = dir; !isDirectory(at); at = dirname(at)) {
    if (dirname(at) === at) break;
    missing.unshift(at);
  }
  const created: string[] = [];
  for (const path of missing) {
    if (fs.existsSync(path)) throw new Error(`cannot create ${dir}: ${path} is a file, not a directory`);
    fs.mkdirSync(path);
    created.push(path);
    if (asRoot) {
      const owner = readOwnership(dirname(path));
      fs.chownSync(path, owner.uid, owner.gid);
    }
  }
  return created;
}

function isDirectory(path: string): boolean {
  try {
    return fs.statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function isSameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
    Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  );
}
