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

const asRoot = () => process.getuid?.() === 0;

/** The ownership of an existing path. */
export function readOwnership(path: string): FileOwnership {
  const stats = fs.statSync(path);
  return { mode: stats.mode & 0o7777, uid: stats.uid, gid: stats.gid };
}

/**
 * Writes `bytes` to `target` through a temp file beside it and a rename. `keep` (an existing file's ownership)
 * is given to the new file; without it the file gets `mode` (or the umask's default) and, when running as root,
 * the owner of its directory.
 */
export function replaceFile(
  target: string,
  bytes: Uint8Array,
  keep: FileOwnership | undefined,
  mode?: number,
): void {
  const directory = dirname(target);
  const temp = join(
    directory,
    `.${basename(target)}.companion-${process.pid}-${randomBytes(4).toString('hex')}.tmp`,
  );
  const fd = fs.openSync(temp, 'wx', keep?.mode ?? mode ?? 0o666);
  try {
    try {
      writeAll(fd, bytes);
      if (keep !== undefined || mode !== undefined) fs.fchmodSync(fd, keep?.mode ?? mode!);
      const owner = keep ?? (asRoot() ? readOwnership(directory) : undefined);
      if (owner !== undefined && asRoot()) fs.fchownSync(fd, owner.uid, owner.gid);
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
 * first). A path component that is a file fails with ENOTDIR, an unwritable parent with EACCES.
 */
export function createDirectories(dir: string): string[] {
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
    if (asRoot()) {
      const owner = readOwnership(dirname(path));
      fs.chownSync(path, owner.uid, owner.gid);
    }
  }
  return created;
}

/** The file's bytes, or undefined when nothing is there (ENOENT, or a path component that is not a directory). */
export function readBytesIfExists(path: string): Uint8Array | undefined {
  try {
    return new Uint8Array(fs.readFileSync(path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

export function isDirectory(path: string): boolean {
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

/** Every entry below `dir` that is not a directory, as a posix path relative to it, sorted; empty when none. */
export function listFilesBelow(dir: string): string[] {
  const out: string[] = [];
  const walk = (absolute: string, prefix: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(absolute, { withFileTypes: true });
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
