/**
 * Findings across the skills hosts list, recomputed whenever a skill changed: the listing budget all published
 * names and descriptions share (CMP410), and descriptions two skills share (CMP425). A draft that `dev --drafts`
 * serves is the author's to try; hosts list only what is published, so drafts count in neither.
 */
import { codes, type Diagnostic, diagnose } from '../diagnostics.js';
import { DEFAULT_DESCRIPTION_BUDGET } from '../limits.js';
import { lintSkillSet } from '../lint/index.js';
import type { Memo } from '../memo.js';
import { SKILL_BODY, SKILLS_DIR } from '../names.js';
import type { ParsedSkill } from '../skills.js';

export interface SkillSetFindings {
  readonly budget: readonly Diagnostic[];
  readonly duplicates: readonly Diagnostic[];
}

/** The budget a build keeps to: the option, else the scope file's `descriptionBudget`, else Claude Code's. */
export function descriptionBudgetOf(option: number | undefined, scopeBudget: number | undefined): number {
  return option ?? scopeBudget ?? DEFAULT_DESCRIPTION_BUDGET;
}

/** `served`: the served skills, in id order. */
export function checkSkillSet(served: readonly ParsedSkill[], budget: number, memo: Memo): SkillSetFindings {
  const published = served.filter((s) => !s.draft);
  return { budget: checkBudget(published, budget), duplicates: lintSkillSet(published, memo) };
}

function checkBudget(published: readonly ParsedSkill[], budget: number): Diagnostic[] {
  const used = published.reduce((sum, s) => sum + s.id.length + s.description.length + 4, 0);
  if (used <= budget) return [];
  // The first (in id order) of the longest descriptions.
  const longest = published.reduce((a, b) => (b.description.length > a.description.length ? b : a));
  return [
    diagnose(
      codes.descriptionBudget,
      { used, budget, longest: longest.id, longestLength: longest.description.length },
      { file: `${SKILLS_DIR}${longest.id}/${SKILL_BODY}` },
    ),
  ];
}
