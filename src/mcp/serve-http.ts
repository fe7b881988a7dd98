/**
 * `companion serve --http` and `companion dev`: Streamable HTTP at `/mcp`, both protocol eras on one endpoint.
 *
 * - **2026-07-28 (modern)** requests go to the SDK's `createMcpHandler` (`legacy: 'reject'`): a fresh server per
 *   request, no session, so any replica over the same checkout answers any request identically. Live updates
 *   travel on `subscriptions/listen` streams, fed from the store through the handler's `notify` bus.
 * - **2025-11-25 and older (legacy)** requests — `isLegacyRequest` decides, with the SDK's own classification —
 *   go to one sessionful `WebStandardStreamableHTTPServerTransport` per `Mcp-Session-Id`, as that era requires:
 *   `initialize` opens a session, the GET stream carries its notifications, DELETE (or the idle reaper) ends it.
 *
 * In front of both, the door companion keeps itself: one path; Host and Origin validated before anything else (a
 * page that rebinds a name to 127.0.0.1 sends its own name as Host and its own origin, and gets 403); a JSON body
 * of bounded size and nesting, answered 413, 400 or 415 before it is parsed further; and a cap on connected hosts
 * (legacy sessions plus open listen streams), answered 503 with `Retry-After`. There is no authentication, so
 * binding beyond loopback prints a warning.
 *
 * Longer than ~400 lines on purpose: everything that runs before either era's handler — the door's checks, the
 * host cap, the session table and its reaper — is in one file, so what a request meets first can be read in one pass.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  isInitializeRequest,
  isJsonContentType,
  isLegacyRequest,
  PROTOCOL_VERSION_META_KEY,
  type Server,
  type ServerContext,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { createCatalogQueries } from '../core/queries.js';
import type { CatalogChange, CatalogSource } from '../core/types.js';
import {
  createCompanionServer,
  DEFAULT_SKILLS_PAGE_SIZE,
  type ServedHost,
  SPLICED_METHODS,
} from './create-server.js';
import { ProtocolError } from './errors.js';
import {
  DEFAULT_MAX_SESSIONS,
  exceedsJsonDepth,
  requestIdOf,
  SESSION_RETRY_AFTER_SECONDS,
  tooDeepError,
} from './limits.js';
import { createListPages } from './list-pages.js';
import { LISTEN_METHOD, type NarrowedListen, narrowListen, selectHeard, selectHostHeard } from './listen.js';
import { attachNotifier } from './notifier.js';
import { prepareSkillPages } from './prepare-pages.js';
import { ResponseSplice } from './response-splice.js';
import {
  createSessionRegistry,
  type ListenFilters,
  type SessionHandle,
  type SessionRegistry,
  type SessionRegistryController,
} from './session-registry.js';
import { createQuietGate, type QuietWarmUp, type WarmQueriesOptions, warmWhenQuiet } from './warm-queries.js';

/** The one path that speaks MCP; every other path is 404 (so OAuth discovery probes read as "no auth here"). */
export const MCP_PATH = '/mcp';
/** The default port of `companion serve --http` and `companion dev`. */
export const DEFAULT_HTTP_PORT = 3917;
/** How long a legacy HTTP session may stay silent, with no open stream, before it is closed. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
/** Largest POST body read; more is 413 before anything is parsed. */
export const MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;

export interface ServeHttpOptions {
  /** @default '127.0.0.1' */
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Extra Host header values to accept (`name` or `name:port`), e.g. behind a reverse proxy. Not access control. */
  readonly allowedHosts?: readonly string[];
  /** Extra Origin header values to accept, e.g. `http://my-tool.local:8080`. */
  readonly allowedOrigins?: readonly string[];
  /** One line per event or problem, for stderr. */
  readonly log?: (line: string) => void;
  /** Where sessions are registered (the dev UI passes its own); a new registry when absent. */
  readonly sessions?: SessionRegistryController;
  readonly pageSize?: number;
  /** `ttlMs` of the 2026-07-28 cacheable results. */
  readonly cacheTtlMs: number;
  /** @default 4 MiB */
  readonly maxBodyBytes?: number;
  /** Hosts served at once: legacy sessions plus open listen streams. @default DEFAULT_MAX_SESSIONS (128) */
  readonly maxSessions?: number;
  /**
   * A legacy session with no request and no open event stream for this long is closed and leaves the registry:
   * a client that left without DELETE (every `inspector-cli --cli` run) is gone within about a minute. It shows
   * as idle after a quarter of it. A host that keeps its GET stream open stays however quiet it is; one that
   * returns after the timeout gets 404 and, as the protocol says, starts a new session.
   * @default DEFAULT_IDLE_TIMEOUT_MS (60 seconds)
   */
  readonly idleTimeoutMs?: number;
  /** Clock for session activity and the idle reaper, and the registry's when it makes one. @default Date.now */
  readonly now?: () => number;
  /**
   * Every request waits for this before anything else, and nothing reads `source` sooner: `dev` listens before
   * its first build and resolves it once the store exists. Never rejected (a failed build closes the door).
   */
  readonly until?: Promise<void>;
}

export interface HttpServerHandle {
  /** `http://<host>:<port>/mcp`, a URL that reaches this server from this machine (loopback for a wildcard bind). */
  readonly url: string;
  /**
   * Where it listens, as a sentence that is true: the URL for one address; for a wildcard bind (`0.0.0.0`, `::`)
   * the bound address and the loopback URL, so nobody reads "127.0.0.1" as "only loopback".
   */
  readonly listening: string;
  /** The address bound, as given (`127.0.0.1`, `0.0.0.0`, …). */
  readonly host: string;
  readonly port: number;
  readonly sessions: SessionRegistry;
  /**
   * Starts building what the first tool call needs (the search index) in the background, in short slices, once
   * the hosts have sent nothing for a moment (`warmWhenQuiet`), and keeps it warm across generations until `close`.
   * Call it once the daemon is ready, so it never competes with start-up. Idempotent.
   */
  warm(options?: WarmQueriesOptions): void;
  /**
   * Runs `run` once the hosts have sent nothing for a moment (`WARM_AFTER_QUIET_MS`, counted from this call):
   * for start-up work that can wait, so that it does not compete with a host's first requests. Never after `close`.
   */
  whenQuiet(run: () => void): void;
  /** Closes every session, every listen stream and the listener. Idempotent. */
  close(): Promise<void>;
}

/** The listen port is taken. `serve`/`dev` print the message and exit 2. */
export class PortInUseError extends Error {
  readonly port: number;
  readonly host: string;
  constructor(host: string, port: number) {
    super(`port ${port} is already in use on ${host}; pass --port`);
    this.name = 'PortInUseError';
    this.host = host;
    this.port = port;
  }
}

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

/** True for names that only ever reach this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/** How `host` is written in a Host header or URL (IPv6 in brackets). */
function formatHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

interface LegacySession {
  readonly server: Server;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  /** Its registry entry, told of every request and of the reaper's verdicts (active, idle). */
  readonly session: SessionHandle;
  lastActivity: number;
  openStreams: number;
}

/** One open modern `subscriptions/listen` stream: its registry entry and the client it names. */
interface ModernListen {
  readonly session: SessionHandle;
  readonly client: string | undefined;
  readonly filters: ListenFilters;
}

/** Starts the HTTP server; resolves once it listens, rejects with `PortInUseError` when the port is taken. */
export async function serveHttp(source: CatalogSource, options: ServeHttpOptions): Promise<HttpServerHandle> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => {});
  const now = options.now ?? Date.now;
  const registry = options.sessions ?? createSessionRegistry({ now });
  const maxBody = options.maxBodyBytes ?? MAX_REQUEST_BODY_BYTES;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  // Shown as idle once a quarter of the timeout passed without a request or an open stream.
  const idleAfterMs = Math.max(1000, Math.floor(idleTimeoutMs / 4));
  const touch = (legacy: LegacySession): void => {
    legacy.lastActivity = now();
    legacy.session.recordActivity();
  };
  // The list pages every server of this door answers from, and the splice of each list response in flight, by
  // the web Request the SDK hands each handler as `ctx.http.req`.
  const listPages = createListPages();
  const splices = new WeakMap<Request, ResponseSplice>();
  const spliceFor = (ctx: ServerContext): ResponseSplice | undefined =>
    ctx.http?.req === undefined ? undefined : splices.get(ctx.http.req);
  const serverOptions = {
    cacheTtlMs: options.cacheTtlMs,
    pageSize: options.pageSize,
    log,
    // What the tools keep between calls belongs to the door: a modern request gets a server of its own each time.
    queries: createCatalogQueries(),
    pages: { cache: listPages, spliceFor },
  };
  // What waits for the hosts to be quiet: the warm-up, and whatever `whenQuiet` is given.
  const quiet = createQuietGate();
  let warmUp: QuietWarmUp | undefined;
  const legacySessions = new Map<string, LegacySession>();
  /** Legacy sessions between `initialize` arriving and the transport naming the session. */
  let startingSessions = 0;
  const listens = new Set<ModernListen>();
  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();

  const connectedHosts = (): number => legacySessions.size + startingSessions + listens.size;

  // The modern era: one server per request. A list or read counts as a re-read for the listen streams of the
  // same client (see session-registry.ts: a modern HTTP host appears through its listen streams).
  const modern = createMcpHandler(
    () => {
      let client: string | undefined;
      const attribution: ServedHost = {
        setClientInfo(info) {
          client = clientKey(info);
        },
        setProtocol() {},
        recordReread() {
          for (const listen of listens) if (listen.client === client) listen.session.recordReread();
        },
        // Unreachable: the 2026-07-28 era has no resources/subscribe.
        addSubscription() {},
        removeSubscription() {},
        isSubscribed: () => false,
        subscriptionCount: () => 0,
      };
      return createCompanionServer(source, { ...serverOptions, era: 'modern', host: attribution });
    },
    { legacy: 'reject', maxSubscriptions: maxSessions, maxRequestBodySize: maxBody },
  );

  // Modern listen streams hear a change through the handler's bus; the SDK filters it per stream. Only what
  // some stream listens for is published, and each stream's registry entry records what it heard. Subscribed to
  // the store only while a stream is open.
  let stopNotifying: (() => void) | undefined;
  const notifyListens = (change: CatalogChange): void => {
    const heard = selectHeard(
      [...listens].map((listen) => listen.filters),
      change,
    );
    if (heard.listChanged) modern.notify.resourcesChanged();
    if (heard.promptsListChanged) modern.notify.promptsChanged();
    for (const uri of heard.updatedUris) modern.notify.resourceUpdated(uri);
    for (const listen of listens) {
      listen.session.recordHeard(change.current.number, selectHostHeard('modern', listen.session, heard));
    }
  };
  const addListen = (listen: ModernListen): void => {
    listens.add(listen);
    stopNotifying ??= source.subscribe(notifyListens);
  };
  const removeListen = (listen: ModernListen): void => {
    if (!listens.delete(listen) || listens.size > 0) return;
    stopNotifying?.();
    stopNotifying = undefined;
  };

  const closeLegacySession = async (id: string): Promise<void> => {
    const session = legacySessions.get(id);
    if (!session) return;
    legacySessions.delete(id);
    await session.server.close().catch(() => {});
  };

  const startLegacySession = async (request: Request, body: unknown): Promise<Response> => {
    const id = randomUUID();
    const session = registry.open({ id, transport: 'http' });
    const server = createCompanionServer(source, { ...serverOptions, era: 'legacy', host: session });
    attachNotifier(server, source, session, 'legacy', log);
    const notified = server.onclose;
    server.onclose = () => {
      notified?.();
      legacySessions.delete(id);
      session.close();
    };
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: (sessionId) => {
        legacySessions.set(sessionId, {
          server,
          transport,
          session,
          lastActivity: now(),
          openStreams: 0,
        });
      },
      onsessionclosed: (sessionId) => {
        void closeLegacySession(sessionId);
      },
    });
    startingSessions++;
    try {
      await server.connect(transport);
      return await transport.handleRequest(request, { parsedBody: body });
    } finally {
      startingSessions--;
      if (!legacySessions.has(id)) await server.close().catch(() => {});
    }
  };

  /** A legacy request: to its session, or `initialize` to a new one. */
  const serveLegacy = async (request: Request, body: unknown, res: ServerResponse): Promise<Response> => {
    const sessionId = request.headers.get('mcp-session-id') ?? undefined;
    if (request.method === 'POST' && sessionId === undefined) {
      if (!isInitializeRequest(body)) {
        return rpcError(
          400,
          -32000,
          'Bad Request: no Mcp-Session-Id header; start with an initialize request',
        );
      }
      return connectedHosts() >= maxSessions ? busy(body, maxSessions) : startLegacySession(request, body);
    }
    if (request.method !== 'POST' && request.method !== 'GET' && request.method !== 'DELETE') {
      return rpcError(405, -32000, 'Method not allowed', { allow: 'GET, POST, DELETE' });
    }
    if (sessionId === undefined) return rpcError(400, -32000, 'Bad Request: Mcp-Session-Id header required');
    const session = legacySessions.get(sessionId);
    if (!session) return rpcError(404, -32001, 'Session not found');
    touch(session);
    if (request.method === 'GET') {
      session.openStreams++;
      res.once('close', () => {
        session.openStreams--;
        touch(session);
      });
    }
    return session.transport.handleRequest(request, body === undefined ? {} : { parsedBody: body });
  };

  /** A modern request; a listen request also opens a registry entry that lives as long as its stream. */
  const serveModern = async (
    request: Request,
    body: unknown,
    listen: NarrowedListen | undefined,
    res: ServerResponse,
  ): Promise<Response> => {
    if (listen === undefined) return modern.fetch(request, { parsedBody: body });
    if (connectedHosts() >= maxSessions) return busy(body, maxSessions);
    const meta = (listen.params._meta ?? {}) as Record<string, unknown>;
    const client = meta[CLIENT_INFO_META_KEY] as { name?: unknown; version?: unknown } | undefined;
    const session = registry.open({ id: `listen-${randomUUID()}`, transport: 'http' });
    const identity =
      typeof client?.name === 'string' && typeof client.version === 'string'
        ? { name: client.name, version: client.version }
        : undefined;
    if (identity) session.setClientInfo(identity);
    const version = meta[PROTOCOL_VERSION_META_KEY];
    if (typeof version === 'string') session.setProtocol('modern', version);
    session.openListen(String(requestIdOf(body)), listen.honoured);
    const entry: ModernListen = {
      session,
      client: identity && clientKey(identity),
      filters: listen.honoured,
    };
    addListen(entry);
    res.once('close', () => {
      removeListen(entry);
      session.close();
    });
    return modern.fetch(request, { parsedBody: body });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== MCP_PATH) {
      sendJson(res, 404, { error: 'Not found: this server speaks MCP at /mcp only.' });
      return;
    }
    const hostHeader = (req.headers.host ?? '').toLowerCase();
    if (!allowedHosts.has(hostHeader) && !allowedHosts.has(hostHeader.replace(/:\d+$/, ''))) {
      sendRpcError(res, 403, -32000, 'Forbidden: Host header not allowed');
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin.toLowerCase())) {
      sendRpcError(res, 403, -32000, 'Forbidden: Origin not allowed');
      return;
    }

    let body: unknown;
    let listen: NarrowedListen | undefined;
    if (req.method === 'POST') {
      if (!isJsonContentType(req.headers['content-type'])) {
        sendRpcError(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
        req.resume();
        return;
      }
      const read = await readJsonBody(req, res, maxBody);
      if (read === undefined) return;
      body = read.value;
      if (exceedsJsonDepth(body)) {
        sendJson(res, 400, tooDeepError(requestIdOf(body)));
        return;
      }
      if ((body as { method?: unknown } | null)?.method === LISTEN_METHOD) {
        try {
          listen = narrowListen((body as { params?: unknown }).params, source.current().catalog);
        } catch (error) {
          if (!(error instanceof ProtocolError)) throw error;
          const { code, message, data } = error;
          sendJson(res, 200, { jsonrpc: '2.0', id: requestIdOf(body), error: { code, message, data } });
          return;
        }
        if (listen !== undefined) (body as { params: unknown }).params = listen.params;
      }
    }

    // A list answered from a cached page goes out through a splice (see response-splice.ts).
    const spliced = SPLICED_METHODS.has((body as { method?: unknown } | null)?.method as string);
    // The SDK converts the request and writes the response back (SSE streams included, with backpressure).
    const node = toNodeHandler(
      {
        fetch: async (request) => {
          const splice = spliced ? new ResponseSplice() : undefined;
          if (splice !== undefined) splices.set(request, splice);
          const response = (await isLegacyRequest(request, body))
            ? await serveLegacy(request, body, res)
            : await serveModern(request, body, listen, res);
          return splice === undefined ? response : splice.wrap(response);
        },
      },
      {
        maxRequestBodySize: maxBody,
        onerror: (error) => log(`companion: HTTP request failed: ${error.message}`),
      },
    );
    await node(req, res, body);
  };

  const until = options.until;
  const server = createServer((req, res) => {
    quiet.activity();
    (until === undefined ? handle(req, res) : until.then(() => handle(req, res))).catch((error: unknown) => {
      log(`companion: HTTP request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) sendRpcError(res, 500, -32603, 'Internal error');
      else res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(host, options.port) : error);
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(options.port, host);
  });
  server.on('error', (error) => log(`companion: HTTP server error: ${error.message}`));
  // A request node:http cannot parse (headers over its 16 KiB limit: a 2026-07-28 client mirrors a URI into
  // `Mcp-Name`) still gets a JSON-RPC answer, not a bare status line.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const [status, reason] =
      error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large'] : [400, 'Bad Request'];
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: `Invalid Request: ${reason}` },
    });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `connection: close\r\n\r\n${body}`,
    );
  });

  const port = (server.address() as AddressInfo).port;
  const wildcard = WILDCARD_HOSTS.has(host);
  allowedHosts = new Set([
    ...LOOPBACK_HOSTS.map((name) => `${name}:${port}`),
    // The address it was bound to, when that is one address: a Host that is an IP literal cannot be rebound.
    ...(wildcard ? [] : [`${formatHost(host).toLowerCase()}:${port}`]),
    ...(options.allowedHosts ?? []).map((entry) => entry.toLowerCase()),
  ]);
  allowedOrigins = new Set([
    ...LOOPBACK_HOSTS.map((name) => `http://${name}:${port}`),
    ...(options.allowedOrigins ?? []).map((entry) => entry.toLowerCase().replace(/\/$/, '')),
  ]);
  if (!isLoopbackHost(host)) {
    log(
      `companion: warning: listening on ${host}, beyond loopback. There is no authentication: anyone who can ` +
        'reach this port can read everything served.',
    );
  }

  const reaper = setInterval(
    () => {
      const at = now();
      for (const [id, legacy] of legacySessions) {
        const silentMs = at - legacy.lastActivity;
        if (legacy.openStreams > 0) legacy.session.setState('active');
        else if (silentMs > idleTimeoutMs) {
          log(
            `companion: closing HTTP session ${id}: no request and no open stream for ${Math.round(silentMs / 1000)} s`,
          );
          void closeLegacySession(id);
        } else if (silentMs > idleAfterMs) legacy.session.setState('idle');
      }
    },
    Math.max(250, Math.min(5000, Math.floor(idleAfterMs / 2))),
  );
  reaper.unref();

  const url = `http://${wildcard ? '127.0.0.1' : formatHost(host)}:${port}${MCP_PATH}`;
  let closing: Promise<void> | undefined;
  // A host that connects as the door listens walks every page of skills/list first: they are made while it starts.
  let stopPreparing = (): void => {};
  const prepare = (): void => {
    if (closing === undefined) {
      stopPreparing = prepareSkillPages(source, listPages, options.pageSize ?? DEFAULT_SKILLS_PAGE_SIZE);
    }
  };
  if (until === undefined) prepare();
  else void until.then(prepare);
  return {
    url,
    listening: wildcard ? `${formatHost(host)}:${port} (every interface; from this machine: ${url})` : url,
    host,
    port,
    sessions: registry,
    warm(warmOptions) {
      if (closing !== undefined) return;
      warmUp ??= warmWhenQuiet(source, serverOptions.queries, { ...warmOptions, gate: quiet });
      warmUp.arm();
    },
    whenQuiet(run) {
      if (closing === undefined) quiet.when(run);
    },
    close() {
      closing ??= (async () => {
        quiet.stop();
        warmUp?.stop();
        stopPreparing();
        clearInterval(reaper);
        stopNotifying?.();
        listPages.close();
        await modern.close().catch(() => {});
        await Promise.all([...legacySessions.keys()].map((id) => closeLegacySession(id)));
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}

/** The key a client is recognised by across stateless requests: its `clientInfo` name and version. */
function clientKey(info: { name: string; version: string }): string {
  return `${info.name}\u0000${info.version}`;
}

/** A JSON-RPC error as an HTTP response, for the SDK's adapter to write. */
function rpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers });
}

/** 503: as many hosts are connected as this server serves at once. */
function busy(body: unknown, maxSessions: number): Response {
  return Response.json(
    {
      jsonrpc: '2.0',
      id: requestIdOf(body),
      error: {
        code: -32000,
        message:
          `Server busy: ${maxSessions} hosts are connected, as many as it serves at once; ` +
          `retry in ${SESSION_RETRY_AFTER_SECONDS} s`,
      },
    },
    { status: 503, headers: { 'retry-after': String(SESSION_RETRY_AFTER_SECONDS) } },
  );
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function sendRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
}

/**
 * Reads and parses a POST body of at most `max` bytes. Answers 413 (too large) or 400 (not JSON) itself and
 * returns `undefined` then; also `undefined`, answering nothing, when the client disconnected mid-body.
 */
async function readJsonBody(
  req: IncomingMessage,
  res: ServerResponse,
  max: number,
): Promise<{ value: unknown } | undefined> {
  const tooLarge = (): undefined => {
    sendJson(
      res,
      413,
      { jsonrpc: '2.0', error: { code: -32600, message: `Request body larger than ${max} bytes` }, id: null },
      { connection: 'close' },
    );
    req.resume();
    return undefined;
  };
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) return tooLarge();
  // 'aborted': the client went away before the body ended (a closed tab, a killed host). Nobody is left to
  // answer, and it is not a server failure, so it is neither answered nor logged.
  const chunks = await new Promise<Buffer[] | 'too-large' | 'aborted'>((resolve) => {
    const received: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= max) {
        received.push(chunk);
        return;
      }
      // Stop buffering; keep draining so the 413 reaches the client before the connection closes.
      req.off('data', onData);
      req.off('end', onEnd);
      resolve('too-large');
    };
    const onEnd = (): void => resolve(received);
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', () => resolve('aborted'));
    // A socket destroyed mid-body: 'close' without 'end' (no-op once the promise settled).
    req.once('close', () => {
      if (!req.complete) resolve('aborted');
    });
  });
  if (chunks === 'aborted') return undefined;
  if (chunks === 'too-large') return tooLarge();
  try {
    return { value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    sendRpcError(res, 400, -32700, 'Parse error: the body is not JSON');
    return undefined;
  }
}
