/**
 * One seam for the terminal tests: the built `companion dev` in a real pseudo-terminal (node-pty) whose output
 * feeds a headless xterm (`@xterm/headless`), so a test reads the screen a person would see — after Ink's
 * cursor moves, erases and redraws — types keys, resizes, and waits for text with a deadline, never a sleep.
 */
import { createRequire } from 'node:module';
import type { IPty } from 'node-pty';
import { binPath } from './mcp-client.js';

const require = createRequire(import.meta.url);
const { spawn } = require('node-pty') as typeof import('node-pty');
const { Terminal } = require('@xterm/headless') as typeof import('@xterm/headless');

/** Keys as a terminal sends them. */
export const KEYS = {
  up: '\u001b[A',
  down: '\u001b[B',
  enter: '\r',
  tab: '\t',
  escape: '\u001b',
  ctrlC: '\u0003',
} as const;

export interface PtyDev {
  /** The visible screen, one string per row, trailing spaces trimmed. */
  screen(): string[];
  /** The visible screen as one string. */
  text(): string;
  /** Resolves with the screen once `test` holds for it; rejects with the screen after `timeoutMs`. */
  waitFor(
    test: string | RegExp | ((text: string) => boolean),
    what: string,
    timeoutMs?: number,
  ): Promise<string>;
  type(keys: string): void;
  resize(columns: number, rows: number): void;
  readonly pid: number;
  /** Resolves with the exit code once the process ended. */
  readonly exit: Promise<{ exitCode: number; signal?: number }>;
  /** Everything the process wrote, raw. */
  output(): string;
  kill(signal?: string): void;
}

export interface PtyOptions {
  readonly columns: number;
  readonly rows: number;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
}

/** Starts `companion <args>` (the built CLI) on a pseudo-terminal of the given size, as an author's shell would. */
export function spawnDevPty(args: readonly string[], options: PtyOptions): PtyDev {
  const terminal = new Terminal({ cols: options.columns, rows: options.rows, allowProposedApi: true });
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...options.env })) {
    if (value !== undefined) env[name] = value;
  }
  // CI (set by the test runner's environment in CI) would switch dev to plain lines; these tests are about the
  // dashboard a person sees.
  delete env.CI;
  delete env.CONTINUOUS_INTEGRATION;
  env.TERM = 'xterm-256color';
  const child: IPty = spawn(process.execPath, [binPath, ...args], {
    name: 'xterm-256color',
    cols: options.columns,
    rows: options.rows,
    cwd: options.cwd ?? process.cwd(),
    env,
  });
  let raw = '';
  let pending = Promise.resolve();
  child.onData((data) => {
    raw += data;
    pending = pending.then(() => new Promise<void>((resolve) => terminal.write(data, resolve)));
  });
  const exit = new Promise<{ exitCode: number; signal?: number }>((resolve) => child.onExit(resolve));
  const screen = (): string[] => {
    const buffer = terminal.buffer.active;
    const rows: string[] = [];
    for (let y = 0; y < terminal.rows; y++) {
      rows.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    }
    return rows;
  };
  const text = () => screen().join('\n');
  return {
    screen,
    text,
    async waitFor(test, what, timeoutMs = 15_000) {
      const check =
        typeof test === 'string'
          ? (t: string) => t.includes(test)
          : test instanceof RegExp
            ? (t: string) => test.test(t)
            : test;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await pending;
        const now = text();
        if (check(now)) return now;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen:\n${now}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    type(keys) {
      child.write(keys);
    },
    resize(columns, rows) {
      child.resize(columns, rows);
      terminal.resize(columns, rows);
    },
    pid: child.pid,
    exit,
    output: () => raw,
    kill(signal) {
      try {
        child.kill(signal);
      } catch {
        // Already gone.
      }
    },
  };
}
