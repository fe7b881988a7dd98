/**
 * The machine renderer of `companion check`, for CI and editors:
 *
 *     {
 *       "diagnostics": [
 *         { "code", "severity", "file", "line", "column", "message", "hint" }
 *       ],
 *       "suppressed": [
 *         { "code", "severity", "file", "line", "column", "message", "hint", "suppressedBy" }
 *       ],
 *       "summary": { "errors", "warnings", "infos", "suppressed", "documents", "skills", "prompts", "ok" }
 *     }
 *
 * Every key is always present, in this order. `file`, `line` and `column` are `null` when the diagnostic has
 * no such location (a finding about the whole repository has no file; a missing file has no line). `file` is
 * a posix path relative to the content root; `line` and `column` are 1-based. `suppressed` lists the findings an
 * inline `companion-disable` directive suppressed, each with `suppressedBy`, the `file:line` of that directive;
 * they count toward nothing but `summary.suppressed`. `ok` is false exactly when
 * `companion check` exits 1. Pretty-printed with two spaces and newline-terminated, so it diffs well.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import type { SuppressedDiagnostic } from '../core/lint/directives.js';
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
  readonly suppressed: readonly (JsonDiagnostic & { readonly suppressedBy: string })[];
  readonly summary: CheckSummary;
}

export interface FormatJsonOptions extends FormatOptions {
  /** Findings inline directives suppressed. @default [] */
  readonly suppressed?: readonly SuppressedDiagnostic[];
}

function toJson(d: Diagnostic): JsonDiagnostic {
  return {
    code: d.code,
    severity: d.severity,
    file: d.file ?? null,
    line: d.line ?? null,
    column: d.column ?? null,
    message: d.message,
    hint: d.hint,
  };
}

/** The JSON report (see the module comment), in the order given. `options.color` is ignored. */
export function formatJson(
  diagnostics: readonly Diagnostic[],
  summary: CheckSummary,
  options: FormatJsonOptions = {},
): string {
  // Built key by key rather than spread, so the key order is fixed whatever shape the inputs have.
  const report: JsonReport = {
    diagnostics: diagnostics.map(toJson),
    suppressed: (options.suppressed ?? []).map((d) => ({ ...toJson(d), suppressedBy: d.suppressedBy })),
    summary: {
      errors: summary.errors,
      warnings: summary.warnings,
      infos: summary.infos,
      suppressed: summary.suppressed ?? 0,
      documents: summary.documents,
      skills: summary.skills,
      prompts: summary.prompts,
      ok: summary.ok,
    },
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
