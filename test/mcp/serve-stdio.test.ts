/**
 * The stdio wire in-process (`serveStdio` over a pair of streams, raw JSON-RPC lines): what companion adds
 * around the SDK's stdio entry — the nesting bound, the registry of a 2026-07-28 host and its listen streams,
 * answering every request already sent when stdin closes — and what the 2026-07-28 era removed.
 */
import { appendFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogStore, createCatalogStore } from '../../src/fs/catalog-store.js';
import { MAX_JSON_DEPTH } from '../../src/mcp/limits.js';
import { serveStdio } from '../../src/mcp/serve-stdio.js';
import { createSessionRegistry, type SessionRegistryController } from '../../src/mcp/session-registry.js';
import { waitFor } from '../helpers/mcp-client.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';

type Message = {
  id?: string | number;
  method?: string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  params?: Record<string, unknown>;
};

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw-modern', version: '3.1' },
};
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw-legacy', version: '1' },
  },
};

/** `{"a":{"a":…1…}}` nested `depth` levels, built as text (JSON.stringify itself would overflow the stack). */
const nested = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

interface Pipe {
  readonly messages: Message[];
  /** Writes one line: a message, or raw text. */
  send(message: object | string): void;
  /** The response to request `id`. */
  answer(id: string | number): Promise<Message>;
  /** Closes stdin; resolves when `serveStdio` returned. */
  end(): Promise<void>;
}

function openPipe(store: CatalogStore, sessions: SessionRegistryController): Pipe {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const messages: Message[] = [];
  let buffer = '';
  stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let at = buffer.indexOf('\n'); at !== -1; at = buffer.indexOf('\n')) {
      messages.push(JSON.parse(buffer.slice(0, at)) as Message);
      buffer = buffer.slice(at + 1);
    }
  });
  const done = serveStdio(store, { stdin, stdout, sessions, cacheTtlMs: 0 });
  const find = (id: string | number) =>
    messages.find((message) => message.id === id && message.method === undefined);
  return {
    messages,
    send(message) {
      stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
    },
    async answer(id) {
      await waitFor(() => find(id) !== undefined, 5000, `the answer to ${id}`);
      return find(id)!;
    },
    async end() {
      stdin.end();
      await done;
    },
  };
}

let project: TempProject;
let store: CatalogStore;

beforeAll(() => {
  project = copyFixture('', { bundled: true, prefix: 'companion-mcp-stdio-wire-' });
  store = createCatalogStore({ root: project.root });
});

afterAll(() => {
  project?.cleanup();
});

describe('serveStdio: the wire companion keeps', () => {
  it.each(['legacy', 'modern'] as const)(
    'answers a %s request nested deeper than the bound with -32600, and keeps serving',
    async (era) => {
      const pipe = openPipe(store, createSessionRegistry());
      const meta = era === 'modern' ? `"_meta":${JSON.stringify(MODERN_META)},` : '';
      if (era === 'legacy') {
        pipe.send(INITIALIZE);
        await pipe.answer(0);
        pipe.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      }
      // The message is level 1 and its params level 2, so a uri nested `depth` levels makes `depth + 2`.
      for (const [id, depth] of [
        [1, 5_000],
        [2, 200_000],
        [3, MAX_JSON_DEPTH - 1],
        [4, MAX_JSON_DEPTH - 2],
      ] as const) {
        pipe.send(
          `{"jsonrpc":"2.0","id":${id},"method":"resources/read","params":{${meta}"uri":${nested(depth)}}}`,
        );
      }
      // A notification that deep gets no answer (notifications never do), and breaks nothing.
      pipe.send(`{"jsonrpc":"2.0","method":"notifications/progress","params":${nested(10_000)}}`);
      for (const id of [1, 2, 3]) {
        const { error } = await pipe.answer(id);
        expect(error?.code, String(id)).toBe(-32600);
        expect(error?.data).toEqual({ maxDepth: MAX_JSON_DEPTH });
      }
      // At the bound the request is read, and refused for what it is: a uri that is not a string.
      expect((await pipe.answer(4)).error?.code).toBe(-32602);
      const params =
        era === 'modern' ? { _meta: MODERN_META, uri: 'companion://guides' } : { uri: 'companion://guides' };
      pipe.send({ jsonrpc: '2.0', id: 5, method: 'resources/read', params });
      expect((await pipe.answer(5)).result?.contents).toHaveLength(1);
      await pipe.end();
    },
  );

  it('registers a 2026-07-28 host with its era and client, and each listen stream until it is cancelled', async () => {
    const sessions = createSessionRegistry();
    const pipe = openPipe(store, sessions);
    const served = 'companion://guides/any/hosts/codex';
    pipe.send({
      jsonrpc: '2.0',
      id: 'listen-1',
      method: 'subscriptions/listen',
      params: {
        _meta: MODERN_META,
        notifications: {
          resourcesListChanged: true,
          resourceSubscriptions: [served, 'companion://guides/nope'],
        },
      },
    });
    await waitFor(
      () => pipe.messages.some((message) => message.method === 'notifications/subscriptions/acknowledged'),
      5000,
      'the acknowledgement',
    );
    const ack = pipe.messages.find(
      (message) => message.method === 'notifications/subscriptions/acknowledged',
    )!;
    expect(ack.params?.notifications).toEqual({
      resourcesListChanged: true,
      resourceSubscriptions: [served],
    });
    const [session] = sessions.list();
    expect(session).toMatchObject({
      transport: 'stdio',
      era: 'modern',
      protocolVersion: '2026-07-28',
      clientInfo: { name: 'raw-modern', version: '3.1' },
      listen: [
        {
          id: 'listen-1',
          openedAt: expect.any(Number),
          filters: { resourcesListChanged: true, resourceSubscriptions: [served] },
        },
      ],
    });

    // A save: the stream hears it, stamped with its subscription id, and the registry records it.
    appendFileSync(project.path('knowledge/documents/any/hosts/codex.md'), '\nHeard on stdio.\n');
    const change = store.applyChanges(['knowledge/documents/any/hosts/codex.md']);
    expect(change?.updatedUris).toContain(served);
    await waitFor(
      () => pipe.messages.some((message) => message.method === 'notifications/resources/updated'),
      5000,
      'the update',
    );
    const updated = pipe.messages.find((message) => message.method === 'notifications/resources/updated')!;
    expect(updated.params).toMatchObject({
      uri: served,
      _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' },
    });
    expect(
      pipe.messages.filter((message) => message.method === 'notifications/resources/list_changed'),
    ).toHaveLength(1);
    expect(sessions.list()[0]!.lastNotification).toMatchObject({
      method: 'notifications/resources/updated',
      uri: served,
    });

    pipe.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'listen-1' } });
    await waitFor(() => sessions.list()[0]?.listen?.length === 0, 5000, 'the stream to leave the registry');
    await pipe.end();
    expect(sessions.list()).toEqual([]);
  });

  it('has none of what 2026-07-28 removed: ping, resources/subscribe, logging/setLevel answer -32601', async () => {
    const pipe = openPipe(store, createSessionRegistry());
    const removed = ['ping', 'resources/subscribe', 'resources/unsubscribe', 'logging/setLevel'];
    removed.forEach((method, id) => {
      pipe.send({
        jsonrpc: '2.0',
        id,
        method,
        params: { _meta: MODERN_META, uri: 'companion://guides', level: 'info' },
      });
    });
    for (const [id, method] of removed.entries())
      expect((await pipe.answer(id)).error?.code, method).toBe(-32601);
    await pipe.end();
  });

  it('answers every request already sent when the host closes stdin', async () => {
    const pipe = openPipe(store, createSessionRegistry());
    pipe.send(INITIALIZE);
    pipe.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    for (let id = 1; id <= 20; id++) {
      pipe.send({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'document_lookup', arguments: { query: `host ${id}` } },
      });
    }
    await pipe.end();
    const answered = pipe.messages
      .filter((message) => message.method === undefined)
      .map((message) => message.id);
    expect(answered.sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 21 }, (_, id) => id));
  });
});
