import { describe, expect, it } from 'vitest';
import {
  formatDiagnostic,
  formatLocation,
  formatSummaryLine,
  formatText,
} from '../../src/check/format-text.js';
import type { CheckSummary } from '../../src/check/summary.js';
import type { Diagnostic } from '../../src/core/diagnostics.js';

const summary = (over: Partial<CheckSummary> = {}): CheckSummary => ({
  errors: 0,
  warnings: 0,
  infos: 0,
  documents: 14,
  skills: 5,
  prompts: 0,
  ok: true,
  ...over,
});

const error: Diagnostic = {
  code: 'CMP303',
  severity: 'error',
  file: 'knowledge/documents/any/a.md',
  line: 3,
  column: 5,
  message: 'The front matter has no `description`.',
  hint: 'Add `description:` to the front matter.',
};

describe('formatLocation', () => {
  it('shows only the parts a diagnostic has', () => {
    expect(formatLocation(error)).toBe('knowledge/documents/any/a.md:3:5');
    expect(formatLocation({ ...error, column: undefined })).toBe('knowledge/documents/any/a.md:3');
    expect(formatLocation({ ...error, line: undefined, column: undefined })).toBe(
      'knowledge/documents/any/a.md',
    );
    expect(formatLocation({ ...error, file: undefined })).toBeUndefined();
  });

  it('never shows a column without a line', () => {
    expect(formatLocation({ ...error, line: undefined })).toBe('knowledge/documents/any/a.md');
  });
});

describe('formatDiagnostic', () => {
  it('puts location, severity, code and message on one line and the hint indented under it', () => {
    expect(formatDiagnostic(error)).toBe(
      'knowledge/documents/any/a.md:3:5  error    CMP303  The front matter has no `description`.\n' +
        '  Add `description:` to the front matter.',
    );
  });

  it('leaves the location out when there is no file', () => {
    expect(formatDiagnostic({ ...error, file: undefined, severity: 'warning' })).toBe(
      'warning  CMP303  The front matter has no `description`.\n  Add `description:` to the front matter.',
    );
  });

  it('indents every further line of a multi-line message or hint', () => {
    expect(formatDiagnostic({ ...error, message: 'First.\nSecond.', hint: 'Do this.\r\nThen that.' })).toBe(
      'knowledge/documents/any/a.md:3:5  error    CMP303  First.\n  Second.\n  Do this.\n  Then that.',
    );
  });

  it('colours severity and code only when asked', () => {
    const colored = formatDiagnostic(error, { color: true });
    expect(colored).toContain('\u001b[31merror\u001b[39m    ');
    expect(colored).toContain('\u001b[2mCMP303\u001b[22m');
    expect(formatDiagnostic({ ...error, severity: 'warning' }, { color: true })).toContain(
      '\u001b[33mwarning\u001b[39m',
    );
    expect(formatDiagnostic(error, { color: false })).not.toContain('\u001b');
  });

  it('pads the location to the width it is given', () => {
    expect(formatDiagnostic(error, { locationWidth: 40 }).split('\n')[0]).toBe(
      `${'knowledge/documents/any/a.md:3:5'.padEnd(40)}  error    CMP303  The front matter has no \`description\`.`,
    );
  });
});

describe('formatSummaryLine', () => {
  it('says there are no problems', () => {
    expect(formatSummaryLine(summary())).toBe('✔ no problems in 14 documents and 5 skills');
  });

  it('names the prompts checked when there are any', () => {
    expect(formatSummaryLine(summary({ prompts: 1 }))).toBe(
      '✔ no problems in 14 documents, 5 skills and 1 prompt',
    );
    expect(formatSummaryLine(summary({ prompts: 2, warnings: 1 }))).toBe(
      '⚠ 1 warning in 14 documents, 5 skills and 2 prompts',
    );
  });

  it('counts what inline directives suppressed', () => {
    expect(formatSummaryLine(summary({ suppressed: 2 }))).toBe(
      '✔ no problems in 14 documents and 5 skills (2 suppressed)',
    );
    expect(formatSummaryLine(summary({ errors: 1, suppressed: 1, ok: false }))).toBe(
      '✖ 1 error in 14 documents and 5 skills (1 suppressed)',
    );
  });

  it('counts errors and warnings with singular and plural', () => {
    expect(formatSummaryLine(summary({ errors: 2, warnings: 1, ok: false }))).toBe(
      '✖ 2 errors, 1 warning in 14 documents and 5 skills',
    );
    expect(formatSummaryLine(summary({ errors: 1, documents: 1, skills: 1, ok: false }))).toBe(
      '✖ 1 error in 1 document and 1 skill',
    );
  });

  it('passes with a warning sign when there are only warnings and infos', () => {
    expect(formatSummaryLine(summary({ warnings: 3, infos: 1 }))).toBe(
      '⚠ 3 warnings, 1 info in 14 documents and 5 skills',
    );
  });

  it('fails on warnings when the summary is not ok (--strict)', () => {
    expect(formatSummaryLine(summary({ warnings: 1, ok: false }))).toBe(
      '✖ 1 warning in 14 documents and 5 skills',
    );
  });
});

describe('formatText', () => {
  it('prints only the summary when there is nothing to report', () => {
    expect(formatText([], summary())).toBe('✔ no problems in 14 documents and 5 skills\n');
  });

  it('keeps the given order, separates files by a blank line and aligns locations within a file', () => {
    const diagnostics: Diagnostic[] = [
      {
        ...error,
        file: undefined,
        line: undefined,
        column: undefined,
        code: 'CMP410',
        message: 'Over budget.',
      },
      { ...error, line: 3, column: 5 },
      { ...error, line: 12, column: 1, code: 'CMP304', message: 'Two titles.' },
      {
        ...error,
        file: 'skills/b/SKILL.md',
        line: 1,
        column: undefined,
        severity: 'warning',
        code: 'CMP408',
      },
    ];
    expect(formatText(diagnostics, summary({ errors: 3, warnings: 1, ok: false }))).toBe(
      [
        'error    CMP410  Over budget.',
        '  Add `description:` to the front matter.',
        '',
        'knowledge/documents/any/a.md:3:5   error    CMP303  The front matter has no `description`.',
        '  Add `description:` to the front matter.',
        'knowledge/documents/any/a.md:12:1  error    CMP304  Two titles.',
        '  Add `description:` to the front matter.',
        '',
        'skills/b/SKILL.md:1  warning  CMP408  The front matter has no `description`.',
        '  Add `description:` to the front matter.',
        '',
        '✖ 3 errors, 1 warning in 14 documents and 5 skills',
        '',
      ].join('\n'),
    );
  });
});
