import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { formatStatPrint, PrintTable, type StatPrint } from '../../src/fs/print-table.js';

/** A stat with the given fields, of the given kind. */
function stat(kind: 'f' | 'd' | 'l' | 'o', fields: Partial<StatPrint> = {}): StatPrint {
  return {
    isFile: () => kind === 'f',
    isDirectory: () => kind === 'd',
    isSymbolicLink: () => kind === 'l',
    size: 12,
    mtimeMs: 1733000000000.125,
    ctimeMs: 1733000000001.5,
    ino: 2 ** 40 + 7,
    mode: 0o100644,
    nlink: 1,
    ...fields,
  };
}

describe('PrintTable', () => {
  it('gives back every stat print as the text it stands for, exactly', () => {
    const table = new PrintTable();
    const real = fs.lstatSync(tmpdir());
    const samples: [string, StatPrint][] = [
      ['a', stat('f')],
      ['b', stat('d', { mode: 0o40755, nlink: 2 ** 34 })],
      ['c', stat('l', { mode: 0o120777, size: 0, mtimeMs: 0, ctimeMs: 0.5 })],
      ['d', stat('o', { mode: 0o10644, ino: Number.MAX_SAFE_INTEGER })],
      ['real', real],
    ];
    for (const [path, print] of samples) table.set(path, print);
    for (const [path, print] of samples) expect(table.get(path)).toBe(formatStatPrint(print));
    expect(formatStatPrint(real)).toBe(
      ['d', real.size, real.mtimeMs, real.ctimeMs, real.ino, real.mode, real.nlink].join(':'),
    );
  });

  it('answers every print as text by path, stat and composite prints alike', () => {
    const table = new PrintTable();
    table.set('a', stat('f'));
    table.set('link', 'l:0:0:0:1:41471:1>real|f:1:2:3:4:33188:1');
    table.set('b', stat('d', { mode: 0o40755 }));
    table.delete('b');
    expect(table.texts()).toEqual(
      new Map([
        ['a', formatStatPrint(stat('f'))],
        ['link', 'l:0:0:0:1:41471:1>real|f:1:2:3:4:33188:1'],
      ]),
    );
  });

  it('tells a print that differs in any one field, and compares composite prints as text', () => {
    const base = new PrintTable();
    base.set('x', stat('f'));
    base.set('link', 'l:1:2:3:4:5:1>/root/x|f:1:2:3:4:5:1');
    const changes: Partial<StatPrint>[] = [
      { size: 13 },
      { mtimeMs: 1733000000000.25 },
      { ctimeMs: 1733000000001.75 },
      { ino: 2 ** 40 + 8 },
      { mode: 0o100755 },
      { nlink: 2 },
    ];
    for (const change of changes) {
      const other = new PrintTable();
      other.set('x', stat('f', change));
      expect(other.same('x', base)).toBe(false);
    }
    const kind = new PrintTable();
    kind.set('x', stat('l'));
    expect(kind.same('x', base)).toBe(false);
    const same = new PrintTable();
    same.set('pad', stat('d'));
    same.set('x', stat('f'));
    same.set('link', 'l:1:2:3:4:5:1>/root/x|f:1:2:3:4:5:1');
    expect(same.same('x', base)).toBe(true);
    expect(same.same('link', base)).toBe(true);
    expect(same.same('pad', base)).toBe(false);
    expect(same.same('none', base)).toBe(true);
    const text = new PrintTable();
    text.set('x', formatStatPrint(stat('f')));
    expect(text.same('x', base)).toBe(false);
  });

  it('copies, deletes and reuses slots, growing past its first chunks', () => {
    const from = new PrintTable();
    const into = new PrintTable();
    for (let i = 0; i < 9000; i++) from.set(`p${i}`, i % 50 === 0 ? `text ${i}` : stat('f', { size: i }));
    for (const key of from.keys()) into.copy(key, from);
    expect(into.size).toBe(9000);
    for (const key of from.keys()) expect(into.same(key, from)).toBe(true);
    for (let i = 0; i < 250; i++) expect(into.delete(`p${i}`)).toBe(true);
    expect(into.delete('p0')).toBe(false);
    expect(into.size).toBe(8750);
    for (let i = 0; i < 250; i++) into.set(`q${i}`, stat('f', { size: 1000 + i }));
    expect(into.get('q10')).toBe(formatStatPrint(stat('f', { size: 1010 })));
    expect(into.get('p8999')).toBe(formatStatPrint(stat('f', { size: 8999 })));
    expect(into.has('p0')).toBe(false);
    into.set('p300', 'now text');
    expect(into.get('p300')).toBe('now text');
    into.set('p300', stat('f', { size: 3 }));
    expect(into.get('p300')).toBe(formatStatPrint(stat('f', { size: 3 })));
    expect([...into.keys()].length).toBe(9000);
  });
});
