import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { copyFixture, createTempProject } from '../helpers/temp-project.js';

describe('temp-project helper', () => {
  it('creates, changes and removes a real directory', () => {
    const p = createTempProject({ 'skills/a/SKILL.md': 'A', 'bin.dat': new Uint8Array([0, 255]) });
    expect(fs.readFileSync(p.path('skills/a/SKILL.md'), 'utf8')).toBe('A');
    expect([...fs.readFileSync(p.path('bin.dat'))]).toEqual([0, 255]);
    p.rename('skills/a/SKILL.md', 'skills/b/deep/SKILL.md');
    p.symlink('deep/SKILL.md', 'skills/b/link.md');
    expect(fs.readFileSync(p.path('skills/b/link.md'), 'utf8')).toBe('A');
    p.remove('skills');
    p.remove('skills');
    expect(fs.existsSync(p.path('skills'))).toBe(false);
    p.cleanup();
    p.cleanup();
    expect(fs.existsSync(p.root)).toBe(false);
  });

  it('copies a fixture, optionally on top of the bundled content', () => {
    const fixture = copyFixture('fs-basic');
    expect(fs.existsSync(fixture.path('skills/demo/SKILL.md'))).toBe(true);
    fixture.cleanup();

    const bundled = copyFixture('', { bundled: true });
    const bundledScope = new URL('../../knowledge/server-scope.json', import.meta.url);
    expect(fs.existsSync(bundled.path('knowledge/server-scope.json'))).toBe(fs.existsSync(bundledScope));
    expect(fs.existsSync(bundled.path('skills'))).toBe(true);
    bundled.cleanup();
  });
});
