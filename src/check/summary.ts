/**
 * The counts every `companion check` renderer ends with. Pure: computed from diagnostics and catalog sizes.
 */
import { type Diagnostic, failsCheck, summarizeDiagnostics } from '../core/diagnostics.js';

/** What one check found, in numbers. `ok` is false when the check fails (see `failsCheck`). */
export interface CheckSummary {
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
  /** Documents in the catalog (what hosts will be offered). */
  readonly documents: number;
  /** Published skills in the catalog; drafts are not counted. */
  readonly skills: number;
  readonly ok: boolean;
}

/** The sizes of what was checked, taken from the catalog. */
export interface CheckedCounts {
  readonly documents: number;
  readonly skills: number;
}

/** Counts `diagnostics` by severity; `ok` follows `failsCheck(diagnostics, strict)`. */
export function summarizeCheck(
  diagnostics: readonly Diagnostic[],
  counts: CheckedCounts,
  strict: boolean,
): CheckSummary {
  const { errors, warnings, infos } = summarizeDiagnostics(diagnostics);
  return {
    errors,
    warnings,
    infos,
    documents: counts.documents,
    skills: counts.skills,
    ok: !failsCheck(diagnostics, strict),
  };
}
