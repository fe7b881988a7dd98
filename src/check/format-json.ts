/**
 * The machine renderer of `companion check`, for CI and editors:
 *
 *     {
 *       "diagnostics": [
 *         { "code", "severity", "file", "line", "column", "message", "hint" }
 *       ],
 *       "summary": { "errors", "warnings", "infos", "documents", "skills", "ok" }
 *     }
 *
 * Every key is always present, in this order. `file`, `line` and `column` are `null` when the diagnostic has
 * no such location (a finding about the whole repository has no file; a missing file has no line). `file` is
 * a posix path relative to the content root; `line` and `column` are 1-based. `ok` is false exactly when
 * `companion check` exits 1. Pretty-printed with two spaces and newline-terminated, so it diffs well.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import type { FormatOptions } from './format-text.js';
import type { CheckSummary } from './summary.js';

/** One diagnostic as it appears in the JSON report. */
export interface JsonDiagnostic {
  readonly code: string;
  readonly severity: string;
  readonly file: string | null;
  readonly line: number | null;
  readonly column: number | null;
  readonly message: string;
  readonly hint: string;
}

export interface JsonReport {
  readonly diagnostics: readonly JsonDiagnostic[];
  readonly summary: CheckSummary;
}

/** The JSON report (see the module comment), in the order given. `options.color` is ignored. */
export function formatJson(
  diagnostics: readonly Diagnostic[],
  summary: CheckSummary,
  _options: FormatOptions = {},
): string {
  // Built key by key rather than spread, so the key order is fixed whatever shape the inputs have.
  const report: JsonReport = {
    diagnostics: diagnostics.map((d) => ({
      code: d.code,
      severity: d.severity,
      file: d.file ?? null,
      line: d.line ?? null,
      column: d.column ?? null,
      message: d.message,
      hint: d.hint,
    })),
    summary: {
      errors: summary.errors,
      warnings: summary.warnings,
      infos: summary.infos,
      documents: summary.documents,
      skills: summary.skills,
      ok: summary.ok,
    },
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
