/**
 * Default page sizes of `resources/list` (500) and `skills/list` (100), and `pageSize` overriding both — over
 * the SDK's in-memory transport, against a synthetic catalog large enough to need several pages of each list.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Catalog, CatalogSource, Generation, SkillEntry } from '../../src/core/types.js';
import { DEFAULT_RESOURCES_PAGE_SIZE, DEFAULT_SKILLS_PAGE_SIZE } from '../../src/mcp/create-server.js';
import { connectInMemory, type McpConnection, rawRequest } from '../helpers/mcp-client.js';

const RESOURCES = 1_201;
const SKILLS = 250;

function skill(i: number): SkillEntry {
  const id = `skill-${String(i).padStart(4, '0')}`;
  const uri = `test://skill/${id}/SKILL.md`;
  return {
    id,
    uri,
    title: id,
    description: `Skill ${i}`,
    frontmatter: { name: id, description: `Skill ${i}`, metadata: { 'companion-status': 'published' } },
    body: '',
    files: [{ path: 'SKILL.md', uri, source: `skills/${id}/SKILL.md` }],
    manifest: [{ uri, digest: `sha256:${'0'.repeat(64)}`, size: i }],
  };
}

function generation(): Generation {
  const resources = Array.from({ length: RESOURCES }, (_, i) => ({
    uri: `test://doc/${String(i).padStart(5, '0')}`,
    name: `doc-${i}`,
    title: `Document ${i}`,
    description: '',
    mimeType: 'text/markdown',
    size: i,
    annotations: { priority: 0.5 },
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
    skills: Array.from({ length: SKILLS }, (_, i) => skill(i)),
  } as unknown as Catalog;
  return { number: 1, catalog, diagnostics: [], builtAt: 0 };
}

const open: McpConnection[] = [];
afterEach(async () => {
  for (const connection of open.splice(0)) await connection.close();
});

async function connect(source: CatalogSource, pageSize?: number): Promise<McpConnection> {
  const connection = await connectInMemory(source, pageSize === undefined ? {} : { pageSize });
  open.push(connection);
  return connection;
}

/** The page lengths of a whole walk of `method`, following cursors. */
async function pageLengths(
  connection: McpConnection,
  method: 'resources/list' | 'skills/list',
): Promise<number[]> {
  const key = method === 'resources/list' ? 'resources' : 'skills';
  const lengths: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await rawRequest(connection, method, cursor === undefined ? {} : { cursor });
    lengths.push((page[key] as unknown[]).length);
    cursor = page.nextCursor as string | undefined;
  } while (cursor !== undefined && lengths.length < 100);
  return lengths;
}

describe('page sizes', () => {
  const source: CatalogSource = (() => {
    const current = generation();
    return { current: () => current, subscribe: () => () => {} };
  })();

  it('pages resources/list by 500 and skills/list by 100 by default', async () => {
    expect(DEFAULT_RESOURCES_PAGE_SIZE).toBe(500);
    expect(DEFAULT_SKILLS_PAGE_SIZE).toBe(100);
    const client = await connect(source);
    expect(await pageLengths(client, 'resources/list')).toEqual([500, 500, 201]);
    expect(await pageLengths(client, 'skills/list')).toEqual([100, 100, 50]);
  });

  it('pages both lists by pageSize when it is given', async () => {
    const client = await connect(source, 120);
    expect(await pageLengths(client, 'resources/list')).toEqual([...Array(10).fill(120), 1]);
    expect(await pageLengths(client, 'skills/list')).toEqual([120, 120, 10]);
  });
});
