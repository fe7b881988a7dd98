import { describe, expect, it } from 'vitest';
import {
  escapeGithubData,
  escapeGithubProperty,
  formatGithub,
  formatGithubAnnotation,
} from '../../src/check/format-github.js';
import type { CheckSummary } from '../../src/check/summary.js';
import type { Diagnostic } from '../../src/core/diagnostics.js';

const diagnostic: Diagnostic = {
  code: 'CMP203',
  severity: 'error',
  file: 'knowledge/server-scope.json',
  line: 14,
  column: 7,
  message: 'Topic "a" names document "x".',
  hint: 'Correct the id.',
};

describe('formatGithubAnnotation', () => {
  it('writes file, line, col and title, then the message and hint on two lines', () => {
    expect(formatGithubAnnotation(diagnostic)).toBe(
      '::error file=knowledge/server-scope.json,line=14,col=7,title=CMP203::Topic "a" names document "x".%0ACorrect the id.',
    );
  });

  it('maps severities to error, warning and notice', () => {
    expect(formatGithubAnnotation({ ...diagnostic, severity: 'warning' })).toMatch(/^::warning /);
    expect(formatGithubAnnotation({ ...diagnostic, severity: 'info' })).toMatch(/^::notice /);
  });

  it('leaves out the location parts a diagnostic does not have', () => {
    expect(formatGithubAnnotation({ ...diagnostic, column: undefined })).toMatch(
      /^::error file=[^,]+,line=14,title=/,
    );
    expect(formatGithubAnnotation({ ...diagnostic, line: undefined, column: undefined })).toMatch(
      /^::error file=knowledge\/server-scope.json,title=CMP203::/,
    );
    expect(formatGithubAnnotation({ ...diagnostic, file: undefined })).toMatch(/^::error title=CMP203::/);
  });

  it('puts the file prefix in front of the file', () => {
    expect(formatGithubAnnotation(diagnostic, { filePrefix: 'content/' })).toContain(
      'file=content/knowledge/server-scope.json,',
    );
    expect(formatGithubAnnotation(diagnostic, { filePrefix: '' })).toContain(
      'file=knowledge/server-scope.json,',
    );
  });

  it('escapes the message and the properties by the workflow-command rules', () => {
    const annotation = formatGithubAnnotation({
      ...diagnostic,
      file: 'a:b,c%d.md',
      message: '100% sure: a, b\r\nc',
      hint: 'x',
    });
    expect(annotation).toBe(
      '::error file=a%3Ab%2Cc%25d.md,line=14,col=7,title=CMP203::100%25 sure: a, b%0D%0Ac%0Ax',
    );
  });
});

describe('escapes', () => {
  it('escapes % first, so an escape is never escaped twice', () => {
    expect(escapeGithubData('%0A\n')).toBe('%250A%0A');
    expect(escapeGithubProperty('%3A:')).toBe('%253A%3A');
  });
});

describe('formatGithub', () => {
  it('ends with the plain summary line', () => {
    const summary: CheckSummary = {
      errors: 1,
      warnings: 0,
      infos: 0,
      documents: 3,
      skills: 1,
      prompts: 0,
      ok: false,
    };
    expect(formatGithub([diagnostic], summary, { color: true })).toBe(
      `${formatGithubAnnotation(diagnostic)}\n✖ 1 error in 3 documents and 1 skill\n`,
    );
  });
});
