/**
 * `WalkPrints` (the watcher thread's table, updated in place by each walk) against its former definition: each walk
 * recorded into a fresh `PrintTable`, answered against the previous walk's table by `same`, entries gone as
 * `undefined`, and every print the first time.
 */
import { describe, expect, it } from 'vitest';
import { PrintTable, type StatPrint } from '../../src/fs/print-table.js';
import { WalkPrints } from '../../src/fs/walk-prints.js';

/** A deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function stat(kind: number, size: number, mtimeMs: number, ino: number, nlink = 1): StatPrint {
  return {
    isFile: () => kind === 0,
    isDirectory: () => kind === 1,
    isSymbolicLink: () => kind === 2,
    size,
    mtimeMs,
    ctimeMs: mtimeMs + 0.5,
    ino,
    mode: kind === 1 ? 0o40755 : 0o100644,
    nlink,
  };
}

const NAMES = [
  'a.md',
  'SKILL.md',
  'ünïcode.md',
  '文档.md',
  'x',
  'long-name-of-a-reference-file-0123456789.md',
  'é',
];
const DIRS = ['knowledge', 'knowledge/documents/a', 'skills/s1/references', 'skills/ü', 'skills'];

/** A universe of `n` paths: directories and names mixed, a few at the top level (no `/`). */
function universe(n: number, next: () => number): string[] {
  const paths = new Set<string>(['knowledge', 'prompts']);
  while (paths.size < n) {
    const dir = DIRS[Math.floor(next() * DIRS.length)]!;
    const name = NAMES[Math.floor(next() * NAMES.length)]!;
    paths.add(`${dir}${Math.floor(next() * 4) || ''}/${Math.floor(next() * 40)}-${name}`);
  }
  return [...paths];
}

type Print = StatPrint | string;

/** One walk's prints: each path present with probability `keep`, its print drawn from a few values. */
function drawWalk(paths: readonly string[], next: () => number, keep: number): Map<string, Print> {
  const walk = new Map<string, Print>();
  for (const path of paths) {
    if (next() >= keep) continue;
    const v = Math.floor(next() * 3);
    const print =
      next() < 0.1
        ? `l:0:0:0:${v}:41471:1>${path}|f:1:2:3:4:33188:1`
        : stat(
            v === 2 ? 1 : 0,
            10 + v,
            1733000000000.125 + (v === 1 ? 0.25 : 0),
            2 ** 40 + v,
            1 + (v === 2 ? 2 ** 34 : 0),
          );
    walk.set(path, print);
  }
  return walk;
}

/** The former definition's answer: what differs from `previous` (`same`), and `undefined` for what is gone. */
function formerAnswer(previous: PrintTable | undefined, fresh: PrintTable): Map<string, string | undefined> {
  if (previous === undefined) return fresh.texts();
  const changed = new Map<string, string | undefined>();
  for (const key of fresh.keys()) if (!previous.same(key, fresh)) changed.set(key, fresh.get(key));
  for (const key of previous.keys()) if (!fresh.has(key)) changed.set(key, undefined);
  return changed;
}

/** Where two answers differ (at most a few), for one `expect` over maps of 70,000 entries. */
function differences(
  a: ReadonlyMap<string, string | undefined>,
  b: ReadonlyMap<string, string | undefined>,
): string[] {
  const found: string[] = [];
  for (const [key, value] of a)
    if (!b.has(key) || b.get(key) !== value) found.push(`${key}: ${value} vs ${b.get(key)}`);
  for (const key of b.keys()) if (!a.has(key)) found.push(`${key}: absent vs ${b.get(key)}`);
  return found.slice(0, 5);
}

function finishWhole(table: WalkPrints, piece?: number): Map<string, string | undefined> {
  const whole = new Map<string, string | undefined>();
  const pieces = table.finish(piece);
  for (let step = pieces.next(); ; step = pieces.next()) {
    const answer = step.value;
    if (piece !== undefined) expect(answer.size).toBeLessThanOrEqual(piece);
    if (!step.done && piece !== undefined) expect(answer.size).toBe(piece);
    const before = whole.size;
    for (const [key, value] of answer) whole.set(key, value);
    expect(whole.size).toBe(before + answer.size);
    if (step.done) return whole;
  }
}

describe('WalkPrints against a fresh PrintTable per walk', () => {
  it('answers exactly what the former definition answered, walk after walk', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const next = random(seed);
      const paths = universe(60 + Math.floor(next() * 400), next);
      const table = new WalkPrints();
      let previous: PrintTable | undefined;
      for (let round = 0; round < 8; round++) {
        const walk = drawWalk(paths, next, [1, 0.9, 0.5, 0, 0.99][round % 5]!);
        const fresh = new PrintTable();
        table.begin();
        for (const [path, print] of walk) {
          fresh.set(path, print);
          table.set(path, print);
        }
        const piece = round % 2 === 0 ? undefined : 1 + Math.floor(next() * 50);
        expect(differences(finishWhole(table, piece), formerAnswer(previous, fresh))).toEqual([]);
        expect(table.size).toBe(fresh.size);
        expect(paths.filter((path) => table.get(path) !== fresh.get(path))).toEqual([]);
        previous = fresh;
      }
    }
  });

  it('answers every change (and only prints the walk recorded) when the walk forgets and walks again', () => {
    for (let seed = 100; seed < 120; seed++) {
      const next = random(seed);
      const paths = universe(200, next);
      const table = new WalkPrints();
      let previous: PrintTable | undefined;
      for (let round = 0; round < 6; round++) {
        const walk = drawWalk(paths, next, 0.8);
        const fresh = new PrintTable();
        table.begin();
        const recorded: string[] = [];
        for (const [path, print] of walk) {
          fresh.set(path, print);
          table.set(path, print);
          recorded.push(path);
          // Now and then forget a tail of what was recorded (`forgetRecorded`), and record part of it again.
          if (next() < 0.05) {
            const from = Math.floor(next() * recorded.length);
            for (const key of recorded.slice(from)) {
              fresh.delete(key);
              table.delete(key);
            }
            for (const key of recorded.slice(from)) {
              if (next() < 0.7) continue;
              const again = drawWalk([key], next, 1).get(key)!;
              fresh.set(key, again);
              table.set(key, again);
            }
            recorded.length = from;
          }
        }
        const answer = finishWhole(table);
        const former = formerAnswer(previous, fresh);
        // Everything the former definition answered, with the same print …
        for (const [key, value] of former) expect(answer.get(key)).toBe(value);
        expect([...former.keys()].every((key) => answer.has(key))).toBe(true);
        // … and beyond it only entries answered as they are (an unchanged print, or gone and never held).
        for (const [key, value] of answer) if (!former.has(key)) expect(value).toBe(fresh.get(key));
        expect(table.size).toBe(fresh.size);
        expect(paths.filter((path) => table.get(path) !== fresh.get(path))).toEqual([]);
        previous = fresh;
      }
    }
  });

  it('keeps answering exactly through growth, the removal of most entries and the compaction that follows', () => {
    const paths: string[] = [];
    for (let i = 0; i < 70_000; i++) paths.push(`knowledge/documents/d${i % 700}/reference-file-${i}.md`);
    const table = new WalkPrints();
    const walkWith = (present: readonly string[], size: number) => {
      const fresh = new PrintTable();
      table.begin();
      for (const path of present) {
        const print = stat(0, size, 1733000000000, 5);
        fresh.set(path, print);
        table.set(path, print);
      }
      return fresh;
    };
    let previous = walkWith(paths, 1);
    expect(differences(finishWhole(table, 4096), formerAnswer(undefined, previous))).toEqual([]);
    // Every entry gone but a few: their names' bytes are waste, and the table compacts.
    const few = paths.filter((_, i) => i % 1000 === 0);
    let fresh = walkWith(few, 1);
    expect(finishWhole(table)).toEqual(formerAnswer(previous, fresh));
    previous = fresh;
    fresh = walkWith(few, 2);
    expect(finishWhole(table)).toEqual(formerAnswer(previous, fresh));
    previous = fresh;
    fresh = walkWith(paths, 2);
    expect(differences(finishWhole(table), formerAnswer(previous, fresh))).toEqual([]);
    expect(table.size).toBe(70_000);
    expect(paths.filter((path) => table.get(path) !== fresh.get(path))).toEqual([]);
  });
});
