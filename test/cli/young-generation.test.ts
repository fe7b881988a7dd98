/**
 * The young generation cap (src/cli/young-generation.ts) in the real CLI: each command that builds a catalog runs
 * as a child with test/helpers/young-probe.cjs preloaded, which reports one semi-space's size as the process exits,
 * then keeps far more alive than an uncapped young generation needs to grow to its maximum, and reports it again.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { YOUNG_SEMI_SPACE_BYTES } from '../../src/cli/young-generation.js';
import { waitFor } from '../helpers/mcp-client.js';
import { runCli, spawnCli } from '../helpers/run-cli.js';

const probe = fileURLToPath(new URL('../helpers/young-probe.cjs', import.meta.url));
const env = { NODE_OPTIONS: `--require ${probe}` };
const root = fileURLToPath(new URL('../fixtures/valid', import.meta.url));

/** The semi-space sizes the probe reported on stderr: as the process exited, and after the probe's allocation. */
function readSemiSpace(stderr: string): { before: number; after: number } {
  const match = /^young-probe (\{.*\})$/m.exec(stderr);
  if (match === null) throw new Error(`no young-probe line in:\n${stderr}`);
  return JSON.parse(match[1]!) as { before: number; after: number };
}

/** Grown to the cap at start (V8 rounds to whole pages, less their headers), and not past it. */
function expectAtCap(bytes: number): void {
  expect(bytes).toBeGreaterThanOrEqual(YOUNG_SEMI_SPACE_BYTES * 0.9);
  expect(bytes).toBeLessThanOrEqual(YOUNG_SEMI_SPACE_BYTES);
}

describe('the young generation cap', () => {
  it('is not applied by a command that builds nothing, so the probe sees V8 grow it', async () => {
    const result = await runCli(['--version'], { env });
    expect(result.code).toBe(0);
    expect(readSemiSpace(result.stderr).after).toBeGreaterThan(2 * YOUNG_SEMI_SPACE_BYTES);
  });

  it('holds for the whole of companion check', async () => {
    const result = await runCli(['check', '--root', root], { env });
    expect(result.code).toBe(0);
    const { before, after } = readSemiSpace(result.stderr);
    expectAtCap(before);
    expectAtCap(after);
  });

  it('holds for companion serve until ready, then V8 sizes it again', async () => {
    // stdin closed at once: the stdio server starts, builds, and exits.
    const result = await runCli(['serve', '--root', root], { env });
    expect(result.code).toBe(0);
    const { before, after } = readSemiSpace(result.stderr);
    expectAtCap(before);
    expect(after).toBeGreaterThan(2 * YOUNG_SEMI_SPACE_BYTES);
  });

  it('is grown to the cap for companion dev, and released at ready', { timeout: 30_000 }, async () => {
    const dev = spawnCli(['dev', '--root', root, '--port', '0'], { env });
    await waitFor(() => /watching .*for changes/.test(dev.output.stdout), 15_000, dev.output.stderr);
    dev.child.kill('SIGTERM');
    const exit = await dev.exit;
    expect(exit.code).toBe(0);
    const { before, after } = readSemiSpace(dev.output.stderr);
    // Past ready (the warm-up, the shutdown) V8 may have grown it already: at least the cap, then far past it.
    expect(before).toBeGreaterThanOrEqual(YOUNG_SEMI_SPACE_BYTES * 0.9);
    expect(after).toBeGreaterThan(2 * YOUNG_SEMI_SPACE_BYTES);
  });
});
