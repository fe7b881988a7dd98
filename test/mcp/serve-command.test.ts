import { appendFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { parseExcludedTools, run } from '../../src/cli/commands/serve.js';
import { connectStdio, repoRoot, waitFor } from '../helpers/mcp-client.js';
import { type CliProcess, runCommand, spawnCli } from '../helpers/run-cli.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';

const projects: TempProject[] = [];
afterAll(() => {
  for (const project of projects) project.cleanup();
});

function spawnServe(args: string[]): CliProcess {
  return spawnCli(['serve', ...args], { timeoutMs: 15_000 });
}

describe('companion serve: arguments', () => {
  it('prints its help', async () => {
    const result = await runCommand(run, ['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: companion serve /);
    expect(result.stdout).toContain('COMPANION_EXCLUDE_TOOLS');
  });

  it.each([
    [['--port', '4000'], '--port needs --http'],
    [['--host', '0.0.0.0'], '--host needs --http'],
    [['--http', '--port', 'abc'], '--port must be a number from 0 to 65535'],
    [['--http', '--port', '70000'], '--port must be a number from 0 to 65535'],
    [['--page-size', '0'], '--page-size must be a number'],
    [['--cache-ttl', 'soon'], '--cache-ttl must be a number from 0 to 86400000'],
    [['--cache-ttl', '1e3'], '--cache-ttl must be a number from 0 to 86400000'],
    [['--max-sessions', '5'], '--max-sessions needs --http'],
    [['--http', '--max-sessions', '0'], '--max-sessions must be a number from 1 to 100000'],
    [['--bogus'], "unknown option '--bogus'"],
    [['somewhere'], "unexpected argument 'somewhere'"],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const result = await runCommand(run, argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });

  it('refuses a missing root with exit 2', async () => {
    const result = await runCommand(run, ['--root', '/nonexistent/companion-root']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^companion serve: /);
  });

  it('parses COMPANION_EXCLUDE_TOOLS: comma- or space-separated, lowercased, each once', () => {
    expect(parseExcludedTools(undefined)).toEqual([]);
    expect(parseExcludedTools('  ')).toEqual([]);
    expect(parseExcludedTools('Task_Guide,skill_load task_guide\tdocument_lookup')).toEqual([
      'task_guide',
      'skill_load',
      'document_lookup',
    ]);
  });

  it('serves stdio until stdin ends, with one start line on stderr and nothing on stdout', async () => {
    const result = await runCommand(run, ['--root', repoRoot]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(
      /generation 1: \d+ documents, \d+ skills, \d+ resources, tools .*; no problems/,
    );
  });
});

describe('companion serve: the process', () => {
  it('writes only protocol frames to stdout and exits 0 when the host closes stdin', async () => {
    const { child, output, exit } = spawnServe(['--root', repoRoot]);
    const frames = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'pipe', version: '1' },
        },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'resources/list', params: {} },
      { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'companion://guides/../x' } },
    ];
    child.stdin.end(frames.map((frame) => `${JSON.stringify(frame)}\n`).join(''));
    expect(await exit).toEqual({ code: 0, signal: null });
    const lines = output.stdout.split('\n').filter((line) => line !== '');
    const messages = lines.map((line) => JSON.parse(line) as { id?: number; error?: { code: number } });
    expect(messages.map((message) => message.id).sort()).toEqual([1, 2, 3]);
    expect(messages.find((message) => message.id === 3)?.error?.code).toBe(-32602);
    expect(output.stderr).toMatch(/^companion serve: /);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('over HTTP, prints the URL and exits 0 on %s', async (signal) => {
    const { child, output, exit } = spawnServe(['--root', repoRoot, '--http', '--port', '0']);
    await waitFor(() => /listening at http:\/\/127\.0\.0\.1:\d+\/mcp/.test(output.stderr), 8000, 'the URL');
    child.kill(signal);
    expect(await exit).toEqual({ code: 0, signal: null });
    expect(output.stdout).toBe('');
  });

  it('bound to every interface, says so, and names the loopback URL as reachable from here', async () => {
    const { child, output, exit } = spawnServe([
      '--root',
      repoRoot,
      '--http',
      '--host',
      '0.0.0.0',
      '--port',
      '0',
    ]);
    await waitFor(() => /listening at/.test(output.stderr), 8000, 'the listening line');
    child.kill('SIGTERM');
    expect(await exit).toEqual({ code: 0, signal: null });
    expect(output.stderr).toMatch(
      /listening at 0\.0\.0\.0:(\d+) \(every interface; from this machine: http:\/\/127\.0\.0\.1:\1\/mcp\)/,
    );
    expect(output.stderr).not.toMatch(/listening at http:\/\/127\.0\.0\.1/);
    expect(output.stderr).toMatch(/warning: listening on 0\.0\.0\.0, beyond loopback/);
  });

  it('exits 2 with a clear message when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { output, exit } = spawnServe(['--root', repoRoot, '--http', '--port', String(port)]);
      expect((await exit).code).toBe(2);
      expect(output.stderr).toContain(
        `companion serve: port ${port} is already in use on 127.0.0.1; pass --port`,
      );
    } finally {
      blocker.close();
    }
  });

  it.each(['legacy', 'modern'] as const)(
    '--watch: a %s host over stdio hears about a save',
    async (negotiation) => {
      const project = copyFixture('', { bundled: true, prefix: 'companion-mcp-watch-' });
      projects.push(project);
      const connection = await connectStdio({ root: project.root, args: ['--watch'], negotiation });
      try {
        expect(connection.era).toBe(negotiation);
        const uri = 'companion://guides/any/hosts/codex';
        expect(await connection.watch({ uris: [uri] })).toEqual([uri]);
        appendFileSync(project.path('knowledge/documents/any/hosts/codex.md'), '\nSaved while watched.\n');
        await waitFor(
          () =>
            connection.notifications.some(
              (n) => n.method === 'notifications/resources/updated' && n.uri === uri,
            ) && connection.notifications.some((n) => n.method === 'notifications/resources/list_changed'),
          8000,
          'the notifications of the save',
        );
        const read = await connection.client.readResource({ uri });
        expect(String((read.contents[0] as { text: string }).text)).toContain('Saved while watched.');
        expect(connection.stderr()).toMatch(/generation 2 \(1 path, \d+ ms\), list changed, \d+ updated/);
        // One save, one of each: no duplicate however many ways the host listens.
        expect(
          connection.notifications.filter((n) => n.method === 'notifications/resources/list_changed'),
        ).toHaveLength(1);
        expect(connection.notifications.filter((n) => n.uri === uri)).toHaveLength(1);

        // A new prompt file: the prompts' list_changed, on the same stream (the 2026 host asks for it).
        await connection.watch({ uris: [uri], promptsListChanged: true });
        writeFileSync(
          project.path('prompts/greet.md'),
          '---\ndescription: Greets the reader.\n---\nHello.\n',
        );
        await waitFor(
          () => connection.notifications.some((n) => n.method === 'notifications/prompts/list_changed'),
          8000,
          'the prompts list_changed of the new prompt',
        );
        const { prompts } = await connection.client.listPrompts();
        expect(prompts.map((prompt) => prompt.name)).toContain('greet');
      } finally {
        await connection.close();
      }
    },
  );
});
