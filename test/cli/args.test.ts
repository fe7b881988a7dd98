import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../../src/cli/args.js';

const options = {
  root: { type: 'string' },
  strict: { type: 'boolean', default: false },
} as const;

describe('parseCommandArgs', () => {
  it('parses flags and positionals', () => {
    expect(parseCommandArgs(['--root', 'x', '--strict', 'rest'], options)).toEqual({
      ok: true,
      values: { root: 'x', strict: true },
      positionals: ['rest'],
    });
    expect(parseCommandArgs(['--root=y'], options)).toMatchObject({ ok: true, values: { root: 'y' } });
  });

  it('answers one short sentence for bad input instead of throwing', () => {
    expect(parseCommandArgs(['--nope'], options)).toEqual({ ok: false, message: "unknown option '--nope'" });
    const missing = parseCommandArgs(['--root'], options);
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.message).toMatch(/^option '--root <value>' argument missing$/);
    expect(parseCommandArgs(['--strict=1'], options)).toMatchObject({ ok: false });
  });
});
