/**
 * Bad content against a running daemon: fast-check writes random front matter, scope JSON and bytes into a live
 * content root, the store re-reads the file (`applyChanges`), and one long-lived protocol session (the real
 * server over the SDK's in-memory transport) must still answer coherently — every listed size is the length of
 * the bytes a read returns, every manifest digest is the sha256 of those bytes — with well-formed diagnostics,
 * and no request ever fails as an internal error. `test/core/catalog.property.test.ts` checks the pure build;
 * this checks the store and the protocol surface on top of it.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogStore, createCatalogStore } from '../../src/fs/catalog-store.js';
import { expectRpcError, listAllResources, type McpConnection, rawRequest } from '../helpers/mcp-client.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';
import { bytesOf, connectInMemory, sha256, skillDigests } from './served.js';

const DOCUMENT = 'knowledge/documents/any/hosts/codex.md';
const SKILL = 'skills/write-a-skill/SKILL.md';
const REFERENCE = 'skills/write-a-skill/references/checklist.md';
const SCOPE = 'knowledge/server-scope.json';
const BASE = 'skills/base.md';
const TARGETS = [DOCUMENT, SKILL, REFERENCE, SCOPE, BASE];

let project: TempProject;
let store: CatalogStore;
let connection: McpConnection;
const originals = new Map<string, Buffer>();
let internalErrors = 0;

beforeAll(async () => {
  project = copyFixture('mcp-extra', { bundled: true, prefix: 'companion-hardening-content-' });
  for (const path of TARGETS) originals.set(path, readFileSync(project.path(path)));
  store = createCatalogStore({ root: project.root });
  connection = await connectInMemory(store);
});

afterAll(async () => {
  await connection?.close();
  project?.cleanup();
});

/** A request that must answer (anything) but never with an internal error. */
async function answers(promise: Promise<unknown>): Promise<void> {
  try {
    await promise;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === -32603 || typeof code !== 'number') internalErrors++;
    expect(code, String(error)).toBe(-32602);
  }
}

/** Writes `content` to `path`, re-reads it, checks the whole surface, then puts the original back. */
async function survive(path: string, content: string | Uint8Array): Promise<void> {
  project.write(path, content);
  store.applyChanges([path]);
  try {
    await expectCoherent();
    const generation = store.current();
    for (const diagnostic of generation.diagnostics) {
      expect(diagnostic.code).toMatch(/^CMP\d{3}$/);
      expect(diagnostic.message.length).toBeGreaterThan(0);
    }
    const bytes = typeof content === 'string' ? Buffer.from(content) : Buffer.from(content);
    // Content that is not UTF-8 or has no front matter where front matter is required is always diagnosed.
    const required = path === SKILL || path === DOCUMENT;
    const diagnosed = () => generation.diagnostics.some((diagnostic) => diagnostic.file === path);
    if (required && !bytes.toString('utf8').startsWith('---')) expect(diagnosed()).toBe(true);
    // A scope file that is not a JSON object at all is always diagnosed, at the scope file.
    if (path === SCOPE && !isJsonObject(bytes)) expect(diagnosed()).toBe(true);
  } finally {
    project.write(path, originals.get(path)!);
    store.applyChanges([path]);
  }
}

function isJsonObject(bytes: Buffer): boolean {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Sizes equal read lengths, digests match the bytes, for everything listed and every skill file. */
async function expectCoherent(): Promise<void> {
  const { resources } = await listAllResources(connection);
  for (const resource of resources) {
    const bytes = bytesOf(await connection.client.readResource({ uri: resource.uri }));
    expect(bytes.byteLength, resource.uri).toBe(resource.size);
  }
  for (const [uri, digest] of await skillDigests(connection)) {
    const bytes = bytesOf(await connection.client.readResource({ uri }));
    expect(sha256(bytes), uri).toBe(digest);
  }
  await answers(connection.client.listResourceTemplates());
  await answers(connection.client.listTools());
  await answers(connection.client.callTool({ name: 'task_guide', arguments: { task: 'write a skill' } }));
}

const yamlish = fc.stringMatching(/^[a-z:\-[\]{}"' \n#|>&*!%@`0-9\t]{0,120}$/);

describe('bad content against a running daemon', () => {
  it('random front matter in documents and skills', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(DOCUMENT, SKILL, BASE),
        yamlish,
        fc.string({ maxLength: 80 }),
        (path, front, body) => survive(path, `---\n${front}\n---\n${body}`),
      ),
      { numRuns: 40 },
    );
  });

  it('random JSON, and JSON-ish objects, in the scope file', { timeout: 60_000 }, async () => {
    const scope = JSON.parse(originals.get(SCOPE)!.toString('utf8')) as Record<string, unknown>;
    const mutated = fc
      .tuple(fc.constantFrom(...Object.keys(scope)), fc.jsonValue({ maxDepth: 3 }))
      .map(([key, value]) => JSON.stringify({ ...scope, [key]: value }));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
          mutated,
        ),
        (text) => survive(SCOPE, text),
      ),
      { numRuns: 40 },
    );
  });

  it('random bytes, invalid UTF-8 included, in any file', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TARGETS),
        fc.uint8Array({ maxLength: 300 }),
        fc.boolean(),
        (path, bytes, invalid) =>
          survive(path, invalid ? Buffer.concat([Buffer.from([0xc0, 0xae, 0xff]), bytes]) : bytes),
      ),
      { numRuns: 40 },
    );
  });

  it('random URIs to every URI-taking method: a refusal or an answer, never an internal error', {
    timeout: 60_000,
  }, async () => {
    const uri = fc.oneof(
      fc.string({ maxLength: 200, unit: 'binary' }),
      fc.webUrl(),
      fc
        .array(fc.oneof(fc.constantFrom('..', '%2e%2e', '.', '', '\\', '\u0000', 'SKILL.md'), fc.string()), {
          maxLength: 6,
        })
        .map((segments) => `companion://${segments.join('/')}`),
    );
    await fc.assert(
      fc.asyncProperty(uri, async (value) => {
        await answers(connection.client.readResource({ uri: value }));
        await answers(rawRequest(connection, 'skills/get', { uri: value }));
        await answers(rawRequest(connection, 'resources/subscribe', { uri: value }));
        await answers(
          connection.client.complete({
            ref: { type: 'ref/resource', uri: 'companion://skill/{skillId}/{+path}' },
            argument: { name: 'path', value },
            context: { arguments: { skillId: value } },
          }),
        );
        await answers(
          connection.client.callTool({ name: 'document_lookup', arguments: { documentId: value } }),
        );
      }),
      { numRuns: 150 },
    );
    expect(internalErrors).toBe(0);
    await expectCoherent();
  });

  it('random cursors and tool arguments: a refusal or an answer, never an internal error', {
    timeout: 60_000,
  }, async () => {
    const tools = (await connection.client.listTools()).tools.map((tool) => tool.name);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 80 }),
          fc.base64String({ maxLength: 80 }),
          fc.jsonValue({ maxDepth: 2 }),
        ),
        fc.constantFrom(...tools, 'no_such_tool'),
        fc.jsonValue({ maxDepth: 3 }),
        async (cursor, tool, args) => {
          await answers(rawRequest(connection, 'resources/list', { cursor }));
          await answers(rawRequest(connection, 'skills/list', { cursor }));
          await answers(rawRequest(connection, 'resources/templates/list', { cursor }));
          await answers(rawRequest(connection, 'tools/call', { name: tool, arguments: args }));
          await answers(
            rawRequest(connection, 'tools/call', {
              name: tool,
              arguments: { query: args, documentId: args, name: args, task: args },
            }),
          );
        },
      ),
      { numRuns: 150 },
    );
    expect(internalErrors).toBe(0);
  });

  it('subscriptions are bounded per session: only served URIs, each once, of bounded length', async () => {
    // The bound on their number (MAX_SUBSCRIPTIONS) needs a catalog larger than it: test/mcp/limits.test.ts.
    const session = await connectInMemory(store);
    try {
      const subscribe = (uri: string) => rawRequest(session, 'resources/subscribe', { uri });
      const served = [...store.current().catalog.contents.keys()];
      await Promise.all(served.map((uri) => subscribe(uri)));
      // A URI this server does not serve is refused as a read refuses it, so a session never holds more URIs
      // than the catalog has.
      for (let i = 0; i < 256; i++) {
        const refused = await expectRpcError(subscribe(`companion://guides/not-yet/${i}`));
        expect(refused.code).toBe(-32602);
      }
      // Subscribing again to a held URI is no new subscription; unsubscribing and subscribing again works.
      await subscribe(served[0]!);
      await rawRequest(session, 'resources/unsubscribe', { uri: served[0]! });
      await subscribe(served[0]!);
      const long = await expectRpcError(subscribe(`companion://guides/${'a'.repeat(100_000)}`));
      expect(long.code).toBe(-32602);
      expect(JSON.stringify(long).length).toBeLessThan(1000);
      // The session still works.
      await session.client.readResource({ uri: 'companion://guides' });
    } finally {
      await session.close();
    }
  });

  it('the daemon is still whole afterwards: the original content is served again', async () => {
    expect(internalErrors).toBe(0);
    expect(store.current().diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    await expectCoherent();
  });
});
