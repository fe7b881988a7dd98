/**
 * The MCP surface over stdio: the real CLI (`node bin/companion.js serve`) spawned with the SDK's stdio client
 * transport, on a temp copy of the bundled content plus the `mcp-extra` fixture (a draft skill, a binary file) —
 * three hosts at once: a 2025-11-25 one, one pinned to 2026-07-28, and one that negotiates (`auto`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectStdio,
  expectRpcError,
  type McpConnection,
  type Negotiation,
  rawRequest,
} from '../helpers/mcp-client.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';
import { describeSurface } from './surface-suite.js';

const PAGE_SIZE = 4;
/** `serve`'s default without --watch. */
const CACHE_TTL_MS = 60_000;
const NEGOTIATIONS: readonly Negotiation[] = ['legacy', 'modern', 'auto'];
let project: TempProject;
let connections: McpConnection[] = [];
let connection: McpConnection;

beforeAll(async () => {
  project = copyFixture('mcp-extra', { bundled: true, prefix: 'companion-mcp-stdio-' });
  connections = await Promise.all(
    NEGOTIATIONS.map((negotiation) =>
      connectStdio({ root: project.root, args: ['--page-size', String(PAGE_SIZE)], negotiation }),
    ),
  );
  connection = connections[0]!;
});

afterAll(async () => {
  await Promise.all(connections.map((open) => open.close()));
  project?.cleanup();
});

describe('companion serve over stdio, in both eras', () => {
  describeSurface(() => ({ root: project.root, pageSize: PAGE_SIZE, cacheTtlMs: CACHE_TTL_MS, connections }));

  it('logs one start line to stderr and nothing else', () => {
    for (const open of connections) {
      const lines = open.stderr().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^companion serve: companion \S+ from .+, generation 1: \d+ documents, \d+ skills/,
      );
    }
  });
});

describe('COMPANION_EXCLUDE_TOOLS', () => {
  let excluded: McpConnection;
  beforeAll(async () => {
    excluded = await connectStdio({
      root: project.root,
      env: { COMPANION_EXCLUDE_TOOLS: 'Task_Guide, skill_load  nonsense' },
    });
  });
  afterAll(async () => {
    await excluded?.close();
  });

  it('hides the tools, and the index and instructions drop what only they answered; the list stays', async () => {
    const { tools } = await excluded.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['document_lookup']);
    for (const name of ['task_guide', 'skill_load']) {
      expect((await expectRpcError(excluded.client.callTool({ name, arguments: {} }))).code).toBe(-32602);
    }
    // The "what to call for what" index keeps only lines an offered tool answers, and never names a hidden tool.
    const instructions = excluded.client.getInstructions() ?? '';
    const routed = (text: string) => text.split('\n').filter((line) => /^- .*: [a-z_]+$/.test(line));
    expect(routed(instructions).length).toBeGreaterThan(0);
    for (const line of routed(instructions)) expect(line).toMatch(/: document_lookup$/);
    expect(instructions).not.toContain('task_guide');
    expect(instructions).not.toContain('skill_load');
    expect(
      routed(connection.client.getInstructions() ?? '').some((line) => line.endsWith(': task_guide')),
    ).toBe(true);

    const readIndex = async (target: McpConnection) => {
      const result = await target.client.readResource({ uri: 'companion://guides' });
      return String((result.contents[0] as { text: string }).text);
    };
    const index = await readIndex(excluded);
    expect(index).not.toContain('"task_guide"');
    expect(index).not.toContain('"skill_load"');
    expect(await readIndex(connection)).toContain('"task_guide"');

    const all = async (target: McpConnection) => {
      const uris: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await target.client.listResources(cursor === undefined ? {} : { cursor });
        uris.push(...page.resources.map((resource) => resource.uri));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return uris;
    };
    expect(await all(excluded)).toEqual(await all(connection));
    const skills = await rawRequest(excluded, 'skills/list', {});
    expect((skills.skills as unknown[]).length).toBeGreaterThan(0);
    expect(excluded.stderr()).toContain('COMPANION_EXCLUDE_TOOLS names no such tool: nonsense');
  });
});
