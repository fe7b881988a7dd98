/**
 * Two ways to run a companion command in a test: `runCli` spawns the real `bin/companion.js` (exactly what a
 * user runs, after `npm run build`), `runCommand` calls a command's `run` in-process with captured streams.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Command, CommandIo } from '../../src/cli/io.js';

/** The repository root. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/** The CLI entry point; it imports `dist/`, so build before spawning it. */
export const binPath = fileURLToPath(new URL('../../bin/companion.js', import.meta.url));
const builtMainPath = fileURLToPath(new URL('../../dist/bundle/main.js', import.meta.url));

export interface CliResult {
  /** The exit code; `null` only when the process was killed by a signal it did not handle. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunCliOptions {
  /** @default the repository root */
  readonly cwd?: string;
  /**
   * Added over the parent's environment. `NO_COLOR`, `FORCE_COLOR` and `COMPANION_DEBUG` are removed from the
   * inherited part, so output is the same whoever runs the suite; set them here to test them.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Written to the child's stdin, which is then closed. Without it stdin is closed at once. */
  readonly input?: string;
  /** Kill the child (SIGKILL) and reject after this long. @default 10000 */
  readonly timeoutMs?: number;
}

/**
 * Spawns `node bin/companion.js ...args` and resolves with its exit code and output once it exits. Rejects
 * (after killing it) when it runs longer than `timeoutMs`, with whatever it had printed so far.
 */
export function runCli(args: readonly string[], options: RunCliOptions = {}): Promise<CliResult> {
  if (!existsSync(builtMainPath)) {
    return Promise.reject(
      new Error(`${builtMainPath} is missing: run \`npm run build\` before the CLI tests.`),
    );
  }
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  delete env.COMPANION_DEBUG;
  Object.assign(env, options.env);
  const timeoutMs = options.timeoutMs ?? 10_000;

  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], {
      cwd: options.cwd ?? repoRoot,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `companion ${args.join(' ')} did not exit within ${timeoutMs} ms\n--- stdout\n${stdout}\n--- stderr\n${stderr}`,
        ),
      );
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    // A child that exits without reading its stdin makes this write fail with EPIPE; that is not the test's concern.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

export interface RunCommandOptions {
  /** @default the repository root */
  readonly cwd?: string;
  /** The command's whole environment (nothing is inherited). @default {} */
  readonly env?: NodeJS.ProcessEnv;
  /** Written to the command's stdin, which is then ended. @default '' */
  readonly input?: string;
  /** Make stdout and stderr claim to be a TTY (for colour). @default false */
  readonly isTTY?: boolean;
}

/** Runs a command in-process with captured streams; resolves with its exit code and everything it wrote. */
export async function runCommand(
  run: Command,
  argv: readonly string[],
  options: RunCommandOptions = {},
): Promise<{ readonly code: number; readonly stdout: string; readonly stderr: string }> {
  const stdin = new PassThrough();
  const stdout = Object.assign(new PassThrough(), { isTTY: options.isTTY ?? false, columns: 100, rows: 40 });
  const stderr = Object.assign(new PassThrough(), { isTTY: options.isTTY ?? false });
  const out = collect(stdout);
  const err = collect(stderr);
  stdin.end(options.input ?? '');
  const io: CommandIo = { stdin, stdout, stderr, cwd: options.cwd ?? repoRoot, env: options.env ?? {} };
  const code = await run(argv, io);
  stdout.end();
  stderr.end();
  return { code, stdout: await out, stderr: await err };
}

function collect(stream: PassThrough): Promise<string> {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve, reject) => {
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
  });
}

/** A CLI process left running: its streams collected as text, and a promise of how it ended. */
export interface CliProcess {
  readonly child: import('node:child_process').ChildProcessWithoutNullStreams;
  readonly output: { stdout: string; stderr: string };
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Spawns `node bin/companion.js …args` and leaves it running (a server, a daemon). It is killed with SIGKILL
 * after `timeoutMs`, so a test that forgets it cannot hang the suite.
 */
export function spawnCli(
  args: readonly string[],
  options: { env?: Readonly<Record<string, string>>; cwd?: string; timeoutMs?: number } = {},
): CliProcess {
  const child = spawn(process.execPath, [binPath, ...args], {
    cwd: options.cwd ?? repoRoot,
    stdio: 'pipe',
    env: { ...process.env, ...options.env },
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output.stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    output.stderr += chunk;
  });
  child.stdin.on('error', () => {});
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 40_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
  return { child, output, exit };
}
