/**
 * `companion serve` over stdio: newline-delimited JSON-RPC on the given streams, one connection for the process,
 * in whichever era the host opens with. The SDK's `serveStdio` owns the era decision (a `server/discover` probe
 * or `initialize`), pins one server instance for the connection and routes `subscriptions/listen`; companion
 * gives it a wire that keeps three promises the SDK's own stdio transport does not:
 * - a message nested deeper than `MAX_JSON_DEPTH` is answered -32600 before anything walks it;
 * - a listen filter is narrowed to served URIs and bounded (`listen.ts`), and every acknowledged stream is
 *   recorded in the session registry until it is cancelled or torn down;
 * - when the host closes stdin, every request it already sent is answered before the connection closes (the SDK
 *   transport would abort them);
 * - a list answered from a page serialized earlier (`list-pages.ts`) is written with that page's bytes spliced into
 *   the SDK's serialization of the response (`response-splice.ts`).
 */
import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import {
  CLIENT_INFO_META_KEY,
  type JSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  SUBSCRIPTION_ID_META_KEY,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio as serveSdkStdio } from '@modelcontextprotocol/server/stdio';
import { createCatalogQueries } from '../core/queries.js';
import type { CatalogSource } from '../core/types.js';
import { createCompanionServer, SPLICED_METHODS } from './create-server.js';
import { exceedsJsonDepth, MAX_LISTEN_STREAMS_PER_CONNECTION, requestIdOf, tooDeepError } from './limits.js';
import { createListPages } from './list-pages.js';
import { LISTEN_METHOD, narrowListen } from './listen.js';
import { attachNotifier } from './notifier.js';
import { ResponseSplice } from './response-splice.js';
import {
  createSessionRegistry,
  type ListenFilters,
  type SessionHandle,
  type SessionRegistryController,
} from './session-registry.js';
import { warmWhenQuiet } from './warm-queries.js';

/** How long a closed stdin waits for the requests already sent to be answered. */
const DRAIN_TIMEOUT_MS = 5000;

export interface ServeStdioOptions {
  /** Defaults to `process.stdin`. */
  readonly stdin?: NodeJS.ReadableStream;
  /** Defaults to `process.stdout`. Nothing but protocol frames is ever written to it. */
  readonly stdout?: NodeJS.WritableStream;
  /** Where the session is registered; a private registry when absent. */
  readonly sessions?: SessionRegistryController;
  readonly pageSize?: number;
  /** `ttlMs` of the 2026-07-28 cacheable results. */
  readonly cacheTtlMs: number;
  /** One line per problem, for stderr. */
  readonly log?: (line: string) => void;
  /** Resolves the returned promise early (SIGINT/SIGTERM); the session is closed. */
  readonly signal?: AbortSignal;
}

/**
 * Serves `source` over stdio until the host closes stdin (or `signal` aborts), then closes the session and
 * resolves. A failing stdout (the host went away: EPIPE) also ends the session instead of crashing the process.
 */
export async function serveStdio(source: CatalogSource, options: ServeStdioOptions): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const log = options.log ?? (() => {});
  const session = (options.sessions ?? createSessionRegistry()).open({
    id: randomUUID(),
    transport: 'stdio',
  });
  const wire = new CompanionStdioWire(source, session, stdin, stdout, log);
  const queries = createCatalogQueries();
  // What the host's first lookup needs is built in the background, but not during the burst a host sends as it
  // connects (initialize, the lists): the warm-up begins once the host has been quiet for a moment.
  const warmUp = warmWhenQuiet(source, queries);
  wire.onActivity = warmUp.activity;
  warmUp.arm();
  const listPages = createListPages();
  const handle = serveSdkStdio(
    ({ era }) => {
      const server = createCompanionServer(source, {
        era,
        host: session,
        cacheTtlMs: options.cacheTtlMs,
        pageSize: options.pageSize,
        log,
        queries,
        pages: { cache: listPages, spliceFor: (ctx) => wire.spliceFor(ctx.mcpReq.id) },
      });
      attachNotifier(server, source, session, era, log);
      return server;
    },
    {
      transport: wire,
      maxSubscriptions: MAX_LISTEN_STREAMS_PER_CONNECTION,
      onerror: (error) => log(`companion: stdio: ${error.message}`),
    },
  );
  const stop = (): void => {
    handle.close().catch(() => {});
  };
  if (options.signal?.aborted) stop();
  options.signal?.addEventListener('abort', stop, { once: true });
  await wire.closed;
  options.signal?.removeEventListener('abort', stop);
  await handle.close().catch(() => {});
  warmUp.stop();
  listPages.close();
  session.close();
}

/** The wire `serveStdio` reads and writes: the SDK's stdio transport, with companion's three promises around it. */
class CompanionStdioWire implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Called with every message the host sends. */
  onActivity?: () => void;
  /** Resolves once the transport has closed (stdin ended and drained, stdout failed, or close()). */
  readonly closed: Promise<void>;
  readonly #inner: StdioServerTransport;
  readonly #stdout: NodeJS.WritableStream;
  readonly #source: CatalogSource;
  readonly #session: SessionHandle;
  readonly #log: (line: string) => void;
  /** Requests delivered and not yet answered, by id. */
  readonly #pending = new Set<string | number>();
  readonly #drained: (() => void)[] = [];
  /** Listen requests delivered and not yet acknowledged, with the envelope they came with. */
  readonly #listening = new Map<string, Record<string, unknown> | undefined>();
  /** The splice of each list request delivered and not yet answered, by id. */
  readonly #splices = new Map<string | number, ResponseSplice>();
  #closed = false;

  constructor(
    source: CatalogSource,
    session: SessionHandle,
    stdin: NodeJS.ReadableStream,
    stdout: NodeJS.WritableStream,
    log: (line: string) => void,
  ) {
    this.#source = source;
    this.#session = session;
    this.#log = log;
    this.#stdout = stdout;
    // The SDK transport reads a feed that ends only once every request already read has been answered.
    const feed = new PassThrough();
    stdin.pipe(feed, { end: false });
    let ended = false;
    const onEnd = (): void => {
      if (ended) return;
      ended = true;
      this.#whenDrained().then(() => feed.end());
    };
    stdin.once('end', onEnd);
    stdin.once('close', onEnd);
    this.#inner = new StdioServerTransport(
      feed,
      stdout as ConstructorParameters<typeof StdioServerTransport>[1],
    );
    this.closed = new Promise((resolve) => {
      this.#inner.onclose = () => {
        this.#closed = true;
        this.#splices.clear();
        stdin.unpipe(feed);
        stdin.off('end', onEnd);
        stdin.off('close', onEnd);
        resolve();
        this.onclose?.();
      };
    });
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onmessage = (message) => this.#receive(message);
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    this.#observeOutbound(message as Record<string, unknown>);
    const id = requestIdOf(message);
    const splice = id === null || 'method' in message ? undefined : this.#splices.get(id);
    if (splice === undefined) return this.#inner.send(message);
    this.#splices.delete(id!);
    return splice.pending ? this.#writeSpliced(message, splice) : this.#inner.send(message);
  }

  /** The splice of the answer to request `id`, while it is being answered. */
  spliceFor(id: string | number): ResponseSplice | undefined {
    return this.#splices.get(id);
  }

  /**
   * The message as the SDK's transport would write it (one JSON line), with the held bytes spliced in: written to
   * the same stream the transport writes to, so the order of the messages is kept. The parts go out corked, as one
   * `writev`, never concatenated: a page is ~120 KB, and copying it into a fresh buffer for every answer was a
   * third of what the door spent per `skills/list` request, most of it in the garbage collector.
   */
  #writeSpliced(message: JSONRPCMessage, splice: ResponseSplice): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('the stdio connection is closed'));
    const parts = splice.replace(Buffer.from(`${JSON.stringify(message)}\n`, 'utf8'));
    return new Promise((resolve, reject) => {
      const stdout = this.#stdout;
      const settle = (error?: unknown): void => {
        stdout.off('error', settle);
        stdout.off('drain', settle);
        if (error === undefined) resolve();
        else reject(error);
      };
      stdout.once('error', settle);
      const corkable = stdout as Partial<Pick<NodeJS.WriteStream, 'cork' | 'uncork'>>;
      corkable.cork?.();
      let flowing = true;
      for (const part of parts) flowing = stdout.write(part);
      corkable.uncork?.();
      if (flowing) settle();
      else stdout.once('drain', () => settle());
    });
  }

  #receive(message: JSONRPCMessage): void {
    const id = requestIdOf(message);
    const method = (message as { method?: unknown }).method;
    const isRequest = id !== null && typeof method === 'string';
    if (exceedsJsonDepth(message)) {
      if (isRequest) this.#reply(tooDeepError(id));
      else this.#log('companion: dropped a message nested too deep to read');
      return;
    }
    if (isRequest && method === LISTEN_METHOD) {
      const request = message as { params?: Record<string, unknown> };
      try {
        const narrowed = narrowListen(request.params, this.#source.current().catalog);
        if (narrowed !== undefined) request.params = narrowed.params;
        this.#listening.set(String(id), request.params?._meta as Record<string, unknown> | undefined);
      } catch (error) {
        if (!(error instanceof ProtocolError)) throw error;
        this.#reply({
          jsonrpc: '2.0',
          id,
          error: { code: error.code, message: error.message, data: error.data },
        });
        return;
      }
    }
    if (method === 'notifications/cancelled') {
      const cancelled = (message as { params?: { requestId?: unknown } }).params?.requestId;
      if (cancelled !== undefined) {
        this.#session.closeListen(String(cancelled));
        // A cancelled request is never answered, so its splice would never be used.
        if (typeof cancelled === 'string' || typeof cancelled === 'number') this.#splices.delete(cancelled);
      }
    }
    // A listen request stays open until cancelled: it is never waited for.
    if (isRequest && method !== LISTEN_METHOD) this.#pending.add(id);
    if (isRequest && SPLICED_METHODS.has(method)) this.#splices.set(id, new ResponseSplice());
    this.onActivity?.();
    this.onmessage?.(message);
  }

  #observeOutbound(message: Record<string, unknown>): void {
    if (message.method === 'notifications/subscriptions/acknowledged') {
      const params = message.params as
        | { notifications?: unknown; _meta?: Record<string, unknown> }
        | undefined;
      const id = String(params?._meta?.[SUBSCRIPTION_ID_META_KEY]);
      if (!this.#listening.has(id)) return;
      const meta = this.#listening.get(id);
      this.#listening.delete(id);
      const version = meta?.[PROTOCOL_VERSION_META_KEY];
      const client = meta?.[CLIENT_INFO_META_KEY] as { name?: unknown; version?: unknown } | undefined;
      if (typeof client?.name === 'string' && typeof client.version === 'string') {
        this.#session.setClientInfo({ name: client.name, version: client.version });
      }
      if (typeof version === 'string') this.#session.setProtocol('modern', version);
      this.#session.openListen(id, (params?.notifications ?? {}) as ListenFilters);
      return;
    }
    const id = requestIdOf(message);
    if (id === null || message.method !== undefined) return;
    // A response: the request is answered; a listen request answered ends (refused, or torn down gracefully).
    this.#listening.delete(String(id));
    this.#session.closeListen(String(id));
    this.#settle(id);
  }

  #reply(message: Record<string, unknown>): void {
    this.#inner
      .send(message as JSONRPCMessage)
      .catch((error: unknown) => this.#log(`companion: ${String(error)}`));
  }

  #settle(id: string | number): void {
    if (!this.#pending.delete(id) || this.#pending.size > 0) return;
    for (const resolve of this.#drained.splice(0)) resolve();
  }

  /** Resolves once every request delivered so far is answered, or after `DRAIN_TIMEOUT_MS`. */
  #whenDrained(): Promise<void> {
    if (this.#pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, DRAIN_TIMEOUT_MS);
      timer.unref();
      this.#drained.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
