/**
 * Real-protocol clients for the MCP tests: the official v2 SDK `Client`, over stdio against the built CLI
 * (`node bin/companion.js serve …`, so `npm run build` first) and over Streamable HTTP against `serveHttp`
 * started in-process on an ephemeral port, in either protocol era: `negotiation` is the client's own
 * `versionNegotiation` (`legacy` speaks 2025-11-25 with `initialize`; `modern` pins 2026-07-28; `auto` probes
 * `server/discover` and falls back). Every raw JSON-RPC message a client receives is also kept as text (`wire`),
 * so a test can assert that something appears nowhere in any response.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  Client,
  InMemoryTransport,
  type McpSubscription,
  type Resource,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import * as z from 'zod';
import type { CatalogSource } from '../../src/core/types.js';
import { createCompanionServer } from '../../src/mcp/create-server.js';
import { attachNotifier } from '../../src/mcp/notifier.js';
import { type HttpServerHandle, type ServeHttpOptions, serveHttp } from '../../src/mcp/serve-http.js';
import { createSessionRegistry, type SessionRegistryController } from '../../src/mcp/session-registry.js';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const binPath = fileURLToPath(new URL('../../bin/companion.js', import.meta.url));
const builtMainPath = fileURLToPath(new URL('../../dist/bundle/main.js', import.meta.url));

/** How the client negotiates: the three modes of the v2 SDK's `versionNegotiation`. */
export type Negotiation = 'legacy' | 'modern' | 'auto';
/** The protocol revision the modern era pins. */
export const MODERN_VERSION = '2026-07-28';

/** A notification as received. */
export interface ReceivedNotification {
  readonly method: string;
  readonly uri?: string;
}

/** What a host asks to hear: list_changed, the prompts' list_changed, and updates of these URIs. */
export interface WatchRequest {
  readonly listChanged?: boolean;
  /** Modern era: a `promptsListChanged` filter. (A 2025 host hears the prompts' list_changed unasked.) */
  readonly promptsListChanged?: boolean;
  readonly uris?: readonly string[];
}

export interface McpConnection {
  readonly client: Client;
  /** The era the client negotiated. */
  readonly era: 'legacy' | 'modern';
  /** Every JSON-RPC message received, serialized as it arrived. */
  readonly wire: string[];
  /** Resource and prompt notifications received, in order. */
  readonly notifications: ReceivedNotification[];
  /**
   * Asks to hear changes the way the era does it: legacy `resources/subscribe` per URI (list_changed comes
   * unasked); modern, one `subscriptions/listen` stream (replacing any earlier one). Resolves with the URIs the
   * server acknowledged (legacy: every URI it accepted).
   */
  watch(request: WatchRequest): Promise<readonly string[]>;
  /** What the server acknowledged for the open listen stream (modern only). */
  readonly listening: McpSubscription | undefined;
  /** What the server process wrote to stderr (stdio only; '' for HTTP). */
  stderr(): string;
  close(): Promise<void>;
}

/** A JSON-RPC error as a client sees it. */
export interface RpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
  /** Set when the error came in an HTTP error response (2026-07-28 answers -32601 with 404, for one). */
  readonly httpStatus?: number;
}

const CLIENT_INFO = { name: 'companion-tests', version: '1.0.0' };

function createClient(name: string, negotiation: Negotiation): Client {
  const mode = negotiation === 'modern' ? { pin: MODERN_VERSION } : negotiation;
  return new Client({ name, version: CLIENT_INFO.version }, { versionNegotiation: { mode } });
}

/** How a connection ends besides closing its client: ending a legacy HTTP session, stopping its server. */
interface Ending {
  readonly stderr?: () => string;
  /** Before the client closes (DELETE of a legacy HTTP session). */
  readonly endSession?: () => Promise<void>;
  /** After it closed (an in-process server). */
  readonly after?: () => Promise<void>;
}

/** Wraps a connected client: records raw messages and resource notifications, adds `watch` and `close`. */
function toConnection(client: Client, transport: Transport, ending: Ending = {}): McpConnection {
  const wire: string[] = [];
  const notifications: ReceivedNotification[] = [];
  const forward = transport.onmessage;
  transport.onmessage = (message, extra) => {
    wire.push(JSON.stringify(message));
    forward?.(message, extra);
  };
  client.setNotificationHandler('notifications/resources/list_changed', () => {
    notifications.push({ method: 'notifications/resources/list_changed' });
  });
  client.setNotificationHandler('notifications/resources/updated', (notification) => {
    notifications.push({ method: 'notifications/resources/updated', uri: notification.params.uri });
  });
  client.setNotificationHandler('notifications/prompts/list_changed', () => {
    notifications.push({ method: 'notifications/prompts/list_changed' });
  });
  const era = client.getNegotiatedProtocolVersion() === MODERN_VERSION ? 'modern' : 'legacy';
  let listening: McpSubscription | undefined;
  const closeListen = async (): Promise<void> => {
    const open = listening;
    listening = undefined;
    await open?.close();
  };
  return {
    client,
    era,
    wire,
    notifications,
    get listening() {
      return listening;
    },
    async watch({ listChanged = true, promptsListChanged = false, uris = [] }) {
      if (era === 'legacy') {
        for (const uri of uris) await client.subscribeResource({ uri });
        return uris;
      }
      await closeListen();
      listening = await client.listen({
        ...(listChanged ? { resourcesListChanged: true } : {}),
        ...(promptsListChanged ? { promptsListChanged: true } : {}),
        ...(uris.length > 0 ? { resourceSubscriptions: [...uris] } : {}),
      });
      return listening.honoredFilter.resourceSubscriptions ?? [];
    },
    stderr: ending.stderr ?? (() => ''),
    async close() {
      await closeListen().catch(() => {});
      if (era === 'legacy') await ending.endSession?.().catch(() => {});
      await client.close();
      await ending.after?.();
    },
  };
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
  /** @default 'legacy' */
  readonly negotiation?: Negotiation;
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
  const client = createClient(options.name ?? CLIENT_INFO.name, options.negotiation ?? 'legacy');
  try {
    await client.connect(transport);
  } catch (error) {
    // The server's stderr says why it did not start (a stale or half-written dist/, a bad root).
    throw new Error(`could not connect to companion serve: ${String(error)}\n--- stderr\n${stderr}`);
  }
  return toConnection(client, transport, { stderr: () => stderr });
}

/** Starts `serveHttp` on 127.0.0.1 and an ephemeral port; ttlMs 0 unless given. */
export function startHttp(
  source: CatalogSource,
  options: Partial<ServeHttpOptions> = {},
): Promise<HttpServerHandle> {
  return serveHttp(source, { port: 0, cacheTtlMs: 0, ...options });
}

/** Connects a new client to `url`. `close()` ends a legacy session with DELETE first, a listen stream by cancel. */
export async function connectHttp(
  url: string,
  name = CLIENT_INFO.name,
  negotiation: Negotiation = 'legacy',
): Promise<McpConnection> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = createClient(name, negotiation);
  await client.connect(transport);
  return toConnection(client, transport, { endSession: () => transport.terminateSession() });
}

/**
 * A 2025-era protocol session over the SDK's in-memory transport: the whole server (handlers, notifier,
 * registry entry), no process, no socket.
 */
export async function connectInMemory(
  source: CatalogSource,
  options: { pageSize?: number; sessions?: SessionRegistryController } = {},
): Promise<McpConnection> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const session = (options.sessions ?? createSessionRegistry()).open({ id: 'in-memory', transport: 'stdio' });
  const server = createCompanionServer(source, {
    era: 'legacy',
    host: session,
    cacheTtlMs: 0,
    ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
  });
  attachNotifier(server, source, session, 'legacy', () => {});
  await server.connect(serverSide);
  const client = createClient('in-memory', 'legacy');
  await client.connect(clientSide);
  return toConnection(client, clientSide, {
    async after() {
      await server.close();
      session.close();
    },
  });
}

/** Sends a request with any method and params, returning the loose result (one page: never auto-aggregated). */
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

/**
 * Awaits `promise`, expecting it to reject with a JSON-RPC error; resolves with that error — also when it came
 * as the body of an HTTP error status, which the SDK client reports as a transport error.
 */
export async function expectRpcError(promise: Promise<unknown>): Promise<RpcError> {
  try {
    await promise;
  } catch (error) {
    const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
    if (typeof code === 'number') return { code, message: String(message), data };
    const http = data as { status?: unknown; text?: unknown } | undefined;
    if (typeof http?.status === 'number' && typeof http.text === 'string') {
      const body = JSON.parse(http.text) as { error?: { code: number; message: string; data?: unknown } };
      if (body.error) return { ...body.error, httpStatus: http.status };
    }
    throw error;
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

/** One page of `resources/list` as the server sent it. */
export interface ResourcePage {
  readonly resources: Resource[];
  readonly nextCursor?: string;
  readonly [key: string]: unknown;
}

/** Every page of `resources/list`, following cursors (bounded), each page as sent. */
export async function listAllResources(connection: McpConnection, maxPages = 100) {
  const pages: ResourcePage[] = [];
  let cursor: string | undefined;
  do {
    const page = (await rawRequest(
      connection,
      'resources/list',
      cursor === undefined ? {} : { cursor },
    )) as unknown as ResourcePage;
    pages.push(page);
    cursor = page.nextCursor;
    if (pages.length > maxPages) throw new Error('resources/list did not end');
  } while (cursor !== undefined);
  return { pages, resources: pages.flatMap((page) => page.resources) };
}
