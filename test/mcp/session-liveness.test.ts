/**
 * Hosts that are really there (#11.5): an HTTP session is active while its event stream is open or it sent a
 * request recently, idle after that, and gone — closed and out of the registry — once it stayed silent with no
 * stream for the idle timeout. Real HTTP on loopback, a real SDK client; a 2 s timeout keeps it bounded.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogStore } from '../../src/fs/catalog-store.js';
import { type HttpServerHandle, serveHttp } from '../../src/mcp/serve-http.js';
import { createSessionRegistry } from '../../src/mcp/session-registry.js';
import { connectHttp, repoRoot, waitFor } from '../helpers/mcp-client.js';

const TIMEOUT_MS = 2000;
let server: HttpServerHandle;
beforeAll(async () => {
  server = await serveHttp(createCatalogStore({ root: repoRoot }), {
    port: 0,
    cacheTtlMs: 1000,
    idleTimeoutMs: TIMEOUT_MS,
  });
});
afterAll(async () => {
  await server.close();
});

/** An initialize POST and nothing else: what a CLI run that exits without DELETE leaves behind. */
function initializeAndLeave(port: number): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'ghost', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/mcp',
        headers: {
          host: `127.0.0.1:${port}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('HTTP session liveness', () => {
  it('shows a silent session as idle, then removes it within the timeout', async () => {
    const started = Date.now();
    expect(await initializeAndLeave(server.port)).toBe(200);
    const ghost = () =>
      server.sessions.list().find((s) => s.clientInfo?.name === 'ghost' || s.connectedAt >= started);
    expect(ghost()?.state).toBe('active');
    await waitFor(() => ghost()?.state === 'idle', 3 * TIMEOUT_MS, 'the silent session to show as idle');
    await waitFor(() => ghost() === undefined, 3 * TIMEOUT_MS, 'the silent session to be removed');
    expect(Date.now() - started).toBeLessThan(3 * TIMEOUT_MS);
  });

  it('keeps a host with an open event stream active however quiet it is', async () => {
    const connection = await connectHttp(server.url, 'quiet-but-there');
    try {
      const host = () => server.sessions.list().find((s) => s.clientInfo?.name === 'quiet-but-there');
      await waitFor(() => host() !== undefined, 5000, 'the host to be listed');
      await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS + 1000));
      expect(host()?.state).toBe('active');
    } finally {
      await connection.close();
    }
  });
});

describe('the registry side of liveness', () => {
  it('tells observers of state changes, and of activity at most once a second', () => {
    let now = 0;
    const registry = createSessionRegistry({ now: () => now });
    let emitted = 0;
    registry.subscribe(() => emitted++);
    const handle = registry.open({ id: 'a', transport: 'http' });
    expect(registry.list()[0]).toMatchObject({ state: 'active', lastActivityAt: 0 });
    emitted = 0;
    now = 10;
    handle.recordActivity();
    expect(emitted).toBe(0);
    expect(registry.list()[0]!.lastActivityAt).toBe(10);
    handle.setState('idle');
    handle.setState('idle');
    expect(emitted).toBe(1);
    expect(registry.list()[0]!.state).toBe('idle');
    now = 20;
    handle.recordActivity();
    expect(emitted).toBe(2);
    expect(registry.list()[0]).toMatchObject({ state: 'active', lastActivityAt: 20 });
    now = 1500;
    handle.recordActivity();
    expect(emitted).toBe(3);
  });
});

describe('HTTP session liveness on an injected clock', () => {
  it('reads activity and idleness from the clock it is given, not the wall clock', async () => {
    // A 20 s timeout the wall clock does not reach within the wait below; the injected clock jumps past it.
    let clock = 1_000_000;
    const timeoutMs = 20_000;
    const server = await serveHttp(createCatalogStore({ root: repoRoot }), {
      port: 0,
      cacheTtlMs: 1000,
      idleTimeoutMs: timeoutMs,
      now: () => clock,
    });
    try {
      expect(await initializeAndLeave(server.port)).toBe(200);
      // The only session of this server (its clientInfo arrives with `notifications/initialized`, never sent).
      const ghost = () => server.sessions.list()[0];
      await waitFor(() => ghost() !== undefined, 5000, 'the session to be listed');
      expect(ghost()?.connectedAt).toBe(1_000_000);
      expect(ghost()?.state).toBe('active');
      clock += 2 * timeoutMs;
      // The reaper runs every 2.5 s for this timeout: its next tick, well before 20 s of wall clock.
      await waitFor(() => ghost() === undefined, 10_000, 'the session to be removed by the injected clock');
    } finally {
      await server.close();
    }
  }, 20_000);
});
