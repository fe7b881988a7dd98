/**
 * Writes for `companion install`: a file is replaced whole (temp file + rename, so a host reading its config at
 * that moment sees the old or the new text, never half), and only when its bytes change, so a second install
 * leaves every mtime alone.
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `content` to `path` unless the file already holds exactly those bytes; answers whether it wrote.
 * Creates missing directories. A symlinked file is written through to its target (dotfile managers link
 * config files), and an existing file keeps its permission bits.
 */
export function writeFileIfChanged(path: string, content: string | Uint8Array): boolean {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  let target = path;
  if (existsSync(path)) {
    if (lstatSync(path).isSymbolicLink()) target = realpathSync.native(path);
    if (
      Buffer.from(readFileSync(target)).equals(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
    ) {
      return false;
    }
  }
  mkdirSync(dirname(target), { recursive: true });
  const mode = existsSync(target) ? statSync(target).mode & 0o7777 : undefined;
  const temp = join(dirname(target), `.${basename(target)}.companion-${process.pid}-${Date.now()}.tmp`);
  try {
    writeFileSync(temp, bytes);
    if (mode !== undefined) chmodSync(temp, mode);
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return true;
}

/** The file's text, or undefined when it does not exist. Other errors (EACCES, EISDIR) propagate. */
export function readTextIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
