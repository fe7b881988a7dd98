import { describe, expect, it } from 'vitest';
import { createPalette, shouldUseColor } from '../../src/check/color.js';

describe('shouldUseColor', () => {
  const tty = { isTTY: true };
  const pipe = { isTTY: false };

  it('colours a TTY and not a pipe', () => {
    expect(shouldUseColor(tty, {})).toBe(true);
    expect(shouldUseColor(pipe, {})).toBe(false);
    expect(shouldUseColor({}, {})).toBe(false);
  });

  it('never colours under NO_COLOR, even when forced', () => {
    expect(shouldUseColor(tty, { NO_COLOR: '1' })).toBe(false);
    expect(shouldUseColor(tty, { NO_COLOR: '1', FORCE_COLOR: '1' })).toBe(false);
  });

  it('ignores an empty NO_COLOR, as no-color.org says', () => {
    expect(shouldUseColor(tty, { NO_COLOR: '' })).toBe(true);
  });

  it('honours FORCE_COLOR both ways', () => {
    expect(shouldUseColor(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(shouldUseColor(pipe, { FORCE_COLOR: '' })).toBe(true);
    expect(shouldUseColor(tty, { FORCE_COLOR: '0' })).toBe(false);
    expect(shouldUseColor(tty, { FORCE_COLOR: 'false' })).toBe(false);
  });

  it('does not colour a dumb terminal', () => {
    expect(shouldUseColor(tty, { TERM: 'dumb' })).toBe(false);
  });
});

describe('createPalette', () => {
  it('returns text unchanged without colour', () => {
    expect(createPalette(false).red('x')).toBe('x');
  });

  it('closes each style with its own reset, so styles nest', () => {
    const { red, bold } = createPalette(true);
    expect(bold(red('x'))).toBe('\u001b[1m\u001b[31mx\u001b[39m\u001b[22m');
    expect(red('')).toBe('');
  });
});
