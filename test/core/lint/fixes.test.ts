/**
 * The fix plan: only what is mechanical and safe, only where a finding asks for it, never prose.
 */
import { describe, expect, it } from 'vitest';
import { formatFileDiff } from '../../../src/check/format-diff.js';
import { buildCatalog } from '../../../src/core/catalog.js';
import { planFixes } from '../../../src/core/lint/fixes.js';
import { buildSnapshot, readFixture } from '../../helpers/snapshot.js';

const valid = readFixture('valid');
const ALPHA = 'skills/alpha/SKILL.md';
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function plan(files: Record<string, string>) {
  const snapshot = buildSnapshot({ ...valid, ...files });
  return planFixes(snapshot, buildCatalog(snapshot).diagnostics);
}

describe('planFixes', () => {
  it('plans nothing for clean content', () => {
    expect(plan({})).toEqual({ files: [], renames: [], skipped: [] });
  });

  it('converts CRLF to LF and strips trailing whitespace in front matter, leaving the body text alone', () => {
    const body =
      '# Alpha  \r\n\r\nStart with [references/base.md](references/base.md), then [the checklist](references/checklist.md).   \r\n';
    const crlf = `---\r\nname: alpha   \r\ndescription: Does alpha things. Use when alpha is needed.\r\nlicense: MIT\t\r\n---\r\n${body}`;
    const { files } = plan({ [ALPHA]: crlf });
    expect(files).toHaveLength(1);
    expect(decode(files[0]!.after)).toBe(
      `---\nname: alpha\ndescription: Does alpha things. Use when alpha is needed.\nlicense: MIT\n---\n${body.replaceAll('\r\n', '\n')}`,
    );
    expect(files[0]!.changes).toEqual([
      'converted CRLF line endings to LF (CMP507)',
      'removed trailing whitespace from front matter line 2 (CMP508)',
      'removed trailing whitespace from front matter line 4 (CMP508)',
    ]);
  });

  it('quotes values YAML 1.1 reads differently when YAML 1.2 already reads a string, comments kept', () => {
    const alpha = valid[ALPHA]!.replace(
      '  version: "1.0"',
      '  version: "1.0"\n  beta: yes # a flag\n  since: 2024-01-02\n  mode: 0755',
    );
    const { files, skipped } = plan({ [ALPHA]: alpha });
    expect(files).toEqual([]);
    // 0755 is the number 755 to YAML 1.2: quoting it would change what is served, so the file is left alone.
    expect(skipped).toEqual([`${ALPHA}: not fixed, the front matter would read differently`]);
    const withoutOctal = alpha.replace('\n  mode: 0755', '');
    const fixed = plan({ [ALPHA]: withoutOctal }).files[0]!;
    expect(decode(fixed.after)).toBe(
      withoutOctal
        .replace('beta: yes #', 'beta: "yes" #')
        .replace('since: 2024-01-02', 'since: "2024-01-02"'),
    );
  });

  it('lowercases a name that differs only by case and renames the directory to match', () => {
    const skill = (name: string) =>
      `---\nname: ${name}\ndescription: Does release things for the team. Use when a release is due.\n---\n# Release\n\nStart with [base](references/base.md).\n`;
    const both = plan({ 'skills/Release-Notes/SKILL.md': skill('Release-Notes') });
    expect(both.files.map((f) => [f.path, decode(f.after).split('\n')[1]])).toEqual([
      ['skills/Release-Notes/SKILL.md', 'name: release-notes'],
    ]);
    expect(both.renames).toEqual([
      { from: 'skills/Release-Notes', to: 'skills/release-notes', reason: expect.stringContaining('CMP404') },
    ]);
    const dirOnly = plan({ 'skills/Release-Notes/SKILL.md': skill('release-notes') });
    expect(dirOnly.files).toEqual([]);
    expect(dirOnly.renames.map((r) => r.to)).toEqual(['skills/release-notes']);
    const other = plan({ 'skills/release/SKILL.md': skill('Notes') });
    expect(other).toEqual({ files: [], renames: [], skipped: [] });
  });

  it('fixes only what is reported: a code set to off, or suppressed, is left as it is', () => {
    const crlf = valid['knowledge/documents/any/guides/first.md']!.replaceAll('\n', '\r\n');
    const scope = JSON.stringify({
      ...JSON.parse(valid['knowledge/server-scope.json']!),
      check: { severity: { CMP507: 'off' } },
    });
    expect(
      plan({ 'knowledge/documents/any/guides/first.md': crlf, 'knowledge/server-scope.json': scope }).files,
    ).toEqual([]);
  });
});

describe('formatFileDiff', () => {
  it('writes hunks with three lines of context and marks a missing final newline', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk';
    const after = 'a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nK';
    expect(formatFileDiff('x.md', 'x.md', before, after)).toBe(
      [
        'diff --git a/x.md b/x.md',
        '--- a/x.md',
        '+++ b/x.md',
        '@@ -1,5 +1,5 @@',
        ' a',
        '-b',
        '+B',
        ' c',
        ' d',
        ' e',
        '@@ -8,4 +8,4 @@',
        ' h',
        ' i',
        ' j',
        '-k',
        '\\ No newline at end of file',
        '+K',
        '\\ No newline at end of file',
        '',
      ].join('\n'),
    );
  });
});
