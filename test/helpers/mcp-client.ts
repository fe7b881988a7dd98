/**
 * Real-protocol clients for the MCP tests: the SDK `Client` over stdio against the built CLI
 * (`node bin/companion.js serve …`, so `npm run build` first), and over Streamable HTTP against `serveHttp`
 * started in-process on an ephemeral port. Every raw JSON-RPC message a client receives is also kept as text
 * (`wire`), so a test can assert that something appears nowhere in any response.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { CatalogSource } from '../../src/core/types.js';
import { type HttpServerHandle, type ServeHttpOptions, serveHttp } from '../../src/mcp/serve-http.js';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const binPath = fileURLToPath(new URL('../../bin/companion.js', import.meta.url));
const builtMainPath = fileURLToPath(new URL('../../dist/bundle/main.js', import.meta.url));

/** A notification as received. */
export interface ReceivedNotification {
  readonly method: string;
  readonly uri?: string;
}

export interface McpConnection {
  readonly client: Client;
  /** Every JSON-RPC message received, serialized as it arrived. */
  readonly wire: string[];
  /** Resource notifications received, in order. */
  readonly notifications: ReceivedNotification[];
  /** What the server process wrote to stderr (stdio only; '' for HTTP). */
  stderr(): string;
  close(): Promise<void>;
}

/** A JSON-RPC error as a client sees it. */
export interface RpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

const CLIENT_INFO = { name: 'companion-tests', version: '1.0.0' };

/** Records raw messages and resource notifications on a connected client. */
function instrument(client: Client, transport: Transport): Pick<McpConnection, 'wire' | 'notifications'> {
  const wire: string[] = [];
  const notifications: ReceivedNotification[] = [];
  const forward = transport.onmessage;
  transport.onmessage = (message, extra) => {
    wire.push(JSON.stringify(message));
    forward?.(message, extra);
  };
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    notifications.push({ method: 'notifications/resources/list_changed' });
  });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    notifications.push({ method: 'notifications/resources/updated', uri: notification.params.uri });
  });
  return { wire, notifications };
}

export interface StdioOptions {
  /** Content root passed as `--root`. */
  readonly root: string;
  /** More `serve` arguments. */
  readonly args?: readonly string[];
  /** Added to a minimal environment (PATH, HOME). */
  readonly env?: Readonly<Record<string, string>>;
  readonly name?: string;
  /** The directory the host starts the server in (its project). Default: the test's cwd. */
  readonly cwd?: string;
}

/** Spawns `companion serve --root <root>` and connects a client over its stdin/stdout. */
export async function connectStdio(options: StdioOptions): Promise<McpConnection> {
  if (!existsSync(builtMainPath))
    throw new Error(`${builtMainPath} is missing: run \`npm run build\` first.`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binPath, 'serve', '--root', options.root, ...(options.args ?? [])],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: options.name ?? CLIENT_INFO.name, version: CLIENT_INFO.version });
  try {
    await client.connect(transport);
  } catch (error) {
    // The server's stderr says why it did not start (a stale or half-written dist/, a bad root).
    throw new Error(`could not connect to companion serve: ${String(error)}\n--- stderr\n${stderr}`);
  }
  const recorded = instrument(client, transport);
  return { client, ...recorded, stderr: () => stderr, close: () => client.close() };
}

/** Starts `serveHttp` on 127.0.0.1 and an ephemeral port. */
export function startHttp(
  source: CatalogSource,
  options: Partial<ServeHttpOptions> = {},
): Promise<HttpServerHandle> {
  return serveHttp(source, { port: 0, ...options });
}

/** Connects a new client (a new session) to `url`. `close()` ends the session with DELETE first. */
export async function connectHttp(url: string, name = CLIENT_INFO.name): Promise<McpConnection> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name, version: CLIENT_INFO.version });
  await client.connect(transport);
  const recorded = instrument(client, transport);
  return {
    client,
    ...recorded,
    stderr: () => '',
    async close() {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

/** Sends a request with any method and params, returning the loose result. */
export function rawRequest(
  connection: McpConnection,
  method: string,
  params?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return connection.client.request(
    params === undefined ? { method } : { method, params },
    z.looseObject({}),
  ) as Promise<Record<string, unknown>>;
}

/** Awaits `promise`, expecting it to reject with a JSON-RPC error; resolves with that error. */
export async function expectRpcError(promise: Promise<unknown>): Promise<RpcError> {
  try {
    await promise;
  } catch (error) {
    const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
    if (typeof code !== 'number') throw error;
    return { code, message: String(message), data };
  }
  throw new Error('expected a JSON-RPC error, got a result');
}

/** Polls `predicate` every 10 ms until it holds; throws after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Every page of `resources/list`, following cursors (bounded). */
export async function listAllResources(connection: McpConnection, maxPages = 100) {
  const pages: Awaited<ReturnType<Client['listResources']>>[] = [];
  let cursor: string | undefined;
  do {
    const page = await connection.client.listResources(cursor === undefined ? {} : { cursor });
    pages.push(page);
    cursor = page.nextCursor;
    if (pages.length > maxPages) throw new Error('resources/list did not end');
  } while (cursor !== undefined);
  return { pages, resources: pages.flatMap((page) => page.resources) };
}
