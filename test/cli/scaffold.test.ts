import { describe, expect, it } from 'vitest';
import { buildScaffold, buildServerName, buildServerTitle } from '../../src/cli/templates/scaffold.js';

describe('buildServerName', () => {
  it('makes a slug of a directory name', () => {
    expect(buildServerName('My Team Docs')).toBe('my-team-docs');
    expect(buildServerName('--Docs__2026--')).toBe('docs-2026');
    expect(buildServerName('a'.repeat(80))).toHaveLength(64);
    expect(buildServerName(`${'a'.repeat(63)}-b`)).toBe('a'.repeat(63));
  });

  it('falls back when nothing usable is left', () => {
    expect(buildServerName('')).toBe('my-companion');
    expect(buildServerName('Ünïcödé')).toBe('unicode');
    expect(buildServerName('日本')).toBe('my-companion');
  });
});

describe('buildServerTitle', () => {
  it('reads a slug as words', () => {
    expect(buildServerTitle('team-docs')).toBe('Team docs');
  });
});

describe('buildScaffold', () => {
  const files = buildScaffold({ name: 'x', title: 'X' });

  it('is newline-terminated text and free of carriage returns', () => {
    for (const file of files) {
      expect(file.content.endsWith('\n'), file.path).toBe(true);
      expect(file.content, file.path).not.toContain('\r');
    }
  });

  it('links the shared base and the checklist from SKILL.md', () => {
    const skill = files.find((f) => f.path === 'skills/first-skill/SKILL.md')?.content ?? '';
    expect(skill).toContain('[references/base.md](references/base.md)');
    expect(skill).toContain('[references/checklist.md](references/checklist.md)');
    expect(skill).toMatch(/^---\nname: first-skill\ndescription: \S/);
  });
});
