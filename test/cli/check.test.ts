import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/commands/check.js';
import { repoRoot, runCli, runCommand } from '../helpers/run-cli.js';

const fixtures = join(repoRoot, 'test/fixtures');
const goldenDir = join(fixtures, 'check-golden');
const goldenRoot = join(goldenDir, 'root');

/**
 * Compares `actual` with the committed golden file byte for byte. `UPDATE_GOLDEN=1 npx vitest run test/cli`
 * rewrites the file instead; review the diff before committing it.
 */
function expectGolden(name: string, actual: string): void {
  const path = join(goldenDir, name);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, actual);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

describe('companion check: golden output', () => {
  // Run from the fixture root without --root, so --root's default (the cwd) is exercised and the github
  // file prefix is empty.
  const cases = [
    { format: 'text', golden: 'expected.txt' },
    { format: 'json', golden: 'expected.json' },
    { format: 'github', golden: 'expected.github.txt' },
  ];
  for (const { format, golden } of cases) {
    it(`--format ${format}`, async () => {
      const result = await runCommand(run, ['--format', format], { cwd: goldenRoot, env: { NO_COLOR: '1' } });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(1);
      expectGolden(golden, result.stdout);
    });
  }

  it('text is the default format', async () => {
    const result = await runCommand(run, [], { cwd: goldenRoot, env: {} });
    expect(result.stdout).toBe(readFileSync(join(goldenDir, 'expected.txt'), 'utf8'));
  });

  it('the real CLI prints the same bytes, without colour on a pipe', async () => {
    const result = await runCli(['check', '--root', goldenRoot]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(readFileSync(join(goldenDir, 'expected.txt'), 'utf8'));
  });
});

describe('companion check: colour', () => {
  it('colours text on a TTY', async () => {
    const result = await runCommand(run, ['--root', goldenRoot], { env: {}, isTTY: true });
    expect(result.stdout).toContain('\u001b[31merror\u001b[39m');
  });

  it('honours NO_COLOR on a TTY', async () => {
    const result = await runCommand(run, ['--root', goldenRoot], { env: { NO_COLOR: '1' }, isTTY: true });
    expect(result.stdout).not.toContain('\u001b');
  });

  it('honours FORCE_COLOR on a pipe, but never colours json or github', async () => {
    const text = await runCommand(run, ['--root', goldenRoot], { env: { FORCE_COLOR: '1' } });
    expect(text.stdout).toContain('\u001b[');
    for (const format of ['json', 'github']) {
      const result = await runCommand(run, ['--root', goldenRoot, '--format', format], {
        env: { FORCE_COLOR: '1' },
        isTTY: true,
      });
      expect(result.stdout).not.toContain('\u001b');
    }
  });
});

describe('companion check: github file paths', () => {
  it('names files relative to GITHUB_WORKSPACE when the root lies below it', async () => {
    const result = await runCommand(run, ['--root', goldenRoot, '--format', 'github'], {
      cwd: '/',
      env: { GITHUB_WORKSPACE: repoRoot },
    });
    expect(result.stdout).toContain('file=test/fixtures/check-golden/root/knowledge/server-scope.json,');
  });

  it('names files relative to the cwd without GITHUB_WORKSPACE', async () => {
    const result = await runCommand(run, ['--root', 'root', '--format', 'github'], {
      cwd: goldenDir,
      env: {},
    });
    expect(result.stdout).toContain('file=root/knowledge/server-scope.json,');
  });
});

describe('companion check: exit codes', () => {
  const root = (name: string) => join(fixtures, name, 'root');

  it('exits 0 on a clean root', async () => {
    const result = await runCli(['check', '--root', root('check-clean')]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe('✔ no problems in 1 document and 1 skill\n');
  });

  it('exits 1 on errors', async () => {
    const result = await runCli(['check', '--root', root('check-golden')]);
    expect(result.code).toBe(1);
  });

  it('exits 0 on warnings alone, and 1 under --strict', async () => {
    const plain = await runCli(['check', '--root', root('check-warnings')]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^⚠ 1 warning in /m);
    const strict = await runCli(['check', '--root', root('check-warnings'), '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/^✖ 1 (warning|error) in /m);
    const json = JSON.parse(
      (await runCli(['check', '--root', root('check-warnings'), '--format=json'])).stdout,
    );
    expect(json.summary).toMatchObject({ errors: 0, warnings: 1, ok: true });
  });

  it('exits 2 on an unknown flag, with the usage on stderr', async () => {
    const result = await runCli(['check', '--colour']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain("companion check: unknown option '--colour'");
    expect(result.stderr).toContain('Usage: companion check');
  });

  it('exits 2 on a bad --format, a missing value or a positional argument', async () => {
    for (const args of [['--format', 'xml'], ['--root'], ['somewhere'], ['--strict=yes']]) {
      const result = await runCommand(run, args, { env: {} });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^companion check: .+\nUsage: companion check/);
    }
  });

  it('exits 2 on a missing root and names it', async () => {
    const missing = join(fixtures, 'check-does-not-exist');
    const result = await runCli(['check', '--root', missing]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(missing);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits 2 on a root that is a file', async () => {
    const file = join(goldenDir, 'expected.txt');
    const result = await runCommand(run, ['--root', file], { env: {} });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(file);
  });

  it('prints its help and exits 0', async () => {
    const result = await runCommand(run, ['--help'], { env: {} });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Usage: companion check \[--root DIR\] \[--format text\|json\|github\] \[--strict\]/,
    );
    expect(result.stdout).toContain('Exit codes:');
  });
});
