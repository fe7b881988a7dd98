/**
 * A busy machine never makes content vanish (#13.6): the real `companion dev` runs out of file descriptors
 * (its soft limit lowered under it with `prlimit --pid`), an author saves meanwhile, and hosts keep what was
 * served — held at its last good version, the log saying why — until descriptors are back and the retries read
 * the save. Nothing is ever published empty.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/mcp-client.js';
import { spawnCli } from '../helpers/run-cli.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';

const prlimit = spawnSync('prlimit', ['--version'], { encoding: 'utf8' });
const prlimitMissing = prlimit.error !== undefined || prlimit.status !== 0;
if (prlimitMissing)
  console.warn('skipping the descriptor exhaustion test: prlimit (util-linux) is not installed');

const projects: TempProject[] = [];
afterAll(() => {
  for (const project of projects) project.cleanup();
});

function setLimit(pid: number, soft: number | 'unlimited', hard: number): void {
  const result = spawnSync('prlimit', ['--pid', String(pid), `--nofile=${soft}:${hard}`], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`prlimit failed: ${result.stderr}`);
}

describe('companion dev out of file descriptors', () => {
  it.skipIf(prlimitMissing)(
    'keeps serving the last good version, retries, and reads the save once descriptors are back',
    { timeout: 60_000 },
    async () => {
      const project = copyFixture('', { bundled: true, prefix: 'companion-emfile-' });
      projects.push(project);
      const dev = spawnCli(['dev', '--root', project.root, '--port', '0'], { timeoutMs: 55_000 });
      const stdout = () => dev.output.stdout;
      try {
        await waitFor(
          () => /watching .*for changes|fell back to polling/.test(stdout()),
          20_000,
          'the watcher',
        );
        const pid = dev.child.pid!;
        const hard = Number(
          /(\d+)\s*$/.exec(
            spawnSync('prlimit', ['--pid', String(pid), '--nofile', '--noheadings', '--output=HARD'], {
              encoding: 'utf8',
            }).stdout.trim(),
          )?.[1] ?? 4096,
        );
        // A new descriptor takes the lowest free number, and fails with EMFILE at or above the soft limit: a
        // limit at the lowest free number makes every open() and readdir() from here on fail.
        const used = new Set(readdirSync(`/proc/${pid}/fd`).map(Number));
        let lowestFree = 0;
        while (used.has(lowestFree)) lowestFree++;
        setLimit(pid, lowestFree, hard);
        const path = 'knowledge/documents/any/hosts/codex.md';
        appendFileSync(project.path(path), '\nSaved while the machine had no descriptors left.\n');
        await waitFor(
          () =>
            /serving the last good version of document any\/hosts\/codex from .* could not be read just now/.test(
              stdout(),
            ),
          20_000,
          `the held document\n${stdout()}`,
        );
        expect(stdout()).toMatch(/CMP050/);
        // Nothing was deleted on the way, and no generation went out empty.
        expect(stdout()).not.toMatch(/deleted /);
        // `\b`: "30 documents" is not an empty generation.
        expect(stdout()).not.toMatch(/\b0 documents/);

        setLimit(pid, hard, hard);
        await waitFor(
          () => /no longer held: document any\/hosts\/codex/.test(stdout()),
          20_000,
          `the save read once descriptors were back\n${stdout()}`,
        );
        dev.child.kill('SIGTERM');
        expect((await dev.exit).code).toBe(0);
      } finally {
        dev.child.kill('SIGKILL');
      }
    },
  );
});
