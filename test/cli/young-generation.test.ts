/**
 * The young generation cap (src/cli/young-generation.ts) in the real CLI: each command that builds a catalog runs
 * as a child with test/helpers/young-probe.cjs preloaded, which, as the process exits, keeps far more alive than
 * an uncapped young generation needs to grow to its maximum, and reports one semi-space's size.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { YOUNG_SEMI_SPACE_BYTES } from '../../src/cli/young-generation.js';
import { waitFor } from '../helpers/mcp-client.js';
import { type CliResult, runCli, spawnCli } from '../helpers/run-cli.js';

const probe = fileURLToPath(new URL('../helpers/young-probe.cjs', import.meta.url));
const env = { NODE_OPTIONS: `--require ${probe}` };
const root = fileURLToPath(new URL('../fixtures/valid', import.meta.url));

/** The semi-space size the probe reported on stderr. */
function readSemiSpace(stderr: string): number {
  const match = /^young-probe (\{.*\})$/m.exec(stderr);
  if (match === null) throw new Error(`no young-probe line in:\n${stderr}`);
  return (JSON.parse(match[1]!) as { semiSpace: number }).semiSpace;
}

function expectCapped(result: Pick<CliResult, 'stderr'>): void {
  const semiSpace = readSemiSpace(result.stderr);
  // Grown to the cap at start (V8 rounds to whole pages, less their headers), and never past it.
  expect(semiSpace).toBeGreaterThanOrEqual(YOUNG_SEMI_SPACE_BYTES * 0.9);
  expect(semiSpace).toBeLessThanOrEqual(YOUNG_SEMI_SPACE_BYTES);
}

describe('the young generation cap', () => {
  it('is not applied by a command that builds nothing, so the probe sees V8 grow it', async () => {
    const result = await runCli(['--version'], { env });
    expect(result.code).toBe(0);
    expect(readSemiSpace(result.stderr)).toBeGreaterThan(2 * YOUNG_SEMI_SPACE_BYTES);
  });

  it('holds for companion check', async () => {
    const result = await runCli(['check', '--root', root], { env });
    expect(result.code).toBe(0);
    expectCapped(result);
  });

  it('holds for companion serve', async () => {
    // stdin closed at once: the stdio server starts, builds, and exits.
    const result = await runCli(['serve', '--root', root], { env });
    expect(result.code).toBe(0);
    expectCapped(result);
  });

  it('holds for companion dev', { timeout: 30_000 }, async () => {
    const dev = spawnCli(['dev', '--root', root, '--port', '0'], { env });
    await waitFor(() => /watching .*for changes/.test(dev.output.stdout), 15_000, dev.output.stderr);
    dev.child.kill('SIGTERM');
    const exit = await dev.exit;
    expect(exit.code).toBe(0);
    expectCapped(dev.output);
  });
});
