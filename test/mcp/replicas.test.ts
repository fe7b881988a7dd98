/**
 * Stateless where the revision allows: two `companion serve --http --watch` processes (the real CLI) over one
 * checkout, behind a round-robin proxy on loopback that sends each request to the next replica. A 2026-07-28
 * host sees one server: every page of every list may come from either replica and the cursors carry over, the
 * digests SkillsClient verifies hold whichever replica reads, and a save reaches its listen stream. A 2025-11-25
 * host cannot work that way — its session lives in one process — which is why the README asks for sticky
 * sessions for that era.
 */
import { appendFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/core/catalog.js';
import { readSnapshot } from '../../src/fs/read-snapshot.js';
import {
  connectHttp,
  expectRpcError,
  listAllResources,
  type McpConnection,
  rawRequest,
  waitFor,
} from '../helpers/mcp-client.js';
import { type CliProcess, spawnCli } from '../helpers/run-cli.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';

const PAGE_SIZE = 3;
const DOCUMENT = 'knowledge/documents/any/hosts/codex.md';
const DOCUMENT_URI = 'companion://guides/any/hosts/codex';

interface Replica {
  readonly cli: CliProcess;
  readonly url: string;
  readonly port: number;
}

let project: TempProject;
let replicas: Replica[] = [];
let proxy: Server;
let proxyUrl: string;
/** Requests the proxy sent to each replica. */
const forwarded = [0, 0];
const open: McpConnection[] = [];

async function startReplica(): Promise<Replica> {
  const cli = spawnCli(
    ['serve', '--http', '--watch', '--port', '0', '--page-size', String(PAGE_SIZE), '--root', project.root],
    { timeoutMs: 60_000 },
  );
  const listening = /listening at (http:\/\/127\.0\.0\.1:(\d+)\/mcp)/;
  await waitFor(() => listening.test(cli.output.stderr), 15_000, 'a replica to listen');
  const [, url, port] = cli.output.stderr.match(listening)!;
  return { cli, url: url!, port: Number(port) };
}

/** Round robin, one request at a time, each to the next replica; the Host header names the replica. */
function startProxy(): Promise<Server> {
  let next = 0;
  const server = createServer((req, res) => {
    const target = next;
    next = (next + 1) % replicas.length;
    forwarded[target]!++;
    const replica = replicas[target]!;
    const upstream = request(
      {
        host: '127.0.0.1',
        port: replica.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: `127.0.0.1:${replica.port}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  project = copyFixture('mcp-extra', { bundled: true, prefix: 'companion-mcp-replicas-' });
  replicas = await Promise.all([startReplica(), startReplica()]);
  proxy = await startProxy();
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
}, 60_000);

afterAll(async () => {
  await Promise.all(open.map((connection) => connection.close().catch(() => {})));
  await new Promise<void>((resolve) => {
    proxy?.close(() => resolve());
    proxy?.closeAllConnections();
  });
  for (const replica of replicas) {
    replica.cli.child.kill('SIGTERM');
    await replica.cli.exit;
  }
  project?.cleanup();
});

async function connect(url: string, name: string): Promise<McpConnection> {
  const connection = await connectHttp(url, name, 'modern');
  open.push(connection);
  return connection;
}

/** A whole answer without `_meta` (it names the replica's server only by name, which is the same anyway). */
const content = ({ _meta, ...rest }: Record<string, unknown>) => rest;

describe('two replicas behind a round-robin proxy (2026-07-28)', () => {
  it('answer identically: the same pages, cursors, sizes, digests and manifests', async () => {
    const direct = await Promise.all(replicas.map((replica, i) => connect(replica.url, `direct-${i}`)));
    const answers = await Promise.all(
      direct.map(async (connection) => ({
        resources: (await listAllResources(connection)).pages.map(content),
        skills: content(await rawRequest(connection, 'skills/list', {})),
        templates: content(await rawRequest(connection, 'resources/templates/list', {})),
        directory: content(
          await rawRequest(connection, 'resources/directory/read', {
            uri: 'companion://skill/write-a-skill',
          }),
        ),
      })),
    );
    expect(answers[0]!.resources.length).toBeGreaterThan(3);
    expect(answers[1]).toEqual(answers[0]);
  });

  it('serve one host across both: a list walked page by page from alternating replicas ends where it should', async () => {
    const catalog = buildCatalog(readSnapshot(project.root)).catalog;
    const host = await connect(proxyUrl, 'behind-the-proxy');
    const before = [...forwarded];
    const { pages, resources } = await listAllResources(host);
    expect(pages).toHaveLength(Math.ceil(catalog.resources.length / PAGE_SIZE));
    expect(resources.map((resource) => resource.uri)).toEqual(
      catalog.resources.map((resource) => resource.uri),
    );
    // Every page came through the proxy, and both replicas answered some: the cursors crossed processes.
    expect(forwarded[0]! - before[0]!).toBeGreaterThanOrEqual(Math.floor(pages.length / 2));
    expect(forwarded[1]! - before[1]!).toBeGreaterThanOrEqual(Math.floor(pages.length / 2));

    const skills = new SkillsClient(host.client);
    const listing = await skills.list();
    expect(listing.invalid).toEqual([]);
    expect(listing.skills.map((skill) => skill.uri)).toEqual(catalog.skills.map((skill) => skill.uri));
    for (const entry of listing.skills) {
      expect((await skills.get(entry.uri)).skill).toEqual(entry);
      if (entry.resources === 'dynamic') throw new Error('no manifest');
      for (const file of entry.resources) expect((await skills.read(entry, file.uri)).verified).toBe(true);
    }
  });

  it('deliver a save to a listen stream held by either replica, and then serve the new bytes from both', async () => {
    const host = await connect(proxyUrl, 'listening-behind-the-proxy');
    await host.watch({ uris: [DOCUMENT_URI] });
    appendFileSync(project.path(DOCUMENT), '\nSaved behind a load balancer.\n');
    await waitFor(
      () =>
        host.notifications.some(
          (n) => n.method === 'notifications/resources/updated' && n.uri === DOCUMENT_URI,
        ),
      15_000,
      'the update on the listen stream',
    );
    const direct = await Promise.all(replicas.map((replica, i) => connect(replica.url, `after-save-${i}`)));
    // Each replica's own watcher rebuilt: both serve the saved bytes (polled, bounded).
    for (const connection of direct) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const read = await rawRequest(connection, 'resources/read', { uri: DOCUMENT_URI });
        const text = String((read.contents as { text: string }[])[0]!.text);
        if (text.includes('Saved behind a load balancer.')) break;
        if (Date.now() > deadline)
          throw new Error(`a replica still serves the old bytes:\n${text.slice(-200)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  });

  it('cannot serve a 2025-11-25 session, which lives in one replica: that era needs sticky sessions', async () => {
    // initialize reaches one replica, which opens the session; the next message reaches the other, which has
    // never heard of it.
    const error = await expectRpcError(connectHttp(proxyUrl, 'legacy-behind-the-proxy'));
    expect({ code: error.code, message: error.message, httpStatus: error.httpStatus }).toEqual({
      code: -32001,
      message: 'Session not found',
      httpStatus: 404,
    });
  });
});
