/**
 * Last good, as the catalog store serves it from real files: an item that stops parsing or validating keeps
 * being served as it last was good, whole, until a save fixes it or it is deleted; a cold start withholds it; a
 * file that becomes a link out of the root stops being served at once.
 */
import { readFileSync, symlinkSync, unlinkSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Generation } from '../../src/core/types.js';
import { createCatalogStore } from '../../src/fs/catalog-store.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';

const projects: TempProject[] = [];
afterEach(() => {
  for (const p of projects.splice(0)) p.cleanup();
});

function setUp() {
  const project = copyFixture('valid');
  projects.push(project);
  let clock = 1_000;
  const store = createCatalogStore({ root: project.root, now: () => clock++ });
  return { project, store };
}

/** Everything a host sees of one generation, with bytes as text. */
function served(generation: Generation) {
  const { catalog } = generation;
  return {
    instructions: catalog.instructions,
    server: catalog.server,
    resources: catalog.resources,
    contents: [...catalog.contents.values()].map((c) => [c.uri, c.digest, c.size, c.lastModified]),
    skills: catalog.skills.map((s) => [s.uri, s.description, s.manifest]),
  };
}

describe('last good', () => {
  it('keeps the last good scope, byte for byte, while the scope file does not parse, and says so', () => {
    const { project, store } = setUp();
    const before = served(store.current());
    const scope = readFileSync(project.path('knowledge/server-scope.json'), 'utf8');
    project.write('knowledge/server-scope.json', scope.replace(/\n\}\s*$/, ',\n}\n'));
    const change = store.applyChanges(['knowledge/server-scope.json'])!;
    expect(served(change.current)).toEqual(before);
    expect(change.listChanged).toBe(false);
    expect(change.updatedUris).toEqual([]);
    expect(change.current.held).toEqual([
      expect.objectContaining({ kind: 'scope', path: 'knowledge/server-scope.json', reason: 'invalid' }),
    ]);
    expect(change.current.diagnostics.map((d) => d.code)).toContain('CMP101');

    project.write('knowledge/server-scope.json', scope.replace('Fixture server', 'Fixed server'));
    const fixed = store.applyChanges(['knowledge/server-scope.json'])!;
    expect(fixed.current.held).toBeUndefined();
    expect(fixed.current.catalog.server.title).toBe('Fixed server');
  });

  it('keeps a broken document whole, and drops it once it is deleted', () => {
    const { project, store } = setUp();
    const path = 'knowledge/documents/any/guides/first.md';
    const uri = 'fixture://guides/any/guides/first';
    const before = store.current().catalog.contents.get(uri)!;
    project.write(path, '---\ndescription: [unclosed\n---\n# Broken\n');
    const change = store.applyChanges([path])!;
    expect(change.current.catalog.contents.get(uri)?.digest).toBe(before.digest);
    expect(change.current.held).toEqual([expect.objectContaining({ kind: 'document', path })]);
    expect(change.current.diagnostics.some((d) => d.file === path && d.code === 'CMP302')).toBe(true);
    project.remove(path);
    const gone = store.applyChanges([path])!;
    expect(gone.current.catalog.contents.has(uri)).toBe(false);
    expect(gone.current.held).toBeUndefined();
  });

  it('never mixes two states of a skill: a reference saved while SKILL.md is broken waits for the fix', () => {
    const { project, store } = setUp();
    const skill = store.current().catalog.skills.find((s) => s.id === 'alpha')!;
    const body = readFileSync(project.path('skills/alpha/SKILL.md'), 'utf8');
    project.write('skills/alpha/SKILL.md', body.replace(/^name: alpha$/m, 'name: [alpha'));
    store.applyChanges(['skills/alpha/SKILL.md']);
    const reference = skill.files.find((f) => f.path !== 'SKILL.md' && f.source.startsWith('skills/alpha/'))!;
    project.write(reference.source, '# Changed while broken\n');
    const change = store.applyChanges([reference.source])!;
    const heldSkill = change.current.catalog.skills.find((s) => s.id === 'alpha')!;
    expect(heldSkill.manifest).toEqual(skill.manifest);
    expect(change.current.held).toEqual([expect.objectContaining({ kind: 'skill', id: 'alpha' })]);

    project.write('skills/alpha/SKILL.md', body);
    const fixed = store.applyChanges(['skills/alpha/SKILL.md'])!;
    const now = fixed.current.catalog.skills.find((s) => s.id === 'alpha')!;
    expect(now.manifest.find((m) => m.uri === reference.uri)?.digest).not.toBe(
      skill.manifest.find((m) => m.uri === reference.uri)?.digest,
    );
    expect(fixed.current.held).toBeUndefined();
  });

  it('withholds a broken item on a cold start', () => {
    const project = copyFixture('valid');
    projects.push(project);
    project.write('knowledge/documents/any/guides/first.md', '# No front matter\n');
    const store = createCatalogStore({ root: project.root });
    expect(store.current().catalog.contents.has('fixture://guides/any/guides/first')).toBe(false);
    expect(store.current().held).toBeUndefined();
  });

  it('stops serving a file that becomes a link out of the root at once', () => {
    const { project, store } = setUp();
    const outside = copyFixture('valid');
    projects.push(outside);
    const path = 'knowledge/documents/any/guides/first.md';
    unlinkSync(project.path(path));
    symlinkSync(outside.path(path), project.path(path));
    const change = store.applyChanges([path])!;
    expect(change.current.catalog.contents.has('fixture://guides/any/guides/first')).toBe(false);
    expect(change.current.held).toBeUndefined();
  });
});
