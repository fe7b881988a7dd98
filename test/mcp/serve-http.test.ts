/**
 * The HTTP transport's own rules, with raw `node:http` requests (fetch may not set Host): one path, Host and
 * Origin validation, the body cap, session lifecycle, a taken port, and the warning beyond loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogSource } from '../../src/core/types.js';
import { createCatalogStore } from '../../src/fs/catalog-store.js';
import { type HttpServerHandle, PortInUseError, serveHttp } from '../../src/mcp/serve-http.js';
import { connectHttp, repoRoot, startHttp, waitFor } from '../helpers/mcp-client.js';
import { mcpHeaders, sendRaw as send } from '../helpers/raw-http.js';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

let source: CatalogSource;
let server: HttpServerHandle;
const logs: string[] = [];

beforeAll(async () => {
  source = createCatalogStore({ root: repoRoot });
  server = await startHttp(source, {
    allowedHosts: ['proxy.example'],
    allowedOrigins: ['https://tool.example'],
    maxBodyBytes: 1024,
    log: (line) => logs.push(line),
  });
});

afterAll(async () => {
  await server?.close();
});

describe('serveHttp', () => {
  it('listens on loopback at /mcp and says where', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/mcp`);
    expect(server.listening).toBe(server.url);
    expect(server.host).toBe('127.0.0.1');
    expect(logs.filter((line) => line.includes('warning'))).toEqual([]);
  });

  it('answers 404 on every other path', async () => {
    for (const path of ['/', '/mcp/', '/mcp/x', '/.well-known/oauth-authorization-server', '/sse']) {
      const response = await send(server.port, { path, headers: mcpHeaders(server.port), body: INITIALIZE });
      expect(response.status, path).toBe(404);
    }
  });

  it('rejects a Host that is not loopback or allowed with 403, before anything else', async () => {
    for (const host of [
      'evil.example.com',
      `evil.example.com:${server.port}`,
      `127.0.0.1:${server.port + 1}`,
      'localhost',
    ]) {
      const response = await send(server.port, {
        headers: mcpHeaders(server.port, { host }),
        body: INITIALIZE,
      });
      expect(response.status, host).toBe(403);
      expect(response.headers['mcp-session-id']).toBeUndefined();
    }
    for (const host of [
      `localhost:${server.port}`,
      `[::1]:${server.port}`,
      `LOCALHOST:${server.port}`,
      'proxy.example',
      'proxy.example:8443',
    ]) {
      const response = await send(server.port, {
        headers: mcpHeaders(server.port, { host }),
        body: INITIALIZE,
      });
      expect(response.status, host).toBe(200);
      expect(response.headers['mcp-session-id']).toBeDefined();
    }
  });

  it('rejects an Origin that is not the loopback origin or allowed with 403', async () => {
    for (const origin of [
      'http://evil.example.com',
      `http://evil.example.com:${server.port}`,
      'null',
      `https://localhost:${server.port}`,
    ]) {
      const response = await send(server.port, {
        headers: mcpHeaders(server.port, { origin }),
        body: INITIALIZE,
      });
      expect(response.status, origin).toBe(403);
    }
    for (const origin of [
      `http://localhost:${server.port}`,
      `http://127.0.0.1:${server.port}`,
      'https://tool.example',
    ]) {
      const response = await send(server.port, {
        headers: mcpHeaders(server.port, { origin }),
        body: INITIALIZE,
      });
      expect(response.status, origin).toBe(200);
    }
  });

  it('caps the request body (413), and answers bad JSON, a missing session and bad methods', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2000) } });
    expect((await send(server.port, { headers: mcpHeaders(server.port), body: big })).status).toBe(413);
    const chunked = await send(server.port, {
      headers: mcpHeaders(server.port, { 'transfer-encoding': 'chunked' }),
      body: big,
    });
    expect(chunked.status).toBe(413);
    const broken = await send(server.port, { headers: mcpHeaders(server.port), body: '{"jsonrpc":' });
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.body).error.code).toBe(-32700);
    const noSession = await send(server.port, {
      headers: mcpHeaders(server.port),
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'resources/list' }),
    });
    expect(noSession.status).toBe(400);
    const unknown = { 'mcp-session-id': 'no-such-session' };
    for (const method of ['POST', 'GET', 'DELETE']) {
      const response = await send(server.port, {
        method,
        headers: mcpHeaders(server.port, unknown),
        ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }) } : {}),
      });
      expect(response.status, method).toBe(404);
    }
    expect((await send(server.port, { method: 'GET', headers: mcpHeaders(server.port) })).status).toBe(400);
    const put = await send(server.port, { method: 'PUT', headers: mcpHeaders(server.port), body: '{}' });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, POST, DELETE');
  });

  it('removes a session on DELETE; its id is then unknown', async () => {
    const connection = await connectHttp(server.url, 'leaving-host');
    const before = server.sessions.list().find((session) => session.clientInfo?.name === 'leaving-host');
    expect(before?.transport).toBe('http');
    await connection.close();
    await waitFor(
      () => !server.sessions.list().some((session) => session.clientInfo?.name === 'leaving-host'),
      2000,
      'the session to be removed',
    );
    const response = await send(server.port, {
      headers: mcpHeaders(server.port, { 'mcp-session-id': before!.id }),
      body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' }),
    });
    expect(response.status).toBe(404);
  });

  it('holds every request until `until` resolves, reading nothing of the source before', async () => {
    let built = false;
    let reads = 0;
    // What dev hands the door before its first build: reading it sooner would be a bug.
    const pending: CatalogSource = {
      current: () => {
        reads++;
        if (!built) throw new Error('read before the build');
        return source.current();
      },
      subscribe: (listener) => source.subscribe(listener),
    };
    let resolveBuilt!: () => void;
    const until = new Promise<void>((resolve) => {
      resolveBuilt = resolve;
    });
    const early = await startHttp(pending, { until });
    try {
      let answered = false;
      const response = send(early.port, { headers: mcpHeaders(early.port), body: INITIALIZE }).then((r) => {
        answered = true;
        return r;
      });
      // Well past the request's arrival (each a turn of the event loop): still held, nothing read.
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(answered).toBe(false);
      expect(reads).toBe(0);
      built = true;
      resolveBuilt();
      const answer = await response;
      expect(answer.status).toBe(200);
      expect(answer.body).toContain('"serverInfo"');
      expect(reads).toBeGreaterThan(0);
    } finally {
      await early.close();
    }
  });

  it('rejects a port in use with a clear error', async () => {
    const attempt = serveHttp(source, { port: server.port, cacheTtlMs: 0 });
    await expect(attempt).rejects.toBeInstanceOf(PortInUseError);
    await expect(attempt).rejects.toThrow(`port ${server.port} is already in use on 127.0.0.1; pass --port`);
  });

  it('warns when bound beyond loopback, and accepts that address as Host', async () => {
    const lines: string[] = [];
    const wide = await serveHttp(source, {
      host: '0.0.0.0',
      port: 0,
      cacheTtlMs: 0,
      log: (line) => lines.push(line),
    });
    try {
      expect(lines.join('\n')).toMatch(
        /warning: listening on 0\.0\.0\.0, beyond loopback\. There is no authentication/,
      );
      // It says what is true: bound to every interface, reachable here on loopback.
      expect(wide.url).toBe(`http://127.0.0.1:${wide.port}/mcp`);
      expect(wide.listening).toBe(
        `0.0.0.0:${wide.port} (every interface; from this machine: http://127.0.0.1:${wide.port}/mcp)`,
      );
      const response = await send(wide.port, { headers: mcpHeaders(wide.port), body: INITIALIZE });
      expect(response.status).toBe(200);
    } finally {
      await wide.close();
    }
  });

  it('closes idle sessions that left without DELETE, and every session on close', async () => {
    const reaped = await serveHttp(source, { port: 0, cacheTtlMs: 0, idleTimeoutMs: 100 });
    try {
      const response = await send(reaped.port, { headers: mcpHeaders(reaped.port), body: INITIALIZE });
      expect(response.status).toBe(200);
      expect(reaped.sessions.list()).toHaveLength(1);
      await waitFor(() => reaped.sessions.list().length === 0, 4000, 'the idle session to be closed');
    } finally {
      await reaped.close();
    }
    const closing = await serveHttp(source, { port: 0, cacheTtlMs: 0 });
    const connection = await connectHttp(closing.url, 'open-at-close');
    expect(closing.sessions.list()).toHaveLength(1);
    await closing.close();
    expect(closing.sessions.list()).toEqual([]);
    await connection.client.close();
  });
});
