/**
 * The official conformance suite, `@modelcontextprotocol/conformance` 0.2.0-alpha.12 (the newest; it runs on Node
 * 20 with `test/conformance/node20-glob-sync.mjs`), against `serveHttp` on the bundled content, in both protocol
 * eras: every server scenario of each era (`--suite all --spec-version …`), and the Skills extension's
 * `sep-2640-*` scenarios in each. Applicable checks must pass; the rest must fail exactly as
 * `test/conformance/baseline-<era>.yml` lists them, check by check — the tool exits 1 when a listed check
 * passes, so a baseline never goes stale — and the scenarios named below must have run and passed.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogStore } from '../../src/fs/catalog-store.js';
import type { HttpServerHandle } from '../../src/mcp/serve-http.js';
import { repoRoot, startHttp } from '../helpers/mcp-client.js';

const run = promisify(execFile);
const cli = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const loader = join(repoRoot, 'test', 'conformance', 'node20-glob-sync.mjs');
const ERAS = ['2025-11-25', '2026-07-28'] as const;
type Era = (typeof ERAS)[number];
const SKILLS_SCENARIOS = [
  'sep-2640-skills-enumeration',
  'sep-2640-skills-manifest',
  'sep-2640-skills-directory',
];

/** Scenarios that apply to companion in each era: each must run, and every check of it must pass. */
const PASSING: Record<Era, readonly string[]> = {
  '2025-11-25': [
    'server-initialize',
    'server-session-lifecycle',
    'ping',
    'completion-complete',
    'tools-list',
    'server-sse-multiple-streams',
    'resources-list',
    'dns-rebinding-protection',
    ...SKILLS_SCENARIOS,
  ],
  '2026-07-28': [
    'completion-complete',
    'tools-list',
    'server-sse-multiple-streams',
    'resources-list',
    'sep-2164-resource-not-found',
    'dns-rebinding-protection',
    'input-required-result-unsupported-methods',
    'input-required-result-validate-input',
    ...SKILLS_SCENARIOS,
  ],
};
/** Applicable scenarios with a check that needs a fixture companion does not serve (baselined, with the reason). */
const PASSING_BUT_BASELINED: Record<Era, readonly string[]> = {
  '2025-11-25': [],
  '2026-07-28': ['server-stateless', 'caching', 'http-header-validation'],
};

interface Check {
  readonly id: string;
  readonly status: string;
}

let server: HttpServerHandle;
let output: string;
/** Scenario → its checks, per era. */
const results: Record<Era, Map<string, Check[]>> = { '2025-11-25': new Map(), '2026-07-28': new Map() };

/** Runs the conformance CLI once; resolves when it exited 0, with its stdout. */
async function conform(era: Era, args: readonly string[], name: string): Promise<void> {
  const dir = join(output, era, name);
  await run(
    process.execPath,
    ['--import', loader, cli, 'server', '--url', server.url, '--spec-version', era, ...args, '-o', dir],
    { cwd: repoRoot, timeout: 60_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
  ).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(
      `conformance (${era}, ${name}) failed:\n${error.stdout ?? ''}\n${error.stderr ?? ''}\n${error.message}`,
    );
  });
  for (const entry of readdirSync(dir)) {
    const scenario = entry.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
    results[era].set(scenario, JSON.parse(readFileSync(join(dir, entry, 'checks.json'), 'utf8')) as Check[]);
  }
}

beforeAll(async () => {
  output = mkdtempSync(join(tmpdir(), 'companion-conformance-'));
  server = await startHttp(createCatalogStore({ root: repoRoot }), { cacheTtlMs: 60_000 });
  const runs = ERAS.flatMap((era) => [
    () =>
      conform(
        era,
        [
          '--suite',
          'all',
          '--expected-failures',
          join(repoRoot, 'test', 'conformance', `baseline-${era}.yml`),
        ],
        'suite',
      ),
    ...SKILLS_SCENARIOS.map((scenario) => () => conform(era, ['--scenario', scenario, '--force'], scenario)),
  ]);
  // Eight CLI runs, four at a time: the whole suite takes seconds.
  const queue = [...runs];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) await next();
    }),
  );
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (output && !process.env.KEEP) rmSync(output, { recursive: true, force: true });
});

describe.each(ERAS)('MCP conformance, server scenarios, %s', (era) => {
  it('ran every scenario the era has, and the applicable ones pass', () => {
    const ran = results[era];
    expect(ran.size).toBeGreaterThan(era === '2025-11-25' ? 30 : 40);
    for (const scenario of PASSING[era]) {
      const checks = ran.get(scenario);
      expect(checks, `${scenario} ran`).toBeDefined();
      expect(
        checks!.filter((check) => check.status === 'FAILURE').map((check) => check.id),
        scenario,
      ).toEqual([]);
      expect(checks!.filter((check) => check.status === 'SUCCESS').length, scenario).toBeGreaterThan(0);
    }
    for (const scenario of PASSING_BUT_BASELINED[era]) {
      const checks = ran.get(scenario)!;
      expect(checks.filter((check) => check.status === 'SUCCESS').length, scenario).toBeGreaterThan(5);
    }
  });

  it('sends only messages valid against the era’s schema, in every scenario', () => {
    for (const [scenario, checks] of results[era]) {
      for (const check of checks.filter((entry) => entry.id === 'wire-schema-valid')) {
        expect(check.status, scenario).toBe('SUCCESS');
      }
    }
  });
});
