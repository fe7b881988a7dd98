import { describe, expect, it } from 'vitest';
import { formatJson } from '../../src/check/format-json.js';
import type { CheckSummary } from '../../src/check/summary.js';
import type { Diagnostic } from '../../src/core/diagnostics.js';

const summary: CheckSummary = {
  errors: 1,
  warnings: 1,
  infos: 0,
  suppressed: 0,
  documents: 2,
  skills: 1,
  prompts: 0,
  ok: false,
};

const DIAGNOSTIC_KEYS = ['code', 'severity', 'file', 'line', 'column', 'message', 'hint'];

describe('formatJson', () => {
  it('writes every key in a fixed order, null for a missing location, pretty and newline-terminated', () => {
    const diagnostics: Diagnostic[] = [
      { hint: 'Do it.', message: 'Over.', severity: 'error', code: 'CMP410' },
      {
        code: 'CMP408',
        severity: 'warning',
        file: 'skills/a/SKILL.md',
        line: 4,
        column: 1,
        message: 'M',
        hint: 'H',
      },
    ];
    const text = formatJson(diagnostics, summary);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "diagnostics": [\n    {\n      "code": "CMP410",');
    const parsed = JSON.parse(text);
    expect(Object.keys(parsed)).toEqual(['diagnostics', 'suppressed', 'summary']);
    expect(Object.keys(parsed.diagnostics[0])).toEqual(DIAGNOSTIC_KEYS);
    expect(parsed.diagnostics[0]).toMatchObject({ file: null, line: null, column: null });
    expect(parsed.diagnostics[1]).toEqual({
      code: 'CMP408',
      severity: 'warning',
      file: 'skills/a/SKILL.md',
      line: 4,
      column: 1,
      message: 'M',
      hint: 'H',
    });
    expect(Object.keys(parsed.summary)).toEqual([
      'errors',
      'warnings',
      'infos',
      'suppressed',
      'documents',
      'skills',
      'prompts',
      'ok',
    ]);
    expect(parsed.summary).toEqual(summary);
  });

  it('reports an empty list when there is nothing to report', () => {
    const clean = { ...summary, errors: 0, warnings: 0, ok: true };
    expect(JSON.parse(formatJson([], clean))).toEqual({ diagnostics: [], suppressed: [], summary: clean });
  });

  it('lists suppressed findings apart, each with the directive that suppressed it', () => {
    const suppressed = [
      {
        code: 'CMP600',
        severity: 'error' as const,
        file: 'skills/a/SKILL.md',
        line: 9,
        column: 3,
        message: 'M',
        hint: 'H',
        suppressedBy: 'skills/a/SKILL.md:8',
      },
    ];
    const parsed = JSON.parse(formatJson([], { ...summary, errors: 0, suppressed: 1 }, { suppressed }));
    expect(parsed.suppressed).toEqual(suppressed);
    expect(Object.keys(parsed.suppressed[0])).toEqual([...DIAGNOSTIC_KEYS, 'suppressedBy']);
    expect(parsed.summary.suppressed).toBe(1);
  });

  it('ignores colour', () => {
    expect(formatJson([], summary, { color: true })).not.toContain('\u001b');
  });
});
