/**
 * A sandbox for `companion install` / `doctor` tests: a content root copied from `test/fixtures/valid/`, an empty
 * project directory and a fake HOME, all under one temp directory, with helpers to run the commands in-process.
 */
import {
  cpSync,
  type Dirent,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { run as doctor } from '../../src/cli/commands/doctor.js';
import { run as install } from '../../src/cli/commands/install.js';
import { run as uninstall } from '../../src/cli/commands/uninstall.js';
import { type CliResult, repoRoot, runCli, runCommand } from '../helpers/run-cli.js';
import { createTempProject, type TempProject } from '../helpers/temp-project.js';

export interface Sandbox {
  /** The temp directory holding everything; `content/` is the content root. */
  readonly temp: TempProject;
  /** Absolute content root (a copy of test/fixtures/valid). */
  readonly root: string;
  /** Absolute project directory (empty at first). */
  readonly project: string;
  /** Absolute fake home directory. */
  readonly home: string;
  /** Absolute path of a project-relative posix path. */
  inProject(path: string): string;
  /** Runs `companion install …args` in-process with cwd = project and HOME = the fake home. */
  install(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Runs `companion doctor …args` the same way. */
  doctor(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Runs `companion uninstall …args` the same way. */
  uninstall(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Runs the real built CLI (`bin/companion.js …args`) with cwd = project and HOME = the fake home. */
  cli(...args: string[]): Promise<CliResult>;
  cleanup(): void;
}

/** Creates a sandbox: `<temp>/content` (the valid fixture), `<temp>/project`, `<temp>/home`. */
export function createSandbox(): Sandbox {
  const temp = createTempProject({}, { prefix: 'companion-install-' });
  const root = temp.path('content');
  cpSync(join(repoRoot, 'test', 'fixtures', 'valid'), root, { recursive: true });
  const project = temp.path('project');
  const home = temp.path('home');
  mkdirSync(project, { recursive: true });
  mkdirSync(home, { recursive: true });
  const env = { HOME: home };
  return {
    temp,
    root,
    project,
    home,
    inProject: (path) => join(project, ...path.split('/')),
    install: (...args) => runCommand(install, args, { cwd: project, env }),
    doctor: (...args) => runCommand(doctor, args, { cwd: project, env }),
    uninstall: (...args) => runCommand(uninstall, args, { cwd: project, env }),
    cli: (...args) =>
      runCli(args, {
        cwd: project,
        env: { HOME: home, XDG_CONFIG_HOME: undefined, CODEX_HOME: undefined, GOOSE_PATH_ROOT: undefined },
      }),
    cleanup: () => temp.cleanup(),
  };
}

/** Every file below `dir`, posix paths relative to it, sorted. */
export function listFiles(dir: string, prefix = ''): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(join(dir, prefix), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .flatMap((entry) => {
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      return entry.isDirectory() ? listFiles(dir, path) : [path];
    })
    .sort();
}

/** Every file below `dir` with its bytes (base64) and mtime, to prove a second run wrote nothing. */
export function readTreeState(dir: string): Record<string, { bytes: string; mtimeMs: number }> {
  const state: Record<string, { bytes: string; mtimeMs: number }> = {};
  for (const path of listFiles(dir)) {
    const absolute = join(dir, ...path.split('/'));
    state[path] = { bytes: readFileSync(absolute).toString('base64'), mtimeMs: statSync(absolute).mtimeMs };
  }
  return state;
}

/** Reads a project file as text. */
export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}

/**
 * Everything below `dir` as it is on disk: every directory (empty ones too) with its mode, every file with its
 * mode and bytes (base64), every symlink with its target. Two equal results mean nothing was added, lost or
 * changed, down to permission bits.
 */
export function readTree(dir: string): Record<string, string> {
  const tree: Record<string, string> = {};
  const walk = (relative: string) => {
    const absolute = relative === '' ? dir : join(dir, relative);
    for (const entry of readdirSync(absolute, { withFileTypes: true })) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const full = join(dir, path);
      const mode = (lstatSync(full).mode & 0o7777).toString(8);
      if (entry.isSymbolicLink()) tree[path] = `link ${readlinkSync(full)}`;
      else if (entry.isDirectory()) {
        tree[`${path}/`] = `dir ${mode}`;
        walk(path);
      } else tree[path] = `file ${mode} ${readFileSync(full).toString('base64')}`;
    }
  };
  walk('');
  return tree;
}
