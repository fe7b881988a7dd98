/**
 * A sandbox for `companion install` / `doctor` tests: a content root copied from `test/fixtures/valid/`, an empty
 * project directory and a fake HOME, all under one temp directory, with helpers to run the commands in-process.
 */
import { cpSync, type Dirent, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { run as doctor } from '../../src/cli/commands/doctor.js';
import { run as install } from '../../src/cli/commands/install.js';
import { repoRoot, runCommand } from '../helpers/run-cli.js';
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
