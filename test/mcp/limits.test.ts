/**
 * Bounds with answers (#13.7): how many hosts one HTTP server serves at once (the next is told 503 with
 * `Retry-After`), how many URIs one session may hold, and how deep a message may nest on HTTP (a JSON-RPC error,
 * never silence). The stdio side of the nesting bound is in serve-stdio.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Catalog, CatalogSource, Generation, ServedContent } from '../../src/core/types.js';
import { createCatalogStore } from '../../src/fs/catalog-store.js';
import {
  exceedsJsonDepth,
  MAX_JSON_DEPTH,
  MAX_SUBSCRIPTIONS,
  SESSION_RETRY_AFTER_SECONDS,
} from '../../src/mcp/limits.js';
import type { HttpServerHandle } from '../../src/mcp/serve-http.js';
import {
  connectHttp,
  connectInMemory,
  expectRpcError,
  type McpConnection,
  rawRequest,
  repoRoot,
  startHttp,
  waitFor,
} from '../helpers/mcp-client.js';
import { mcpHeaders, type RawResponse, sendRaw } from '../helpers/raw-http.js';

function post(
  server: HttpServerHandle,
  body: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return sendRaw(server.port, { headers: mcpHeaders(server.port, headers), body });
}

const nested = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const MODERN_META = JSON.stringify({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
});
const MODERN_HEADERS = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'resources/read' };

describe('exceedsJsonDepth', () => {
  it('counts objects and arrays, the message itself as level 1, without recursion', () => {
    const levels = (depth: number) => JSON.parse(nested(depth)) as unknown;
    expect(exceedsJsonDepth(levels(MAX_JSON_DEPTH))).toBe(false);
    expect(exceedsJsonDepth(levels(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(exceedsJsonDepth([[[[1]]]], 4)).toBe(false);
    expect(exceedsJsonDepth([[[[[1]]]]], 4)).toBe(true);
    expect(exceedsJsonDepth({ wide: Array.from({ length: 100_000 }, (_, i) => ({ i })) })).toBe(false);
    expect(exceedsJsonDepth(JSON.parse(nested(1_000_000)))).toBe(true);
    expect(exceedsJsonDepth('text')).toBe(false);
    expect(exceedsJsonDepth(null)).toBe(false);
  });
});

describe('nesting depth over HTTP', () => {
  let server: HttpServerHandle;
  beforeAll(async () => {
    server = await startHttp(createCatalogStore({ root: repoRoot }));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers a message nested too deep with 400 and a JSON-RPC -32600 naming its id, in both eras', async () => {
    const legacy = await connectHttp(server.url, 'deep-legacy');
    const sessionId = (legacy.client.transport as { sessionId?: string } | undefined)?.sessionId;
    try {
      for (const depth of [MAX_JSON_DEPTH, 5_000, 500_000]) {
        const bodies: [string, string, Record<string, string>][] = [
          [
            'legacy',
            `{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":${nested(depth)}}}`,
            { 'mcp-session-id': sessionId!, 'mcp-protocol-version': '2025-11-25' },
          ],
          [
            'modern',
            `{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"_meta":${MODERN_META},"uri":${nested(depth)}}}`,
            MODERN_HEADERS,
          ],
          ['an initialize', `{"jsonrpc":"2.0","id":7,"method":"initialize","params":${nested(depth)}}`, {}],
        ];
        for (const [what, body, headers] of bodies) {
          const response = await post(server, body, headers);
          expect(response.status, `${what} ${depth}`).toBe(400);
          expect(JSON.parse(response.body), `${what} ${depth}`).toEqual({
            jsonrpc: '2.0',
            id: 7,
            error: {
              code: -32600,
              message: expect.stringContaining(`${MAX_JSON_DEPTH} levels`),
              data: { maxDepth: MAX_JSON_DEPTH },
            },
          });
        }
      }
      // The server keeps answering, and a shallow malformed uri is what it always was: -32602.
      const shallow = await post(
        server,
        `{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"_meta":${MODERN_META},"uri":{"a":1}}}`,
        MODERN_HEADERS,
      );
      expect(JSON.parse(shallow.body).error.code).toBe(-32602);
      expect((await legacy.client.readResource({ uri: 'companion://guides' })).contents).toHaveLength(1);
      expect(server.sessions.list()).toHaveLength(1);
    } finally {
      await legacy.close();
    }
  });
});

describe('the cap on connected hosts', () => {
  let server: HttpServerHandle;
  const open: McpConnection[] = [];
  beforeAll(async () => {
    server = await startHttp(createCatalogStore({ root: repoRoot }), { maxSessions: 2 });
  });
  afterAll(async () => {
    await Promise.all(open.map((connection) => connection.close()));
    await server?.close();
  });

  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });

  it('refuses the host past the cap with 503, Retry-After and a JSON-RPC error, legacy and modern alike', async () => {
    open.push(await connectHttp(server.url, 'first'));
    const listener = await connectHttp(server.url, 'second', 'modern');
    await listener.watch({ listChanged: true });
    open.push(listener);
    expect(server.sessions.list()).toHaveLength(2);

    const refused = await post(server, initialize);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe(String(SESSION_RETRY_AFTER_SECONDS));
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32000, message: expect.stringContaining('2 hosts are connected') },
    });
    const modern = await connectHttp(server.url, 'third', 'modern');
    open.push(modern);
    const listen = await expectRpcError(modern.watch({ listChanged: true }));
    expect(listen.httpStatus).toBe(503);
    // Stateless requests hold nothing, so they are served whatever the count.
    expect((await rawRequest(modern, 'resources/list', {})).resources).toBeDefined();
    expect(server.sessions.list()).toHaveLength(2);
  });

  it('serves the next host once one has left', async () => {
    await open.shift()!.close();
    await waitFor(() => server.sessions.list().length === 1, 5000, 'the first host to leave');
    const next = await post(server, initialize);
    expect(next.status).toBe(200);
    expect(next.headers['mcp-session-id']).toBeDefined();
  });
});

describe('subscriptions one session may hold', () => {
  /** A catalog of more served URIs than the bound: the index plus MAX_SUBSCRIPTIONS + 10 documents. */
  function largeSource(): CatalogSource {
    const uris = Array.from({ length: MAX_SUBSCRIPTIONS + 10 }, (_, i) => `test://doc/${i}`);
    const content = (uri: string): ServedContent => ({
      uri,
      mimeType: 'text/markdown',
      bytes: Buffer.from('x'),
      text: 'x',
      digest: `sha256:${'0'.repeat(64)}`,
      size: 1,
    });
    const catalog = {
      server: { name: 'test', title: 'Test', version: '0.0.0', scheme: 'test' },
      instructions: 'Test.',
      coverage: { purpose: '', scopes: [], topics: [], routing: [], notCovered: [] },
      tools: [],
      indexUri: 'test://index',
      resources: [],
      templates: [],
      contents: new Map(uris.map((uri) => [uri, content(uri)])),
      documents: [],
      skills: [],
    } as unknown as Catalog;
    const generation: Generation = { number: 1, catalog, diagnostics: [], builtAt: 0 };
    return { current: () => generation, subscribe: () => () => {} };
  }

  it(`holds at most ${MAX_SUBSCRIPTIONS}; a held URI counts once, and unsubscribing makes room`, {
    timeout: 60_000,
  }, async () => {
    const session = await connectInMemory(largeSource());
    try {
      const subscribe = (uri: string) => rawRequest(session, 'resources/subscribe', { uri });
      for (let i = 0; i < MAX_SUBSCRIPTIONS; i += 256) {
        await Promise.all(Array.from({ length: 256 }, (_, j) => subscribe(`test://doc/${i + j}`)));
      }
      const full = await expectRpcError(subscribe(`test://doc/${MAX_SUBSCRIPTIONS}`));
      expect(full.code).toBe(-32602);
      expect(full.data).toEqual({ maxSubscriptions: MAX_SUBSCRIPTIONS });
      await subscribe('test://doc/0');
      await rawRequest(session, 'resources/unsubscribe', { uri: 'test://doc/0' });
      await subscribe(`test://doc/${MAX_SUBSCRIPTIONS}`);
    } finally {
      await session.close();
    }
  });
});
