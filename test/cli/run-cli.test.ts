import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/commands/check.js';
import { runCli, runCommand } from '../helpers/run-cli.js';

describe('runCli', () => {
  it('kills a child that outlives its timeout and rejects', async () => {
    await expect(runCli(['--version'], { timeoutMs: 1 })).rejects.toThrow(/did not exit within 1 ms/);
  });

  it('does not pass colour settings of the parent on', async () => {
    const saved = process.env.FORCE_COLOR;
    process.env.FORCE_COLOR = '1';
    try {
      const result = await runCli(['check', '--root', 'test/fixtures/check-golden/root']);
      expect(result.stdout).not.toContain('\u001b');
    } finally {
      if (saved === undefined) delete process.env.FORCE_COLOR;
      else process.env.FORCE_COLOR = saved;
    }
  });
});

describe('runCommand', () => {
  it('captures what a command writes and its exit code', async () => {
    const result = await runCommand(run, ['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: companion check/);
    expect(result.stderr).toBe('');
  });
});
