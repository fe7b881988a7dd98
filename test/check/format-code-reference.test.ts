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

  it('has one section per code, in code order, with severity, example messages and hint', () => {
    const headings = [...text.matchAll(/^## (CMP\d{3}) — (.*)$/gm)].map((m) => m[1]);
    const all = Object.values(codes as Record<string, DiagnosticData>).map((d) => d.code);
    expect(headings).toEqual([...all].sort());
    const { skillName, skillTitle } = codes;
    expect(text).toContain(
      `## ${skillName.code} — ${skillName.title}\n\n**Severity:** error\n\n**Examples:**\n\n` +
        '- `name` is "release-tool" but the directory is "release"; they must be equal.\n' +
        '- `name` "Release_Tool" is not 1–64 lowercase letters, digits and single inner hyphens.\n' +
        '- The front matter has no `name`.\n\n' +
        `**How to fix:** ${skillName.hint()}\n`,
    );
    expect(text).toContain(
      `## ${skillTitle.code} — ${skillTitle.title}\n\n**Severity:** warning\n\n` +
        '**Example:** SKILL.md has no "# " title line.\n\n',
    );
  });

  it('writes every example of every code as the catalogue words it, and no message is empty', () => {
    for (const entry of Object.values(codes as Record<string, DiagnosticData>)) {
      for (const args of entry.examples) {
        const message = entry.message(args);
        expect(message, entry.code).toMatch(/\S/);
        expect(text, entry.code).toContain(message.replaceAll('<', '\\<'));
        expect(entry.hint(args), entry.code).toMatch(/\S/);
      }
    }
  });

  it('escapes "<" outside code spans so a renderer does not read it as HTML', () => {
    const entry: DiagnosticData<{ readonly uri: string }> = {
      code: 'CMP999',
      severity: 'info',
      title: 'T <x>',
      message: ({ uri }) => `${uri} is <odd>, not \`<b>\`.`,
      hint: () => 'Use <scheme>://a, not `<b>`.',
      examples: [{ uri: 'a://b' }],
    };
    const rendered = formatCodeReference({ entry });
    expect(rendered).toContain('## CMP999 — T \\<x>');
    expect(rendered).toContain('**Example:** a://b is \\<odd>, not `<b>`.');
    expect(rendered).toContain('**How to fix:** Use \\<scheme>://a, not `<b>`.');
    expect(rendered).toContain('**Severity:** info');
  });
});
