/**
 * An `InstallFs` made of values, for driving install's plan and apply with no disk: absolute posix paths mapped
 * to a directory, a file (bytes, mode, owner, link count) or a symlink. Every write is recorded in `calls`, in
 * order; `failOn` makes one write fail as a full disk would, to see the journal roll back.
 */
import { posix } from 'node:path';
import type { InstallFs, InstallStats } from '../../src/install/install-fs.js';

export type MemoryEntry =
  | { readonly kind: 'directory'; readonly mode?: number }
  | {
      readonly kind: 'file';
      readonly bytes: Uint8Array;
      readonly mode?: number;
      readonly uid?: number;
      readonly nlink?: number;
      readonly writable?: boolean;
    }
  | { readonly kind: 'symlink'; readonly target: string };

export interface MemoryFs extends InstallFs {
  /** Every write, as `op path`, in the order made. */
  readonly calls: string[];
  readonly entries: Map<string, MemoryEntry>;
  /** The text of a file. */
  text(path: string): string | undefined;
  /** Makes the first write whose `op path` matches fail with ENOSPC. */
  failOn(pattern: RegExp): void;
}

export const USER = 1000;

const errno = (code: string, path: string) =>
  Object.assign(new Error(`${code}: no such file or directory, '${path}'`), { code });

/** `files`: path → text (a file), `null` (a directory) or `{ symlink }`; parent directories are implied. */
export function createMemoryFs(files: Record<string, string | null | MemoryEntry> = {}): MemoryFs {
  const entries = new Map<string, MemoryEntry>([['/', { kind: 'directory' }]]);
  const addParents = (path: string) => {
    for (let dir = posix.dirname(path); !entries.has(dir); dir = posix.dirname(dir)) {
      entries.set(dir, { kind: 'directory' });
    }
  };
  for (const [path, value] of Object.entries(files)) {
    addParents(path);
    entries.set(
      path,
      value === null
        ? { kind: 'directory' }
        : typeof value === 'string'
          ? { kind: 'file', bytes: new TextEncoder().encode(value) }
          : value,
    );
  }
  const calls: string[] = [];
  let failing: RegExp | undefined;
  const record = (call: string) => {
    if (failing?.test(call)) {
      failing = undefined;
      throw Object.assign(new Error(`ENOSPC: no space left on device, ${call}`), { code: 'ENOSPC' });
    }
    calls.push(call);
  };

  const resolve = (path: string, followLast: boolean, depth = 0): string => {
    if (depth > 16) throw errno('ELOOP', path);
    const parts = path.split('/').filter((p) => p !== '');
    let at = '/';
    for (let i = 0; i < parts.length; i++) {
      const next = posix.join(at, parts[i]!);
      const entry = entries.get(next);
      const last = i === parts.length - 1;
      if (entry?.kind === 'symlink' && (!last || followLast)) {
        at = resolve(posix.resolve(at, entry.target), true, depth + 1);
      } else {
        if (!last && entry !== undefined && entry.kind !== 'directory') throw errno('ENOTDIR', path);
        at = next;
      }
    }
    return at;
  };
  const get = (path: string, follow: boolean): [string, MemoryEntry] => {
    const real = resolve(path, follow);
    const entry = entries.get(real);
    if (entry === undefined) throw errno('ENOENT', path);
    return [real, entry];
  };
  const stats = (entry: MemoryEntry): InstallStats => ({
    isFile: () => entry.kind === 'file',
    isDirectory: () => entry.kind === 'directory',
    isSymbolicLink: () => entry.kind === 'symlink',
    mode: entry.kind === 'symlink' ? 0o777 : (entry.mode ?? (entry.kind === 'file' ? 0o644 : 0o755)),
    uid: entry.kind === 'file' ? (entry.uid ?? USER) : USER,
    gid: USER,
    nlink: entry.kind === 'file' ? (entry.nlink ?? 1) : 1,
  });

  return {
    calls,
    entries,
    failOn(pattern) {
      failing = pattern;
    },
    text(path) {
      const entry = entries.get(path);
      return entry?.kind === 'file' ? new TextDecoder().decode(entry.bytes) : undefined;
    },
    uid: USER,
    lstat: (path) => stats(get(path, false)[1]),
    stat: (path) => stats(get(path, true)[1]),
    readFile(path) {
      const [, entry] = get(path, true);
      if (entry.kind !== 'file') throw errno('EISDIR', path);
      return entry.bytes;
    },
    readlink(path) {
      const [, entry] = get(path, false);
      if (entry.kind !== 'symlink') throw errno('EINVAL', path);
      return entry.target;
    },
    realpath: (path) => get(path, true)[0],
    readdir(path) {
      const [real, entry] = get(path, true);
      if (entry.kind !== 'directory') throw errno('ENOTDIR', path);
      const prefix = real === '/' ? '/' : `${real}/`;
      return [...entries]
        .filter(([p]) => p.startsWith(prefix) && p !== real && !p.slice(prefix.length).includes('/'))
        .map(([p, e]) => ({ name: p.slice(prefix.length), isDirectory: () => e.kind === 'directory' }));
    },
    isWritable(path) {
      const [, entry] = get(path, true);
      return entry.kind !== 'file' || entry.writable !== false;
    },
    replaceFile(path, bytes, keep, mode) {
      record(`write ${path}`);
      const real = resolve(path, true);
      entries.set(real, { kind: 'file', bytes: new Uint8Array(bytes), mode: keep?.mode ?? mode ?? 0o644 });
    },
    createDirectories(dir) {
      const missing: string[] = [];
      for (let at = dir; !entries.has(at); at = posix.dirname(at)) missing.unshift(at);
      for (const path of missing) {
        record(`mkdir ${path}`);
        entries.set(path, { kind: 'directory' });
      }
      return missing;
    },
    unlink(path) {
      record(`unlink ${path}`);
      if (!entries.delete(path)) throw errno('ENOENT', path);
    },
    rmdir(path) {
      const prefix = `${path}/`;
      if ([...entries.keys()].some((p) => p.startsWith(prefix))) throw errno('ENOTEMPTY', path);
      record(`rmdir ${path}`);
      entries.delete(path);
    },
    mkdir(path, mode) {
      record(`mkdir ${path}`);
      entries.set(path, { kind: 'directory', mode });
    },
    remove(path) {
      record(`remove ${path}`);
      entries.delete(path);
    },
  };
}
