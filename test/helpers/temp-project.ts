/**
 * Real temporary content roots for tests that need a disk: a fresh directory under `os.tmpdir()`, filled from
 * a map of files or copied from `test/fixtures/<name>/`, with small helpers to change it and remove it.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface TempProject {
  /** Absolute path of the project directory (the content root). */
  readonly root: string;
  /** Absolute path of `path`, which is posix and relative to the root. */
  path(path: string): string;
  /** Writes a file, creating its directories. */
  write(path: string, content: string | Uint8Array): void;
  /** Removes a file or a directory tree; a missing path is fine. */
  remove(path: string): void;
  /** Renames within the project, creating the destination's directories. */
  rename(from: string, to: string): void;
  /** Creates a symlink at `path` whose target is `target` exactly as given (relative to the link, or absolute). */
  symlink(target: string, path: string): void;
  /** Removes the whole directory. Idempotent. */
  cleanup(): void;
}

export interface TempProjectOptions {
  /** Directory name prefix under the OS temp dir. @default 'companion-' */
  readonly prefix?: string;
}

/** Creates a temp project holding `files` (posix paths relative to the root → contents). */
export function createTempProject(
  files: Readonly<Record<string, string | Uint8Array>> = {},
  options: TempProjectOptions = {},
): TempProject {
  const root = mkdtempSync(join(tmpdir(), options.prefix ?? 'companion-'));
  const resolvePath = (path: string) => join(root, ...path.split('/'));
  const project: TempProject = {
    root,
    path: resolvePath,
    write(path, content) {
      const target = resolvePath(path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content);
    },
    remove(path) {
      rmSync(resolvePath(path), { recursive: true, force: true });
    },
    rename(from, to) {
      const target = resolvePath(to);
      mkdirSync(dirname(target), { recursive: true });
      renameSync(resolvePath(from), target);
    },
    symlink(target, path) {
      const link = resolvePath(path);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(target, link);
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
  for (const [path, content] of Object.entries(files)) project.write(path, content);
  return project;
}

export interface CopyFixtureOptions extends TempProjectOptions {
  /** Also copy the repository's bundled `knowledge/`, `skills/` and `prompts/` first (the fixture's files win). */
  readonly bundled?: boolean;
}

/**
 * Creates a temp project from `test/fixtures/<name>/` (pass `''` with `bundled` for the bundled content
 * alone). Symlinks in a fixture are copied as symlinks.
 */
export function copyFixture(name: string, options: CopyFixtureOptions = {}): TempProject {
  const project = createTempProject({}, options);
  if (options.bundled) {
    for (const directory of ['knowledge', 'skills', 'prompts']) {
      if (!existsSync(join(repoRoot, directory))) continue;
      cpSync(join(repoRoot, directory), project.path(directory), { recursive: true, verbatimSymlinks: true });
    }
  }
  if (name !== '') {
    cpSync(join(repoRoot, 'test', 'fixtures', name), project.root, {
      recursive: true,
      verbatimSymlinks: true,
    });
  }
  return project;
}
