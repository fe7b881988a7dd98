/**
 * The MCP surface over Streamable HTTP: `serveHttp` in-process on an ephemeral port, the same suite as stdio
 * run on four hosts at once — two concurrent 2025-11-25 sessions, a host pinned to 2026-07-28 and one that
 * negotiates (`auto`) — all on one endpoint.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { createCatalogStore } from '../../src/fs/catalog-store.js';
import type { HttpServerHandle } from '../../src/mcp/serve-http.js';
import { connectHttp, type McpConnection, startHttp } from '../helpers/mcp-client.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';
import { describeSurface } from './surface-suite.js';

const PAGE_SIZE = 4;
const CACHE_TTL_MS = 1234;
let project: TempProject;
let server: HttpServerHandle;
let connections: McpConnection[] = [];

beforeAll(async () => {
  project = copyFixture('mcp-extra', { bundled: true, prefix: 'companion-mcp-http-' });
  server = await startHttp(createCatalogStore({ root: project.root }), {
    pageSize: PAGE_SIZE,
    cacheTtlMs: CACHE_TTL_MS,
  });
  connections = await Promise.all([
    connectHttp(server.url, 'host-a'),
    connectHttp(server.url, 'host-b'),
    connectHttp(server.url, 'host-modern', 'modern'),
    connectHttp(server.url, 'host-auto', 'auto'),
  ]);
});

afterAll(async () => {
  await Promise.all(connections.map((connection) => connection.close()));
  await server?.close();
  project?.cleanup();
});

describe('companion serve --http, both eras on one endpoint', () => {
  describeSurface(() => ({ root: project.root, pageSize: PAGE_SIZE, cacheTtlMs: CACHE_TTL_MS, connections }));
});
