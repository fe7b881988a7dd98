import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { formatCount } from '../../src/core/plural.js';
import { formatRunCommand, quoteShellArg } from '../../src/core/product.js';

describe('formatRunCommand', () => {
  it('prints npx companion and the arguments', () => {
    expect(formatRunCommand('check', '--strict')).toBe('npx companion check --strict');
    expect(formatRunCommand()).toBe('npx companion');
  });

  it('quotes every argument so a POSIX shell reads back exactly what was given', () => {
    const awkward = [
      "it's here",
      'a b',
      '$HOME',
      'semi;colon',
      '`tick`',
      'back\\slash',
      '',
      'plain/path-1.0',
    ];
    for (const arg of awkward) {
      const echoed = execFileSync('sh', ['-c', `printf '%s' ${quoteShellArg(arg)}`], { encoding: 'utf8' });
      expect(echoed).toBe(arg);
    }
    expect(quoteShellArg('plain/path-1.0')).toBe('plain/path-1.0');
  });
});

describe('formatCount', () => {
  it('says 1 error and 2 errors', () => {
    expect(formatCount(1, 'error')).toBe('1 error');
    expect(formatCount(0, 'error')).toBe('0 errors');
    expect(formatCount(2, 'entry', 'entries')).toBe('2 entries');
  });
});
