/**
 * Picks the renderer for a `--format` value. The three renderers are pure; this only dispatches.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import { type FormatGithubOptions, formatGithub } from './format-github.js';
import { type FormatJsonOptions, formatJson } from './format-json.js';
import { formatText } from './format-text.js';
import type { CheckSummary } from './summary.js';

/** The values `companion check --format` accepts, the default first. */
export const CHECK_FORMATS = ['text', 'json', 'github'] as const;
export type CheckFormat = (typeof CHECK_FORMATS)[number];

export function isCheckFormat(value: string): value is CheckFormat {
  return (CHECK_FORMATS as readonly string[]).includes(value);
}

/** Renders a check report in `format`. Options a renderer does not use are ignored. */
export function formatReport(
  format: CheckFormat,
  diagnostics: readonly Diagnostic[],
  summary: CheckSummary,
  options: FormatGithubOptions & FormatJsonOptions = {},
): string {
  switch (format) {
    case 'text':
      return formatText(diagnostics, summary, options);
    case 'json':
      return formatJson(diagnostics, summary, options);
    case 'github':
      return formatGithub(diagnostics, summary, options);
  }
}
