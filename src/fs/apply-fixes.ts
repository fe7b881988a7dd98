/**
 * Writes a `check --fix` plan into the content: the one place companion writes into what it serves, at the
 * author's explicit request. Each file is replaced atomically (a temporary file in the same directory, its
 * mode and owner copied, flushed, then renamed over the original), and only while it still holds exactly the
 * bytes the plan was made from: a file changed since it was read, a read-only or hardlinked one, or one whose
 * real path leaves the root is refused and left as it is. No byte is lost: until the rename the original is untouched,
 * and after it the new bytes are whole.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fchmodSync,
  fchownSync,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { FixPlan } from '../core/lint/fixes.js';

export interface FixOutcome {
  /** Content-root relative paths written, each with what changed in it. */
  readonly written: readonly { readonly path: string; readonly changes: readonly string[] }[];
  readonly renamed: readonly { readonly from: string; readonly to: string; readonly reason: string }[];
  readonly refused: readonly { readonly path: string; readonly reason: string }[];
}

export function applyFixPlan(root: string, plan: FixPlan): FixOutcome {
  const written: { path: string; changes: readonly string[] }[] = [];
  const renamed: { from: string; to: string; reason: string }[] = [];
  const refused: { path: string; reason: string }[] = [];
  const realRoot = realpathSync(root);
  /** Real path → the first path it was written through (a link inside the root and its target are one file). */
  const done = new Map<string, string>();
  for (const fix of plan.files) {
    const path = join(root, ...fix.path.split('/'));
    const real = safeRealpath(path);
    const first = real === undefined ? undefined : done.get(real);
    if (first !== undefined) {
      written.push({ path: fix.path, changes: [`the same file as ${first}, fixed with it`] });
      continue;
    }
    const reason = writeAtomically(realRoot, path, fix.before, fix.after);
    if (reason === undefined) {
      written.push({ path: fix.path, changes: fix.changes });
      if (real !== undefined) done.set(real, fix.path);
    } else refused.push({ path: fix.path, reason });
  }
  for (const rename of plan.renames) {
    const reason = renameDirectory(
      join(root, ...rename.from.split('/')),
      join(root, ...rename.to.split('/')),
    );
    if (reason === undefined) renamed.push(rename);
    else refused.push({ path: rename.from, reason });
  }
  return { written, renamed, refused };
}

/** Replaces the file at `path` with `after` if it still holds `before`; the reason it did not, or undefined. */
function writeAtomically(
  realRoot: string,
  path: string,
  before: Uint8Array,
  after: Uint8Array,
): string | undefined {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    return `it cannot be resolved (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  const inside = relative(realRoot, real);
  if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..')
    return 'its real path is outside the root';
  const stat = lstatSync(real);
  if (!stat.isFile()) return 'it is not a regular file';
  // A rename would split a hardlink in two: the other name would keep the old bytes.
  if (stat.nlink > 1) return `it has ${stat.nlink} hard links`;
  // A rename replaces a file its owner made read-only as readily as any other; a read-only file says "leave me".
  if ((stat.mode & 0o200) === 0) return 'it is read-only';
  if (!sameBytes(readFileSync(real), before)) return 'it changed since it was read; run the fix again';
  const temp = join(
    dirname(real),
    `.${basename(real)}.companion-fix-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', stat.mode & 0o7777);
    let offset = 0;
    while (offset < after.byteLength) offset += writeSync(fd, after, offset);
    fchmodSync(fd, stat.mode & 0o7777); // the mode given to open was masked by the umask
    if (process.getuid?.() === 0) fchownSync(fd, stat.uid, stat.gid);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    // The last look before the rename: same file, same bytes as when the plan was made.
    const now = statSync(real);
    if (now.ino !== stat.ino || now.mtimeMs !== stat.mtimeMs || !sameBytes(readFileSync(real), before)) {
      unlinkSync(temp);
      return 'it changed while the fix was being written; run the fix again';
    }
    renameSync(temp, real);
    syncDirectory(dirname(real));
    return undefined;
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // already gone
    }
    return `it could not be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
}

/** Renames a skill directory whose name differs from `to` by case; refuses when `to` is another directory. */
function renameDirectory(from: string, to: string): string | undefined {
  try {
    if (existsSync(to)) {
      const a = statSync(from);
      const b = statSync(to);
      if (a.ino !== b.ino || a.dev !== b.dev) return `${basename(to)} already exists`;
      // A case-insensitive file system: the same directory under both names. Go through a third name.
      const middle = `${from}.companion-fix-${process.pid}`;
      renameSync(from, middle);
      renameSync(middle, to);
    } else {
      renameSync(from, to);
    }
    syncDirectory(dirname(to));
    return undefined;
  } catch (error) {
    return `it could not be renamed (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
}

function safeRealpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.compare(a, b) === 0;
}

/** Makes a rename durable where the platform allows it (not on Windows). */
function syncDirectory(path: string): void {
  try {
    const fd = openSync(path, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // best effort
  }
}
