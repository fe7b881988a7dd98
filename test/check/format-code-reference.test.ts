import { describe, expect, it } from 'vitest';
import { formatCodeReference } from '../../src/check/format-code-reference.js';
import { codes, type DiagnosticData } from '../../src/core/diagnostics.js';

describe('formatCodeReference', () => {
  const text = formatCodeReference(codes);

  it('is a knowledge document: front matter with a description, one title', () => {
    const frontMatter = /^---\n([\s\S]*?)\n---\n/.exec(text);
    expect(frontMatter?.[1]).toMatch(/^description: \S/m);
    expect(frontMatter?.[1]).toMatch(/^whenToUse: \S/m);
    // Plain scalars in the front matter must not hold ": ", which some YAML parsers read as a map.
    for (const line of frontMatter?.[1]?.split('\n') ?? [])
      expect(line.slice(line.indexOf(': ') + 2)).not.toContain(': ');
    expect(text.match(/^# /gm)).toHaveLength(1);
    expect(text).toMatch(/^# Diagnostic codes$/m);
    expect(text.endsWith('\n')).toBe(true);
    expect(text.endsWith('\n\n')).toBe(false);
  });

  it('explains severities, --strict and exit codes', () => {
    expect(text).toContain('--strict');
    expect(text).toMatch(/exits 0 .*1 .*2 /);
  });

  it('has one section per code, in code order, with severity and hint', () => {
    const headings = [...text.matchAll(/^## (CMP\d{3}) — (.*)$/gm)].map((m) => m[1]);
    const all = Object.values(codes as Record<string, DiagnosticData>).map((d) => d.code);
    expect(headings).toEqual([...all].sort());
    expect(text).toContain(
      `## ${codes.skillName.code} — ${codes.skillName.title}\n\n**Severity:** error\n\n**How to fix:** ${codes.skillName.hint}\n`,
    );
  });

  it('escapes "<" outside code spans so a renderer does not read it as HTML', () => {
    const entry: DiagnosticData = {
      code: 'CMP999',
      severity: 'info',
      title: 'T <x>',
      hint: 'Use <scheme>://a, not `<b>`.',
    };
    const rendered = formatCodeReference({ entry });
    expect(rendered).toContain('## CMP999 — T \\<x>');
    expect(rendered).toContain('**How to fix:** Use \\<scheme>://a, not `<b>`.');
    expect(rendered).toContain('**Severity:** info');
  });
});
