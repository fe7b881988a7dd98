/**
 * Lists answered from bytes already made (issue 18.5): each page of `resources/list` and `skills/list` is
 * serialized once per generation and spliced into the SDK's response by the door. What must hold, checked on the
 * bytes a host receives over both doors and in both eras: they are exactly a fresh serialization of the page (the
 * same entries and cursor as a server that builds every page afresh, as `JSON.stringify` would write them), a page
 * after a generation change is the new one, and the cache is bounded and dropped with its generation.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { Catalog, CatalogChange, CatalogSource, Generation, SkillEntry } from '../../src/core/types.js';
import { createListPages } from '../../src/mcp/list-pages.js';
import { prepareSkillPages } from '../../src/mcp/prepare-pages.js';
import { ResponseSplice } from '../../src/mcp/response-splice.js';
import type { HttpServerHandle } from '../../src/mcp/serve-http.js';
import { serveStdio } from '../../src/mcp/serve-stdio.js';
import { listSkillsPage } from '../../src/mcp/skills-extension.js';
import { createManualSource } from '../helpers/manual-source.js';
import {
  connectHttp,
  connectInMemory,
  type McpConnection,
  rawRequest,
  startHttp,
  waitFor,
} from '../helpers/mcp-client.js';
import { mcpHeaders, sendRaw } from '../helpers/raw-http.js';

const RESOURCES = 1_201;
const SKILLS = 250;
const LISTS = [
  { method: 'resources/list', key: 'resources' },
  { method: 'skills/list', key: 'skills' },
] as const;
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw-modern', version: '1' },
};

function skill(i: number, edit: string): SkillEntry {
  const id = `skill-${String(i).padStart(4, '0')}`;
  const uri = `test://skill/${id}/SKILL.md`;
  const description = `Skill ${i}${edit} — “quoted”, \\ and \u2028 survive`;
  return {
    id,
    uri,
    title: id,
    description,
    frontmatter: { name: id, description, metadata: { 'companion-status': 'published' } },
    body: '',
    files: [{ path: 'SKILL.md', uri, source: `skills/${id}/SKILL.md` }],
    manifest: [{ uri, digest: `sha256:${'0'.repeat(64)}`, size: i }],
  };
}

/** A synthetic generation of three pages of each list; `edit` changes every description. */
function makeGeneration(number: number, edit = ''): Generation {
  const resources = Array.from({ length: RESOURCES }, (_, i) => ({
    uri: `test://doc/${String(i).padStart(5, '0')}`,
    name: `doc-${i}`,
    title: `Document ${i} “é” 日本`,
    description: `About ${i}${edit}`,
    mimeType: 'text/markdown',
    size: i,
    annotations: { priority: 0.5, ...(i % 2 === 0 ? { lastModified: '2026-01-01T00:00:00.000Z' } : {}) },
  }));
  const catalog = {
    server: { name: 'test', title: 'Test', version: '0.0.0', scheme: 'test' },
    instructions: '',
    coverage: { purpose: '', scopes: [], topics: [], routing: [], notCovered: [] },
    tools: [],
    indexUri: 'test://index',
    resources,
    templates: [],
    contents: new Map(),
    documents: [],
    skills: Array.from({ length: SKILLS }, (_, i) => skill(i, edit)),
  } as unknown as Catalog;
  return { number, catalog, diagnostics: [], builtAt: 0 };
}

/** A source whose generation the test replaces, publishing a change of the lists as the store does. */
function createSwappableSource(first: Generation) {
  return createManualSource(
    first,
    (previous, current) =>
      ({
        previous,
        current,
        listChanged: true,
        updatedUris: [],
        changedPaths: [],
      }) as unknown as CatalogChange,
  );
}

type Page = Record<string, unknown> & { nextCursor?: string };

/** Every page of `method` as a fresh server builds it: an in-memory 2025 session, no door, no cache. */
async function freshPages(source: CatalogSource, method: string): Promise<Page[]> {
  const fresh = await connectInMemory(source);
  try {
    const pages: Page[] = [];
    let cursor: string | undefined;
    do {
      const page = (await rawRequest(fresh, method, cursor === undefined ? {} : { cursor })) as Page;
      pages.push(page);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return pages;
  } finally {
    await fresh.close();
  }
}

/** The result a raw answer carries, after checking its text is exactly what `JSON.stringify` writes for it. */
function resultOf(text: string): Page {
  const message = JSON.parse(text) as { result?: Page; error?: unknown };
  expect(text, 'the answer is the serializer’s own text, byte for byte').toBe(JSON.stringify(message));
  expect(message.error).toBeUndefined();
  return message.result!;
}

/** The JSON of the one SSE `data:` line of a legacy POST answer. */
function sseData(body: string): string {
  const lines = body.split('\n').filter((line) => line.startsWith('data: '));
  expect(lines).toHaveLength(1);
  return lines[0]!.slice('data: '.length);
}

/**
 * Changes the first entry of both lists in place, without publishing a generation: what a page built afresh would
 * show, and a cached page must not (the catalog is immutable in real life; here it proves the bytes were reused).
 * Returns the function that puts them back.
 */
function mutateInPlace(generation: Generation): () => void {
  const resource = generation.catalog.resources[0] as { description: string };
  const skill = generation.catalog.skills[0] as { frontmatter: Record<string, unknown> };
  const before = { description: resource.description, frontmatter: skill.frontmatter };
  resource.description = 'mutated in place';
  skill.frontmatter = { ...skill.frontmatter, description: 'mutated in place' };
  return () => {
    resource.description = before.description;
    skill.frontmatter = before.frontmatter;
  };
}

/** Walks `method` page by page through `ask` (one raw answer per page), checking each against `expected`. */
async function expectSamePages(
  ask: (params: Record<string, unknown>) => Promise<Page>,
  key: string,
  expected: readonly Page[],
): Promise<Page[]> {
  const got: Page[] = [];
  let cursor: string | undefined;
  for (const page of expected) {
    const answer = await ask(cursor === undefined ? {} : { cursor });
    expect(answer[key]).toEqual(page[key]);
    expect(answer.nextCursor).toBe(page.nextCursor);
    got.push(answer);
    cursor = answer.nextCursor;
  }
  expect(cursor).toBeUndefined();
  return got;
}

describe('createListPages', () => {
  it('serializes a page once per generation, and gives each generation its own pages', () => {
    const swappable = createSwappableSource(makeGeneration(1));
    const pages = createListPages();
    let builds = 0;
    const build = (generation: Generation) => () => {
      builds++;
      return { items: generation.catalog.resources.slice(0, 2), nextCursor: 'next' };
    };
    const first = swappable.source.current();
    const a = pages.page(first, 'resources', 0, 2, build(first));
    const b = pages.page(first, 'resources', 0, 2, build(first));
    expect(b).toBe(a);
    expect(builds).toBe(1);
    expect(a.json.toString('utf8')).toBe(JSON.stringify(first.catalog.resources.slice(0, 2)));
    expect(a.nextCursor).toBe('next');
    expect(pages.bytes(first)).toBe(a.json.byteLength);
    // Another list, offset or page size is another page.
    pages.page(first, 'skills', 0, 2, build(first));
    pages.page(first, 'resources', 2, 2, build(first));
    pages.page(first, 'resources', 0, 3, build(first));
    expect(builds).toBe(4);

    swappable.publish(makeGeneration(2, ' (edited)'));
    const second = swappable.source.current();
    expect(pages.bytes(second)).toBe(0);
    const c = pages.page(second, 'resources', 0, 2, build(second));
    expect(builds).toBe(5);
    expect(c.json.toString('utf8')).toContain('(edited)');
    // A request still holding the older generation never gets the newer page, nor the newer one the older.
    expect(pages.page(first, 'resources', 0, 2, build(first))).toBe(a);
    expect(pages.page(second, 'resources', 0, 2, build(second))).toBe(c);
    expect(builds).toBe(5);
    // The pages belong to the generation (a WeakMap keyed by it): nothing subscribes to the store.
    expect(swappable.listeners.size).toBe(0);

    pages.close();
    expect(pages.bytes(first)).toBe(0);
    expect(pages.bytes(second)).toBe(0);
  });

  it('keeps at most maxBytes of JSON per generation and serves the pages past it without keeping them', () => {
    const { source } = createSwappableSource(makeGeneration(1));
    const pages = createListPages({ maxBytes: 5_000 });
    const generation = source.current();
    let builds = 0;
    for (let round = 0; round < 2; round++) {
      for (let offset = 0; offset < 1_000; offset += 20) {
        const page = pages.page(generation, 'resources', offset, 20, () => {
          builds++;
          return { items: generation.catalog.resources.slice(offset, offset + 20) };
        });
        expect(JSON.parse(page.json.toString('utf8'))).toEqual(
          generation.catalog.resources.slice(offset, offset + 20),
        );
      }
    }
    expect(pages.bytes(generation)).toBeGreaterThan(0);
    expect(pages.bytes(generation)).toBeLessThanOrEqual(5_000);
    // The pages that fit were built once; the rest once per request.
    const kept = Math.floor(
      5_000 / pages.page(generation, 'resources', 0, 20, () => ({ items: [] })).json.length,
    );
    expect(builds).toBe(50 + (50 - kept));
  });
});

describe('prepareSkillPages', () => {
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  /** The page from the cache, or undefined when it is not made yet (nothing is built to find out). */
  const cached = (pages: ReturnType<typeof createListPages>, generation: Generation, offset: number) => {
    let missing = false;
    const page = pages.page(generation, 'skills', offset, 100, () => {
      missing = true;
      return { items: [] };
    });
    return missing ? undefined : page;
  };

  it('makes every page of skills/list ahead, one per turn of the event loop, exactly as a request builds it', async () => {
    const { source } = createSwappableSource(makeGeneration(1));
    const generation = source.current();
    const pages = createListPages();
    prepareSkillPages(source, pages, 100);
    // Nothing in this turn: whatever runs next (a request) comes first.
    expect(pages.bytes(generation)).toBe(0);
    await turn();
    const first = pages.bytes(generation);
    expect(first).toBeGreaterThan(0);
    await turn();
    await turn();
    expect(pages.bytes(generation)).toBeGreaterThan(first);
    // 250 skills: three pages, each the JSON of the entries a request would list, with the same next cursor.
    for (const offset of [0, 100, 200]) {
      const page = cached(pages, generation, offset);
      const fresh = listSkillsPage(generation.catalog, offset, 100);
      expect(page?.json.toString('utf8')).toBe(JSON.stringify(fresh.items));
      expect(page?.nextCursor).toBe(fresh.nextCursor);
    }
    const held = pages.bytes(generation);
    await turn();
    expect(pages.bytes(generation), 'nothing after the last page').toBe(held);
  });

  it('stops when the source moves on to another generation, and when stopped', async () => {
    const swappable = createSwappableSource(makeGeneration(1));
    const old = swappable.source.current();
    const pages = createListPages();
    prepareSkillPages(swappable.source, pages, 100);
    await turn();
    expect(cached(pages, old, 0)).toBeDefined();
    swappable.publish(makeGeneration(2, ' (edited)'));
    const current = swappable.source.current();
    await turn();
    await turn();
    // The old generation's pages stop where they were; the new one's are made when asked.
    expect(pages.bytes(old)).toBe(cached(pages, old, 0)?.json.byteLength);
    expect(pages.bytes(current)).toBe(0);

    const stopped = createListPages();
    const stop = prepareSkillPages(swappable.source, stopped, 100);
    stop();
    stop();
    await turn();
    expect(stopped.bytes(current)).toBe(0);
  });
});

describe('ResponseSplice', () => {
  const bytes = Buffer.from(JSON.stringify([{ uri: 'a://b', text: 'é “q” \n' }]), 'utf8');

  it('replaces the placeholder with the held bytes: the text JSON.stringify would write for the value', () => {
    const splice = new ResponseSplice();
    const message = { result: { resources: splice.hold(bytes), nextCursor: 'c' }, jsonrpc: '2.0', id: 3 };
    expect(splice.pending).toBe(true);
    const out = Buffer.concat(splice.replace(Buffer.from(JSON.stringify(message), 'utf8'))).toString('utf8');
    expect(splice.pending).toBe(false);
    const expected = { ...message, result: { ...message.result, resources: JSON.parse(bytes.toString()) } };
    expect(out).toBe(JSON.stringify(expected));
    // Each placeholder once, and another splice's placeholder is never this one's.
    const other = new ResponseSplice();
    const foreign = Buffer.from(JSON.stringify({ x: other.hold(bytes) }), 'utf8');
    expect(Buffer.concat(splice.replace(foreign)).equals(foreign)).toBe(true);
  });

  it('splices a streamed body whatever the chunks, the placeholder split across them included', async () => {
    for (const cut of [1, 7, 20, 40, 64]) {
      const splice = new ResponseSplice();
      const text = `event: message\ndata: ${JSON.stringify({ result: { skills: splice.hold(bytes) }, id: 1 })}\n\n`;
      const whole = Buffer.from(text, 'utf8');
      const chunks = [whole.subarray(0, cut), whole.subarray(cut, cut + 30), whole.subarray(cut + 30)];
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      });
      const response = splice.wrap(new Response(body, { status: 200, headers: { 'x-kept': 'yes' } }));
      expect(response.headers.get('x-kept')).toBe('yes');
      const out = await response.text();
      expect(out, `cut at ${cut}`).toBe(
        `event: message\ndata: ${JSON.stringify({ result: { skills: JSON.parse(bytes.toString()) }, id: 1 })}\n\n`,
      );
    }
  });
});

describe('list pages over HTTP, both eras', () => {
  let server: HttpServerHandle | undefined;
  const connections: McpConnection[] = [];
  afterEach(async () => {
    for (const connection of connections.splice(0)) await connection.close();
    await server?.close();
    server = undefined;
  });

  it('answers every page with exactly the bytes of a fresh serialization, and the new page after a change', async () => {
    const swappable = createSwappableSource(makeGeneration(1));
    server = await startHttp(swappable.source);
    const port = server.port;
    const legacy = await connectHttp(server.url, 'pages-legacy');
    connections.push(legacy);
    const sessionId = (legacy.client.transport as { sessionId?: string }).sessionId!;
    let id = 100;
    const askLegacy = (method: string) => async (params: Record<string, unknown>) => {
      const response = await sendRaw(port, {
        headers: mcpHeaders(port, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }),
        body: JSON.stringify({ jsonrpc: '2.0', id: id++, method, params }),
      });
      expect(response.status).toBe(200);
      return resultOf(sseData(response.body));
    };
    const askModern = (method: string) => async (params: Record<string, unknown>) => {
      const response = await sendRaw(port, {
        headers: mcpHeaders(port, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method }),
        body: JSON.stringify({ jsonrpc: '2.0', id: id++, method, params: { ...params, _meta: MODERN_META } }),
      });
      expect(response.status).toBe(200);
      const result = resultOf(response.body);
      // What the revision adds is there, beside the spliced entries.
      expect(result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'public' });
      return result;
    };

    for (const edit of ['', ' (edited)']) {
      if (edit !== '') swappable.publish(makeGeneration(2, edit));
      for (const { method, key } of LISTS) {
        const expected = await freshPages(swappable.source, method);
        expect(expected).toHaveLength(3);
        expect(JSON.stringify(expected.map((page) => page[key]))).toContain(`${edit}`);
        // Twice each: the first answer builds the page, the second comes from the cache (a change made in place
        // meanwhile does not show: the bytes were made once for this generation).
        for (let round = 0; round < 2; round++) {
          const restore = round === 1 ? mutateInPlace(swappable.source.current()) : () => {};
          try {
            await expectSamePages(askLegacy(method), key, expected);
            const modern = await expectSamePages(askModern(method), key, expected);
            expect(JSON.stringify(modern).includes('(edited)')).toBe(edit !== '');
            expect(JSON.stringify(modern)).not.toContain('mutated in place');
          } finally {
            restore();
          }
        }
      }
    }
    // The SDK's own client reads the same pages in both eras.
    const modern = await connectHttp(server.url, 'pages-modern', 'modern');
    connections.push(modern);
    for (const connection of [legacy, modern]) {
      const first = (await rawRequest(connection, 'resources/list')) as Page;
      expect((first.resources as unknown[]).length).toBe(500);
      expect(JSON.stringify(first)).toContain('(edited)');
    }
  });
});

describe('list pages over stdio, both eras', () => {
  it('writes every page as one line of exactly the bytes of a fresh serialization, and the new page after a change', async () => {
    const swappable = createSwappableSource(makeGeneration(1));
    for (const era of ['legacy', 'modern'] as const) {
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const lines: string[] = [];
      let buffer = '';
      stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        for (let at = buffer.indexOf('\n'); at !== -1; at = buffer.indexOf('\n')) {
          lines.push(buffer.slice(0, at));
          buffer = buffer.slice(at + 1);
        }
      });
      const done = serveStdio(swappable.source, { stdin, stdout, cacheTtlMs: 0 });
      let id = 1;
      const answer = async (method: string, params: Record<string, unknown>) => {
        const mine = id++;
        const meta = era === 'modern' ? { _meta: MODERN_META } : {};
        stdin.write(
          `${JSON.stringify({ jsonrpc: '2.0', id: mine, method, params: { ...params, ...meta } })}\n`,
        );
        const find = () => lines.find((line) => (JSON.parse(line) as { id?: number }).id === mine);
        await waitFor(() => find() !== undefined, 5000, `the answer to ${method} ${mine}`);
        return find()!;
      };
      if (era === 'legacy') {
        await answer('initialize', {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw-legacy', version: '1' },
        });
        stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      } else await answer('server/discover', {});
      for (const edit of ['', ' (edited)']) {
        if (edit !== '') swappable.publish(makeGeneration(3, edit));
        for (const { method, key } of LISTS) {
          const expected = await freshPages(swappable.source, method);
          for (let round = 0; round < 2; round++) {
            const restore = round === 1 ? mutateInPlace(swappable.source.current()) : () => {};
            try {
              const pages = await expectSamePages(
                async (params) => resultOf(await answer(method, params)),
                key,
                expected,
              );
              expect(JSON.stringify(pages).includes('(edited)')).toBe(edit !== '');
              expect(JSON.stringify(pages)).not.toContain('mutated in place');
            } finally {
              restore();
            }
          }
        }
      }
      stdin.end();
      await done;
      swappable.publish(makeGeneration(1));
    }
  });
});
