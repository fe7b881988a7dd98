/**
 * Faults on the HTTP side, in both protocol eras: clients that disconnect mid-request (a body cut off, a socket
 * closed while a request, an event stream or a listen stream is open), 200 hosts opened and closed (no growth in
 * sessions, store subscribers, listeners or memory), and SIGTERM to the real CLI under load (exit 0 within a
 * bound).
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogSource } from '../../src/core/types.js';
import { type CatalogStore, createCatalogStore } from '../../src/fs/catalog-store.js';
import type { HttpServerHandle } from '../../src/mcp/serve-http.js';
import {
  binPath,
  connectHttp,
  type McpConnection,
  rawRequest,
  startHttp,
  waitFor,
} from '../helpers/mcp-client.js';
import { spawnCli } from '../helpers/run-cli.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';

let project: TempProject;
let store: CatalogStore;
let subscribers = 0;
let server: HttpServerHandle;
const logged: string[] = [];

/** The store, counting live subscriptions: each session subscribes once and must unsubscribe when it ends. */
function countingSource(inner: CatalogStore): CatalogSource {
  return {
    current: () => inner.current(),
    subscribe(listener) {
      subscribers++;
      const unsubscribe = inner.subscribe(listener);
      let done = false;
      return () => {
        if (!done) subscribers--;
        done = true;
        unsubscribe();
      };
    },
  };
}

beforeAll(async () => {
  project = copyFixture('', { bundled: true, prefix: 'companion-hardening-http-' });
  store = createCatalogStore({ root: project.root });
  server = await startHttp(countingSource(store), { log: (line) => logged.push(line) });
});

afterAll(async () => {
  await server?.close();
  project?.cleanup();
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** Opens a raw socket, sends headers promising `declared` bytes, sends `body`, then destroys the socket. */
async function cutOff(headers: Record<string, string>, body: string, declared: number): Promise<void> {
  const socket = connect(server.port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const lines = [
    'POST /mcp HTTP/1.1',
    `Host: 127.0.0.1:${server.port}`,
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    `Content-Length: ${declared}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    '',
    '',
  ];
  socket.write(lines.join('\r\n'));
  socket.write(body);
  await new Promise((resolve) => setTimeout(resolve, 20));
  socket.destroy();
}

function forceGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

async function heapAfterGc(gc: () => void): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

describe('HTTP faults', () => {
  it('clients disconnecting mid-request leave no session behind and the server keeps serving', async () => {
    // A body cut off before it is complete: an initialize, and a request in an existing session.
    await cutOff({}, INITIALIZE.slice(0, 40), INITIALIZE.length);
    const session = await connectHttp(server.url, 'survivor');
    const sessionId = (session.client.transport as { sessionId?: string } | undefined)?.sessionId;
    expect(sessionId).toBeDefined();
    const read = JSON.stringify({
      jsonrpc: '2.0',
      id: 9,
      method: 'resources/read',
      params: { uri: 'companion://guides' },
    });
    await cutOff(
      { 'Mcp-Session-Id': sessionId!, 'Mcp-Protocol-Version': '2025-06-18' },
      read.slice(0, 10),
      read.length,
    );
    // A complete request whose client goes away before the answer: an aborted fetch.
    const controller = new AbortController();
    const aborted = fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId!,
        'mcp-protocol-version': '2025-06-18',
      },
      body: read,
      signal: controller.signal,
    });
    controller.abort();
    await aborted.catch(() => {});
    // An event stream (GET) opened and dropped.
    await new Promise<void>((resolve) => {
      const get = request(
        server.url,
        {
          method: 'GET',
          headers: {
            accept: 'text/event-stream',
            'mcp-session-id': sessionId!,
            'mcp-protocol-version': '2025-06-18',
          },
        },
        (res) => {
          res.destroy();
          resolve();
        },
      );
      get.on('error', () => resolve());
      get.end();
    });
    // The session still answers, and an initialize cut off mid-body made no session.
    const index = await session.client.readResource({ uri: 'companion://guides' });
    expect(index.contents).toHaveLength(1);
    expect(server.sessions.list()).toHaveLength(1);
    await session.close();
    await waitFor(() => server.sessions.list().length === 0, 5000, 'no session left');
    expect(subscribers).toBe(0);
    // A client that went away is not a server failure: nothing logged as one.
    expect(logged.filter((line) => line.includes('failed'))).toEqual([]);
  });

  it('a 2026-07-28 host that drops its listen streams leaves no entry and no subscriber behind', async () => {
    const hosts = await Promise.all(
      Array.from({ length: 3 }, (_, i) => connectHttp(server.url, `listener-${i}`, 'modern')),
    );
    for (const host of hosts) await host.watch({ uris: ['companion://guides'] });
    await waitFor(() => server.sessions.list().length === 3, 5000, 'three listen streams');
    expect(subscribers).toBe(1);
    // Gone without cancelling: the client's transport closes under the open stream.
    await Promise.all(hosts.map((host) => host.client.close()));
    await waitFor(() => server.sessions.list().length === 0, 5000, 'no listen stream left');
    expect(subscribers).toBe(0);
    expect(logged.filter((line) => line.includes('failed'))).toEqual([]);
  });

  it('200 hosts opened and closed: no growth in sessions, subscribers, listeners or memory', {
    timeout: 60_000,
  }, async () => {
    const gc = forceGc();
    const listeners = () =>
      ['SIGTERM', 'SIGINT', 'exit', 'uncaughtException', 'unhandledRejection'].map((event) =>
        process.listenerCount(event),
      );
    const cycle = async (count: number) => {
      for (let i = 0; i < count; i += 10) {
        // Half 2025-era sessions (subscribe), half 2026-07-28 hosts (a listen stream).
        const batch: McpConnection[] = await Promise.all(
          Array.from({ length: 10 }, (_, j) =>
            connectHttp(server.url, `session-${i + j}`, j % 2 === 0 ? 'legacy' : 'modern'),
          ),
        );
        await Promise.all(
          batch.map(async (connection) => {
            await connection.watch({ uris: ['companion://guides'] });
            await connection.client.readResource({ uri: 'companion://guides' });
          }),
        );
        await Promise.all(batch.map((connection) => connection.close()));
      }
    };
    await cycle(20); // warm-up: JIT, SDK caches
    await waitFor(() => server.sessions.list().length === 0, 5000, 'warm-up sessions closed');
    const listenersBefore = listeners();
    const heapBefore = await heapAfterGc(gc);

    await cycle(200);

    await waitFor(() => server.sessions.list().length === 0, 10_000, 'every session closed');
    expect(subscribers).toBe(0);
    expect(listeners()).toEqual(listenersBefore);
    const heapAfter = await heapAfterGc(gc);
    const growthMb = (heapAfter - heapBefore) / 1024 / 1024;
    console.info(
      `200 hosts: heap ${growthMb.toFixed(2)} MB growth, ${server.sessions.list().length} sessions held`,
    );
    // A leaked session holds a Server, a transport and its catalog references: 200 of them are far above this.
    expect(growthMb).toBeLessThan(8);
    expect(logged.filter((line) => line.includes('failed'))).toEqual([]);
  });

  it.each([
    { name: 'serve --http', command: ['serve', '--http'] },
    { name: 'dev', command: ['dev'] },
  ])(
    'SIGTERM under load: `companion $name` exits 0 within a bound',
    { timeout: 60_000 },
    async ({ command }) => {
      const listening = /listening (?:at|on) (http:\S+)/;
      const cli = spawnCli([...command, '--port', '0', '--root', project.root], {});
      try {
        await waitFor(
          () => listening.test(cli.output.stderr + cli.output.stdout),
          20_000,
          `the URL (${binPath})`,
        );
        const url = (cli.output.stderr + cli.output.stdout).match(listening)![1]!;
        const clients = await Promise.all(
          Array.from({ length: 4 }, (_, i) =>
            connectHttp(url, `load-${i}`, i % 2 === 0 ? 'legacy' : 'modern'),
          ),
        );
        // Open streams at shutdown: each host's GET stream or listen stream.
        for (const connection of clients) await connection.watch({ uris: ['companion://guides'] });
        let stop = false;
        let answered = 0;
        const load = clients.map(async (connection) => {
          while (!stop) {
            try {
              // Not client.readResource: a 2026-07-28 client may answer that from its cache (ttlMs), never
              // reaching the server, and a loop of cache hits never yields to the event loop.
              await rawRequest(connection, 'resources/read', { uri: 'companion://guides' });
              answered++;
            } catch {
              return; // the server went away: expected once SIGTERM lands
            }
          }
        });
        await waitFor(() => answered > 20, 15_000, 'load');
        const sent = Date.now();
        cli.child.kill('SIGTERM');
        const exit = await cli.exit;
        const tookMs = Date.now() - sent;
        stop = true;
        await Promise.all(load);
        await Promise.all(clients.map((connection) => connection.client.close().catch(() => {})));
        expect(exit).toEqual({ code: 0, signal: null });
        expect(tookMs).toBeLessThan(10_000);
        // Requests cut off by the shutdown are not failures of the server.
        expect(cli.output.stderr + cli.output.stdout).not.toMatch(/failed|Error/);
      } finally {
        cli.child.kill('SIGKILL');
      }
    },
  );
});
