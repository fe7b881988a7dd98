/**
 * `companion dev` as an author sees it: the built CLI in a real pseudo-terminal (node-pty), its output rendered
 * by a headless xterm, at 80×24 and 120×40. Keys, views, the problems view with its hint, a resize, a broken
 * scope file held at its last good version while a real host's view stays byte for byte the same, a host that
 * leaves without a word, and quitting. Every wait is for screen content, with a deadline.
 */

import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { connectHttp } from '../helpers/mcp-client.js';
import { KEYS, type PtyDev, spawnDevPty } from '../helpers/pty.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';

const TEST_MS = 90_000;
const projects: TempProject[] = [];
afterAll(() => {
  for (const project of projects) project.cleanup();
});

function createProject(): TempProject {
  const project = copyFixture('', { bundled: true, prefix: 'companion-pty-' });
  projects.push(project);
  return project;
}

async function startDev(root: string, columns: number, rows: number, extra: string[] = []): Promise<PtyDev> {
  const dev = spawnDevPty(['dev', '--root', root, '--port', '0', ...extra], {
    columns,
    rows,
    env: { VISUAL: undefined, EDITOR: undefined, NO_COLOR: undefined },
  });
  await dev.waitFor(
    /companion dev .*http:\/\/127\.0\.0\.1:\d+\/mcp.*watching/,
    'the header with the watcher ready',
  );
  return dev;
}

function urlOf(dev: PtyDev): string {
  return /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(dev.text())![0];
}

async function quit(dev: PtyDev): Promise<void> {
  dev.type('q');
  const exit = await Promise.race([
    dev.exit,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`no exit after q:\n${dev.text()}`)), 15_000),
    ),
  ]);
  expect(exit.exitCode).toBe(0);
}

describe('companion dev on a real terminal', () => {
  it('fits 80×24: views, the problems view with its hint, selection, a resize to 120×40, and q', {
    timeout: TEST_MS,
  }, async () => {
    const project = createProject();
    const dev = await startDev(project.root, 80, 24);
    try {
      const first = await dev.waitFor('✓ clean', 'the clean status');
      // The URL once in the header: no "listening on" line above the dashboard.
      expect(first).not.toContain('listening on');
      expect(first.split('\n')[0]).toMatch(/^companion dev .*http:\/\/127\.0\.0\.1:\d+\/mcp/);
      expect(dev.screen().every((line) => line.length <= 80)).toBe(true);

      // A document with three independent problems shows three.
      project.write(
        'knowledge/documents/any/workflow/broken.md',
        '---\ntitle: Broken\n---\nNo heading, no description.\n',
      );
      // Two errors (no description, no title line) and a warning (an undeclared key), as `check` counts them.
      await dev.waitFor('✗ 2 errors', 'the broken document in the status');
      dev.type('2');
      let screen = await dev.waitFor('[2 Problems', 'the problems view');
      for (const code of ['CMP303', 'CMP304', 'CMP305']) expect(screen).toContain(code);
      // The selected finding shows expanded, with its hint, and what Enter does.
      expect(screen).toMatch(/▸ [✗!] (error|warning)/);
      expect(screen).toContain('hint: ');
      expect(screen).toContain('Enter shows a link to the file');
      const selected = () => dev.screen().find((line) => line.startsWith('▸ '));
      const before = selected();
      dev.type('j');
      await dev.waitFor(() => selected() !== before, 'the selection to move');
      dev.type(KEYS.up);
      await dev.waitFor(() => selected() === before, 'the selection to move back');
      dev.type(KEYS.enter);
      await dev.waitFor('no $VISUAL or $EDITOR set: knowledge/', 'the link to the file');

      dev.resize(120, 40);
      // Wider shows more: the rows Ink redraws for 120 columns run past column 80, and the footer keeps the link.
      // Waited for as one frame: a resize clears the screen and redraws it, and a loaded machine can show the
      // terminal between the first rows of that redraw and its footer.
      const link = 'no $VISUAL or $EDITOR set: knowledge/documents/any/workflow/broken.md:1';
      screen = await dev.waitFor(
        (text) =>
          text.includes('[2 Problems') &&
          text.split('\n').some((line) => line.length > 80) &&
          text.includes(link),
        'the redraw at 120 columns, its footer with the link included',
      );
      expect(screen.split('\n')).toHaveLength(40);

      dev.type('?');
      await dev.waitFor('Tab / Shift+Tab', 'the key help');
      dev.type(KEYS.escape);
      dev.type('5');
      await dev.waitFor(
        /added knowledge\/documents\/any\/workflow\/broken\.md/,
        'the timeline row of the added file',
      );
      await quit(dev);
    } finally {
      dev.kill('SIGKILL');
    }
  });

  it('keeps the last good scope while the scope file is broken: hosts see nothing change, the screen says so', {
    timeout: TEST_MS,
  }, async () => {
    const project = createProject();
    const dev = await startDev(project.root, 120, 40);
    const host = await connectHttp(urlOf(dev), 'pty-host');
    try {
      const listed = async () => JSON.stringify((await host.client.listResources()).resources);
      const index = async () => JSON.stringify(await host.client.readResource({ uri: 'companion://guides' }));
      const resourcesBefore = await listed();
      const indexBefore = await index();
      const instructionsBefore = host.client.getInstructions();

      const scope = readFileSync(project.path('knowledge/server-scope.json'), 'utf8');
      writeFileSync(project.path('knowledge/server-scope.json'), scope.replace(/\n\}\s*$/, ',\n}\n'));
      const screen = await dev.waitFor(/serving the last good scope from \d\d:\d\d:\d\d/, 'the held scope');
      expect(screen).toContain('CMP101');
      expect(await listed()).toBe(resourcesBefore);
      expect(await index()).toBe(indexBefore);
      // A host connecting now still gets the instructions.
      const late = await connectHttp(urlOf(dev), 'pty-late-host');
      expect(late.client.getInstructions()).toBe(instructionsBefore);
      await late.close();

      writeFileSync(project.path('knowledge/server-scope.json'), scope);
      await dev.waitFor(
        (text) => !text.includes('serving the last good scope'),
        'the scope served from the file again',
      );
    } finally {
      await host.close();
      await quit(dev).finally(() => dev.kill('SIGKILL'));
    }
  });

  it('lists a host that left without a word as idle, then drops it', { timeout: TEST_MS }, async () => {
    const project = createProject();
    const dev = await startDev(project.root, 120, 40, ['--session-timeout', '2']);
    try {
      const port = Number(/127\.0\.0\.1:(\d+)/.exec(urlOf(dev))![1]);
      // An initialize and nothing after it: what a CLI client that exits without DELETE leaves behind.
      await new Promise<void>((resolve, reject) => {
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'ghost', version: '9' },
          },
        });
        const req = request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/mcp',
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve());
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      dev.type('4');
      await dev.waitFor('[4 Hosts (1)]', 'the host listed');
      await dev.waitFor(/idle since \d\d:\d\d:\d\d/, 'the host shown as idle');
      await dev.waitFor('no host connected', 'the host gone', 10_000);
      await quit(dev);
    } finally {
      dev.kill('SIGKILL');
    }
  });

  it('opens the selected finding in $EDITOR at its line, hands it the terminal, and comes back', {
    timeout: TEST_MS,
  }, async () => {
    const project = createProject();
    project.write('knowledge/documents/any/workflow/broken.md', '---\ntitle: Broken\n---\nNo heading.\n');
    // An "editor" that says what it was asked to open and reads one line from the terminal it was handed: all of
    // it, as a real editor takes what it is typed (`head -c 1` left the line's end for the dashboard, which could
    // read it together with the next key, "\nq", as one pasted input instead of q).
    const record = project.path('editor-args.txt');
    project.write('editor.sh', `#!/bin/sh\necho "$@" > "${record}"\nprintf 'EDITOR OPEN\\n'\nread -r line\n`);
    chmodSync(project.path('editor.sh'), 0o755);
    const dev = spawnDevPty(['dev', '--root', project.root, '--port', '0'], {
      columns: 80,
      rows: 24,
      env: { VISUAL: undefined, EDITOR: project.path('editor.sh') },
    });
    try {
      await dev.waitFor(/watching/, 'the dashboard');
      dev.type('2');
      await dev.waitFor(`Enter opens it in ${project.path('editor.sh')}`, 'the enter hint naming the editor');
      dev.type(KEYS.enter);
      await dev.waitFor('EDITOR OPEN', 'the editor on the terminal');
      expect(readFileSync(record, 'utf8').trim()).toBe(
        project.path('knowledge/documents/any/workflow/broken.md'),
      );
      // The editor's terminal is in line mode: the key reaches it with Enter.
      dev.type('x\r');
      await dev.waitFor(
        // The footer names the editor and the finding (cut at 80 columns).
        /back from \S*editor\.sh/,
        'the dashboard back',
      );
      expect(dev.text()).toContain('[2 Problems');
      await quit(dev);
    } finally {
      dev.kill('SIGKILL');
    }
  });

  it('exits 0 on SIGTERM while the dashboard is up', { timeout: TEST_MS }, async () => {
    const dev = await startDev(createProject().root, 80, 24);
    try {
      process.kill(dev.pid, 'SIGTERM');
      expect((await dev.exit).exitCode).toBe(0);
    } finally {
      dev.kill('SIGKILL');
    }
  });
});
