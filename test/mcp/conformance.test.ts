/**
 * `@modelcontextprotocol/conformance` 0.1.13 (the newest that loads on Node 20) against `serveHttp` on the
 * bundled content. One run of every server scenario: the applicable ones must pass, and the rest must fail
 * exactly as `test/conformance-baseline.yml` lists them (a baseline entry that starts passing fails the run).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogStore } from '../../src/fs/catalog-store.js';
import type { HttpServerHandle } from '../../src/mcp/serve-http.js';
import { repoRoot, startHttp } from '../helpers/mcp-client.js';

const run = promisify(execFile);
const cli = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const baseline = join(repoRoot, 'test', 'conformance-baseline.yml');

/** The scenarios that apply to companion; each must pass. */
const APPLICABLE = [
  'server-initialize',
  'ping',
  'resources-list',
  'resources-subscribe',
  'resources-unsubscribe',
  'completion-complete',
  'tools-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];

let server: HttpServerHandle;
beforeAll(async () => {
  server = await startHttp(createCatalogStore({ root: repoRoot }));
});
afterAll(async () => {
  await server?.close();
});

describe('MCP conformance (server scenarios over HTTP)', () => {
  it('passes every applicable scenario and fails exactly the baselined ones', async () => {
    const { stdout } = await run(
      process.execPath,
      [cli, 'server', '--url', server.url, '--suite', 'all', '--expected-failures', baseline],
      { cwd: repoRoot, timeout: 45_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
    ).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`conformance failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}\n${error.message}`);
    });
    const summary = stdout.slice(stdout.indexOf('=== SUMMARY ==='));
    for (const scenario of APPLICABLE) {
      expect(summary, scenario).toMatch(new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`));
    }
  }, 60_000);
});
