/**
 * `companion serve --http`: Streamable HTTP at `/mcp`, one protocol server per session.
 *
 * Host and Origin are validated here, before the SDK transport sees the request (the transport's own options for
 * it are deprecated): a page in a browser that rebinds a name to 127.0.0.1 sends its own name as Host and its own
 * origin, and gets 403. There is no authentication, so binding beyond loopback prints a warning.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogSource } from '../core/types.js';
import { type CompanionServer, createCompanionServer } from './create-server.js';
import {
  createSessionRegistry,
  type SessionRegistry,
  type SessionRegistryController,
} from './session-registry.js';

/** The one path that speaks MCP; every other path is 404 (so OAuth discovery probes read as "no auth here"). */
export const MCP_PATH = '/mcp';
/** The default port of `companion serve --http` and `companion dev`. */
export const DEFAULT_HTTP_PORT = 3917;
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
  /** @default 4 MiB */
  readonly maxBodyBytes?: number;
  /**
   * A session with no request and no open event stream for this long is closed (a client that left without
   * DELETE). @default 30 minutes
   */
  readonly idleTimeoutMs?: number;
}

export interface HttpServerHandle {
  /** `http://<host>:<port>/mcp`, the URL a host connects to. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly sessions: SessionRegistry;
  /** Closes every session and the listener. Idempotent. */
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

interface LiveSession {
  readonly companion: CompanionServer;
  readonly transport: StreamableHTTPServerTransport;
  lastActivity: number;
  openStreams: number;
}

/** Starts the HTTP server; resolves once it listens, rejects with `PortInUseError` when the port is taken. */
export async function serveHttp(source: CatalogSource, options: ServeHttpOptions): Promise<HttpServerHandle> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => {});
  const registry = options.sessions ?? createSessionRegistry();
  const maxBody = options.maxBodyBytes ?? MAX_REQUEST_BODY_BYTES;
  const idleTimeoutMs = options.idleTimeoutMs ?? 30 * 60_000;
  const live = new Map<string, LiveSession>();
  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();

  const closeSession = async (id: string): Promise<void> => {
    const session = live.get(id);
    if (!session) return;
    live.delete(id);
    await session.companion.close().catch(() => {});
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

    const sessionHeader = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;

    if (req.method === 'POST') {
      const body = await readJsonBody(req, res, maxBody);
      if (body === undefined) return;
      if (sessionId !== undefined) {
        const session = live.get(sessionId);
        if (!session) {
          sendRpcError(res, 404, -32001, 'Session not found');
          return;
        }
        session.lastActivity = Date.now();
        await session.transport.handleRequest(req, res, body.value);
        return;
      }
      if (!isInitializeRequest(body.value)) {
        sendRpcError(
          res,
          400,
          -32000,
          'Bad Request: no Mcp-Session-Id header; start with an initialize request',
        );
        return;
      }
      await startSession(req, res, body.value);
      return;
    }

    if (req.method === 'GET' || req.method === 'DELETE') {
      if (sessionId === undefined) {
        sendRpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header required');
        return;
      }
      const session = live.get(sessionId);
      if (!session) {
        sendRpcError(res, 404, -32001, 'Session not found');
        return;
      }
      session.lastActivity = Date.now();
      if (req.method === 'GET') {
        session.openStreams++;
        res.once('close', () => {
          session.openStreams--;
          session.lastActivity = Date.now();
        });
      }
      await session.transport.handleRequest(req, res);
      return;
    }

    res.setHeader('Allow', 'GET, POST, DELETE');
    sendRpcError(res, 405, -32000, 'Method not allowed');
  };

  const startSession = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    const id = randomUUID();
    const companion = createCompanionServer(source, {
      transport: 'http',
      sessionId: id,
      sessions: registry,
      pageSize: options.pageSize,
      log,
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: (sessionId) => {
        live.set(sessionId, { companion, transport, lastActivity: Date.now(), openStreams: 0 });
      },
      onsessionclosed: (sessionId) => {
        void closeSession(sessionId);
      },
    });
    // Protocol.connect chains this handler: the transport closing (DELETE, server close) ends the session.
    transport.onclose = () => {
      live.delete(id);
    };
    await companion.server.connect(transport);
    await transport.handleRequest(req, res, body);
    if (!live.has(id)) await companion.close().catch(() => {});
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
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

  const port = (server.address() as AddressInfo).port;
  allowedHosts = new Set([
    ...LOOPBACK_HOSTS.map((name) => `${name}:${port}`),
    // The address it was bound to, when that is one address: a Host that is an IP literal cannot be rebound.
    ...(WILDCARD_HOSTS.has(host) ? [] : [`${formatHost(host).toLowerCase()}:${port}`]),
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
      const now = Date.now();
      for (const [id, session] of live) {
        if (session.openStreams === 0 && now - session.lastActivity > idleTimeoutMs) {
          log(`companion: closing idle HTTP session ${id}`);
          void closeSession(id);
        }
      }
    },
    Math.max(1000, Math.min(60_000, Math.floor(idleTimeoutMs / 2))),
  );
  reaper.unref();

  const displayHost = WILDCARD_HOSTS.has(host) ? '127.0.0.1' : formatHost(host);
  let closing: Promise<void> | undefined;
  return {
    url: `http://${displayHost}:${port}${MCP_PATH}`,
    host,
    port,
    sessions: registry,
    close() {
      closing ??= (async () => {
        clearInterval(reaper);
        await Promise.all([...live.keys()].map((id) => closeSession(id)));
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
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
