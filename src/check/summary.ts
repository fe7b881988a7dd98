/**
 * The counts every `companion check` renderer ends with. Pure: computed from diagnostics and the snapshot checked.
 */
import { type Diagnostic, failsCheck, summarizeDiagnostics } from '../core/diagnostics.js';
import type { Snapshot } from '../core/types.js';

/** What one check found, in numbers. `ok` is false when the check fails (see `failsCheck`). */
export interface CheckSummary {
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
  /** Findings an inline `companion-disable` suppressed; not counted above. */
  readonly suppressed?: number;
  /** Documents checked: every `.md` under `knowledge/documents/`, whether it parsed or not. */
  readonly documents: number;
  /** Skills checked: every directory under `skills/` with a `SKILL.md`, drafts and broken ones included. */
  readonly skills: number;
  /** Prompts checked: every `prompts/<name>.md`, whether it parsed or not. */
  readonly prompts: number;
  readonly ok: boolean;
}

/** The sizes of what was checked. */
export interface CheckedCounts {
  readonly documents: number;
  readonly skills: number;
  readonly prompts: number;
}

const DOCUMENT = /^knowledge\/documents\/.+\.md$/;
const SKILL_FILE = /^skills\/([^/]+)\/SKILL\.md$/;
const PROMPT = /^prompts\/[^/]+\.md$/;

/**
 * Counts what `snapshot` holds to check: the files a check looked at, not the ones that made it into the catalog,
 * so a document that does not parse still counts (its findings say why it is not served). Files the loader
 * could not read count too.
 */
export function countChecked(snapshot: Snapshot): CheckedCounts {
  let documents = 0;
  let prompts = 0;
  const skills = new Set<string>();
  const count = (path: string): void => {
    if (DOCUMENT.test(path)) documents++;
    if (PROMPT.test(path)) prompts++;
    const skill = SKILL_FILE.exec(path);
    if (skill) skills.add(skill[1]!);
  };
  for (const path of snapshot.files.keys()) count(path);
  for (const problem of snapshot.problems) count(problem.path);
  return { documents, skills: skills.size, prompts };
}

/** Counts `diagnostics` by severity; `ok` follows `failsCheck(diagnostics, strict)`. */
export function summarizeCheck(
  diagnostics: readonly Diagnostic[],
  counts: CheckedCounts,
  strict: boolean,
  suppressed = 0,
): CheckSummary {
  const { errors, warnings, infos } = summarizeDiagnostics(diagnostics);
  return {
    errors,
    warnings,
    infos,
    suppressed,
    documents: counts.documents,
    skills: counts.skills,
    prompts: counts.prompts,
    ok: !failsCheck(diagnostics, strict),
  };
}
