/**
 * `companion dev` shows the lint findings live, through the same build `check` runs: a save that plants a
 * credential shows as a new CMP600 line in the plain log (never the credential itself), the save that takes it
 * out as fixed, and the document stays served throughout.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/mcp-client.js';
import { spawnCli } from '../helpers/run-cli.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';

const STEP_MS = 15_000;
const projects: TempProject[] = [];
afterAll(() => {
  for (const project of projects) project.cleanup();
});

describe('companion dev: lint findings live', () => {
  it('logs a new finding on the save that causes it and fixed on the save that removes it', {
    timeout: 60_000,
  }, async () => {
    const project = copyFixture('', { bundled: true, prefix: 'companion-dev-lint-' });
    projects.push(project);
    const dev = spawnCli(['dev', '--root', project.root, '--port', '0']);
    const waitForLine = (pattern: RegExp, what: string) =>
      waitFor(() => pattern.test(dev.output.stdout), STEP_MS, `${what}\n--- stdout\n${dev.output.stdout}`);
    try {
      await waitForLine(/^\[companion\] watching (\d+ paths )?for changes$/m, 'the watcher');
      const path = project.path('knowledge/documents/any/hosts/codex.md');
      const original = readFileSync(path, 'utf8');
      const key = ['AKIA', 'Z7Q4MJ2XH3K8PLW5'].join('');
      writeFileSync(path, `${original}\nThe deploy key is ${key}.\n`);
      await waitForLine(
        /^\[companion\] diagnostic new CMP600 knowledge\/documents\/any\/hosts\/codex\.md:\d+:\d+ error: This looks like an AWS access key id: AKIA… \(20 characters\)\.$/m,
        'the new finding',
      );
      expect(dev.output.stdout).not.toContain(key);
      writeFileSync(path, original);
      await waitForLine(
        /^\[companion\] fixed CMP600 knowledge\/documents\/any\/hosts\/codex\.md:\d+:\d+ /m,
        'fixed',
      );
    } finally {
      dev.child.kill('SIGTERM');
      await dev.exit;
    }
  });
});
