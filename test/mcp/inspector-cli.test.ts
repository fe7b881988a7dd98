/**
 * `@modelcontextprotocol/inspector-cli` 1.0.3 as a third-party stdio client of the real CLI. It runs with
 * `cwd: <repo>/node_modules` because it looks for `../package.json` relative to the process cwd.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/core/catalog.js';
import { readSnapshot } from '../../src/fs/read-snapshot.js';
import { binPath, repoRoot } from '../helpers/mcp-client.js';

const run = promisify(execFile);
const inspector = join(
  repoRoot,
  'node_modules',
  '@modelcontextprotocol',
  'inspector-cli',
  'build',
  'index.js',
);

function inspect(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [inspector, process.execPath, binPath, 'serve', '--root', repoRoot, ...args], {
    cwd: join(repoRoot, 'node_modules'),
    timeout: 20_000,
  });
}

describe('inspector-cli lists, reads and calls as a third-party client', () => {
  it('resources/list, resources/read and tools/list, and a refused read', async () => {
    const catalog = buildCatalog(readSnapshot(repoRoot)).catalog;
    // Four runs (eight node processes): the SDK client covers the rest of the surface.
    const [list, index, tools, missing] = await Promise.all([
      inspect('--method', 'resources/list'),
      inspect('--method', 'resources/read', '--uri', catalog.indexUri),
      inspect('--method', 'tools/list'),
      inspect('--method', 'resources/read', '--uri', 'companion://guides/../../etc/passwd').then(
        () => undefined,
        (error: { code?: number; stderr?: string }) => error,
      ),
    ]);

    const listed = JSON.parse(list.stdout) as { resources: { uri: string; size: number }[] };
    expect(listed.resources.map((resource) => resource.uri)).toEqual(
      catalog.resources.map((resource) => resource.uri),
    );
    const indexText = (JSON.parse(index.stdout) as { contents: { text: string }[] }).contents[0]!.text;
    expect(Buffer.byteLength(indexText)).toBe(listed.resources[0]!.size);
    expect(() => JSON.parse(indexText)).not.toThrow();
    const toolList = JSON.parse(tools.stdout) as { tools: { name: string }[] };
    expect(toolList.tools.map((tool) => tool.name)).toEqual([...catalog.tools]);

    expect(missing?.code).toBe(1);
    expect(missing?.stderr).toContain('-32602');
    expect(missing?.stderr).toContain('Resource not found: companion://guides/../../etc/passwd');
  });
});
