/**
 * Rules across skills (CMP425): the same description on two published skills. Recomputed, like the listing
 * budget, whenever a skill changed; one pass over the descriptions.
 */
import { codes, type Diagnostic, diagnose } from '../diagnostics.js';
import { type Memo, type MemoMap, memoTable, NO_MEMO } from '../memo.js';
import { type ParsedSkill, SKILL_BODY, SKILLS_DIR } from '../skills.js';

const KEYS = memoTable<ParsedSkill, string>('lint.skill-set.keys');

/** A description as the comparison sees it: lowercase, spaces collapsed, no closing period. Memoized per skill. */
function keyOf(skill: ParsedSkill, keys: MemoMap<ParsedSkill, string>): string {
  let key = keys.get(skill);
  if (key === undefined) {
    key = skill.description.toLowerCase().replace(/\s+/g, ' ');
    while (key.endsWith('.') || key.endsWith(' ')) key = key.slice(0, -1);
    keys.set(skill, key);
  }
  return key;
}

/**
 * `published` in id order; each skill whose description an earlier one already has gets a finding. Runs on
 * every skill change, so each description is normalized once per parse, not once per run.
 */
export function lintSkillSet(published: readonly ParsedSkill[], memo: Memo = NO_MEMO): Diagnostic[] {
  const keys = memo.table(KEYS);
  const out: Diagnostic[] = [];
  const first = new Map<string, string>();
  for (const skill of published) {
    const key = keyOf(skill, keys);
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, skill.id);
      continue;
    }
    out.push(
      diagnose(
        codes.descriptionDuplicate,
        { id: skill.id, earlier },
        { file: `${SKILLS_DIR}${skill.id}/${SKILL_BODY}`, ...(skill.keys.get('description') ?? { line: 1 }) },
      ),
    );
  }
  return out;
}
