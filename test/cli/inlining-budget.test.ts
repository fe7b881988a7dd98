/**
 * The one-shot inlining budget (src/cli/inlining-budget.ts) in the real CLI: each command runs as a child with
 * test/helpers/v8-flags-probe.cjs preloaded, which reports every V8 flag the process set at run time.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ONE_SHOT_INLINING_BYTES } from '../../src/cli/inlining-budget.js';
import { runCli } from '../helpers/run-cli.js';

const probe = fileURLToPath(new URL('../helpers/v8-flags-probe.cjs', import.meta.url));
const env = { NODE_OPTIONS: `--require ${probe}` };
const root = fileURLToPath(new URL('../fixtures/valid', import.meta.url));
const BUDGET = `--max-inlined-bytecode-size-cumulative=${ONE_SHOT_INLINING_BYTES}`;

/** The flags the probe saw set, from its line on stderr. */
function readFlags(stderr: string): string[] {
  const match = /^v8-flags-probe (\[.*\])$/m.exec(stderr);
  if (match === null) throw new Error(`no v8-flags-probe line in:\n${stderr}`);
  return JSON.parse(match[1]!) as string[];
}

describe('the inlining budget of a one-shot build', () => {
  it('is set by companion check, before it builds', async () => {
    const result = await runCli(['check', '--root', root], { env });
    expect(result.code).toBe(0);
    expect(readFlags(result.stderr)).toContain(BUDGET);
  });

  it("is left at V8's default by companion serve, which builds and then serves for hours", async () => {
    // stdin closed at once: the stdio server starts, builds, and exits.
    const result = await runCli(['serve', '--root', root], { env });
    expect(result.code).toBe(0);
    expect(readFlags(result.stderr).some((flag) => flag.startsWith('--max-inlined'))).toBe(false);
  });

  it('is not set by a command that builds nothing', async () => {
    const result = await runCli(['--version'], { env });
    expect(result.code).toBe(0);
    expect(readFlags(result.stderr)).toEqual([]);
  });
});
