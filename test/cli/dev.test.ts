/**
 * `companion dev` as a command and as a process: arguments and early exits in-process; then the built CLI
 * (`npm run build` first) in plain mode with a real MCP client over HTTP. The dashboard on a real terminal is in
 * dev-terminal.test.ts.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/commands/dev.js';
import { createCatalogStore } from '../../src/fs/catalog-store.js';
import {
  connectHttp,
  connectInMemory,
  type McpConnection,
  rawRequest,
  repoRoot,
  waitFor,
} from '../helpers/mcp-client.js';
import { type CliProcess, runCommand, spawnCli } from '../helpers/run-cli.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';

// Deadlines, not sleeps: each wait returns as soon as its event shows. They are generous because a loaded CI
// machine can take seconds to start node and load the SDK (and Ink).
const STEP_MS = 15_000;
const PROCESS_TEST_MS = 60_000;

const projects: TempProject[] = [];
afterAll(() => {
  for (const project of projects) project.cleanup();
});

/** A fresh copy of the bundled content, so edits never touch the repository. */
function createProject(): TempProject {
  const project = copyFixture('', { bundled: true, prefix: 'companion-dev-' });
  projects.push(project);
  return project;
}

type DevProcess = CliProcess;

function spawnDev(args: readonly string[], env: Readonly<Record<string, string>> = {}): DevProcess {
  return spawnCli(['dev', ...args], { env });
}

/** Waits for a line matching `pattern` on the process's stdout and returns its match. */
async function waitForLine(dev: DevProcess, pattern: RegExp, what: string): Promise<RegExpMatchArray> {
  let match: RegExpMatchArray | null = null;
  await waitFor(
    () => {
      match = dev.output.stdout.match(pattern);
      return match !== null;
    },
    STEP_MS,
    `${what}\n--- stdout\n${dev.output.stdout}\n--- stderr\n${dev.output.stderr}`,
  );
  return match!;
}

describe('companion dev: arguments', () => {
  it('prints its help', async () => {
    const result = await runCommand(run, ['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: companion dev \[--root DIR\] \[--port N\] \[--host HOST\]/);
  });

  it.each([
    [['--port', 'abc'], "--port must be a whole number from 0 to 65535, not 'abc'"],
    [['--port', '70000'], '--port must be a whole number from 0 to 65535'],
    [['--port', '-1'], '--port'],
    [['--host', ''], '--host must not be empty'],
    [['--bogus'], "unknown option '--bogus'"],
    [['somewhere'], "unexpected argument 'somewhere'"],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const result = await runCommand(run, argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });

  it('refuses a missing root with exit 2, naming the path', async () => {
    const result = await runCommand(run, ['--root', '/nonexistent/companion-dev-root', '--port', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'companion dev: The content root /nonexistent/companion-dev-root does not exist.\n',
    );
    expect(result.stdout).toBe('');
  });

  it('refuses a root with neither a scope file nor skills/ with exit 2, saying what it looked for', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'companion-dev-empty-'));
    try {
      for (const command of ['dev', 'serve'] as const) {
        const module = command === 'dev' ? run : (await import('../../src/cli/commands/serve.js')).run;
        const result = await runCommand(module, ['--root', empty]);
        expect(result.code, command).toBe(2);
        expect(result.stderr).toContain(
          `companion ${command}: ${empty} holds no content: looked for knowledge/server-scope.json and skills/ and found neither.`,
        );
        expect(result.stderr).toContain('companion init');
      }
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('exits 2 with a clear message when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await runCommand(run, ['--root', repoRoot, '--port', String(port)]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`companion dev: port ${port} is already in use on 127.0.0.1; pass --port\n`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

describe('companion dev: plain mode', () => {
  it('logs a save and notifies a connected host, then exits 0 on SIGTERM', {
    timeout: PROCESS_TEST_MS,
  }, async () => {
    const project = createProject();
    const dev = spawnDev(['--root', project.root, '--port', '0']);
    try {
      const [, url] = await waitForLine(
        dev,
        /^\[companion\] listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m,
        'URL',
      );
      await waitForLine(dev, /^\[companion\] watching (\d+ paths )?for changes$/m, 'the watcher');

      const connection = await connectHttp(url!, 'dev-test-host');
      const uri = 'companion://guides/any/hosts/codex';
      try {
        await connection.client.subscribeResource({ uri });
        await waitForLine(
          dev,
          /^\[companion\] host dev-test-host 1\.0\.0 has 1 subscription$/m,
          'the subscription',
        );
        expect(dev.output.stdout).toMatch(/^\[companion\] host connected: dev-test-host 1\.0\.0 \(http\)$/m);

        appendFileSync(
          project.path('knowledge/documents/any/hosts/codex.md'),
          '\nSaved while dev watched.\n',
        );
        await waitForLine(
          dev,
          /^\[companion\] generation 2 in [\d.]+ ms: saved knowledge\/documents\/any\/hosts\/codex\.md → list_changed, 1 updated$/m,
          'the generation line',
        );
        await waitFor(
          () =>
            connection.notifications.some(
              (n) => n.method === 'notifications/resources/updated' && n.uri === uri,
            ),
          STEP_MS,
          'the resources/updated notification',
        );

        await connection.client.readResource({ uri });
        await waitForLine(
          dev,
          /^\[companion\] host dev-test-host 1\.0\.0 re-read after generation 2$/m,
          'the re-read',
        );

        // Breaking a skill shows its diagnostic as new; restoring it reports it fixed.
        const skill = project.path('skills/connect-a-host/SKILL.md');
        const original = readFileSync(skill, 'utf8');
        writeFileSync(skill, original.replace(/^name: connect-a-host$/m, 'name: connect-a-hos'));
        const [, code] = await waitForLine(
          dev,
          /^\[companion\] diagnostic new (CMP\d+) skills\/connect-a-host\/SKILL\.md:\d+/m,
          'the new diagnostic',
        );
        writeFileSync(skill, original);
        await waitForLine(
          dev,
          new RegExp(`^\\[companion\\] fixed ${code} skills/connect-a-host/SKILL\\.md`, 'm'),
          'fixed',
        );
      } finally {
        await connection.close();
      }

      dev.child.kill('SIGTERM');
      expect(await dev.exit).toEqual({ code: 0, signal: null });
      expect(dev.output.stdout).toMatch(/\[companion\] stopped \(SIGTERM\)\n$/);
      // Plain mode is for logs and pipes: not one escape code, whatever happened.
      expect(dev.output.stdout).not.toContain('\u001b');
      expect(dev.output.stderr).toBe('');
    } finally {
      dev.child.kill('SIGKILL');
    }
  });

  it('answers a host that walks skills/list as it listens as a fresh build lists it, then is ready and publishes a save', {
    timeout: PROCESS_TEST_MS,
  }, async () => {
    const project = createProject();
    /** Every page of skills/list, page by page as a host walks it. */
    const walk = async (connection: McpConnection) => {
      const pages: unknown[] = [];
      let cursor: unknown;
      do {
        const page = await rawRequest(connection, 'skills/list', cursor === undefined ? {} : { cursor });
        pages.push(page.skills);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return pages;
    };
    // What a server that makes every page afresh answers for the same files: no door, no cache, no process.
    const fresh = await connectInMemory(createCatalogStore({ root: project.root }));
    const expected = await walk(fresh).finally(() => fresh.close());
    expect(JSON.stringify(expected)).toContain('"digest":"sha256:');

    const dev = spawnDev(['--root', project.root, '--port', '0']);
    try {
      const [, url] = await waitForLine(dev, /^\[companion\] listening on (http:\/\/\S+)$/m, 'URL');
      // A 2026-07-28 host, at once: its pages are the ones dev made ahead while it connected.
      const host = await connectHttp(url!, 'dev-start-host', 'modern');
      try {
        expect(await walk(host)).toEqual(expected);
      } finally {
        await host.close();
      }
      // The door listened before the build: its line comes first, what was loaded after it.
      const out = dev.output.stdout;
      expect(out.indexOf('[companion] listening on ')).toBe(0);
      expect(out.indexOf('[companion] root ')).toBeGreaterThan(0);
      // The first reconcile waited for the host to be quiet; then the watcher is ready, and a save is published.
      await waitForLine(dev, /^\[companion\] watching (\d+ paths )?for changes$/m, 'the watcher');
      appendFileSync(
        project.path('skills/connect-a-host/references/troubleshooting.md'),
        '\nSaved after the walk.\n',
      );
      await waitForLine(
        dev,
        /^\[companion\] generation 2 in [\d.]+ ms: saved skills\/connect-a-host\/references\/troubleshooting\.md/m,
        'the generation line',
      );
      dev.child.kill('SIGTERM');
      expect(await dev.exit).toEqual({ code: 0, signal: null });
      expect(dev.output.stderr).toBe('');
    } finally {
      dev.child.kill('SIGKILL');
    }
  });

  it('bound to every interface, says so rather than naming only loopback', {
    timeout: PROCESS_TEST_MS,
  }, async () => {
    const dev = spawnDev(['--root', repoRoot, '--port', '0', '--host', '0.0.0.0']);
    try {
      const [, port] = await waitForLine(
        dev,
        /^\[companion\] listening on 0\.0\.0\.0:(\d+) \(every interface; from this machine: http:\/\/127\.0\.0\.1:\d+\/mcp\)$/m,
        'the listening line',
      );
      expect(dev.output.stdout).toContain(`http://127.0.0.1:${port}/mcp`);
      expect(dev.output.stdout).not.toMatch(/listening on http:\/\/127\.0\.0\.1/);
      dev.child.kill('SIGTERM');
      expect(await dev.exit).toEqual({ code: 0, signal: null });
    } finally {
      dev.child.kill('SIGKILL');
    }
  });

  it('exits 0 on SIGINT', { timeout: PROCESS_TEST_MS }, async () => {
    const dev = spawnDev(['--root', repoRoot, '--port', '0']);
    try {
      await waitForLine(dev, /^\[companion\] listening on /m, 'the URL');
      dev.child.kill('SIGINT');
      expect(await dev.exit).toEqual({ code: 0, signal: null });
      expect(dev.output.stdout).toMatch(/\[companion\] stopped \(SIGINT\)\n$/);
    } finally {
      dev.child.kill('SIGKILL');
    }
  });
});
