/**
 * The MCP surface over Streamable HTTP: `serveHttp` in-process on an ephemeral port, the same suite as stdio
 * run on two concurrent sessions at once.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { createCatalogStore } from '../../src/fs/catalog-store.js';
import type { HttpServerHandle } from '../../src/mcp/serve-http.js';
import { connectHttp, type McpConnection, startHttp } from '../helpers/mcp-client.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';
import { describeSurface } from './surface-suite.js';

const PAGE_SIZE = 4;
let project: TempProject;
let server: HttpServerHandle;
let connections: McpConnection[] = [];

beforeAll(async () => {
  project = copyFixture('mcp-extra', { bundled: true, prefix: 'companion-mcp-http-' });
  server = await startHttp(createCatalogStore({ root: project.root }), { pageSize: PAGE_SIZE });
  connections = await Promise.all([connectHttp(server.url, 'host-a'), connectHttp(server.url, 'host-b')]);
});

afterAll(async () => {
  await Promise.all(connections.map((connection) => connection.close()));
  await server?.close();
  project?.cleanup();
});

describe('companion serve --http, two concurrent sessions', () => {
  describeSurface(() => ({ root: project.root, pageSize: PAGE_SIZE, connections }));
});
