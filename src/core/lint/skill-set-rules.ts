/**
 * Rules across skills (CMP425): the same description on two published skills. Recomputed, like the listing
 * budget, whenever a skill changed; one pass over the descriptions.
 */
import { codes, type Diagnostic, diagnose } from '../diagnostics.js';
import { type ParsedSkill, SKILL_BODY, SKILLS_DIR } from '../skills.js';

/** `published` in id order; each skill whose description an earlier one already has gets a finding. */
export function lintSkillSet(published: readonly ParsedSkill[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const first = new Map<string, string>();
  for (const skill of published) {
    let key = skill.description.toLowerCase().replace(/\s+/g, ' ');
    while (key.endsWith('.') || key.endsWith(' ')) key = key.slice(0, -1);
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, skill.id);
      continue;
    }
    out.push(
      diagnose(
        codes.descriptionDuplicate,
        `Skill "${skill.id}" has the same description as skill "${earlier}".`,
        {
          file: `${SKILLS_DIR}${skill.id}/${SKILL_BODY}`,
          ...(skill.keys.get('description') ?? { line: 1 }),
        },
      ),
    );
  }
  return out;
}
