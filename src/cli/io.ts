/**
 * What a command gets from the world. `main.ts` passes the real process streams; tests pass their own, so a
 * command can be run in-process and its output compared byte for byte.
 */
export interface CommandIo {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * A command: parses its own arguments, does its work, and resolves to the process exit code
 * (0 success, 1 findings, 2 usage error or unreadable root). Long-running commands resolve when they stop.
 */
export type Command = (argv: readonly string[], io: CommandIo) => Promise<number>;
