/**
 * `companion dev` as a command and as a process: arguments and early exits in-process; then the built CLI
 * (`npm run build` first) in plain mode with a real MCP client over HTTP, and the real Ink UI driven in tmux.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/commands/dev.js';
import { binPath, connectHttp, repoRoot, waitFor } from '../helpers/mcp-client.js';
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
          /^\[companion\] generation 2 in [\d.]+ ms: knowledge\/documents\/any\/hosts\/codex\.md → list_changed, 1 updated$/m,
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

const tmuxVersion = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
const tmuxMissing = tmuxVersion.error !== undefined || tmuxVersion.status !== 0;
if (tmuxMissing) {
  console.warn(
    'skipping the tmux tests of the companion dev UI: tmux is not installed (apt-get install tmux)',
  );
}

interface TmuxDev {
  /** The visible screen, as text. */
  capture(): string;
  sendKeys(...keys: string[]): void;
  /** The pid of the `companion dev` process. */
  pid(): number;
  /** Resolves with the exit status once the process ended (`143` for death by SIGTERM). */
  waitForExit(): Promise<string>;
  /** Kills this test's private tmux server and everything in it, and removes the scratch files. */
  close(): void;
}

/**
 * Runs `companion dev` on a 120×40 pane of a private tmux server (its own socket, so the test neither sees nor
 * disturbs anyone else's sessions) and waits until the dashboard's header shows with the watcher ready.
 *
 * The pane's shell records the process's pid and exit status in files: tmux's own `pane_dead_status` proved
 * unreliable (it sometimes never reaps the process), and the shell sees the status first hand.
 */
async function startDevInTmux(root: string, name: string): Promise<TmuxDev> {
  const socket = `companion-dev-test-${process.pid}-${name}`;
  const scratch = mkdtempSync(join(tmpdir(), 'companion-dev-tmux-'));
  const pidFile = join(scratch, 'pid');
  const statusFile = join(scratch, 'status');
  const tmux = (...args: string[]) =>
    spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  // The inner shell writes its pid and then becomes node (exec keeps the pid). CI would switch dev (and Ink) to
  // plain lines; these tests are about the dashboard.
  const inner =
    `echo $$ > "${pidFile}"; exec env -u CI -u CONTINUOUS_INTEGRATION ` +
    `"${process.execPath}" "${binPath}" dev --root "${root}" --port 0`;
  const command = `sh -c '${inner}'; echo $? > "${statusFile}"`;
  const readIfThere = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').trim() : '');
  const dev: TmuxDev = {
    capture: () => tmux('capture-pane', '-p', '-t', 'dev').stdout,
    sendKeys: (...keys) => {
      tmux('send-keys', '-t', 'dev', ...keys);
    },
    pid: () => Number(readIfThere(pidFile)),
    async waitForExit() {
      await waitFor(() => readIfThere(statusFile) !== '', STEP_MS, `exit\n${dev.capture()}`);
      return readIfThere(statusFile);
    },
    close: () => {
      tmux('kill-server');
      rmSync(scratch, { recursive: true, force: true });
    },
  };
  try {
    const started = tmux('new-session', '-d', '-s', 'dev', '-x', '120', '-y', '40', command);
    if (started.status !== 0) throw new Error(`tmux new-session failed: ${started.stderr}`);
    await waitFor(
      () => /companion dev .*http:\/\/127\.0\.0\.1:\d+\/mcp.*watching/.test(dev.capture()),
      STEP_MS,
      'the header',
    );
  } catch (error) {
    dev.close();
    throw error;
  }
  return dev;
}

describe('companion dev: the terminal UI', () => {
  it.skipIf(tmuxMissing)(
    'draws its panels, follows a save and quits on q (driven in tmux)',
    { timeout: PROCESS_TEST_MS },
    async () => {
      const project = createProject();
      const dev = await startDevInTmux(project.root, 'q');
      try {
        const screen = dev.capture();
        for (const text of [
          'Coverage',
          'Diagnostics',
          'Hosts',
          'Timeline',
          'q quit',
          'generation 1',
          '✓ no problems',
        ]) {
          expect(screen, screen).toContain(text);
        }
        // The 120-column layout puts coverage and diagnostics side by side.
        expect(
          screen.split('\n').some((line) => line.includes('Coverage') && line.includes('Diagnostics')),
        ).toBe(true);

        appendFileSync(project.path('knowledge/documents/any/hosts/codex.md'), '\nSaved under tmux.\n');
        await waitFor(() => dev.capture().includes('generation 2'), STEP_MS, 'generation 2 on screen');
        expect(dev.capture()).toMatch(/gen 2 {2}knowledge\/documents\/any\/hosts\/codex\.md/);

        dev.sendKeys('q');
        expect(await dev.waitForExit()).toBe('0');
      } finally {
        dev.close();
      }
    },
  );

  it.skipIf(tmuxMissing)(
    'exits 0 on SIGTERM while the dashboard is up',
    { timeout: PROCESS_TEST_MS },
    async () => {
      const dev = await startDevInTmux(repoRoot, 'sigterm');
      try {
        // Ink hooks the signals too; this is the regression test for it re-raising SIGTERM over our shutdown.
        process.kill(dev.pid(), 'SIGTERM');
        expect(await dev.waitForExit()).toBe('0');
      } finally {
        dev.close();
      }
    },
  );
});
