/**
 * The MCP surface, asserted over the wire. One suite, run over four doors — stdio (the real CLI) and Streamable
 * HTTP, each in both protocol eras (2025-11-25 with `initialize`; 2026-07-28 with `server/discover`, pinned or
 * negotiated by `auto`): each test runs against every connection at once. What the revision changed is asserted
 * per era (the caching fields, `ping` and `resources/subscribe` removed, `subscriptions/listen` instead); every
 * other expectation is the same for both.
 *
 * Expectations come from two places: the disk (bytes, file lists) and the catalog built in the test process
 * from the same root (order, descriptions) — and several hold by themselves (a listed size equals the length
 * of what a read returns, a digest is the SHA-256 of what a read returns).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/core/catalog.js';
import type { Catalog } from '../../src/core/types.js';
import { readSnapshot } from '../../src/fs/read-snapshot.js';
import { expectRpcError, listAllResources, type McpConnection, rawRequest } from '../helpers/mcp-client.js';

export interface SurfaceTarget {
  /** The content root being served. */
  readonly root: string;
  /** The page size the server was started with (small, so pagination is exercised). */
  readonly pageSize: number;
  /** Open connections; every test runs on each, concurrently. */
  readonly connections: readonly McpConnection[];
  /** The `ttlMs` the server was started with (2026-07-28 results carry it). */
  readonly cacheTtlMs: number;
}

/** The draft skill and the binary asset the `mcp-extra` fixture adds to the bundled content. */
export const DRAFT_SKILL_URI = 'companion://skill/draft-notes/SKILL.md';
export const DRAFT_FILE_URI = 'companion://skill/draft-notes/references/plan.md';
export const BINARY_URI = 'companion://skill/write-a-skill/assets/pixel.png';

const sha256 = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** What `SERVER_CAPABILITIES` declares, in both eras. */
const CAPABILITIES = {
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
  tools: {},
  extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } },
};

/** The bytes a read returns. */
export async function readBytes(connection: McpConnection, uri: string): Promise<Buffer> {
  const result = await connection.client.readResource({ uri });
  expect(result.contents).toHaveLength(1);
  const content = result.contents[0]!;
  expect(content.uri).toBe(uri);
  return 'text' in content && typeof content.text === 'string'
    ? Buffer.from(content.text, 'utf8')
    : Buffer.from(String((content as { blob: string }).blob), 'base64');
}

/** Probes that must all read as "not found": traversal, encodings, absolute paths, control bytes, drafts. */
export const NOT_FOUND_PROBES: readonly string[] = [
  'companion://guides/nope',
  'companion://guides/../../SECRET.txt',
  'companion://guides/any/../../../SECRET.txt',
  'companion://guides/any/%2e%2e/%2e%2e/SECRET.txt',
  'companion://guides/%2E%2E%2F%2E%2E%2FSECRET.txt',
  'companion://skill/write-a-skill/../../../SECRET.txt',
  'companion://skill/write-a-skill/references/../../../../SECRET.txt',
  'companion://skill/write-a-skill/references%2F..%2F..%2FSKILL.md',
  'companion://skill/write-a-skill\\..\\..\\SECRET.txt',
  'companion://skill/write-a-skill/references\\base.md',
  'companion://guides/any\u0000/hosts/codex',
  'companion://guides/any/hosts/codex\u0000',
  `companion://guides/${'a/'.repeat(5000)}x`,
  '/etc/passwd',
  'file:///etc/passwd',
  '../SECRET.txt',
  'COMPANION://guides',
  'companion://GUIDES',
  'companion://guides/',
  'companion://guides/any/hosts/codex.md',
  'companion://guides/any/hosts/codex/',
  'companion://skill/write-a-skill',
  'companion://skill/write-a-skill/',
  'companion://skill/write-a-skill/skill.md',
  'companion://skill/base.md',
  DRAFT_SKILL_URI,
  DRAFT_FILE_URI,
  'companion://skill/draft-notes/references/base.md',
  '',
  'not a uri',
];

/** Registers the whole suite. `setup` runs in `beforeAll` of the caller; the target is read lazily. */
export function describeSurface(target: () => SurfaceTarget): void {
  const each = async (check: (connection: McpConnection, index: number) => Promise<void>): Promise<void> => {
    await Promise.all(target().connections.map((connection, index) => check(connection, index)));
  };
  let cached: { root: string; catalog: Catalog } | undefined;
  const expected = (): Catalog => {
    const { root } = target();
    if (cached?.root !== root) cached = { root, catalog: buildCatalog(readSnapshot(root)).catalog };
    return cached.catalog;
  };

  /** The caching fields a 2026-07-28 result carries, and a 2025 one never does. */
  const expectCacheFields = (
    connection: McpConnection,
    result: Record<string, unknown>,
    what: string,
  ): void => {
    if (connection.era === 'modern') {
      expect(result.ttlMs, what).toBe(target().cacheTtlMs);
      expect(result.cacheScope, what).toBe('public');
    } else {
      expect(result, what).not.toHaveProperty('ttlMs');
      expect(result, what).not.toHaveProperty('cacheScope');
    }
  };

  describe('initialize / server/discover', () => {
    it('negotiates the era the client asked for', async () => {
      await each(async (connection) => {
        expect(connection.client.getNegotiatedProtocolVersion()).toBe(
          connection.era === 'modern' ? '2026-07-28' : '2025-11-25',
        );
      });
      const eras = new Set(target().connections.map((connection) => connection.era));
      expect([...eras].sort()).toEqual(['legacy', 'modern']);
    });

    it('names the server, gives the instructions and declares exactly what it serves', async () => {
      const catalog = expected();
      await each(async ({ client }) => {
        expect(client.getServerVersion()).toMatchObject({
          name: catalog.server.name,
          title: catalog.server.title,
          version: catalog.server.version,
        });
        const instructions = client.getInstructions() ?? '';
        expect(instructions).toBe(catalog.instructions);
        expect(instructions.length).toBeGreaterThan(0);
        expect(instructions.length).toBeLessThanOrEqual(2048);
        expect(client.getServerCapabilities()).toEqual(CAPABILITIES);
      });
    });

    it('backs every declaration with a method that answers', async () => {
      const catalog = expected();
      await each(async (connection) => {
        const { client } = connection;
        expect((await client.listResources()).resources.length).toBeGreaterThan(0);
        expect((await client.listResourceTemplates()).resourceTemplates.length).toBe(2);
        if (connection.era === 'legacy') {
          expect(await client.subscribeResource({ uri: catalog.indexUri })).toEqual({});
          expect(await client.unsubscribeResource({ uri: catalog.indexUri })).toEqual({});
        } else {
          const subscription = await client.listen({
            resourcesListChanged: true,
            resourceSubscriptions: [catalog.indexUri],
          });
          expect(subscription.honoredFilter).toEqual({
            resourcesListChanged: true,
            resourceSubscriptions: [catalog.indexUri],
          });
          await subscription.close();
        }
        const completion = await client.complete({
          ref: { type: 'ref/resource', uri: 'companion://skill/{skillId}/{+path}' },
          argument: { name: 'skillId', value: '' },
        });
        expect(completion.completion.values.length).toBeGreaterThan(0);
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
        const skills = await rawRequest(connection, 'skills/list', {});
        expect(Array.isArray(skills.skills)).toBe(true);
        const directory = await rawRequest(connection, 'resources/directory/read', {
          uri: 'companion://skill/write-a-skill',
        });
        expect(Array.isArray(directory.resources)).toBe(true);
        expect((await client.listPrompts()).prompts.length).toBeGreaterThan(0);
        if (connection.era === 'legacy') {
          expect(
            (await expectRpcError(rawRequest(connection, 'logging/setLevel', { level: 'info' }))).code,
          ).toBe(-32601);
          expect(await client.ping()).toEqual({});
        }
      });
    });

    it('gives every 2026-07-28 list and read result the caching fields, and no 2025 one', async () => {
      const catalog = expected();
      const skill = catalog.skills[0]!;
      await each(async (connection) => {
        const answers: [string, Record<string, unknown>][] = [
          ['resources/list', await rawRequest(connection, 'resources/list', {})],
          ['resources/templates/list', await rawRequest(connection, 'resources/templates/list', {})],
          ['resources/read', await rawRequest(connection, 'resources/read', { uri: catalog.indexUri })],
          ['tools/list', await rawRequest(connection, 'tools/list', {})],
          ['prompts/list', await rawRequest(connection, 'prompts/list', {})],
          ['skills/list', await rawRequest(connection, 'skills/list', {})],
          ['skills/get', await rawRequest(connection, 'skills/get', { uri: skill.uri })],
          [
            'resources/directory/read',
            await rawRequest(connection, 'resources/directory/read', {
              uri: skill.uri.replace(/\/SKILL\.md$/, ''),
            }),
          ],
        ];
        for (const [method, result] of answers) expectCacheFields(connection, result, method);
      });
    });
  });

  describe('resources/list', () => {
    it('pages through every entry exactly once, index first, then documents, then skills', async () => {
      const catalog = expected();
      await each(async (connection) => {
        const { pages, resources } = await listAllResources(connection);
        expect(pages.length).toBe(Math.ceil(catalog.resources.length / target().pageSize));
        for (const page of pages) expect(page.resources.length).toBeLessThanOrEqual(target().pageSize);
        const uris = resources.map((resource) => resource.uri);
        expect(new Set(uris).size).toBe(uris.length);
        expect(uris).toEqual(catalog.resources.map((resource) => resource.uri));
        expect(uris[0]).toBe(catalog.indexUri);
        const kinds = uris
          .slice(1)
          .map((uri) => (uri.startsWith('companion://skill/') ? 'skill' : 'document'));
        expect(kinds).toEqual([...kinds].sort());
        const documentIds = uris.filter((uri) => uri.startsWith('companion://guides/'));
        expect(documentIds).toEqual([...documentIds].sort());
        const skillUris = uris.filter((uri) => uri.startsWith('companion://skill/'));
        expect(skillUris).toEqual([...skillUris].sort());
        // A skill's other files are never list entries; drafts appear nowhere.
        for (const uri of skillUris) expect(uri).toMatch(/^companion:\/\/skill\/[a-z0-9-]+\/SKILL\.md$/);
        expect(uris).not.toContain(DRAFT_SKILL_URI);
        expect(uris.length).toBe(1 + catalog.documents.length + catalog.skills.length);
      });
    });

    it('gives every entry the fields a picker chooses by, and never annotations.audience', async () => {
      await each(async (connection) => {
        const { resources } = await listAllResources(connection);
        for (const resource of resources) {
          expect(Object.keys(resource).sort()).toEqual(
            ['annotations', 'description', 'mimeType', 'name', 'size', 'title', 'uri'].sort(),
          );
          expect(resource.name.length).toBeGreaterThan(0);
          expect(resource.title?.length).toBeGreaterThan(0);
          expect(resource.description?.length).toBeGreaterThan(0);
          expect(resource.annotations).not.toHaveProperty('audience');
          expect(Object.keys(resource.annotations ?? {}).sort()).toEqual(['lastModified', 'priority']);
          expect(Number.isNaN(Date.parse(resource.annotations?.lastModified ?? ''))).toBe(false);
        }
      });
    });

    it('declares as size exactly the bytes a read returns', async () => {
      await each(async (connection) => {
        const { resources } = await listAllResources(connection);
        for (const resource of resources) {
          const result = await connection.client.readResource({ uri: resource.uri });
          const content = result.contents[0]!;
          expect(content.mimeType).toBe(resource.mimeType);
          expect('text' in content).toBe(true);
          expect(Buffer.byteLength(String((content as { text: string }).text), 'utf8')).toBe(resource.size);
        }
      });
    });

    it('orders priorities: index above all, transferable above non-transferable, templates below every entry', async () => {
      const catalog = expected();
      const transfers = new Map(catalog.coverage.scopes.map((scope) => [scope.id, scope.transfers]));
      const scopeOf = new Map<string, string | undefined>([
        ...catalog.documents.map((document) => [document.uri, document.scope] as const),
        ...catalog.skills.map((skill) => [skill.uri, skill.scope] as const),
      ]);
      await each(async (connection) => {
        const { resources } = await listAllResources(connection);
        const priority = (uri: string) =>
          resources.find((resource) => resource.uri === uri)!.annotations!.priority!;
        const index = priority(catalog.indexUri);
        const others = resources.filter((resource) => resource.uri !== catalog.indexUri);
        for (const resource of others) expect(index).toBeGreaterThan(resource.annotations!.priority!);
        const transferable = others.filter(
          (resource) => transfers.get(scopeOf.get(resource.uri) ?? '') === true,
        );
        const local = others.filter((resource) => transfers.get(scopeOf.get(resource.uri) ?? '') === false);
        expect(transferable.length).toBeGreaterThan(0);
        expect(local.length).toBeGreaterThan(0);
        const lowestTransferable = Math.min(
          ...transferable.map((resource) => resource.annotations!.priority!),
        );
        const highestLocal = Math.max(...local.map((resource) => resource.annotations!.priority!));
        expect(lowestTransferable).toBeGreaterThan(highestLocal);
        const { resourceTemplates } = await connection.client.listResourceTemplates();
        const lowestListed = Math.min(...resources.map((resource) => resource.annotations!.priority!));
        for (const template of resourceTemplates) {
          expect(template.annotations?.priority).toBeLessThan(lowestListed);
        }
      });
    });

    it('refuses a cursor it did not issue with -32602', async () => {
      const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const bad: unknown[] = [
        'garbage!',
        'bm90IGpzb24',
        forged({ k: 's', o: 1, a: 'companion://guides' }),
        forged({ k: 'r', o: -1, a: 'companion://guides' }),
        forged({ k: 'r', o: 1.5, a: 'companion://guides' }),
        forged({ k: 'r', o: 1 }),
        forged({ k: 'r', o: 1, a: 7 }),
        forged([1, 2]),
        '',
        7,
      ];
      await each(async (connection) => {
        for (const cursor of bad) {
          const error = await expectRpcError(rawRequest(connection, 'resources/list', { cursor }));
          expect(error.code).toBe(-32602);
        }
        // A cursor past the end of the list is an empty last page, not an error.
        const past = await rawRequest(connection, 'resources/list', {
          cursor: forged({ k: 'r', o: 10_000, a: 'companion://gone' }),
        });
        expect(past.resources).toEqual([]);
        expect(past).not.toHaveProperty('nextCursor');
      });
    });

    it('issues cursors that name a place in the content: the same on every connection and era', async () => {
      await each(async (connection, index) => {
        const { pages } = await listAllResources(connection);
        const cursors = pages.map((page) => page.nextCursor);
        const first = await listAllResources(target().connections[0]!);
        expect(cursors, `connection ${index}`).toEqual(first.pages.map((page) => page.nextCursor));
      });
    });
  });

  describe('resources/templates/list', () => {
    it('lists the document and the skill-file template with description and priority', async () => {
      await each(async ({ client }) => {
        const { resourceTemplates, nextCursor } = await client.listResourceTemplates();
        expect(nextCursor).toBeUndefined();
        expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
          'companion://guides/{+documentId}',
          'companion://skill/{skillId}/{+path}',
        ]);
        for (const template of resourceTemplates) {
          expect(template.name.length).toBeGreaterThan(0);
          expect(template.description?.length).toBeGreaterThan(0);
          expect(typeof template.annotations?.priority).toBe('number');
          expect(template.annotations).not.toHaveProperty('audience');
        }
        expect(resourceTemplates[0]!.mimeType).toBe('text/markdown');
        const error = await expectRpcError(client.listResourceTemplates({ cursor: 'abc' }));
        expect(error.code).toBe(-32602);
      });
    });
  });

  describe('resources/read', () => {
    it('serves the index as JSON that names every document and skill', async () => {
      const catalog = expected();
      await each(async (connection) => {
        const bytes = await readBytes(connection, catalog.indexUri);
        const index = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
        const text = JSON.stringify(index);
        for (const document of catalog.documents) expect(text).toContain(document.uri);
        for (const skill of catalog.skills) expect(text).toContain(skill.uri);
        expect(text).not.toContain('draft-notes');
      });
    });

    it('serves each document and SKILL.md with the bytes on disk', async () => {
      const catalog = expected();
      const { root } = target();
      await each(async (connection) => {
        for (const document of catalog.documents) {
          expect(
            (await readBytes(connection, document.uri)).equals(readFileSync(join(root, document.path))),
          ).toBe(true);
        }
        for (const skill of catalog.skills) {
          const onDisk = readFileSync(join(root, 'skills', skill.id, 'SKILL.md'));
          expect((await readBytes(connection, skill.uri)).equals(onDisk)).toBe(true);
        }
      });
    });

    it('resolves the relative link a SKILL.md writes onto the served references/base.md', async () => {
      const catalog = expected();
      const base = readFileSync(join(target().root, 'skills', 'base.md'));
      await each(async (connection) => {
        for (const skill of catalog.skills) {
          const body = (await readBytes(connection, skill.uri)).toString('utf8');
          expect(body).toContain('](references/base.md)');
          const resolved = new URL('references/base.md', skill.uri).href;
          expect(resolved).toBe(skill.uri.replace(/SKILL\.md$/, 'references/base.md'));
          expect((await readBytes(connection, resolved)).equals(base)).toBe(true);
        }
      });
    });

    it('serves a binary file as a base64 blob of the exact bytes', async () => {
      const onDisk = readFileSync(join(target().root, 'skills', 'write-a-skill', 'assets', 'pixel.png'));
      await each(async ({ client }) => {
        const result = await client.readResource({ uri: BINARY_URI });
        const content = result.contents[0] as {
          uri: string;
          mimeType?: string;
          blob?: string;
          text?: string;
        };
        expect(content.text).toBeUndefined();
        expect(content.mimeType).toBe('image/png');
        expect(Buffer.from(content.blob!, 'base64').equals(onDisk)).toBe(true);
      });
    });

    it('answers every unknown, malformed, escaping or draft URI with the same -32602 and data.uri', async () => {
      await each(async (connection) => {
        for (const uri of NOT_FOUND_PROBES) {
          const error = await expectRpcError(connection.client.readResource({ uri }));
          expect(error.code, uri).toBe(-32602);
          expect(error.data, uri).toEqual({ uri });
          expect(error.message, uri).toBe(`Resource not found: ${uri}`);
        }
        for (const uri of [42, null, { href: 'companion://guides' }, ['companion://guides']]) {
          const error = await expectRpcError(rawRequest(connection, 'resources/read', { uri }));
          expect(error.code).toBe(-32602);
        }
        expect((await expectRpcError(rawRequest(connection, 'resources/read', {}))).code).toBe(-32602);
      });
    });
  });

  describe('completion/complete', () => {
    const documentTemplate = { type: 'ref/resource' as const, uri: 'companion://guides/{+documentId}' };
    const skillTemplate = { type: 'ref/resource' as const, uri: 'companion://skill/{skillId}/{+path}' };

    it('completes document ids by case-folded prefix, sorted, with total and hasMore', async () => {
      const catalog = expected();
      const want = catalog.documents
        .map((document) => document.id)
        .filter((id) => id.startsWith('any/h'))
        .sort();
      expect(want.length).toBeGreaterThan(1);
      await each(async ({ client }) => {
        for (const value of ['any/h', 'ANY/H', 'Any/H']) {
          const { completion } = await client.complete({
            ref: documentTemplate,
            argument: { name: 'documentId', value },
          });
          expect(completion).toEqual({ values: want, total: want.length, hasMore: false });
        }
        const all = await client.complete({
          ref: documentTemplate,
          argument: { name: 'documentId', value: '' },
        });
        expect(all.completion.values).toEqual(catalog.documents.map((document) => document.id).sort());
      });
    });

    it('completes published skill ids and only the named skill’s own files', async () => {
      const catalog = expected();
      await each(async ({ client }) => {
        const ids = await client.complete({ ref: skillTemplate, argument: { name: 'skillId', value: '' } });
        expect(ids.completion.values).toEqual(catalog.skills.map((skill) => skill.id).sort());
        expect(ids.completion.values).not.toContain('draft-notes');

        const files = await client.complete({
          ref: skillTemplate,
          argument: { name: 'path', value: '' },
          context: { arguments: { skillId: 'write-a-skill' } },
        });
        const own = catalog.skills
          .find((skill) => skill.id === 'write-a-skill')!
          .files.map((file) => file.path);
        expect(files.completion.values).toEqual([...own].sort());
        expect(files.completion.values).toContain('references/base.md');

        const refs = await client.complete({
          ref: skillTemplate,
          argument: { name: 'path', value: 'REF' },
          context: { arguments: { skillId: 'write-a-skill' } },
        });
        expect(refs.completion.values.every((value) => value.startsWith('references/'))).toBe(true);
        expect(refs.completion.values.length).toBeGreaterThan(1);
        // Another skill's files never appear under this skill.
        const others = catalog.skills
          .filter((skill) => skill.id !== 'write-a-skill')
          .flatMap((skill) => skill.files.map((file) => file.path))
          .filter((path) => !own.includes(path));
        for (const value of files.completion.values) expect(others).not.toContain(value);
      });
    });

    it('completes anything it does not know to nothing, never an error', async () => {
      await each(async (connection) => {
        const { client } = connection;
        const empties = [
          { ref: skillTemplate, argument: { name: 'path', value: '' } },
          {
            ref: skillTemplate,
            argument: { name: 'path', value: '' },
            context: { arguments: { skillId: 'nope' } },
          },
          {
            ref: skillTemplate,
            argument: { name: 'path', value: '' },
            context: { arguments: { skillId: 'draft-notes' } },
          },
          {
            ref: skillTemplate,
            argument: { name: 'path', value: '../' },
            context: { arguments: { skillId: '../..' } },
          },
          { ref: skillTemplate, argument: { name: 'documentId', value: '' } },
          { ref: documentTemplate, argument: { name: 'skillId', value: '' } },
          { ref: documentTemplate, argument: { name: 'documentId', value: 'zzz' } },
          {
            ref: { type: 'ref/resource' as const, uri: 'companion://other/{x}' },
            argument: { name: 'x', value: '' },
          },
          { ref: { type: 'ref/prompt' as const, name: 'anything' }, argument: { name: 'arg1', value: 'a' } },
        ];
        for (const params of empties) {
          const { completion } = await client.complete(params);
          expect(completion.values, JSON.stringify(params)).toEqual([]);
        }
        const malformed = await rawRequest(connection, 'completion/complete', { ref: 5, argument: 'x' });
        expect(malformed.completion).toEqual({ values: [] });
      });
    });
  });

  describe('resources/subscribe and unsubscribe (2025) / subscriptions/listen (2026-07-28)', () => {
    it('subscribes a served URI, refuses an unserved one as a read does, and refuses a non-string', async () => {
      const catalog = expected();
      const unserved = ['companion://guides/any/not-written-yet', DRAFT_SKILL_URI, 'companion://guides/../x'];
      await each(async (connection) => {
        const { client } = connection;
        if (connection.era === 'modern') return;
        expect(await client.subscribeResource({ uri: catalog.indexUri })).toEqual({});
        expect(await client.subscribeResource({ uri: catalog.skills[0]!.manifest.at(-1)!.uri })).toEqual({});
        for (const uri of unserved) {
          const error = await expectRpcError(client.subscribeResource({ uri }));
          expect(error.code, uri).toBe(-32602);
          expect(error.data, uri).toEqual({ uri });
        }
        expect(await client.unsubscribeResource({ uri: catalog.indexUri })).toEqual({});
        expect(await client.unsubscribeResource({ uri: 'companion://never-subscribed' })).toEqual({});
        for (const method of ['resources/subscribe', 'resources/unsubscribe']) {
          expect((await expectRpcError(rawRequest(connection, method, { uri: 5 }))).code).toBe(-32602);
          expect((await expectRpcError(rawRequest(connection, method, {}))).code).toBe(-32602);
        }
      });
    });

    it('acknowledges a listen filter with exactly the served URIs it names, and refuses a malformed one', async () => {
      const catalog = expected();
      const served = [catalog.indexUri, catalog.skills[0]!.manifest.at(-1)!.uri];
      await each(async (connection) => {
        const { client } = connection;
        if (connection.era === 'legacy') return;
        const subscription = await client.listen({
          resourcesListChanged: true,
          resourceSubscriptions: [
            served[0]!,
            'companion://guides/any/not-written-yet',
            served[1]!,
            served[0]!,
          ],
        });
        expect(subscription.honoredFilter).toEqual({
          resourcesListChanged: true,
          resourceSubscriptions: served,
        });
        await subscription.close();
        // Only what this server sends is honoured: its tools never change; its prompts can.
        const narrow = await client.listen({ toolsListChanged: true, promptsListChanged: true });
        expect(narrow.honoredFilter).toEqual({ promptsListChanged: true });
        await narrow.close();
        const unknownOnly = await client.listen({ resourceSubscriptions: ['companion://nope'] });
        expect(unknownOnly.honoredFilter).toEqual({});
        await unknownOnly.close();
        for (const notifications of [
          { resourceSubscriptions: 'companion://guides' },
          { resourceSubscriptions: [5] },
          { resourceSubscriptions: Array.from({ length: 4097 }, (_, i) => `companion://x/${i}`) },
        ]) {
          const error = await expectRpcError(
            rawRequest(connection, 'subscriptions/listen', { notifications }),
          );
          expect(error.code).toBe(-32602);
        }
      });
    });
  });

  describe('skills extension', () => {
    it('lists every published skill across pages with the front matter and a manifest of what reads return', async () => {
      const catalog = expected();
      await each(async (connection) => {
        const entries: { uri: string; frontmatter: Record<string, unknown>; resources: unknown }[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = await rawRequest(connection, 'skills/list', cursor === undefined ? {} : { cursor });
          pages++;
          entries.push(...(page.skills as typeof entries));
          cursor = page.nextCursor as string | undefined;
          expect(pages).toBeLessThan(50);
        } while (cursor !== undefined);
        expect(pages).toBe(Math.ceil(catalog.skills.length / target().pageSize));
        expect(entries.map((entry) => entry.uri)).toEqual(catalog.skills.map((skill) => skill.uri));
        expect(entries.map((entry) => entry.uri)).not.toContain(DRAFT_SKILL_URI);
        for (const entry of entries) {
          expect(Object.keys(entry).sort()).toEqual(['frontmatter', 'resources', 'uri']);
          const skill = catalog.skills.find((candidate) => candidate.uri === entry.uri)!;
          expect(entry.frontmatter).toEqual(skill.frontmatter);
          expect(entry.frontmatter.name).toBe(skill.id);
          const manifest = entry.resources as { uri: string; digest: string; size: number }[];
          expect(manifest[0]!.uri).toBe(entry.uri);
          expect(manifest.map((file) => file.uri)).toContain(
            entry.uri.replace(/SKILL\.md$/, 'references/base.md'),
          );
          expect(new Set(manifest.map((file) => file.uri)).size).toBe(manifest.length);
          for (const file of manifest) {
            expect(Object.keys(file).sort()).toEqual(['digest', 'size', 'uri']);
            const bytes = await readBytes(connection, file.uri);
            expect(file.digest).toBe(sha256(bytes));
            expect(file.size).toBe(bytes.length);
          }
          const got = await rawRequest(connection, 'skills/get', { uri: entry.uri });
          expect(got.skill).toEqual(entry);
          expect(
            Object.keys(got)
              .filter((key) => key !== '_meta')
              .sort(),
          ).toEqual(connection.era === 'modern' ? ['cacheScope', 'skill', 'ttlMs'] : ['skill']);
        }
      });
    });

    it('refuses an unknown, draft or non-SKILL.md URI and malformed params with -32602', async () => {
      await each(async (connection) => {
        for (const uri of [
          'companion://skill/nope/SKILL.md',
          DRAFT_SKILL_URI,
          'companion://skill/write-a-skill/references/base.md',
          'companion://skill/write-a-skill',
          'companion://guides',
        ]) {
          const error = await expectRpcError(rawRequest(connection, 'skills/get', { uri }));
          expect(error.code).toBe(-32602);
          expect(error.data).toEqual({ uri });
        }
        for (const params of [{}, { uri: 5 }, { uri: null }, { uri: ['x'] }]) {
          expect((await expectRpcError(rawRequest(connection, 'skills/get', params))).code).toBe(-32602);
        }
        expect((await expectRpcError(rawRequest(connection, 'skills/get'))).code).toBe(-32602);
        for (const cursor of ['nope', 5, Buffer.from('{"k":"r","o":1,"g":1}').toString('base64url')]) {
          expect((await expectRpcError(rawRequest(connection, 'skills/list', { cursor }))).code).toBe(-32602);
        }
      });
    });
  });

  describe('SkillsClient (the v2 SDK’s verifying client)', () => {
    it('lists every skill, gets each, and verifies size, digest and front matter of every file it reads', async () => {
      const catalog = expected();
      await each(async (connection) => {
        const skills = new SkillsClient(connection.client);
        expect(skills.supported).toBe(true);
        expect(skills.directoryRead).toBe(true);
        const listing = await skills.list();
        expect(listing.invalid).toEqual([]);
        expect(listing.skills.map((skill) => skill.uri)).toEqual(catalog.skills.map((skill) => skill.uri));
        let files = 0;
        for (const entry of listing.skills) {
          const { skill } = await skills.get(entry.uri);
          expect(skill).toEqual(entry);
          const manifest = entry.resources;
          if (manifest === 'dynamic') throw new Error(`${entry.uri} has no stable manifest`);
          for (const file of manifest) {
            const read = await skills.read(entry, file.uri);
            expect(read.verified).toBe(true);
            expect(read.bytes.length).toBe(file.size);
            files++;
          }
          const body = await skills.read(entry);
          expect(body.frontmatter).toEqual(entry.frontmatter);
          expect(body.text).toContain('](references/base.md)');
          expect((await skills.read(entry, 'references/base.md')).verified).toBe(true);
        }
        expect(files).toBe(catalog.skills.reduce((sum, skill) => sum + skill.manifest.length, 0));
        const unknown = await skills.get('companion://skill/nope/SKILL.md').catch((error: unknown) => error);
        expect((unknown as { code?: number }).code).toBe(-32602);
      });
    });
  });

  describe('resources/directory/read', () => {
    it('lists the direct children of every directory of every published skill', async () => {
      const catalog = expected();
      await each(async (connection) => {
        for (const skill of catalog.skills) {
          const root = skill.uri.replace(/\/SKILL\.md$/, '');
          const paths = skill.files.map((file) => file.path);
          const directories = new Set(
            paths.flatMap((path) =>
              path
                .split('/')
                .slice(0, -1)
                .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
            ),
          );
          for (const dir of ['', ...directories]) {
            const uri = dir === '' ? root : `${root}/${dir}`;
            const answer = await rawRequest(connection, 'resources/directory/read', { uri });
            expect(answer).not.toHaveProperty('nextCursor');
            const children = answer.resources as {
              uri: string;
              name: string;
              mimeType: string;
              size?: number;
            }[];
            const prefix = dir === '' ? '' : `${dir}/`;
            const below = paths
              .filter((path) => path.startsWith(prefix))
              .map((path) => path.slice(prefix.length));
            const wantFiles = below.filter((rest) => !rest.includes('/'));
            const wantDirectories = [
              ...new Set(below.filter((rest) => rest.includes('/')).map((rest) => rest.split('/')[0]!)),
            ];
            expect(
              children
                .filter((child) => child.mimeType !== 'inode/directory')
                .map((child) => child.name)
                .sort(),
            ).toEqual(wantFiles.sort());
            expect(
              children
                .filter((child) => child.mimeType === 'inode/directory')
                .map((child) => child.name)
                .sort(),
            ).toEqual(wantDirectories.sort());
            for (const child of children) {
              expect(child.uri).toBe(`${uri}/${child.name}`);
              if (child.mimeType === 'inode/directory') {
                expect(child).not.toHaveProperty('size');
                continue;
              }
              // A file child is the very resource a read serves: same MIME type, same byte count.
              const read = await connection.client.readResource({ uri: child.uri });
              expect(read.contents[0]!.mimeType).toBe(child.mimeType);
              expect((await readBytes(connection, child.uri)).length).toBe(child.size);
            }
          }
        }
      });
    });

    it('refuses a file, a draft, an unknown or malformed directory and a cursor with -32602 and data.uri', async () => {
      await each(async (connection) => {
        for (const uri of [
          'companion://skill/write-a-skill/SKILL.md',
          'companion://skill/write-a-skill/',
          'companion://skill/write-a-skill/references/',
          'companion://skill/write-a-skill/nope',
          'companion://skill/write-a-skill/references/../..',
          'companion://skill/draft-notes',
          'companion://skill/draft-notes/references',
          'companion://skill/nope',
          'companion://skill',
          'companion://skill/',
          'companion://guides',
          'companion://guides/any',
          '',
        ]) {
          const error = await expectRpcError(rawRequest(connection, 'resources/directory/read', { uri }));
          expect(error.code, uri).toBe(-32602);
          expect(error.data, uri).toEqual({ uri });
        }
        for (const params of [{}, { uri: 5 }, { uri: 'companion://skill/write-a-skill', cursor: 'x' }]) {
          const error = await expectRpcError(rawRequest(connection, 'resources/directory/read', params));
          expect(error.code, JSON.stringify(params)).toBe(-32602);
        }
      });
    });
  });

  describe('prompts', () => {
    it('lists every prompt of the content with its arguments, as the catalog builds it', async () => {
      const catalog = expected();
      expect(catalog.prompts.length).toBeGreaterThan(0);
      await each(async (connection) => {
        // On the wire, as sent: the SDK client's own schema drops an argument's `title` (the spec's
        // PromptArgument carries one, as BaseMetadata), so its parsed list is compared by name below.
        const wire = await rawRequest(connection, 'prompts/list', {});
        expect(wire.prompts).toEqual(catalog.prompts.map((prompt) => prompt.listed));
        const { prompts } = await connection.client.listPrompts();
        expect(prompts.map((prompt) => prompt.name)).toEqual(catalog.prompts.map((prompt) => prompt.name));
        for (const prompt of prompts) expect(prompt.description?.length).toBeGreaterThan(0);
      });
    });

    it('renders a prompt with its arguments filled in, and refuses a missing or unknown one with -32602', async () => {
      const catalog = expected();
      const skill = catalog.skills[0]!;
      await each(async (connection) => {
        const { client } = connection;
        const review = await client.getPrompt({ name: 'review-skill', arguments: { skill: skill.id } });
        expect(review.messages).toHaveLength(1);
        const text = (review.messages[0]!.content as { type: string; text: string }).text;
        expect(text).toContain(`(${skill.id})`);
        expect(text).toContain(skill.uri);
        // An optional section stays out without its argument, and comes in with it.
        expect(text).not.toContain('Look at this first');
        const focused = await client.getPrompt({
          name: 'review-skill',
          arguments: { skill: skill.id, focus: 'the links' },
        });
        expect(JSON.stringify(focused.messages)).toContain('Look at this first: the links.');

        const missing = await expectRpcError(rawRequest(connection, 'prompts/get', { name: 'review-skill' }));
        expect(missing.code).toBe(-32602);
        expect(missing.data).toMatchObject({ prompt: 'review-skill', argument: 'skill' });
        const unknownId = await expectRpcError(
          rawRequest(connection, 'prompts/get', {
            name: 'review-skill',
            arguments: { skill: 'no-such-skill' },
          }),
        );
        expect(unknownId.code).toBe(-32602);
        const unknown = await expectRpcError(
          rawRequest(connection, 'prompts/get', { name: 'no-such-prompt' }),
        );
        expect(unknown.code).toBe(-32602);
        const malformed = await expectRpcError(
          rawRequest(connection, 'prompts/get', { name: 'review-skill', arguments: 'skill=x' }),
        );
        expect(malformed.code).toBe(-32602);
      });
    });

    it('completes a prompt argument from the ids it is declared to take', async () => {
      const catalog = expected();
      await each(async ({ client }) => {
        const skills = await client.complete({
          ref: { type: 'ref/prompt', name: 'review-skill' },
          argument: { name: 'skill', value: 'write' },
        });
        expect(skills.completion.values).toEqual(
          catalog.skills
            .map((skill) => skill.id)
            .filter((id) => id.startsWith('write'))
            .sort(),
        );
        const topics = await client.complete({
          ref: { type: 'ref/prompt', name: 'draft-document' },
          argument: { name: 'topic', value: '' },
        });
        expect(topics.completion.values).toEqual(catalog.coverage.topics.map((topic) => topic.id).sort());
        const nothing = await client.complete({
          ref: { type: 'ref/prompt', name: 'no-such-prompt' },
          argument: { name: 'skill', value: '' },
        });
        expect(nothing.completion.values).toEqual([]);
      });
    });
  });

  describe('tools', () => {
    it('lists the offered tools with titles, both schemas and read-only annotations', async () => {
      const catalog = expected();
      await each(async ({ client }) => {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual([...catalog.tools]);
        for (const tool of tools) {
          expect(tool.title?.length).toBeGreaterThan(0);
          expect(tool.description?.length).toBeGreaterThan(40);
          expect(tool.inputSchema.type).toBe('object');
          expect(tool.outputSchema?.type).toBe('object');
          expect(tool.annotations).toMatchObject({
            readOnlyHint: true,
            destructiveHint: false,
            idempotentHint: true,
            openWorldHint: false,
          });
        }
      });
    });

    it('document_lookup answers a query with ranked sections and an id with the whole document', async () => {
      const catalog = expected();
      const document = catalog.documents[0]!;
      await each(async ({ client }) => {
        const search = await client.callTool({
          name: 'document_lookup',
          arguments: { query: 'skill description budget' },
        });
        expect(search.isError).toBeFalsy();
        const found = search.structuredContent as { matchCount: number; matches: { documentId: string }[] };
        expect(found.matchCount).toBeGreaterThan(0);
        for (const match of found.matches) {
          expect(catalog.documents.map((entry) => entry.id)).toContain(match.documentId);
        }
        const text = (search.content as { type: string; text: string }[])[0]!.text;
        expect(() => JSON.parse(text)).toThrow();

        const whole = await client.callTool({
          name: 'document_lookup',
          arguments: { documentId: document.id },
        });
        expect(whole.isError).toBeFalsy();
        const structured = whole.structuredContent as { matches: { body: string; uri: string }[] };
        expect(structured.matches[0]!.body).toBe(document.body);
        expect(structured.matches[0]!.uri).toBe(document.uri);
      });
    });

    it('document_lookup refuses an unknown id or a fruitless query with what to do instead', async () => {
      const catalog = expected();
      await each(async ({ client }) => {
        const unknown = await client.callTool({
          name: 'document_lookup',
          arguments: { documentId: 'any/nope' },
        });
        expect(unknown.isError).toBe(true);
        const text = (unknown.content as { text: string }[])[0]!.text;
        expect(text).toContain(catalog.documents[0]!.id);
        const none = await client.callTool({
          name: 'document_lookup',
          arguments: { query: 'xylophone quasar' },
        });
        expect(none.isError).toBe(true);
        expect((none.content as { text: string }[])[0]!.text).toContain('task_guide');
      });
    });

    it('refuses invalid arguments and unknown tools with -32602 naming the argument', async () => {
      await each(async ({ client }) => {
        const cases: [string, Record<string, unknown>, string][] = [
          ['document_lookup', {}, 'query'],
          ['document_lookup', { query: 'a', documentId: 'b' }, 'documentId'],
          ['document_lookup', { query: 5 }, 'query'],
          ['document_lookup', { query: 'x', bogus: true }, 'bogus'],
          ['task_guide', {}, 'task'],
          ['task_guide', { task: '' }, 'task'],
          ['skill_load', { name: 7 }, 'name'],
        ];
        for (const [name, args, argument] of cases) {
          const error = await expectRpcError(client.callTool({ name, arguments: args }));
          expect(error.code, `${name} ${JSON.stringify(args)}`).toBe(-32602);
          expect(error.message).toContain(argument);
        }
        expect((await expectRpcError(client.callTool({ name: 'no_such_tool', arguments: {} }))).code).toBe(
          -32602,
        );
      });
    });

    it('refuses malformed tools/call params and task-augmented requests with -32602, never -32603', async () => {
      await each(async (connection) => {
        const cases: Record<string, unknown>[] = [
          { name: 5 },
          { name: 'task_guide', arguments: 'task' },
          { name: 'task_guide', arguments: { task: 'x' }, task: { ttl: 1000 } },
        ];
        for (const params of cases) {
          expect((await expectRpcError(rawRequest(connection, 'tools/call', params))).code).toBe(-32602);
        }
        const read = rawRequest(connection, 'resources/read', {
          uri: 'companion://guides',
          task: { ttl: 1000 },
        });
        expect((await expectRpcError(read)).code).toBe(-32602);
      });
    });

    it('task_guide names the skill and documents that own a task, and a miss lists the topics', async () => {
      const catalog = expected();
      await each(async ({ client }) => {
        const hit = await client.callTool({ name: 'task_guide', arguments: { task: 'write a new skill' } });
        expect(hit.isError).toBeFalsy();
        const guide = hit.structuredContent as {
          matched: boolean;
          skills: { id: string; uri: string }[];
          documents: { id: string; lookup?: { tool: string; arguments: Record<string, string> } }[];
          nextTools: { tool: string }[];
        };
        expect(guide.matched).toBe(true);
        expect(guide.skills.map((skill) => skill.id)).toContain('write-a-skill');
        for (const document of guide.documents) {
          expect(document.lookup).toEqual({
            tool: 'document_lookup',
            arguments: { documentId: document.id },
            why: expect.any(String),
          });
        }
        expect(guide.nextTools[0]?.tool).toBe('skill_load');

        const miss = await client.callTool({
          name: 'task_guide',
          arguments: { task: 'bake sourdough bread' },
        });
        expect(miss.isError).toBeFalsy();
        const missed = miss.structuredContent as { matched: boolean; topics: { id: string }[] };
        expect(missed.matched).toBe(false);
        expect(missed.topics.map((topic) => topic.id)).toEqual(
          catalog.coverage.topics.map((topic) => topic.id),
        );
      });
    });

    it('skill_load hands over the body and the URIs of every file, and refuses an unknown or draft name', async () => {
      const catalog = expected();
      const skill = catalog.skills.find((entry) => entry.id === 'write-a-skill')!;
      await each(async (connection) => {
        const { client } = connection;
        const loaded = await client.callTool({ name: 'skill_load', arguments: { name: skill.id } });
        expect(loaded.isError).toBeFalsy();
        const structured = loaded.structuredContent as {
          uri: string;
          body: string;
          files: { path: string; uri: string }[];
        };
        expect(structured.uri).toBe(skill.uri);
        expect(structured.body).toBe(skill.body);
        expect(structured.files.map((file) => file.path)).toContain('references/base.md');
        for (const file of structured.files) await readBytes(connection, file.uri);
        for (const name of ['nope', 'draft-notes']) {
          const refused = await client.callTool({ name: 'skill_load', arguments: { name } });
          expect(refused.isError).toBe(true);
          expect((refused.content as { text: string }[])[0]!.text).toContain('write-a-skill');
        }
      });
    });
  });
}
