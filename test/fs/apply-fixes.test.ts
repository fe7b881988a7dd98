/**
 * Writing a fix plan on real files: atomic, mode kept, through in-root symlinks, never over a file that changed
 * since it was read, never splitting a hardlink, never outside the root, nothing left behind.
 */
import { chmodSync, linkSync, lstatSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/core/catalog.js';
import { planFixes } from '../../src/core/lint/fixes.js';
import { applyFixPlan } from '../../src/fs/apply-fixes.js';
import { readSnapshot } from '../../src/fs/read-snapshot.js';
import { readFixture } from '../helpers/snapshot.js';
import { createTempProject, type TempProject } from '../helpers/temp-project.js';

const valid = readFixture('valid');
const DOC = 'knowledge/documents/any/guides/first.md';
const crlf = valid[DOC]!.replaceAll('\n', '\r\n');
const projects: TempProject[] = [];

function project(files: Record<string, string> = {}): TempProject {
  const p = createTempProject({ ...valid, ...files });
  projects.push(p);
  return p;
}

function planFor(p: TempProject) {
  const snapshot = readSnapshot(p.root);
  return planFixes(snapshot, buildCatalog(snapshot).diagnostics);
}

afterEach(() => {
  for (const p of projects.splice(0)) p.cleanup();
});

describe('applyFixPlan', () => {
  it('replaces the file whole, keeps its mode, and leaves no temporary file', () => {
    const p = project({ [DOC]: crlf });
    chmodSync(p.path(DOC), 0o640);
    const plan = planFor(p);
    const outcome = applyFixPlan(p.root, plan);
    expect(outcome.refused).toEqual([]);
    expect(outcome.written.map((w) => w.path)).toEqual([DOC]);
    expect(readFileSync(p.path(DOC), 'utf8')).toBe(valid[DOC]);
    expect(statSync(p.path(DOC)).mode & 0o777).toBe(0o640);
    expect(readdirSync(p.path('knowledge/documents/any/guides'))).toEqual(['first.md']);
  });

  it('writes through a symlink inside the root and keeps the link', () => {
    const p = project({ 'knowledge/documents/any/guides/real.md': crlf });
    p.remove(DOC);
    p.symlink('real.md', DOC);
    const outcome = applyFixPlan(p.root, planFor(p));
    expect(outcome.refused).toEqual([]);
    expect(outcome.written.map((w) => [w.path, w.changes.length])).toEqual([
      [DOC, 1],
      ['knowledge/documents/any/guides/real.md', 1],
    ]);
    expect(lstatSync(p.path(DOC)).isSymbolicLink()).toBe(true);
    expect(readFileSync(p.path('knowledge/documents/any/guides/real.md'), 'utf8')).toBe(valid[DOC]);
  });

  it('refuses a file that changed since the plan was made, and leaves it as it is now', () => {
    const p = project({ [DOC]: crlf });
    const plan = planFor(p);
    const edited = `${crlf}\r\nA line the author just wrote.\r\n`;
    writeFileSync(p.path(DOC), edited);
    const outcome = applyFixPlan(p.root, plan);
    expect(outcome.written).toEqual([]);
    expect(outcome.refused).toEqual([
      { path: DOC, reason: 'it changed since it was read; run the fix again' },
    ]);
    expect(readFileSync(p.path(DOC), 'utf8')).toBe(edited);
  });

  it('refuses a read-only file', () => {
    const p = project({ [DOC]: crlf });
    const plan = planFor(p);
    chmodSync(p.path(DOC), 0o444);
    const outcome = applyFixPlan(p.root, plan);
    expect(outcome.refused).toEqual([{ path: DOC, reason: 'it is read-only' }]);
    expect(readFileSync(p.path(DOC), 'utf8')).toBe(crlf);
    chmodSync(p.path(DOC), 0o644);
  });

  it('refuses to split a hardlink', () => {
    const p = project({ [DOC]: crlf });
    const plan = planFor(p);
    linkSync(p.path(DOC), p.path('knowledge/other-name.md'));
    const outcome = applyFixPlan(p.root, plan);
    expect(outcome.refused).toEqual([{ path: DOC, reason: 'it has 2 hard links' }]);
    expect(readFileSync(p.path(DOC), 'utf8')).toBe(crlf);
  });

  it('refuses a path whose real file is outside the root', () => {
    const outside = project({ 'elsewhere.md': crlf });
    const p = project();
    p.remove(DOC);
    p.symlink(outside.path('elsewhere.md'), DOC);
    const before = new TextEncoder().encode(crlf);
    const outcome = applyFixPlan(p.root, {
      files: [{ path: DOC, before, after: new TextEncoder().encode(valid[DOC]!), changes: ['x'] }],
      renames: [],
      skipped: [],
    });
    expect(outcome.refused).toEqual([{ path: DOC, reason: 'its real path is outside the root' }]);
    expect(readFileSync(outside.path('elsewhere.md'), 'utf8')).toBe(crlf);
  });

  it('renames a skill directory, and refuses when the new name is taken', () => {
    const skill = valid['skills/beta/SKILL.md']!.replace('name: beta', 'name: Beta');
    const p = project({ 'skills/Beta/SKILL.md': skill.replace('name: Beta', 'name: beta') });
    p.remove('skills/beta');
    const outcome = applyFixPlan(p.root, planFor(p));
    expect(outcome.renamed.map((r) => [r.from, r.to])).toEqual([['skills/Beta', 'skills/beta']]);
    expect(readFileSync(p.path('skills/beta/SKILL.md'), 'utf8')).toBe(valid['skills/beta/SKILL.md']);
    const taken = project({ 'skills/Beta/SKILL.md': valid['skills/beta/SKILL.md']! });
    const refused = applyFixPlan(taken.root, planFor(taken));
    expect(refused.refused).toEqual([{ path: 'skills/Beta', reason: 'beta already exists' }]);
  });
});
