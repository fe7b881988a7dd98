/**
 * The first run of an author who has never seen this repository: the package as npm would publish it, installed
 * into a fresh project outside the checkout, then every command the README's first screen gives, run there with
 * `npx` — init, check, serve to a real stdio client, dev to a real HTTP client that sees a save, and install,
 * whose entry is then started the way the host would start it.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_NAME } from '../../src/core/product.js';
import { repoRoot } from '../helpers/run-cli.js';

const run = promisify(execFile);

/** npm, quiet, never asking anything, with the cache `npm ci` already filled (no download needed in CI). */
async function npm(args: readonly string[], cwd: string, timeout = 120_000): Promise<string> {
  const { stdout } = await run(
    'npm',
    [...args, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
    {
      cwd,
      timeout,
      env: { ...process.env, npm_config_yes: 'false' },
    },
  );
  return stdout;
}

/** `npx companion …` in `cwd`, as an author types it. */
async function npx(
  args: readonly string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('npx', ['--no', 'companion', ...args], { cwd, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

const client = () => new Client({ name: 'packed-install-test', version: '1.0.0' });

let temp: string;
let project: string;

beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), 'companion-packed-'));
  // `npm test` built dist/ already; packing must not build again (and the test must not depend on devDependencies).
  const packed = await npm(['pack', '--ignore-scripts', '--pack-destination', temp], repoRoot);
  const tarball = join(temp, packed.trim().split('\n').pop()!);
  project = join(temp, 'my-content');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'my-content', private: true }, null, 2)}\n`,
  );
  await npm(['install', '--save-dev', tarball], project);
}, 180_000);

afterAll(() => {
  if (temp) rmSync(temp, { recursive: true, force: true });
});

describe('the packed package in an author repository', () => {
  it('ships what runs and nothing of the checkout', () => {
    const installed = join(project, 'node_modules', PACKAGE_NAME);
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(manifest.name).toBe(PACKAGE_NAME);
    expect(manifest.bin).toEqual({ companion: 'bin/companion.js' });
    const top = readdirSync(installed).sort();
    expect(top).toEqual(
      expect.arrayContaining(['bin', 'dist', 'knowledge', 'skills', 'prompts', 'package.json']),
    );
    for (const absent of ['src', 'test', 'bench', 'node_modules', '.ci']) expect(top).not.toContain(absent);
    const devDependency = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).devDependencies;
    expect(Object.keys(devDependency)).toEqual([PACKAGE_NAME]);
  });

  it('answers its programmatic API: the catalog builder and the server factory', async () => {
    const script = [
      `import { buildCatalog, readSnapshot } from '${PACKAGE_NAME}';`,
      `import { serveHttp, serveStdio } from '${PACKAGE_NAME}/server';`,
      `const { catalog } = buildCatalog(readSnapshot(process.argv[2]));`,
      `console.log(JSON.stringify({ skills: catalog.skills.length, server: typeof serveHttp + typeof serveStdio }));`,
    ].join('\n');
    writeFileSync(join(project, 'api-check.mjs'), script);
    const { stdout } = await run(
      process.execPath,
      ['api-check.mjs', join(project, 'node_modules', PACKAGE_NAME)],
      {
        cwd: project,
      },
    );
    expect(JSON.parse(stdout)).toEqual({ skills: expect.any(Number), server: 'functionfunction' });
    expect(JSON.parse(stdout).skills).toBeGreaterThan(0);
  });

  it('starts the workers of the build pool from the installed files', async () => {
    const installed = join(project, 'node_modules', PACKAGE_NAME);
    const script = [
      `import { readAndBuildCatalog } from '${pathToFileURL(join(installed, 'dist/fs/build-pool.js')).href}';`,
      `const options = { pool: { threads: 1, minBytes: 0, share: false } };`,
      `const { pool, result } = readAndBuildCatalog(process.argv[2], {}, options);`,
      `console.log(JSON.stringify({ ...pool, skills: result.catalog.skills.length }));`,
    ].join('\n');
    writeFileSync(join(project, 'pool-check.mjs'), script);
    const { stdout } = await run(process.execPath, ['pool-check.mjs', installed], { cwd: project });
    const report = JSON.parse(stdout);
    expect(report.batches).toBeGreaterThan(0);
    expect(report.fromWorkers).toBe(report.batches);
    expect(report.skills).toBeGreaterThan(0);
  });

  it('init, check, serve, dev and install work there through npx', { timeout: 120_000 }, async () => {
    const init = await npx(['init'], project);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    // companion is installed here, so init's next steps are the two commands that work, and nothing to install.
    expect(init.stdout).toMatch(/^ {2}npx companion check /m);
    expect(init.stdout).not.toMatch(/npm install/);

    const check = await npx(['check', '--strict'], project);
    expect(check.stdout).toBe('✔ no problems in 1 document and 1 skill\n');
    expect(check.code).toBe(0);

    // serve: a real stdio client, the host starting `npx companion serve` in the project.
    const stdio = client();
    await stdio.connect(
      new StdioClientTransport({
        command: 'npx',
        args: ['--no', 'companion', 'serve'],
        cwd: project,
        stderr: 'pipe',
      }),
    );
    try {
      const { resources } = await stdio.listResources();
      expect(resources.map((resource) => resource.uri)).toContain('companion://skill/first-skill/SKILL.md');
    } finally {
      await stdio.close();
    }

    // dev: plain logs on a pipe, a real HTTP client subscribed to a document, a save it hears of.
    const dev = spawn('npx', ['--no', 'companion', 'dev', '--port', '0'], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await waitForListening(dev);
      const http = client();
      const updated: string[] = [];
      http.setNotificationHandler('notifications/resources/updated', (notification) => {
        updated.push(notification.params.uri);
      });
      await http.connect(new StreamableHTTPClientTransport(new URL(url)));
      try {
        const { resources } = await http.listResources();
        const document = resources.find((resource) => resource.uri.includes('first-document'))!;
        expect(document).toBeDefined();
        await http.subscribeResource({ uri: document.uri });
        const path = join(project, 'knowledge/documents/any/getting-started/first-document.md');
        writeFileSync(path, `${readFileSync(path, 'utf8')}\nOne more line, saved while dev runs.\n`);
        await waitUntil(
          () => updated.includes(document.uri),
          15_000,
          `resources/updated for ${document.uri}`,
        );
        const read = await http.readResource({ uri: document.uri });
        expect(JSON.stringify(read.contents)).toContain('One more line, saved while dev runs.');
      } finally {
        await http.close();
      }
    } finally {
      dev.kill('SIGTERM');
    }

    // install: the entry it writes, started exactly as Claude Code starts it (command and args, in the project).
    const install = await npx(['install', '--client', 'claude-code'], project);
    expect(install.code).toBe(0);
    const entry = JSON.parse(readFileSync(join(project, '.mcp.json'), 'utf8')).mcpServers['my-content'];
    expect(entry).toMatchObject({ type: 'stdio' });
    const host = client();
    await host.connect(
      new StdioClientTransport({ command: entry.command, args: entry.args, cwd: project, stderr: 'pipe' }),
    );
    try {
      const { tools } = await host.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['document_lookup', 'skill_load', 'task_guide']);
    } finally {
      await host.close();
    }
    expect(readdirSync(join(project, '.claude/skills'))).toContain('first-skill');

    // doctor agrees that the host points here and its copies are fresh.
    const doctor = await npx(['doctor'], project);
    expect(doctor.stdout).toContain('Claude Code');
    expect(doctor.code).toBe(0);
  });
});

/** Resolves the URL `companion dev` prints once it listens (plain mode: one line per event). */
function waitForListening(child: ChildProcess, timeoutMs = 30_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`companion dev did not listen:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`companion dev exited (${code}) before listening:\n${output}`));
    });
  });
}

async function waitUntil(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
