/**
 * `companion serve` over stdio: newline-delimited JSON-RPC on the given streams, one session for the process.
 */
import { randomUUID } from 'node:crypto';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CatalogSource } from '../core/types.js';
import { createCompanionServer } from './create-server.js';
import { createSessionRegistry, type SessionRegistryController } from './session-registry.js';

export interface ServeStdioOptions {
  /** Defaults to `process.stdin`. */
  readonly stdin?: NodeJS.ReadableStream;
  /** Defaults to `process.stdout`. Nothing but protocol frames is ever written to it. */
  readonly stdout?: NodeJS.WritableStream;
  /** Where the session is registered; a private registry when absent. */
  readonly sessions?: SessionRegistryController;
  readonly pageSize?: number;
  /** One line per problem, for stderr. */
  readonly log?: (line: string) => void;
  /** Resolves the returned promise early (SIGINT/SIGTERM); the session is closed. */
  readonly signal?: AbortSignal;
}

/**
 * Serves `source` over stdio until the host closes stdin (or `signal` aborts), then closes the session and
 * resolves. A failing stdout (the host went away: EPIPE) also ends the session instead of crashing the process.
 */
export async function serveStdio(source: CatalogSource, options: ServeStdioOptions = {}): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const log = options.log ?? (() => {});
  const companion = createCompanionServer(source, {
    transport: 'stdio',
    sessionId: randomUUID(),
    sessions: options.sessions ?? createSessionRegistry(),
    pageSize: options.pageSize,
    log,
  });
  // The SDK types the streams as node:stream classes; any Readable/Writable pair works.
  const transport = new StdioServerTransport(
    stdin as ConstructorParameters<typeof StdioServerTransport>[0],
    stdout as ConstructorParameters<typeof StdioServerTransport>[1],
  );

  await new Promise<void>((resolve) => {
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      stdin.off('end', finish);
      stdin.off('close', finish);
      stdout.off('error', onOutputError);
      options.signal?.removeEventListener('abort', finish);
      // Let a request that arrived with the last chunk of stdin finish answering first.
      setImmediate(() => {
        companion.close().then(resolve, resolve);
      });
    };
    const onOutputError = (error: Error): void => {
      log(`companion: stdout failed (${error.message}); closing the session`);
      finish();
    };
    stdin.once('end', finish);
    stdin.once('close', finish);
    stdout.on('error', onOutputError);
    companion.server.onclose = finish;
    if (options.signal?.aborted) {
      finish();
      return;
    }
    options.signal?.addEventListener('abort', finish, { once: true });
    companion.server.connect(transport).catch((error: unknown) => {
      log(`companion: could not start stdio: ${String(error)}`);
      finish();
    });
  });
}
