import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/run-cli.js';

const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string })
  .version;

describe('companion (main)', () => {
  it('prints usage for --help, -h and help, on stdout, exit 0', async () => {
    for (const flag of ['--help', '-h', 'help']) {
      const result = await runCli([flag]);
      expect(result.code, flag).toBe(0);
      expect(result.stdout).toMatch(/^Usage: companion <command> \[options\]/);
      for (const command of ['check', 'init', 'serve', 'dev'])
        expect(result.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
      expect(result.stderr).toBe('');
    }
  });

  it('prints the version from package.json', async () => {
    const result = await runCli(['--version']);
    expect(result).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('exits 2 with usage on stderr without a command', async () => {
    const result = await runCli([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Usage: companion/);
  });

  it('exits 2 with usage on stderr for an unknown command or option', async () => {
    for (const [arg, what] of [
      ['lint', "unknown command 'lint'"],
      ['--verbose', "unknown option '--verbose'"],
    ] as const) {
      const result = await runCli([arg]);
      expect(result.code, arg).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`companion: ${what}`);
      expect(result.stderr).toContain('Usage: companion <command>');
    }
  });

  it('passes the rest of the arguments to the command', async () => {
    const result = await runCli(['check', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: companion check/);
  });

  describe('check loads no UI and no MCP code', () => {
    const dir = mkdtempSync(join(tmpdir(), 'companion-imports-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('resolves nothing from react, ink or the MCP SDK', async () => {
      // A module hook (it runs on a loader thread) appends every URL Node resolves to a log file.
      const log = join(dir, 'resolved.log');
      writeFileSync(
        join(dir, 'hooks.mjs'),
        `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + '\\n');
  return result;
}
`,
      );
      writeFileSync(
        join(dir, 'register.mjs'),
        `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`,
      );
      const result = await runCli(['check', '--root', join(repoRoot, 'test/fixtures/check-clean/root')], {
        env: { NODE_OPTIONS: `--import ${pathToFileURL(join(dir, 'register.mjs')).href}` },
      });
      expect(result.code).toBe(0);
      const resolved = readFileSync(log, 'utf8').trim().split('\n');
      expect(resolved.some((url) => url.endsWith('/dist/bundle/commands/check.js'))).toBe(true);
      // The bundle keeps React, Ink and chokidar external: loading any of them would show here.
      expect(
        resolved.filter((url) => /\/node_modules\/(react|ink|@modelcontextprotocol|chokidar)\//.test(url)),
      ).toEqual([]);
      // The MCP SDK is bundled: none of the bundle's files check loads holds its code (its stdio read buffer's
      // message is in the SDK's core, which every part of it imports).
      const bundled = resolved.filter((url) => url.includes('/dist/bundle/'));
      expect(bundled.length).toBeGreaterThan(1);
      expect(
        bundled.filter((url) =>
          readFileSync(new URL(url), 'utf8').includes('ReadBuffer exceeded maximum size'),
        ),
      ).toEqual([]);
    });
  });

  it("finds the watch thread's module beside every bundled file that starts the thread", () => {
    // A thread whose module is missing falls back to chokidar on the main thread, silently: `dev` still works,
    // but its initial scan then runs on the main thread just as the first hosts connect.
    const bundle = join(repoRoot, 'dist', 'bundle');
    const starters = (readdirSync(bundle, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.js'))
      .filter((file) => readFileSync(join(bundle, file), 'utf8').includes('"./watch-thread-worker.js"'));
    expect(starters.length).toBeGreaterThan(0);
    for (const file of starters) {
      expect(existsSync(join(bundle, dirname(file), 'watch-thread-worker.js')), file).toBe(true);
    }
  });
});
