/**
 * All-or-nothing for one `install` or `uninstall` run: every write goes through a journal that remembers how to
 * undo it (the bytes a file held, or that it did not exist; the directories created or removed), and a failure
 * anywhere rolls every earlier write back, newest first. Before replacing a file the journal checks that it still
 * holds the bytes the plan was made from, so a change made meanwhile by someone else fails the run instead of
 * being overwritten.
 */
import { dirname } from 'node:path';
import { type InstallFs, nodeInstallFs, readBytesIfExists } from './install-fs.js';
import { type FileOwnership, isSameBytes } from './write-file.js';

type Undo =
  | {
      readonly kind: 'file';
      readonly path: string;
      readonly before?: Uint8Array;
      readonly keep?: FileOwnership;
    }
  | { readonly kind: 'created-directory'; readonly path: string }
  | { readonly kind: 'removed-directory'; readonly path: string; readonly mode: number };

/** What a rollback managed, and what it could not put back. */
export interface RollbackReport {
  readonly undone: readonly string[];
  readonly failed: readonly { readonly path: string; readonly reason: string }[];
}

export interface Journal {
  /**
   * Writes `bytes` to `path` (creating its directories). `before` is what the plan saw there (undefined: no
   * file); anything else there now fails the write. `keep`: the replaced file's ownership; `mode`: a new file's.
   */
  writeFile(
    path: string,
    bytes: Uint8Array,
    before: Uint8Array | undefined,
    options?: { readonly keep?: FileOwnership; readonly mode?: number },
  ): void;
  /** Deletes a file that must still hold `before`. */
  deleteFile(path: string, before: Uint8Array, keep: FileOwnership): void;
  /** Removes `dir` when it is empty; answers whether it did. */
  removeEmptyDirectory(dir: string): boolean;
  /** Every directory this run created, outermost first. */
  readonly createdDirectories: readonly string[];
  /** Undoes every write, newest first. */
  rollback(): RollbackReport;
}

/** A journal writing through `fs` (the real disk unless a test passes its own). */
export function createJournal(fs: InstallFs = nodeInstallFs): Journal {
  const undo: Undo[] = [];
  const createdDirectories: string[] = [];
  const expect = (path: string, before: Uint8Array | undefined) => {
    if (!isSameBytes(readBytesIfExists(path, fs), before)) {
      throw new Error(
        `${path} changed while companion was writing (another program wrote it); nothing was changed`,
      );
    }
  };
  return {
    createdDirectories,
    writeFile(path, bytes, before, options = {}) {
      for (const dir of fs.createDirectories(dirname(path))) {
        createdDirectories.push(dir);
        undo.push({ kind: 'created-directory', path: dir });
      }
      expect(path, before);
      fs.replaceFile(path, bytes, options.keep, options.mode);
      undo.push({
        kind: 'file',
        path,
        ...(before === undefined ? {} : { before }),
        ...(options.keep === undefined ? {} : { keep: options.keep }),
      });
    },
    deleteFile(path, before, keep) {
      expect(path, before);
      fs.unlink(path);
      undo.push({ kind: 'file', path, before, keep });
    },
    removeEmptyDirectory(dir) {
      let mode: number;
      try {
        mode = fs.lstat(dir).mode & 0o7777;
        fs.rmdir(dir);
      } catch {
        return false;
      }
      undo.push({ kind: 'removed-directory', path: dir, mode });
      return true;
    },
    rollback() {
      const undone: string[] = [];
      const failed: { path: string; reason: string }[] = [];
      for (const step of undo.splice(0).reverse()) {
        try {
          if (step.kind === 'created-directory') fs.rmdir(step.path);
          else if (step.kind === 'removed-directory') fs.mkdir(step.path, step.mode);
          else if (step.before === undefined) fs.remove(step.path);
          else fs.replaceFile(step.path, step.before, step.keep);
          undone.push(step.path);
        } catch (error) {
          failed.push({ path: step.path, reason: (error as Error).message });
        }
      }
      return { undone, failed };
    },
  };
}
