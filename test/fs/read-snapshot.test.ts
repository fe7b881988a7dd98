import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Snapshot } from '../../src/core/types.js';
import { SLAB_BYTES, SLAB_FILE_MAX } from '../../src/fs/byte-slabs.js';
import {
  buildSnapshot,
  createReader,
  createReadResult,
  isContentPath,
  RootError,
  readEntry,
  readSnapshot,
} from '../../src/fs/read-snapshot.js';
import { copyFixture, createTempProject, type TempProject } from '../helpers/temp-project.js';

const SECRET = 'SECRET-7f3a9c-outside-the-root';
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

let projects: TempProject[] = [];
function project(files: Record<string, string | Uint8Array> = {}): TempProject {
  const created = createTempProject(files);
  projects.push(created);
  return created;
}
/** A directory outside every project root, holding the secret. */
function outside(): TempProject {
  return project({ 'secret.md': SECRET, 'dir/secret.md': SECRET });
}
afterEach(() => {
  vi.restoreAllMocks();
  for (const created of projects) created.cleanup();
  projects = [];
});

/** Asserts the secret's bytes appear in no file and no problem of the snapshot. */
function expectNoSecret(snapshot: Snapshot): void {
  for (const file of snapshot.files.values()) expect(text(file.bytes)).not.toContain(SECRET);
  expect(JSON.stringify(snapshot.problems)).not.toContain(SECRET);
}

describe('readSnapshot', () => {
  it('reads knowledge/ and skills/ with posix relative paths and skips editor droppings', () => {
    const p = copyFixture('fs-basic');
    projects.push(p);
    p.write('skills/demo/node_modules/pkg/index.js', 'x');
    p.write('skills/.git/HEAD', 'x');
    p.write('skills/demo/.#SKILL.md', 'x');
    p.write('node_modules/pkg/index.js', 'x');

    const snapshot = readSnapshot(p.root);

    expect([...snapshot.files.keys()]).toEqual([
      'knowledge/documents/general/intro.md',
      'knowledge/server-scope.json',
      'skills/base.md',
      'skills/demo/SKILL.md',
      'skills/demo/scripts/run.sh',
    ]);
    expect(snapshot.problems).toEqual([]);
    const skill = snapshot.files.get('skills/demo/SKILL.md')!;
    expect(skill.path).toBe('skills/demo/SKILL.md');
    expect(text(skill.bytes)).toBe(fs.readFileSync(p.path('skills/demo/SKILL.md'), 'utf8'));
    expect(skill.mtimeMs).toBe(fs.statSync(p.path('skills/demo/SKILL.md')).mtimeMs);
    // A plain Uint8Array, not a Buffer: a view of exactly the file's bytes in a slab of this read (never Node's
    // shared pool), and no two files' views overlap.
    expect(Object.getPrototypeOf(skill.bytes)).toBe(Uint8Array.prototype);
    expect(skill.bytes.buffer.byteLength).toBe(SLAB_BYTES);
    const views = [...snapshot.files.values()]
      .map((file) => file.bytes)
      .sort((a, b) => a.byteOffset - b.byteOffset);
    for (const [i, view] of views.entries()) {
      expect(view.buffer).toBe(skill.bytes.buffer);
      if (i > 0)
        expect(view.byteOffset).toBeGreaterThanOrEqual(views[i - 1]!.byteOffset + views[i - 1]!.byteLength);
    }
  });

  it('gives a file too large to share a buffer of its own, and a small one a view of exactly its bytes', () => {
    const big = Buffer.alloc(SLAB_FILE_MAX + 1, 'b');
    const p = project({ 'skills/demo/SKILL.md': 'S', 'skills/demo/big.md': big, 'skills/demo/z.md': 'Z' });
    const snapshot = readSnapshot(p.root);
    const bytes = snapshot.files.get('skills/demo/big.md')!.bytes;
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(big.byteLength);
    expect(Buffer.from(bytes).equals(big)).toBe(true);
    const z = snapshot.files.get('skills/demo/z.md')!.bytes;
    expect([...z]).toEqual([...Buffer.from('Z')]);
    expect(z.buffer).toBe(snapshot.files.get('skills/demo/SKILL.md')!.bytes.buffer);
  });

  it('reads prompts/ beside knowledge/ and skills/, and nothing else at the top level', () => {
    const p = createTempProject({
      'prompts/review.md': 'r',
      'prompts/.review.md.swp': 'x',
      'knowledge/server-scope.json': '{}',
      'notes/prompt.md': 'x',
      'README.md': 'x',
    });
    projects.push(p);
    expect([...readSnapshot(p.root).files.keys()]).toEqual([
      'knowledge/server-scope.json',
      'prompts/review.md',
    ]);
    expect(isContentPath('prompts/review.md')).toBe(true);
    expect(isContentPath('prompts')).toBe(true);
    expect(isContentPath('notes/prompt.md')).toBe(false);
  });

  it('treats missing content directories as empty', () => {
    expect(readSnapshot(project({ 'README.md': 'x' }).root)).toEqual({ files: new Map(), problems: [] });
    expect([...readSnapshot(project({ 'skills/base.md': 'b' }).root).files.keys()]).toEqual([
      'skills/base.md',
    ]);
  });

  it('keys files in code-point path order, the same on every read', () => {
    const p = project({
      'skills/a-c/x.md': '1',
      'skills/a/b.md': '2',
      'skills/B/z.md': '3',
      'skills/a.md': '4',
    });
    const keys = [...readSnapshot(p.root).files.keys()];
    expect(keys).toEqual(['skills/B/z.md', 'skills/a-c/x.md', 'skills/a.md', 'skills/a/b.md']);
  });

  it('builds a snapshot in code-point order, sorting only the files that did not come sorted', () => {
    const file = (path: string) => ({ path, bytes: new Uint8Array(), mtimeMs: 0, mode: 0o644 });
    const sorted = new Map(['skills/a-c/x.md', 'skills/a.md', 'skills/a/b.md'].map((p) => [p, file(p)]));
    const unsorted = new Map(['skills/a/b.md', 'skills/a-c/x.md', 'skills/a.md'].map((p) => [p, file(p)]));
    const expected = ['skills/a-c/x.md', 'skills/a.md', 'skills/a/b.md'];
    expect([...buildSnapshot(sorted, new Map()).files.keys()]).toEqual(expected);
    expect(buildSnapshot(sorted, new Map()).files).toBe(sorted);
    expect([...buildSnapshot(unsorted, new Map()).files.keys()]).toEqual(expected);
    expect([...unsorted.keys()]).toEqual(['skills/a/b.md', 'skills/a-c/x.md', 'skills/a.md']);
  });

  it('follows a symlink inside its own area, reading the target bytes under the link path', () => {
    const p = project({
      'skills/demo/SKILL.md': 'S',
      'skills/demo/references/a.md': 'A',
      'knowledge/documents/any/b.md': 'B',
    });
    p.symlink('../SKILL.md', 'skills/demo/references/body.md');
    p.symlink('../any/b.md', 'knowledge/documents/other/b-alias.md');
    const snapshot = readSnapshot(p.root);
    expect(text(snapshot.files.get('skills/demo/references/body.md')!.bytes)).toBe('S');
    expect(text(snapshot.files.get('knowledge/documents/other/b-alias.md')!.bytes)).toBe('B');
    expect(snapshot.problems).toEqual([]);
  });

  it('walks a symlinked directory inside its area, and stops a link back up as a loop', () => {
    const p = project({ 'skills/real/SKILL.md': 'R', 'skills/real/refs/a.md': 'A' });
    p.symlink('refs', 'skills/real/more');
    p.symlink('..', 'skills/real/refs/up');
    const snapshot = readSnapshot(p.root);
    expect([...snapshot.files.keys()]).toEqual([
      'skills/real/SKILL.md',
      'skills/real/more/a.md',
      'skills/real/refs/a.md',
    ]);
    expect(snapshot.problems).toEqual([
      { path: 'skills/real/more/up', kind: 'symlink-broken', detail: 'loop' },
      { path: 'skills/real/refs/up', kind: 'symlink-broken', detail: 'loop' },
    ]);
  });

  it('refuses a link that stays in the root but leaves its area, naming the root-relative target, and never reads it', () => {
    const p = project({
      'skills/base.md': 'BASE',
      'skills/real/SKILL.md': 'R',
      'skills/demo/SKILL.md': 'S',
      'knowledge/documents/any/a.md': 'A',
      'knowledge/scope.json': '{}',
      'notes/private.md': 'private',
    });
    p.symlink('../base.md', 'skills/demo/base-link.md');
    p.symlink('../../real/SKILL.md', 'skills/demo/references/other-skill.md');
    p.symlink('real', 'skills/alias');
    p.symlink('../../../skills/demo/SKILL.md', 'knowledge/documents/any/skill.md');
    p.symlink('../../../notes/private.md', 'knowledge/documents/any/private.md');
    p.symlink('scope.json', 'knowledge/server-scope.json');
    p.symlink('demo/SKILL.md', 'skills/shared.md');
    const open = vi.spyOn(fs, 'openSync');

    const snapshot = readSnapshot(p.root);

    expect([...snapshot.files.keys()]).toEqual([
      'knowledge/documents/any/a.md',
      'knowledge/scope.json',
      'skills/base.md',
      'skills/demo/SKILL.md',
      'skills/real/SKILL.md',
    ]);
    expect(snapshot.problems).toEqual([
      { path: 'knowledge/documents/any/private.md', kind: 'link-outside-area', detail: 'notes/private.md' },
      { path: 'knowledge/documents/any/skill.md', kind: 'link-outside-area', detail: 'skills/demo/SKILL.md' },
      { path: 'knowledge/server-scope.json', kind: 'link-outside-area', detail: 'knowledge/scope.json' },
      { path: 'skills/alias', kind: 'link-outside-area', detail: 'skills/real' },
      { path: 'skills/demo/base-link.md', kind: 'link-outside-area', detail: 'skills/base.md' },
      {
        path: 'skills/demo/references/other-skill.md',
        kind: 'link-outside-area',
        detail: 'skills/real/SKILL.md',
      },
      { path: 'skills/shared.md', kind: 'link-outside-area', detail: 'skills/demo/SKILL.md' },
    ]);
    // Only the files served were opened: no refused target, and nothing under notes/.
    const opened = open.mock.calls.map(([path]) => String(path).slice(p.root.length + 1)).sort();
    expect(opened).toEqual([...snapshot.files.keys()]);
  });

  it('serves a prompt from prompts/: a link inside prompts/ is followed, a link out of it is refused', () => {
    const p = project({
      'prompts/review.md': 'R',
      'knowledge/documents/any/a.md': 'A',
      '.env': 'TOKEN=secret',
    });
    p.symlink('review.md', 'prompts/again.md');
    p.symlink('../knowledge/documents/any/a.md', 'prompts/document.md');
    p.symlink('../.env', 'prompts/env.md');
    const snapshot = readSnapshot(p.root);
    expect([...snapshot.files.keys()]).toEqual([
      'knowledge/documents/any/a.md',
      'prompts/again.md',
      'prompts/review.md',
    ]);
    expect(text(snapshot.files.get('prompts/again.md')!.bytes)).toBe('R');
    expect(snapshot.problems).toEqual([
      { path: 'prompts/document.md', kind: 'link-outside-area', detail: 'knowledge/documents/any/a.md' },
      { path: 'prompts/env.md', kind: 'link-to-hidden', detail: '.env' },
    ]);
  });

  it('refuses a link into a hidden, backup or ignored name (.env, .git/config), in the root or in its area', () => {
    const p = project({
      '.env': 'TOKEN=secret',
      '.git/config': '[remote]\n  url = https://token@example.com\n',
      'skills/demo/SKILL.md': 'S',
      'skills/demo/.secret.md': 'hidden in the area',
      'skills/demo/notes.md~': 'a backup',
    });
    p.symlink('../../../.env', 'skills/demo/references/env.md');
    p.symlink('../../.git/config', 'skills/demo/config.md');
    p.symlink('.secret.md', 'skills/demo/visible.md');
    p.symlink('notes.md~', 'skills/demo/notes.md');
    p.symlink('../../.git', 'knowledge/documents/git');
    const snapshot = readSnapshot(p.root);
    expect([...snapshot.files.keys()]).toEqual(['skills/demo/SKILL.md']);
    expect(snapshot.problems).toEqual([
      { path: 'knowledge/documents/git', kind: 'link-to-hidden', detail: '.git' },
      { path: 'skills/demo/config.md', kind: 'link-to-hidden', detail: '.git/config' },
      { path: 'skills/demo/notes.md', kind: 'link-to-hidden', detail: 'skills/demo/notes.md~' },
      { path: 'skills/demo/references/env.md', kind: 'link-to-hidden', detail: '.env' },
      { path: 'skills/demo/visible.md', kind: 'link-to-hidden', detail: 'skills/demo/.secret.md' },
    ]);
    const all = JSON.stringify([...snapshot.files.values()].map((f) => text(f.bytes)));
    expect(all).not.toContain('secret');
    expect(all).not.toContain('token');
  });

  it('never serves, and never reports, dotfiles and dot-directories placed in content', () => {
    const p = project({
      'skills/demo/SKILL.md': 'S',
      'skills/demo/.env': 'TOKEN=secret',
      'skills/demo/.DS_Store': 'x',
      'skills/demo/references/.gitkeep': '',
      'skills/demo/.cache/x.md': 'x',
      'knowledge/documents/any/.draft.md': 'x',
      'knowledge/.git/config': 'x',
    });
    const snapshot = readSnapshot(p.root);
    expect([...snapshot.files.keys()]).toEqual(['skills/demo/SKILL.md']);
    expect(snapshot.problems).toEqual([]);
  });

  it('refuses a file with more than one hard link, inside the root or out of it, and never reads it', () => {
    const out = outside();
    const p = project({ 'skills/demo/SKILL.md': 'S', 'skills/demo/references/a.md': 'A' });
    fs.mkdirSync(p.path('knowledge/documents/any'), { recursive: true });
    fs.linkSync(out.path('secret.md'), p.path('skills/demo/references/secret.md'));
    fs.linkSync(p.path('skills/demo/references/a.md'), p.path('knowledge/documents/any/a.md'));
    const readSync = vi.spyOn(fs, 'readSync');
    const snapshot = readSnapshot(p.root);
    expect([...snapshot.files.keys()]).toEqual(['skills/demo/SKILL.md']);
    expect(snapshot.problems).toEqual([
      { path: 'knowledge/documents/any/a.md', kind: 'hardlinked', detail: '2' },
      { path: 'skills/demo/references/a.md', kind: 'hardlinked', detail: '2' },
      { path: 'skills/demo/references/secret.md', kind: 'hardlinked', detail: '2' },
    ]);
    expect(readSync).toHaveBeenCalledTimes(1);
    expectNoSecret(snapshot);
    // A symlink in the area to a hardlinked file is refused the same way.
    p.symlink('a.md', 'skills/demo/references/via-link.md');
    expect(readSnapshot(p.root).problems).toContainEqual({
      path: 'skills/demo/references/via-link.md',
      kind: 'hardlinked',
      detail: '2',
    });
  });

  it('records each file’s permission bits, so an executable script stays one', () => {
    const p = project({ 'skills/demo/SKILL.md': 'S', 'skills/demo/scripts/run.sh': '#!/bin/sh\n' });
    fs.chmodSync(p.path('skills/demo/scripts/run.sh'), 0o755);
    fs.chmodSync(p.path('skills/demo/SKILL.md'), 0o640);
    const snapshot = readSnapshot(p.root);
    expect(snapshot.files.get('skills/demo/scripts/run.sh')!.mode).toBe(0o755);
    expect(snapshot.files.get('skills/demo/SKILL.md')!.mode).toBe(0o640);
  });

  it('reports dangling links and link loops as symlink-broken', () => {
    const p = project({ 'skills/demo/SKILL.md': 'S' });
    p.symlink('nowhere.md', 'skills/demo/dangling.md');
    p.symlink('b.md', 'skills/demo/a.md');
    p.symlink('a.md', 'skills/demo/b.md');
    p.symlink('missing-dir', 'skills/gone');
    expect(readSnapshot(p.root).problems).toEqual([
      { path: 'skills/demo/a.md', kind: 'symlink-broken', detail: 'loop' },
      { path: 'skills/demo/b.md', kind: 'symlink-broken', detail: 'loop' },
      { path: 'skills/demo/dangling.md', kind: 'symlink-broken', detail: 'dangling' },
      { path: 'skills/gone', kind: 'symlink-broken', detail: 'dangling' },
    ]);
  });

  it('reports a file over the cap as too-large without reading a byte of it', () => {
    const p = project({});
    fs.mkdirSync(p.path('skills/big'), { recursive: true });
    // Sparse: 50 MB on paper, nothing on disk.
    fs.writeFileSync(p.path('skills/big/video.bin'), '');
    fs.truncateSync(p.path('skills/big/video.bin'), 50 * 1024 * 1024);
    const readSync = vi.spyOn(fs, 'readSync');
    const readFileSync = vi.spyOn(fs, 'readFileSync');

    const snapshot = readSnapshot(p.root);

    expect(snapshot.problems).toEqual([
      { path: 'skills/big/video.bin', kind: 'too-large', detail: '52428800' },
    ]);
    expect(snapshot.files.size).toBe(0);
    expect(readSync).not.toHaveBeenCalled();
    expect(readFileSync).not.toHaveBeenCalled();
  });

  it('honours maxFileBytes, inclusive', () => {
    const p = project({ 'skills/a/exact.md': 'x'.repeat(1024), 'skills/a/over.md': 'x'.repeat(1025) });
    const snapshot = readSnapshot(p.root, { maxFileBytes: 1024 });
    expect([...snapshot.files.keys()]).toEqual(['skills/a/exact.md']);
    expect(snapshot.problems).toEqual([{ path: 'skills/a/over.md', kind: 'too-large', detail: '1025' }]);
  });

  it('reads empty files', () => {
    const snapshot = readSnapshot(project({ 'skills/a/empty.md': '' }).root);
    expect(snapshot.files.get('skills/a/empty.md')!.bytes).toEqual(new Uint8Array());
  });

  it('reports a FIFO as not-regular without blocking on it', () => {
    const p = project({ 'skills/demo/SKILL.md': 'S' });
    execFileSync('mkfifo', [p.path('skills/demo/pipe.md')]);
    const snapshot = readSnapshot(p.root);
    expect(snapshot.problems).toEqual([{ path: 'skills/demo/pipe.md', kind: 'not-regular' }]);
    expect([...snapshot.files.keys()]).toEqual(['skills/demo/SKILL.md']);
  });

  it('treats a file vanishing between readdir and read as simply absent', () => {
    const p = project({ 'skills/demo/SKILL.md': 'S', 'skills/demo/vanishing.md': 'V' });
    const open = fs.openSync;
    vi.spyOn(fs, 'openSync').mockImplementation((path, ...rest) => {
      if (String(path).endsWith('vanishing.md')) fs.unlinkSync(path);
      return open(path, ...rest);
    });
    const snapshot = readSnapshot(p.root);
    expect([...snapshot.files.keys()]).toEqual(['skills/demo/SKILL.md']);
    expect(snapshot.problems).toEqual([]);
  });

  it('cannot be redirected outside the root by a file swapped for a link just before the read', () => {
    const out = outside();
    const p = project({ 'skills/demo/SKILL.md': 'S' });
    const open = fs.openSync;
    vi.spyOn(fs, 'openSync').mockImplementation((path, ...rest) => {
      if (String(path).endsWith('SKILL.md')) {
        fs.unlinkSync(path);
        fs.symlinkSync(out.path('secret.md'), path);
      }
      return open(path, ...rest);
    });
    const snapshot = readSnapshot(p.root);
    expect(snapshot.files.size).toBe(0);
    expectNoSecret(snapshot);
  });

  it.runIf(fs.existsSync('/proc/self/fd'))(
    'cannot be redirected outside the root by a directory swapped for a link just before the read',
    () => {
      const out = outside();
      fs.writeFileSync(out.path('dir/SKILL.md'), SECRET);
      const p = project({ 'skills/demo/SKILL.md': 'S' });
      const open = fs.openSync;
      vi.spyOn(fs, 'openSync').mockImplementation((path, ...rest) => {
        if (String(path).endsWith('demo/SKILL.md')) {
          fs.rmSync(p.path('skills/demo'), { recursive: true });
          fs.symlinkSync(out.path('dir'), p.path('skills/demo'));
        }
        return open(path, ...rest);
      });
      const snapshot = readSnapshot(p.root);
      expect(snapshot.files.size).toBe(0);
      expect(snapshot.problems).toEqual([{ path: 'skills/demo/SKILL.md', kind: 'symlink-escape' }]);
      expectNoSecret(snapshot);
    },
  );

  it.runIf(fs.existsSync('/proc/self/fd'))(
    'asks the kernel where every opened file is, and lstats no plain file it reads',
    () => {
      const p = project({ 'skills/demo/SKILL.md': 'S', 'knowledge/documents/any/a.md': 'A' });
      const readlink = vi.spyOn(fs, 'readlinkSync');
      const lstat = vi.spyOn(fs, 'lstatSync');
      expect(readSnapshot(p.root).files.size).toBe(2);
      const asked = readlink.mock.calls.filter(([path]) => /^\/proc\/\d+\/fd\/\d+$/.test(String(path)));
      expect(asked).toHaveLength(2);
      expect(lstat.mock.calls.map(([path]) => String(path)).filter((path) => path.endsWith('.md'))).toEqual(
        [],
      );
    },
  );

  it('cannot be made to serve a hidden file by a file swapped for an in-root link just before the read', () => {
    const p = project({ '.env': 'TOKEN=secret', 'skills/demo/SKILL.md': 'S', 'skills/demo/a.md': 'A' });
    const open = fs.openSync;
    vi.spyOn(fs, 'openSync').mockImplementation((path, ...rest) => {
      if (String(path).endsWith('demo/a.md') && !fs.lstatSync(path).isSymbolicLink()) {
        fs.unlinkSync(path);
        fs.symlinkSync('../../.env', path);
      }
      return open(path, ...rest);
    });
    const snapshot = readSnapshot(p.root);
    expect([...snapshot.files.keys()]).toEqual(['skills/demo/SKILL.md']);
    expect(snapshot.problems).toEqual([{ path: 'skills/demo/a.md', kind: 'link-to-hidden', detail: '.env' }]);
  });

  it('throws RootError naming the path when the root is missing or not a directory', () => {
    const missing = join(tmpdir(), 'companion-no-such-root-4b1e');
    expect(() => readSnapshot(missing)).toThrow(RootError);
    expect(() => readSnapshot(missing)).toThrow(`The content root ${missing} does not exist.`);
    const p = project({ 'file.txt': 'x' });
    try {
      readSnapshot(p.path('file.txt'));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(RootError);
      expect((error as RootError).reason).toBe('not-directory');
      expect((error as RootError).message).toContain(p.path('file.txt'));
    }
  });

  describe('an unreadable file (EACCES)', () => {
    const asRoot = process.getuid?.() === 0;
    const hasNobody = asRoot && spawnSync('id', ['-u', 'nobody']).status === 0;
    const runuser = ['/usr/sbin/runuser', '/sbin/runuser', '/usr/bin/runuser'].find((path) =>
      fs.existsSync(path),
    );
    if (asRoot && (!hasNobody || runuser === undefined)) {
      console.warn(
        'skipping the EACCES case: running as root with no `nobody` user or no runuser to drop to',
      );
    }

    it.runIf(!asRoot)('is reported as unreadable with its errno code (as this unprivileged user)', () => {
      const p = project({ 'skills/demo/SKILL.md': 'S', 'skills/demo/locked.md': SECRET });
      fs.chmodSync(p.path('skills/demo/locked.md'), 0);
      const snapshot = readSnapshot(p.root);
      expect(snapshot.problems).toEqual([
        { path: 'skills/demo/locked.md', kind: 'unreadable', detail: 'EACCES' },
      ]);
      expectNoSecret(snapshot);
    });

    it.runIf(asRoot && hasNobody && runuser !== undefined)(
      'is reported as unreadable with its errno code (checked as `nobody`, since root reads anything)',
      () => {
        // Root bypasses file permissions, so the check runs in a child as `nobody`, against the loader
        // transpiled to plain JS (it, its slabs and its prints import nothing but node builtins at runtime).
        const work = project({ 'package.json': '{ "type": "module" }' });
        for (const name of ['read-snapshot', 'byte-slabs', 'print-table']) {
          const source = fs.readFileSync(new URL(`../../src/fs/${name}.ts`, import.meta.url), 'utf8');
          const { outputText } = ts.transpileModule(source, {
            compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
          });
          fs.writeFileSync(work.path(`${name}.js`), outputText);
        }
        fs.writeFileSync(
          work.path('run.mjs'),
          [
            "import { readSnapshot, readEntry } from './read-snapshot.js';",
            'const root = process.argv[2];',
            'const s = readSnapshot(root);',
            'const files = Object.fromEntries([...s.files].map(([k, f]) => [k, Buffer.from(f.bytes).toString()]));',
            "const entry = readEntry(root, 'skills/demo/locked.md');",
            'console.log(JSON.stringify({ uid: process.getuid(), files, problems: s.problems, entry }));',
          ].join('\n'),
        );
        const p = project({
          'skills/demo/SKILL.md': 'S',
          'skills/demo/locked.md': SECRET,
          'skills/locked-dir/x.md': SECRET,
        });
        for (const path of [work.root, p.root]) fs.chmodSync(path, 0o755);
        fs.chmodSync(p.path('skills/demo/locked.md'), 0o600);
        fs.chmodSync(p.path('skills/locked-dir'), 0o700);

        const child = spawnSync(
          runuser!,
          ['-u', 'nobody', '--', process.execPath, work.path('run.mjs'), p.root],
          {
            encoding: 'utf8',
            timeout: 10_000,
          },
        );
        expect(child.stderr).toBe('');
        const result = JSON.parse(child.stdout);
        expect(result.uid).not.toBe(0);
        expect(result.files).toEqual({ 'skills/demo/SKILL.md': 'S' });
        expect(result.problems).toEqual([
          { path: 'skills/demo/locked.md', kind: 'unreadable', detail: 'EACCES' },
          { path: 'skills/locked-dir', kind: 'unreadable', detail: 'EACCES' },
        ]);
        expect(result.entry).toEqual({
          problem: { path: 'skills/demo/locked.md', kind: 'unreadable', detail: 'EACCES' },
        });
        expect(child.stdout).not.toContain(SECRET);
      },
    );
  });
});

/**
 * The walk of a quiet tree holds each directory open and opens its files through the descriptor
 * (`/proc/<pid>/fd/<dirfd>/<name>`); these swaps happen while a directory is held. A directory changed in the
 * last 2 s is never held, so the trees are made once and aged together.
 */
describe.runIf(fs.existsSync('/proc/self/fd'))('a directory held open for its walk', () => {
  const HELD = /^\/proc\/\d+\/fd\/\d+\/([^/]+)$/;
  const made = new Map<string, { p: TempProject; out: TempProject }>();
  const held = (name: string) => made.get(name)!;
  beforeAll(async () => {
    for (const name of ['quiet', 'file-to-link', 'out-and-back', 'dir-to-link', 'ancestor', 'new-secret']) {
      const out = createTempProject({ 'secret.md': SECRET, 'dir/SKILL.md': SECRET });
      const p = createTempProject({
        'skills/demo/SKILL.md': 'S',
        'skills/demo/a.md': 'A',
        'skills/demo/b.md': 'B',
        'knowledge/documents/any/sub/x.md': 'X',
        'knowledge/documents/any/y.md': 'Y',
      });
      made.set(name, { p, out });
    }
    await new Promise((resolve) => setTimeout(resolve, 2100));
  }, 10_000);
  afterAll(() => {
    for (const { p, out } of made.values()) {
      p.cleanup();
      out.cleanup();
    }
  });
  /** Calls `swap` (once) when a file named `name` is opened through a held directory, before the open. */
  function onHeldOpen(name: string, swap: (path: string) => void, after?: () => void): string[] {
    const heldOpens: string[] = [];
    const open = fs.openSync;
    vi.spyOn(fs, 'openSync').mockImplementation((path, ...rest) => {
      const match = HELD.exec(String(path));
      if (match) heldOpens.push(match[1]!);
      if (match?.[1] !== name || heldOpens.filter((n) => n === name).length > 1) return open(path, ...rest);
      swap(String(path));
      const fd = open(path, ...rest);
      after?.();
      return fd;
    });
    return heldOpens;
  }
  /** Moves `from` to `to` just before a held open of `name`, and back just after it. */
  const moveOutAndBack = (name: string, from: string, to: string) =>
    onHeldOpen(
      name,
      () => fs.renameSync(from, to),
      () => fs.renameSync(to, from),
    );
  const perFileReadlinks = (readlink: { mock: { calls: unknown[][] } }) =>
    readlink.mock.calls.filter(([path]) => /^\/proc\/\d+\/fd\/\d+$/.test(String(path))).length;

  it('asks statfs once a file system, and lstats no directory below a held one', () => {
    const { p } = held('quiet');
    const statfs = vi.spyOn(fs, 'statfsSync');
    const lstat = vi.spyOn(fs, 'lstatSync');
    const snapshot = readSnapshot(p.root);
    // The holds of knowledge/ and skills/, which have no held parent; every directory below lies on their device.
    expect(statfs).toHaveBeenCalledTimes(2);
    // The top-level directories (prompts/ is missing here), dispatched by path; nothing below them.
    const real = fs.realpathSync(p.root);
    expect(lstat.mock.calls.map(([path]) => String(path).slice(real.length + 1))).toEqual([
      'knowledge',
      'skills',
      'prompts',
    ]);
    vi.restoreAllMocks();
    expect(snapshot).toEqual(readSnapshot(p.root));
    expect(snapshot.files.size).toBe(5);
  });

  it('opens every file through its directory: two readlinks a directory, none a file', () => {
    const { p } = held('quiet');
    const readlink = vi.spyOn(fs, 'readlinkSync');
    const heldOpens = onHeldOpen('none', () => {});
    const snapshot = readSnapshot(p.root);
    expect(snapshot.problems).toEqual([]);
    expect(heldOpens.sort()).toEqual(['SKILL.md', 'a.md', 'b.md', 'x.md', 'y.md']);
    // knowledge, knowledge/documents, any, any/sub, skills, skills/demo: held and released.
    expect(perFileReadlinks(readlink)).toBe(12);
    expect(text(snapshot.files.get('knowledge/documents/any/sub/x.md')!.bytes)).toBe('X');
    expect(snapshot).toEqual(readSnapshot(p.root));
  });

  it('holds no directory on a file system not known to set ctime on a rename (NFS here)', () => {
    const { p } = held('quiet');
    // A mock only for what this machine cannot mount: statfs answers NFS's magic number.
    const statfs = fs.statfsSync;
    vi.spyOn(fs, 'statfsSync').mockImplementation(((path: fs.PathLike) => ({
      ...statfs(path),
      type: 0x6969,
    })) as typeof fs.statfsSync);
    const readlink = vi.spyOn(fs, 'readlinkSync');
    const heldOpens = onHeldOpen('none', () => {});
    const snapshot = readSnapshot(p.root);
    expect(heldOpens).toEqual([]);
    // One hold tried for each top-level directory (2; nothing below an unheld one is held), then one question a
    // file (5).
    expect(perFileReadlinks(readlink)).toBe(2 + 5);
    vi.restoreAllMocks();
    expect(snapshot).toEqual(readSnapshot(p.root));
  });

  it('never follows a file swapped for a link out of the root between the listing and the open', () => {
    const { p, out } = held('file-to-link');
    const heldOpens = onHeldOpen('SKILL.md', (path) => {
      fs.unlinkSync(path);
      fs.symlinkSync(out.path('secret.md'), path);
    });
    const snapshot = readSnapshot(p.root);
    expect(heldOpens).toContain('SKILL.md');
    expect(snapshot.files.has('skills/demo/SKILL.md')).toBe(false);
    // The swap changed the directory: it is read again by path, and the link is judged as any link is.
    expect(snapshot.problems).toEqual([
      { path: 'skills/demo/SKILL.md', kind: 'symlink-escape', detail: out.path('secret.md') },
    ]);
    expect([...snapshot.files.keys()]).toContain('skills/demo/a.md');
    expectNoSecret(snapshot);
  });

  it('reads a directory again, file by file, when it was renamed out of the area and back while held', () => {
    const { p, out } = held('out-and-back');
    const readlink = vi.spyOn(fs, 'readlinkSync');
    // Only moved: no entry of it changes, its ctime does.
    moveOutAndBack('a.md', p.path('skills/demo'), out.path('demo-away'));
    const snapshot = readSnapshot(p.root);
    expect([...snapshot.files.keys()].filter((path) => path.startsWith('skills/demo/'))).toEqual([
      'skills/demo/SKILL.md',
      'skills/demo/a.md',
      'skills/demo/b.md',
    ]);
    // Two per directory held through (the 4 of knowledge/); one each for the holds of skills/ and skills/demo,
    // whose ctimes the renames moved (demo's own, and skills/ lost and regained an entry), so their releases
    // fail at the stat; then demo read again by path (a readlink per file), and skills/ again, demo with it.
    expect(perFileReadlinks(readlink)).toBe(8 + 2 + 3 + 3);
    vi.restoreAllMocks();
    expect(snapshot).toEqual(readSnapshot(p.root));
  });

  it('serves nothing a held directory gained while it was out of the root', () => {
    const { p, out } = held('new-secret');
    const demo = p.path('skills/demo');
    const away = out.path('demo-away');
    // Out of the root, b.md becomes someone else's file; it is gone again before the directory comes back.
    onHeldOpen(
      'b.md',
      () => {
        fs.renameSync(demo, away);
        fs.rmSync(join(away, 'b.md'));
        fs.writeFileSync(join(away, 'b.md'), SECRET);
      },
      () => {
        fs.rmSync(join(away, 'b.md'));
        fs.renameSync(away, demo);
      },
    );
    const snapshot = readSnapshot(p.root);
    expect([...snapshot.files.keys()].filter((path) => path.startsWith('skills/demo/'))).toEqual([
      'skills/demo/SKILL.md',
      'skills/demo/a.md',
    ]);
    expectNoSecret(snapshot);
  });

  it('serves nothing of a held directory replaced by a link out of the root', () => {
    const { p, out } = held('dir-to-link');
    const demo = p.path('skills/demo');
    onHeldOpen('SKILL.md', () => {
      fs.renameSync(demo, out.path('demo-away'));
      fs.symlinkSync(out.path('dir'), demo);
    });
    const snapshot = readSnapshot(p.root);
    expect([...snapshot.files.keys()].filter((path) => path.startsWith('skills/'))).toEqual([]);
    expect(snapshot.problems).toEqual([
      { path: 'skills/demo', kind: 'symlink-escape', detail: out.path('dir') },
    ]);
    expectNoSecret(snapshot);
  });

  it('reads a subtree again when a directory above the held one moved out and back', () => {
    const { p, out } = held('ancestor');
    const readlink = vi.spyOn(fs, 'readlinkSync');
    // sub itself is untouched (its ctime stays); `any` is the one that moved.
    moveOutAndBack('x.md', p.path('knowledge/documents/any'), out.path('any-away'));
    const snapshot = readSnapshot(p.root);
    // sub's release succeeds (its ctime and place are as held); `any` (moved) and documents/ (lost and regained
    // an entry) fail theirs: any is read again by path (x.md and y.md each asked where they are), and documents/
    // again. skills/ 2 × 2, knowledge/ 2, documents/ 1, any 1, sub 2, then 2 + 2.
    expect(perFileReadlinks(readlink)).toBe(4 + 2 + 1 + 1 + 2 + 2 + 2);
    vi.restoreAllMocks();
    expect(snapshot).toEqual(readSnapshot(p.root));
  });
});

describe('readEntry', () => {
  it('answers file, problem, directory or missing for one path by the same rules', () => {
    const out = outside();
    const p = project({ 'skills/demo/SKILL.md': 'S', 'skills/demo/refs/a.md': 'A', 'README.md': 'R' });
    p.symlink(out.path('dir'), 'skills/escaped');
    p.symlink(out.path('secret.md'), 'skills/demo/secret.md');

    const file = readEntry(p.root, 'skills/demo/SKILL.md');
    expect('file' in file && text(file.file.bytes)).toBe('S');
    expect(readEntry(p.root, 'skills/demo/secret.md')).toEqual({
      problem: { path: 'skills/demo/secret.md', kind: 'symlink-escape', detail: out.path('secret.md') },
    });
    expect(readEntry(p.root, 'skills/demo/refs')).toEqual({ directory: true });
    expect(readEntry(p.root, 'skills/demo/nope.md')).toEqual({ missing: true });
    // Not content, or ignored, is missing too.
    expect(readEntry(p.root, 'README.md')).toEqual({ missing: true });
    expect(readEntry(p.root, 'skills/demo/.hidden')).toEqual({ missing: true });
    expect(readEntry(p.root, 'skills/../README.md')).toEqual({ missing: true });
    // Below an escaping directory link: the link carries the problem; nothing below it exists.
    expect(readEntry(p.root, 'skills/escaped')).toEqual({
      problem: { path: 'skills/escaped', kind: 'symlink-escape', detail: out.path('dir') },
    });
    expect(readEntry(p.root, 'skills/escaped/secret.md')).toEqual({ missing: true });
  });

  it('re-reads the subtree below a symlinked directory inside its area like the full walk does', () => {
    const p = project({ 'skills/real/SKILL.md': 'R', 'skills/real/refs/a.md': 'A' });
    p.symlink('refs', 'skills/real/alias');
    p.symlink('real', 'skills/other');
    const reader = createReader(p.root);
    const result = createReadResult();
    reader.read('skills/real/alias/a.md', result);
    expect(text(result.files.get('skills/real/alias/a.md')!.bytes)).toBe('A');
    expect(result.links.get('skills/real/alias')).toBeUndefined();
    const whole = createReadResult();
    reader.read('skills', whole);
    expect(whole.links.get('skills/real/alias')).toBe(fs.realpathSync(p.path('skills/real/refs')));
    expect(whole.prints.get('skills/real/alias/a.md')).toBe(result.prints.get('skills/real/alias/a.md'));
    // Below a link that leaves its area there is nothing, as in the full walk.
    const below = createReadResult();
    reader.read('skills/other/SKILL.md', below);
    expect(below.files.size + below.problems.size).toBe(0);
    expect(readEntry(p.root, 'skills/other/SKILL.md')).toEqual({ missing: true });
  });

  it('gives the same fingerprints from the stat walk as from the read walk', () => {
    const p = project({
      'skills/a/SKILL.md': 'S',
      'skills/a/big.md': 'x'.repeat(2000),
      'skills/a/h.md': 'H',
    });
    p.symlink('../a/SKILL.md', 'skills/b/link.md');
    p.symlink('SKILL.md', 'skills/a/link.md');
    p.symlink('nowhere', 'skills/b/dangling.md');
    fs.linkSync(p.path('skills/a/h.md'), p.path('skills/b/h.md'));
    const reader = createReader(p.root, { maxFileBytes: 1000 });
    const read = createReadResult();
    const stat = createReadResult();
    reader.read('skills', read);
    reader.stat('skills', stat);
    const asText = (prints: typeof read.prints) =>
      new Map([...prints.keys()].sort().map((key) => [key, prints.get(key)]));
    expect(asText(stat.prints)).toEqual(asText(read.prints));
    expect(stat.prints.size).toBe(7);
    for (const key of read.prints.keys()) expect(stat.prints.same(key, read.prints)).toBe(true);
    expect(stat.files.size).toBe(0);
    expect(stat.problems).toEqual(read.problems);
  });
});
