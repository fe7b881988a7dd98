/**
 * What a walk forgets when a held directory's release fails (`forgetRecorded` in src/fs/read-snapshot.ts): the
 * journal's tail since the directory's walk began, against the definition it replaced — a scan of every print
 * and link for the paths at and below the directory (`forgetByScan`, kept here as the oracle) — on modelled
 * walks, and on real trees whose directories change at the end of their own walk, against a clean read.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createReader,
  createReadResult,
  forgetRecorded,
  type ReadResult,
} from '../../src/fs/read-snapshot.js';

/** The definition `forgetRecorded` replaced: one pass over every print and link of the walk. */
function forgetByScan(into: ReadResult, path: string): void {
  const prefix = `${path}/`;
  const under = (key: string) => key === path || key.startsWith(prefix);
  const forgotten: string[] = [];
  for (const key of into.prints.keys()) if (under(key)) forgotten.push(key);
  for (const key of forgotten) {
    const file = into.files.get(key);
    if (file !== undefined) into.slabs?.discard(file.bytes);
    into.files.delete(key);
    into.problems.delete(key);
    into.prints.delete(key);
  }
  for (const key of [...into.links.keys()]) if (under(key)) into.links.delete(key);
}

/** A result as plain values: what two walks must agree on, including the slabs' live byte counts. */
function describeResult(result: ReadResult) {
  const inSlabs = new Set(result.slabs?.slabs.map((slab) => slab.buffer));
  let slabFileBytes = 0;
  for (const file of result.files.values()) {
    if (inSlabs.has(file.bytes.buffer as ArrayBuffer)) slabFileBytes += file.bytes.byteLength;
  }
  const sorted = <V>(map: ReadonlyMap<string, V>) => [...map].sort(([a], [b]) => (a < b ? -1 : 1));
  return {
    files: sorted(result.files).map(([path, file]) => [
      path,
      Buffer.from(file.bytes).toString('latin1'),
      file.mode,
      file.mtimeMs,
    ]),
    problems: sorted(result.problems),
    prints: sorted(result.prints.texts()),
    links: sorted(result.links),
    slabLive: result.slabs?.slabs.reduce((sum, slab) => sum + slab.live, 0),
    slabFileBytes,
  };
}

describe('forgetRecorded against the full scan, on modelled walks', () => {
  /** A directory entry as the model walk records it (the kinds of record the real walk makes). */
  type Node =
    | { readonly kind: 'file'; readonly text: string }
    | { readonly kind: 'odd' | 'link-file' | 'dangling' }
    | { readonly kind: 'link-dir'; readonly children: readonly Node[] }
    | {
        readonly kind: 'dir';
        readonly children: readonly Node[];
        /** Its release fails when it was held. */
        readonly fails: boolean;
        /** What a walk after its failed release finds: the directory changed during its walk. */
        readonly now: readonly Node[];
      };

  const { node } = fc.letrec<{ node: Node; children: Node[] }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', maxDepth: 4 },
      fc.record({ kind: fc.constant('file' as const), text: fc.string({ maxLength: 3 }) }),
      fc.record({ kind: fc.constantFrom('odd' as const, 'link-file' as const, 'dangling' as const) }),
      fc.record({ kind: fc.constant('link-dir' as const), children: tie('children') }),
      fc.record({
        kind: fc.constant('dir' as const),
        children: tie('children'),
        fails: fc.boolean(),
        now: tie('children'),
      }),
    ),
    children: fc.array(tie('node'), { maxLength: 4 }),
  }));
  const topArb = fc.record({
    kind: fc.constant('dir' as const),
    children: fc.array(node, { maxLength: 5 }),
    fails: fc.boolean(),
    now: fc.array(node, { maxLength: 5 }),
  });

  /**
   * Records `node` at `path` into `into` as the real walk does (a file's bytes and print, a problem and its
   * print, a link's target; a link's and a directory's children below it), journalled in `recorded`. A held
   * directory (only below held ones, never below a link) that fails is forgotten with `forget` and walked again
   * as it is now, unheld.
   */
  function walk(
    into: ReadResult,
    recorded: string[],
    forget: (path: string, mark: number) => void,
    node: Node,
    path: string,
    held: boolean,
  ): void {
    const print = (value: string) => {
      into.prints.set(path, value);
      recorded.push(path);
    };
    const link = () => {
      into.links.set(path, `target-of:${path}`);
      recorded.push(path);
    };
    const file = (text: string) => {
      into.files.set(path, {
        path,
        bytes: into.slabs!.copy(path, Buffer.from(`${path}:${text}`)),
        mtimeMs: 0,
        mode: 0o644,
      });
      print(`f:${text}`);
    };
    const children = (nodes: readonly Node[], hold: boolean) => {
      nodes.forEach((child, i) => {
        walk(into, recorded, forget, child, `${path}/e${i}`, hold);
      });
    };
    switch (node.kind) {
      case 'file':
        file(node.text);
        break;
      case 'odd':
        into.problems.set(path, { path, kind: 'not-regular' });
        print('o');
        break;
      case 'link-file':
        link();
        file('linked');
        break;
      case 'dangling':
        into.problems.set(path, { path, kind: 'symlink-broken', detail: 'dangling' });
        print('l');
        link();
        break;
      case 'link-dir':
        link();
        children(node.children, false);
        break;
      case 'dir': {
        const mark = recorded.length;
        children(node.children, held);
        if (!held || !node.fails) break;
        forget(path, mark);
        children(node.now, false);
      }
    }
  }

  /** The tree a walk after every failed release sees: each failed directory as it is now. */
  function settled(node: Node, held: boolean): Node {
    if (node.kind === 'dir') {
      const children = held && node.fails ? node.now : node.children.map((child) => settled(child, held));
      return { ...node, children, fails: false };
    }
    return node;
  }

  it('forgets exactly what the scan of every path forgot, and both leave what a clean walk records', () => {
    fc.assert(
      fc.property(fc.array(topArb, { minLength: 1, maxLength: 3 }), (tops) => {
        const journalled = createReadResult(undefined, { slabs: true });
        const scanned = createReadResult(undefined, { slabs: true });
        const clean = createReadResult(undefined, { slabs: true });
        // One walk (and one journal) per top-level directory, all into one result, as a cold read does.
        tops.forEach((top, i) => {
          const recorded: string[] = [];
          walk(
            journalled,
            recorded,
            (path, mark) => {
              // Every path journalled since the mark lies at or below the directory forgotten.
              for (const key of recorded.slice(mark))
                expect(key === path || key.startsWith(`${path}/`)).toBe(true);
              forgetRecorded(journalled, recorded, mark);
            },
            top,
            `top${i}`,
            true,
          );
          walk(scanned, [], (path) => forgetByScan(scanned, path), top, `top${i}`, true);
          walk(clean, [], () => {}, settled(top, true), `top${i}`, false);
          // What remains journalled is exactly what the result holds of this walk.
          const kept = new Set(recorded);
          for (const key of [...journalled.prints.keys(), ...journalled.links.keys()]) {
            if (key.startsWith(`top${i}/`) || key === `top${i}`) expect(kept.has(key)).toBe(true);
          }
        });
        const result = describeResult(journalled);
        expect(result).toEqual(describeResult(scanned));
        expect(result.slabLive).toBe(result.slabFileBytes);
        const { slabLive: _live, slabFileBytes: _bytes, ...contents } = result;
        const { slabLive: _l, slabFileBytes: _b, ...cleanContents } = describeResult(clean);
        expect(contents).toEqual(cleanContents);
      }),
      { numRuns: 400 },
    );
  });
});

/**
 * Real trees of every kind of entry (files small and large, FIFOs, hard links, links to files, directories and
 * nowhere, nested directories), each read once while chosen directories change at the very end of their own
 * walk — after everything below them was recorded, just before their release: most of their entries removed, some
 * added, a file rewritten. Every such release fails, the directory is forgotten and read again, and the result
 * must be a clean read of the tree as it ends up. An entry the journal missed would survive its removal.
 */
describe.runIf(fs.existsSync('/proc/self/fd'))('a held directory whose release fails, on disk', () => {
  type Spec =
    | {
        readonly kind: 'file' | 'big' | 'huge' | 'fifo' | 'hardlink' | 'link-file' | 'link-dir' | 'dangling';
      }
    | { readonly kind: 'dir'; readonly children: readonly Spec[]; readonly fails: boolean };
  const { spec } = fc.letrec<{ spec: Spec; children: Spec[] }>((tie) => ({
    spec: fc.oneof(
      { depthSize: 'small', maxDepth: 3 },
      fc.record({
        kind: fc.constantFrom(
          'file' as const,
          'big' as const,
          'huge' as const,
          'fifo' as const,
          'hardlink' as const,
          'link-file' as const,
          'link-dir' as const,
          'dangling' as const,
        ),
      }),
      fc.record({ kind: fc.constant('dir' as const), children: tie('children'), fails: fc.boolean() }),
    ),
    children: fc.array(tie('spec'), { minLength: 1, maxLength: 5 }),
  }));
  const treeArb = fc.record({
    knowledge: fc.array(spec, { minLength: 1, maxLength: 4 }),
    skills: fc.array(spec, { minLength: 1, maxLength: 4 }),
    prompts: fc.array(spec, { minLength: 1, maxLength: 3 }),
  });
  const TREES = 12;
  const roots: string[] = [];
  /** Per tree: the real paths of the directories that change during their walk. */
  const failing: Set<string>[] = [];

  function make(dir: string, specs: readonly Spec[], fails: boolean, into: Set<string>): void {
    fs.mkdirSync(dir, { recursive: true });
    if (fails) into.add(dir);
    specs.forEach((spec, i) => {
      const path = join(dir, `e${i}${spec.kind === 'dir' ? '' : '.md'}`);
      if (spec.kind === 'dir') make(path, spec.children, spec.fails, into);
      // Too large for a slab ('big': bytes of their own), over the cap ('huge': a problem).
      else if (spec.kind === 'file') fs.writeFileSync(path, `${path}\n`);
      else if (spec.kind === 'big') fs.writeFileSync(path, 'x'.repeat(20_000));
      else if (spec.kind === 'huge') fs.writeFileSync(path, 'x'.repeat(40_000));
      else if (spec.kind === 'fifo') execFileSync('mkfifo', [path]);
      else if (spec.kind === 'hardlink') {
        fs.writeFileSync(path, 'twice');
        fs.linkSync(path, `${path}.twin.md`);
      } else if (spec.kind === 'link-file') fs.symlinkSync('e0.md', path);
      else if (spec.kind === 'dangling') fs.symlinkSync('nowhere.md', path);
      else {
        // To a sibling directory (walked through the link), or to its own (a loop).
        const sibling = specs.findIndex((other) => other.kind === 'dir');
        fs.symlinkSync(sibling === -1 ? '.' : `e${sibling}`, path);
      }
    });
  }

  beforeAll(async () => {
    for (const tree of fc.sample(treeArb, { numRuns: TREES, seed: 185 })) {
      const root = fs.realpathSync(fs.mkdtempSync(join(tmpdir(), 'companion-forget-')));
      const changing = new Set<string>();
      make(join(root, 'knowledge', 'documents'), tree.knowledge, false, changing);
      make(join(root, 'skills', 'demo'), tree.skills, true, changing);
      make(join(root, 'prompts'), tree.prompts, true, changing);
      // The top-level directories change too, once everything below them was read.
      changing.add(join(root, 'knowledge'));
      roots.push(root);
      failing.push(changing);
    }
    // A directory changed in the last 2 s is never held.
    await new Promise((resolve) => setTimeout(resolve, 2100));
  }, 20_000);
  afterAll(() => {
    for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
  });
  afterEach(() => vi.restoreAllMocks());

  /** Removes two of every three entries of `dir`, adds a file and a directory, and rewrites a file that stays. */
  function change(dir: string): void {
    const names = fs.readdirSync(dir).sort();
    names.forEach((name, i) => {
      if (i % 3 !== 1) fs.rmSync(join(dir, name), { recursive: true, force: true });
    });
    fs.writeFileSync(join(dir, 'added.md'), 'added');
    fs.mkdirSync(join(dir, 'added-dir'));
    fs.writeFileSync(join(dir, 'added-dir', 'a.md'), 'a');
    const kept = names.find((name, i) => i % 3 === 1 && fs.lstatSync(join(dir, name)).isFile());
    if (kept !== undefined && !kept.endsWith('.twin.md')) fs.writeFileSync(join(dir, kept), 'rewritten');
  }

  /** Changes each of `dirs` just before the release of its held descriptor; answers those it changed. */
  function changeAtRelease(dirs: ReadonlySet<string>): string[] {
    const readdir = fs.readdirSync;
    const readlink = fs.readlinkSync;
    const fstat = fs.fstatSync;
    const listed = new Map<number, string>();
    const changed: string[] = [];
    vi.spyOn(fs, 'readdirSync').mockImplementation(((path: fs.PathLike, options?: unknown) => {
      const heldFd = /^\/proc\/\d+\/fd\/(\d+)$/.exec(String(path));
      if (heldFd) listed.set(Number(heldFd[1]), String(readlink(path)));
      return readdir(path, options as never);
    }) as typeof fs.readdirSync);
    vi.spyOn(fs, 'fstatSync').mockImplementation(((fd: number, options?: fs.StatOptions) => {
      const dir = options?.bigint ? listed.get(fd) : undefined;
      if (dir !== undefined) {
        // The directory's first bigint fstat after its listing is its release.
        listed.delete(fd);
        if (dirs.has(dir)) {
          change(dir);
          changed.push(dir);
        }
      }
      return fstat(fd, options as never);
    }) as typeof fs.fstatSync);
    return changed;
  }

  for (let t = 0; t < TREES; t++) {
    it(`reads tree ${t} as a clean read of how it ends up, every changed directory read again`, () => {
      const root = roots[t]!;
      const reader = createReader(root, { maxFileBytes: 30_000 });
      const changed = changeAtRelease(failing[t]!);
      const read = createReadResult(undefined, { slabs: true });
      for (const top of ['knowledge', 'skills', 'prompts']) reader.read(top, read);
      vi.restoreAllMocks();
      expect(changed.sort()).toEqual([...failing[t]!].sort());

      const clean = createReadResult(undefined, { slabs: true });
      for (const top of ['knowledge', 'skills', 'prompts']) reader.read(top, clean);
      const result = describeResult(read);
      expect(result.files.length).toBeGreaterThan(0);
      expect(result.slabLive).toBe(result.slabFileBytes);
      const { slabLive: _live, slabFileBytes: _bytes, ...contents } = result;
      const { slabLive: _l, slabFileBytes: _b, ...cleanContents } = describeResult(clean);
      expect(contents).toEqual(cleanContents);
    });
  }
});
