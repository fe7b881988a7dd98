/**
 * Whether a document or skill exists, and in which state: what coverage, routing and URI checks depend on, and
 * what the engine compares before and after a unit is read again to know what else to redo.
 */
import type { Presence } from '../lint/index.js';
import { SKILLS_DIR } from '../names.js';
import type { FileProblem } from '../types.js';
import type { DocumentUnit, SkillUnit } from './units.js';

export type { Presence };

/** A document's presence: served, on disk but failed (a file that does not parse, a problem), or absent. */
export function documentPresence(
  units: ReadonlyMap<string, DocumentUnit>,
  path: string,
  problems: ReadonlyMap<string, FileProblem>,
): Presence {
  return presenceOfDocument(units.get(path), path, problems);
}

/** The presence of the document at `path` whose unit is `unit` (undefined: none). */
export function presenceOfDocument(
  unit: DocumentUnit | undefined,
  path: string,
  problems: ReadonlyMap<string, FileProblem>,
): Presence {
  if (unit?.document) return 'published';
  return unit || problems.has(path) ? 'failed' : 'absent';
}

/** A skill's presence; a problem anywhere below its directory puts it on disk. */
export function skillPresence(
  units: ReadonlyMap<string, SkillUnit>,
  id: string,
  problems: ReadonlyMap<string, FileProblem>,
): Presence {
  const unit = units.get(id);
  if (unit?.skill) return unit.skill.draft ? 'draft' : 'published';
  if (unit) return 'failed';
  const dir = `${SKILLS_DIR}${id}`;
  for (const path of problems.keys()) if (path === dir || path.startsWith(`${dir}/`)) return 'failed';
  return 'absent';
}
