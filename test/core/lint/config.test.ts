/**
 * The check configuration (the scope file's `check` section) and inline directives, through the real builder:
 * a team tunes severities and house rules without forking, and suppresses one finding where it is meant.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../../src/core/catalog.js';
import { readDirectives } from '../../../src/core/lint/directives.js';
import { buildSnapshot, readFixture } from '../../helpers/snapshot.js';

const valid = readFixture('valid');
const SCOPE = 'knowledge/server-scope.json';
const DOC = 'knowledge/documents/any/guides/first.md';

function withCheck(check: unknown): string {
  return JSON.stringify({ ...JSON.parse(valid[SCOPE]!), check }, null, 2);
}

function build(files: Record<string, string>) {
  return buildCatalog(buildSnapshot({ ...valid, ...files }));
}

const docWith = (body: string) => `---\ndescription: The first guide.\n---\n# First guide\n\n${body}\n`;

describe('readDirectives', () => {
  it('reads the three forms in Markdown, and ignores code and prose', () => {
    const text = [
      '---',
      'description: x # companion-disable-line CMP409',
      '---',
      '<!-- companion-disable CMP504, CMP612 -- the links are generated -->',
      'a <!-- companion-disable-line CMP600 -->',
      '<!-- companion-disable-next-line CMP600 CMP999 -->',
      '`<!-- companion-disable CMP501 -->` in code',
      '```',
      '<!-- companion-disable CMP502 -->',
      '```',
      'companion-disable CMP503 in prose',
      '<!-- companion-disabled CMP503 -->',
    ].join('\n');
    expect(readDirectives('a.md', text)).toEqual([
      { kind: 'line', codes: ['CMP409'], unknown: [], line: 2, column: 18 },
      { kind: 'file', codes: ['CMP504', 'CMP612'], unknown: [], line: 4, column: 6 },
      { kind: 'line', codes: ['CMP600'], unknown: [], line: 5, column: 8 },
      { kind: 'next-line', codes: ['CMP600'], unknown: ['CMP999'], line: 6, column: 6 },
    ]);
  });

  it('reads # and // comments in other text files', () => {
    const text =
      '#!/bin/sh\n# companion-disable-next-line CMP600\nTOKEN=x\n// companion-disable CMP624\necho companion-disable CMP1';
    expect(readDirectives('scripts/run.sh', text).map((d) => [d.kind, d.line, d.codes])).toEqual([
      ['next-line', 2, ['CMP600']],
      ['file', 4, ['CMP624']],
    ]);
  });
});

describe('severities from the scope file', () => {
  const draft = valid['skills/beta/SKILL.md']!.replace('Does beta things. Use when beta is needed.', 'Beta.');

  it('drop a code set to off, and give a code the severity set for it', () => {
    const plain = build({ 'skills/beta/SKILL.md': draft });
    expect(plain.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['CMP421', 'warning'],
      ['CMP422', 'warning'],
    ]);
    const tuned = build({
      'skills/beta/SKILL.md': draft,
      [SCOPE]: withCheck({ severity: { CMP421: 'error', CMP422: 'off' } }),
    });
    expect(tuned.diagnostics.map((d) => [d.code, d.severity])).toEqual([['CMP421', 'error']]);
    expect(tuned.suppressed).toEqual([]);
  });

  it('tune the thresholds of the house rules', () => {
    const result = build({
      [SCOPE]: withCheck({ rules: { minDescriptionLength: 60, requireLinks: ['references/checklist.md'] } }),
    });
    expect(result.diagnostics.map((d) => [d.code, d.file])).toEqual([
      ['CMP421', 'skills/alpha/SKILL.md'],
      ['CMP421', 'skills/beta/SKILL.md'],
      ['CMP428', 'skills/beta/SKILL.md'],
    ]);
  });

  it('name a code that does not exist (CMP690), and a bad setting as a schema error', () => {
    expect(
      build({ [SCOPE]: withCheck({ severity: { CMP999: 'off' } }) }).diagnostics.map((d) => d.code),
    ).toEqual(['CMP690']);
    const bad = build({ [SCOPE]: withCheck({ severity: { CMP421: 'loud' }, rules: { maxBodyLines: 0 } }) });
    expect(bad.diagnostics.map((d) => d.code)).toEqual(['CMP102', 'CMP102']);
  });

  it('do not change what is served: a skill that cannot be served stays unserved with its code off', () => {
    const broken = valid['skills/beta/SKILL.md']!.replace('name: beta', 'name: Beta');
    const result = build({
      'skills/beta/SKILL.md': broken,
      [SCOPE]: withCheck({ severity: { CMP404: 'off' } }),
    });
    expect(result.catalog.skills.map((s) => s.id)).toEqual(['alpha']);
    expect(result.diagnostics.map((d) => d.code)).not.toContain('CMP404');
  });
});

describe('inline directives', () => {
  const secret = 'SERVICE_TOKEN=Zq8r2Lm4Xw9Tb7Kc1Vn6';

  it('suppress a finding on the next line, and say where from', () => {
    const result = build({
      [DOC]: docWith(`<!-- companion-disable-next-line CMP600 -- an example -->\n${secret}`),
    });
    expect(result.diagnostics).toEqual([]);
    expect(result.suppressed).toEqual([
      expect.objectContaining({ code: 'CMP600', file: DOC, line: 7, suppressedBy: `${DOC}:6` }),
    ]);
  });

  it('suppress a code in the whole file, not other codes and not other files', () => {
    const result = build({
      [DOC]: docWith(`<!-- companion-disable CMP504 -->\n[a](#nope) [b](#gone)\n${secret}`),
    });
    expect(result.diagnostics.map((d) => d.code)).toEqual(['CMP600']);
    expect(result.suppressed?.map((d) => d.code)).toEqual(['CMP504', 'CMP504']);
  });

  it('suppress a finding on their own line only', () => {
    const result = build({ [DOC]: docWith(`${secret} <!-- companion-disable-line CMP600 -->\n${secret}`) });
    expect(result.diagnostics.map((d) => [d.code, d.line])).toEqual([['CMP600', 7]]);
    expect(result.suppressed?.map((d) => d.line)).toEqual([6]);
  });

  it('report a directive that names no known code (CMP691) or suppresses nothing (CMP692)', () => {
    const result = build({
      [DOC]: docWith(
        '<!-- companion-disable CMP504 -->\n<!-- companion-disable-line CMP9999 -->\n<!-- companion-disable -->',
      ),
    });
    expect(result.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ['CMP692', 6],
      ['CMP691', 7],
      ['CMP691', 8],
    ]);
  });

  it('suppress front matter findings from a YAML comment', () => {
    const alpha = valid['skills/alpha/SKILL.md']!.replace(
      '  version: "1.0"',
      '  version: "1.0"\n  beta: yes # companion-disable-line CMP409',
    );
    const result = build({ 'skills/alpha/SKILL.md': alpha });
    expect(result.diagnostics).toEqual([]);
    expect(result.suppressed?.map((d) => d.code)).toEqual(['CMP409']);
  });
});
