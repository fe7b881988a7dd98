import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildCatalog, withNotice } from '../../src/core/catalog.js';
import type { CatalogChange, Snapshot } from '../../src/core/types.js';
import {
  type CatalogStoreOptions,
  createCatalogStore,
  createStaticSource,
} from '../../src/fs/catalog-store.js';
import {
  contentDirectories,
  createReader,
  createReadResult,
  RootError,
  readSnapshot,
} from '../../src/fs/read-snapshot.js';
import { copyFixture, createTempProject, type TempProject } from '../helpers/temp-project.js';
import { digestsOf, fakeBuildCatalog } from './fake-catalog.js';

const text = (bytes: Uint8Array | undefined) =>
  bytes === undefined ? undefined : Buffer.from(bytes).toString();

let projects: TempProject[] = [];
function project(files: Record<string, string> = {}): TempProject {
  const created = createTempProject(files);
  projects.push(created);
  return created;
}
afterEach(() => {
  vi.restoreAllMocks();
  for (const created of projects) created.cleanup();
  projects = [];
});

function store(p: TempProject, options: Partial<CatalogStoreOptions> = {}) {
  let clock = 1_000;
  return createCatalogStore({ root: p.root, buildCatalog: fakeBuildCatalog, now: () => clock++, ...options });
}

/** Sets a file's mtime, so a rewrite is visible to a stat walk even within one clock tick. */
function touch(p: TempProject, path: string, seconds: number): void {
  fs.utimesSync(p.path(path), seconds, seconds);
}

const fileText = (snapshot: Snapshot, path: string) => text(snapshot.files.get(path)?.bytes);

describe('createCatalogStore', () => {
  it('reads the tree and builds generation 1 on creation', () => {
    const p = project({ 'skills/a/SKILL.md': 'A', 'knowledge/documents/x.md': 'X' });
    const s = store(p);
    expect(s.root).toBe(p.root);
    expect(s.current().number).toBe(1);
    expect(s.current().builtAt).toBe(1_000);
    expect(s.snapshot()).toEqual(readSnapshot(p.root));
    expect([...s.current().catalog.contents.keys()]).toEqual([
      'test://file/knowledge/documents/x.md',
      'test://file/skills/a/SKILL.md',
    ]);
  });

  it('throws RootError for a missing root', () => {
    expect(() =>
      createCatalogStore({ root: '/nonexistent/companion-root', buildCatalog: fakeBuildCatalog }),
    ).toThrow(RootError);
  });

  it('re-reads only the named paths: a change nobody named waits for reconcile', () => {
    const p = project({ 'skills/a/one.md': '1', 'skills/a/two.md': '2' });
    const s = store(p);
    p.write('skills/a/one.md', 'one');
    p.write('skills/a/two.md', 'two');
    touch(p, 'skills/a/two.md', 1_000_000);
    const open = vi.spyOn(fs, 'openSync');

    const change = s.applyChanges(['skills/a/one.md']);

    expect(open).toHaveBeenCalledTimes(1);
    expect(change?.changedPaths).toEqual(['skills/a/one.md']);
    expect(fileText(s.snapshot(), 'skills/a/one.md')).toBe('one');
    expect(fileText(s.snapshot(), 'skills/a/two.md')).toBe('2');

    open.mockClear();
    const repaired = s.reconcile();
    expect(open).toHaveBeenCalledTimes(1);
    expect(repaired?.changedPaths).toEqual(['skills/a/two.md']);
    expect(fileText(s.snapshot(), 'skills/a/two.md')).toBe('two');
    expect(s.current().number).toBe(3);
  });

  it('publishes nothing when the re-read bytes are identical (a no-op save), keeping the old mtime', () => {
    const p = project({ 'skills/a/SKILL.md': 'same' });
    const s = store(p);
    const listener = vi.fn();
    s.subscribe(listener);
    const before = s.snapshot().files.get('skills/a/SKILL.md')!;
    p.write('skills/a/SKILL.md', 'same');
    touch(p, 'skills/a/SKILL.md', 2_000_000);

    expect(s.applyChanges(['skills/a/SKILL.md'])).toBeUndefined();
    expect(s.reconcile()).toBeUndefined();
    expect(s.current().number).toBe(1);
    expect(listener).not.toHaveBeenCalled();
    expect(s.snapshot().files.get('skills/a/SKILL.md')).toBe(before);
  });

  it('keeps an identical file untouched inside a batch that does change something', () => {
    const p = project({ 'skills/a/same.md': 'same', 'skills/a/edit.md': 'v1' });
    const s = store(p);
    const same = s.snapshot().files.get('skills/a/same.md');
    touch(p, 'skills/a/same.md', 3_000_000);
    p.write('skills/a/edit.md', 'v2');
    const change = s.applyChanges(['skills/a/same.md', 'skills/a/edit.md'])!;
    expect(change.changedPaths).toEqual(['skills/a/edit.md']);
    expect(s.snapshot().files.get('skills/a/same.md')).toBe(same);
    expect(change.updatedUris).toEqual(['test://file/skills/a/edit.md']);
  });

  it('publishes a change with both generations, the diff, the changed paths and the rebuild time', () => {
    const p = project({ 'skills/a/SKILL.md': 'A' });
    const s = store(p);
    const seen: CatalogChange[] = [];
    s.subscribe((change) => seen.push(change));
    p.write('skills/a/new.md', 'N');

    const change = s.applyChanges(['skills/a/new.md'])!;

    expect(seen).toEqual([change]);
    expect(change.previous.number).toBe(1);
    expect(change.current).toBe(s.current());
    expect(change.current.number).toBe(2);
    expect(change.current.builtAt).toBe(1_001);
    expect(change.listChanged).toBe(true);
    expect(change.updatedUris).toEqual(['test://file/skills/a/new.md']);
    expect(change.changedPaths).toEqual(['skills/a/new.md']);
    expect(change.rebuildMs).toBeGreaterThanOrEqual(0);
    // Each generation keeps its own snapshot-derived catalog: the old one is untouched.
    expect(change.previous.catalog.contents.has('test://file/skills/a/new.md')).toBe(false);
  });

  it('removes a vanished file, and a vanished directory with its whole subtree', () => {
    const p = project({ 'skills/a/SKILL.md': 'A', 'skills/b/SKILL.md': 'B', 'skills/b/refs/x.md': 'X' });
    const s = store(p);
    p.remove('skills/a/SKILL.md');
    expect(s.applyChanges(['skills/a/SKILL.md'])?.changedPaths).toEqual(['skills/a/SKILL.md']);
    p.remove('skills/b');
    // The tree would be empty: that is published only once a second read says so.
    expect(s.applyChanges(['skills/b'])).toBeUndefined();
    expect(s.pending()).toEqual(['skills/b']);
    expect(s.snapshot().files.size).toBe(2);
    expect(s.applyChanges(s.pending())?.changedPaths).toEqual(['skills/b/SKILL.md', 'skills/b/refs/x.md']);
    expect(s.pending()).toEqual([]);
    expect(s.snapshot().files.size).toBe(0);
    expect(s.applyChanges(['skills/b'])).toBeUndefined();
  });

  it('walks a path that is now a directory, and replaces a directory that is now a file', () => {
    const p = project({ 'skills/x': 'a file' });
    const s = store(p);
    p.remove('skills/x');
    p.write('skills/x/SKILL.md', 'S');
    p.write('skills/x/refs/r.md', 'R');
    expect(s.applyChanges(['skills/x'])?.changedPaths).toEqual([
      'skills/x',
      'skills/x/SKILL.md',
      'skills/x/refs/r.md',
    ]);
    expect(s.snapshot()).toEqual(readSnapshot(p.root));

    p.remove('skills/x');
    p.write('skills/x', 'a file again');
    s.applyChanges(['skills/x']);
    expect(s.snapshot()).toEqual(readSnapshot(p.root));
  });

  it('picks up a new directory from its path alone, and a new file under a directory it never saw', () => {
    const p = project({ 'skills/base.md': 'B' });
    const s = store(p);
    p.write('skills/fresh/SKILL.md', 'F');
    p.write('skills/fresh/deep/er/x.md', 'X');
    s.applyChanges(['skills/fresh']);
    p.write('knowledge/documents/new/doc.md', 'D');
    s.applyChanges(['knowledge/documents/new/doc.md']);
    expect(s.snapshot()).toEqual(readSnapshot(p.root));
  });

  it('ignores paths outside the content directories or through ignored names, and normalises the rest', () => {
    const p = project({ 'skills/a/SKILL.md': 'A' });
    const s = store(p);
    p.write('README.md', 'r');
    p.write('skills/a/.SKILL.md.swp', 'swap');
    p.write('skills/a/SKILL.md', 'A2');
    expect(
      s.applyChanges(['README.md', 'skills/a/.SKILL.md.swp', '../etc/passwd', 'skills/../README.md']),
    ).toBe(undefined);
    expect(s.applyChanges(['./skills//a/SKILL.md/'])?.changedPaths).toEqual(['skills/a/SKILL.md']);
  });

  it("turns '' into a full re-read", () => {
    const p = project({ 'skills/a/SKILL.md': 'A' });
    const s = store(p);
    p.write('skills/a/SKILL.md', 'A2');
    p.write('knowledge/server-scope.json', '{}');
    expect(s.applyChanges([''])?.changedPaths).toEqual(['knowledge/server-scope.json', 'skills/a/SKILL.md']);
  });

  it('tracks problems: a file that grows over the cap becomes too-large, and comes back', () => {
    const p = project({ 'skills/a/SKILL.md': 'small' });
    const s = store(p, { maxFileBytes: 10 });
    p.write('skills/a/SKILL.md', 'much too large');
    const change = s.applyChanges(['skills/a/SKILL.md'])!;
    expect(change.current.diagnostics).toEqual([
      expect.objectContaining({ file: 'skills/a/SKILL.md', message: 'too-large' }),
    ]);
    expect(s.snapshot().files.size).toBe(0);
    // Same problem, same detail: nothing to publish.
    touch(p, 'skills/a/SKILL.md', 4_000_000);
    expect(s.applyChanges(['skills/a/SKILL.md'])).toBeUndefined();
    p.write('skills/a/SKILL.md', 'small');
    s.applyChanges(['skills/a/SKILL.md']);
    expect(s.snapshot()).toEqual(readSnapshot(p.root, { maxFileBytes: 10 }));
  });

  it('updates a symlink inside its area when only its target was reported', () => {
    const p = project({ 'skills/a/refs/shared.md': 'v1', 'skills/a/SKILL.md': 'A' });
    p.symlink('refs/shared.md', 'skills/a/shared.md');
    p.symlink('refs', 'skills/a/alias');
    const s = store(p);
    p.write('skills/a/refs/shared.md', 'v2');
    p.write('skills/a/SKILL.md', 'A2');
    const change = s.applyChanges(['skills/a/refs/shared.md', 'skills/a/SKILL.md'])!;
    expect(change.changedPaths).toEqual([
      'skills/a/SKILL.md',
      'skills/a/alias/shared.md',
      'skills/a/refs/shared.md',
      'skills/a/shared.md',
    ]);
    expect(s.snapshot()).toEqual(readSnapshot(p.root));
  });

  it('stops serving a file at once when it becomes a link out of its area', () => {
    const p = project({
      '.env': 'TOKEN=x',
      'skills/b/SKILL.md': 'B',
      'skills/a/SKILL.md': 'A',
      'skills/a/x.md': 'X',
    });
    const s = store(p);
    p.remove('skills/a/x.md');
    p.symlink('../b/SKILL.md', 'skills/a/x.md');
    expect(s.applyChanges(['skills/a/x.md'])?.changedPaths).toEqual(['skills/a/x.md']);
    expect(s.snapshot().files.has('skills/a/x.md')).toBe(false);
    expect(s.snapshot().problems).toEqual([
      { path: 'skills/a/x.md', kind: 'link-outside-area', detail: 'skills/b/SKILL.md' },
    ]);
    p.remove('skills/a/x.md');
    p.symlink('../../.env', 'skills/a/x.md');
    s.applyChanges(['skills/a/x.md']);
    expect(s.snapshot().problems).toEqual([
      { path: 'skills/a/x.md', kind: 'link-to-hidden', detail: '.env' },
    ]);
    expect(s.snapshot()).toEqual(readSnapshot(p.root));
  });

  it('re-reads a dangling link when its target is created', () => {
    const p = project({ 'skills/a/SKILL.md': 'A' });
    p.symlink('../shared.md', 'skills/a/shared.md');
    const s = store(p);
    expect(s.snapshot().problems).toEqual([
      { path: 'skills/a/shared.md', kind: 'symlink-broken', detail: 'dangling' },
    ]);
    p.write('skills/shared.md', 'now here');
    expect(s.applyChanges(['skills/shared.md'])?.changedPaths).toEqual([
      'skills/a/shared.md',
      'skills/shared.md',
    ]);
    expect(s.snapshot()).toEqual(readSnapshot(p.root));
  });

  it('reconcile repairs missed adds, deletes, edits, and a file swapped for a link with the same size and mtime', () => {
    const p = project({
      'skills/a/SKILL.md': 'A',
      'skills/a/gone.md': 'G',
      'skills/a/edit.md': 'E1',
      'skills/a/t.md': 'T',
    });
    const s = store(p);
    p.write('skills/a/added.md', 'N');
    p.remove('skills/a/gone.md');
    p.write('skills/a/edit.md', 'E2');
    touch(p, 'skills/a/edit.md', 5_000_000);
    p.write('skills/b/deep/new.md', 'D');
    const change = s.reconcile()!;
    expect(change.changedPaths).toEqual([
      'skills/a/added.md',
      'skills/a/edit.md',
      'skills/a/gone.md',
      'skills/b/deep/new.md',
    ]);
    expect(s.snapshot()).toEqual(readSnapshot(p.root));
    expect(s.reconcile()).toBeUndefined();

    // Same size and mtime, different inode and content: only the fingerprint's inode and kind notice.
    const stat = fs.statSync(p.path('skills/a/SKILL.md'));
    p.remove('skills/a/SKILL.md');
    p.symlink('t.md', 'skills/a/SKILL.md');
    fs.utimesSync(p.path('skills/a/t.md'), stat.atime, stat.mtime);
    expect(s.reconcile()?.changedPaths).toEqual(['skills/a/SKILL.md']);
    expect(fileText(s.snapshot(), 'skills/a/SKILL.md')).toBe('T');
  });

  it('reconcile compares a walk made elsewhere: a full one like its own, a partial one only where it names', () => {
    const p = project({ 'skills/a/SKILL.md': 'A', 'skills/a/gone.md': 'G', 'skills/a/edit.md': 'E1' });
    const s = store(p);
    const walk = () => {
      const fresh = createReadResult();
      const reader = createReader(p.root);
      for (const directory of contentDirectories) reader.stat(directory, fresh);
      // As the watcher's thread sends it: every print as text.
      return fresh.prints.texts();
    };
    p.write('skills/a/edit.md', 'E2');
    touch(p, 'skills/a/edit.md', 5_000_000);
    p.remove('skills/a/gone.md');
    p.write('skills/a/added.md', 'N');
    const full = walk();
    // A partial walk that names only the edit: the delete and the add are taken as unchanged.
    const edited = new Map([['skills/a/edit.md', full.get('skills/a/edit.md')]]);
    expect(s.reconcile({ prints: edited, partial: true })?.changedPaths).toEqual(['skills/a/edit.md']);
    // Naming the delete (no print) and the add.
    const rest = new Map([
      ['skills/a/gone.md', undefined],
      ['skills/a/added.md', full.get('skills/a/added.md')],
    ]);
    expect(s.reconcile({ prints: rest, partial: true })?.changedPaths).toEqual([
      'skills/a/added.md',
      'skills/a/gone.md',
    ]);
    expect(s.snapshot()).toEqual(readSnapshot(p.root));
    // A full walk: an entry it lacks is gone.
    p.remove('skills/a/added.md');
    expect(s.reconcile({ prints: walk(), partial: false })?.changedPaths).toEqual(['skills/a/added.md']);
    expect(s.reconcile({ prints: walk(), partial: false })).toBeUndefined();
  });

  it('reconcile notices a permission change, which moves only ctime', () => {
    const p = project({ 'skills/a/SKILL.md': 'A' });
    const s = store(p);
    const open = vi.spyOn(fs, 'openSync');
    fs.chmodSync(p.path('skills/a/SKILL.md'), 0o600);
    // Re-read (the bytes are the same, so nothing is published), which proves the stat walk noticed.
    expect(s.reconcile()).toBeUndefined();
    expect(open).toHaveBeenCalledTimes(1);
    open.mockClear();
    expect(s.reconcile()).toBeUndefined();
    expect(open).not.toHaveBeenCalled();
  });

  it('keeps going when a subscriber throws, reporting the error', () => {
    const p = project({ 'skills/a/SKILL.md': 'A' });
    const errors: unknown[] = [];
    const s = store(p, { onError: (error) => errors.push(error) });
    const after = vi.fn();
    s.subscribe(() => {
      throw new Error('subscriber bug');
    });
    s.subscribe(after);
    p.write('skills/a/SKILL.md', 'A2');
    expect(s.applyChanges(['skills/a/SKILL.md'])?.current.number).toBe(2);
    expect(after).toHaveBeenCalledTimes(1);
    expect(errors).toEqual([new Error('subscriber bug')]);
    p.write('skills/a/SKILL.md', 'A3');
    expect(s.applyChanges(['skills/a/SKILL.md'])?.current.number).toBe(3);
    expect(after).toHaveBeenCalledTimes(2);
  });

  it('stops calling a listener once unsubscribed, even one subscribed twice', () => {
    const p = project({ 'skills/a/SKILL.md': 'A' });
    const s = store(p);
    const listener = vi.fn();
    const first = s.subscribe(listener);
    s.subscribe(listener);
    first();
    p.write('skills/a/SKILL.md', 'A2');
    s.applyChanges(['skills/a/SKILL.md']);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('refuses re-entrant calls from a subscriber', () => {
    const p = project({ 'skills/a/SKILL.md': 'A' });
    const errors: unknown[] = [];
    const s = store(p, { onError: (error) => errors.push(error) });
    s.subscribe(() => s.applyChanges(['skills/a/SKILL.md']));
    p.write('skills/a/SKILL.md', 'A2');
    expect(s.applyChanges(['skills/a/SKILL.md'])?.current.number).toBe(2);
    expect(String(errors[0])).toContain('from inside a rebuild or subscriber');
  });

  it('keeps serving the last generation when a rebuild throws, and rebuilds on the next call', () => {
    const p = project({ 'skills/a/SKILL.md': 'A' });
    let fail = false;
    const s = store(p, {
      buildCatalog: (snapshot) => {
        if (fail) throw new Error('build bug');
        return fakeBuildCatalog(snapshot);
      },
    });
    fail = true;
    p.write('skills/a/SKILL.md', 'A2');
    expect(() => s.applyChanges(['skills/a/SKILL.md'])).toThrow('build bug');
    expect(s.current().number).toBe(1);
    fail = false;
    // Nothing new on disk, but the snapshot moved on without a generation: rebuild.
    const change = s.applyChanges([])!;
    expect(change.current.number).toBe(2);
    expect(change.updatedUris).toEqual(['test://file/skills/a/SKILL.md']);
    expect(s.applyChanges([])).toBeUndefined();
  });

  it('works with the real buildCatalog: an edit updates the document, the index and the list', () => {
    const p = copyFixture('fs-basic');
    projects.push(p);
    const s = createCatalogStore({ root: p.root });
    expect(s.current().diagnostics).toEqual([]);
    const doc = 'demo://guides/general/intro';
    expect(s.current().catalog.contents.has(doc)).toBe(true);

    p.write(
      'knowledge/documents/general/intro.md',
      '---\ndescription: Edited.\n---\n\n# Intro\n\nMore text.\n',
    );
    const change = s.applyChanges(['knowledge/documents/general/intro.md'])!;
    expect(change.listChanged).toBe(true);
    expect(change.updatedUris).toContain(doc);

    p.write('skills/demo/scripts/run.sh', '#!/bin/sh\necho changed\n');
    const skillChange = s.applyChanges(['skills/demo/scripts/run.sh'])!;
    expect(skillChange.updatedUris).toEqual(
      expect.arrayContaining(['demo://skill/demo/SKILL.md', 'demo://skill/demo/scripts/run.sh']),
    );
    expect(digestsOf(s.snapshot())).toEqual(digestsOf(readSnapshot(p.root)));
  });

  it('rebuilds incrementally to what a full build of the disk gives, and finishes every result', () => {
    const p = copyFixture('fs-basic');
    projects.push(p);
    const finished: number[] = [];
    const s = createCatalogStore({
      root: p.root,
      finish: (built) => {
        finished.push(built.catalog.resources.length);
        return { ...built, catalog: withNotice(built.catalog, `Generation ${finished.length}.`) };
      },
    });
    p.write('knowledge/documents/general/added.md', '---\ndescription: Added.\n---\n\n# Added\n');
    s.applyChanges(['knowledge/documents/general/added.md']);
    p.write(
      'knowledge/documents/general/intro.md',
      '---\ndescription: Edited.\n---\n\n# Intro\n\ndemo://guides/general/added\n',
    );
    const change = s.applyChanges(['knowledge/documents/general/intro.md'])!;
    expect(finished).toHaveLength(3);
    expect(change.current.catalog.notice).toBe('Generation 3.');
    const fresh = buildCatalog(readSnapshot(p.root));
    const { catalog } = change.current;
    expect(catalog.resources).toEqual(fresh.catalog.resources);
    expect(change.current.diagnostics).toEqual(fresh.diagnostics);
    expect([...catalog.contents.keys()].sort()).toEqual([...fresh.catalog.contents.keys()].sort());
  });

  it('reads prompts/ as content: a new, edited or removed prompt rebuilds, and says when prompts/list changed', () => {
    const p = copyFixture('typo3-conversion');
    projects.push(p);
    const s = createCatalogStore({ root: p.root });
    expect(s.current().catalog.prompts.map((prompt) => prompt.name)).toEqual(['commit_message', 'debrief']);
    const body = p.path('prompts/debrief.md');
    p.write(
      'prompts/debrief.md',
      fs.readFileSync(body, 'utf8').replace('Change no files.', 'Change nothing.'),
    );
    const edited = s.applyChanges(['prompts/debrief.md'])!;
    expect(edited.promptsListChanged).toBe(false);
    expect(edited.changedPaths).toEqual(['prompts/debrief.md']);
    p.remove('prompts/debrief.md');
    const removed = s.applyChanges(['prompts/debrief.md'])!;
    expect(removed.promptsListChanged).toBe(true);
    expect(removed.current.catalog.prompts.map((prompt) => prompt.name)).toEqual(['commit_message']);
    expect(removed.current.diagnostics.map((d) => d.code)).toEqual(['CMP915']);
    expect(removed.current.diagnostics).toEqual(buildCatalog(readSnapshot(p.root)).diagnostics);
  });
});

describe('createStaticSource', () => {
  it('serves one generation and never calls back', () => {
    const p = project({ 'skills/a/SKILL.md': 'A' });
    const generation = store(p).current();
    const source = createStaticSource(generation);
    const listener = vi.fn();
    const unsubscribe = source.subscribe(listener);
    expect(source.current()).toBe(generation);
    unsubscribe();
    expect(listener).not.toHaveBeenCalled();
  });
});
