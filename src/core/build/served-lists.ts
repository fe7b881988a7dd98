/**
 * The ordered lists of what is served — documents by path, skills by id, each with its `resources/list` entry —
 * rebuilt when membership changed, else copied and patched at the positions of the units that were derived again
 * (an edit of one document on a large corpus costs one copy, not a walk of every unit).
 */
import { compare } from '../diagnostics.js';
import type { ParsedSkill } from '../skills.js';
import type { DocumentEntry, ListedResource, SkillEntry } from '../types.js';
import type { DocumentUnit, SkillUnit } from './units.js';

export interface ServedLists {
  /** Served documents' paths and served skills' ids (drafts too when the build includes them), sorted. */
  readonly documentPaths: readonly string[];
  readonly skillIds: readonly string[];
  readonly documents: readonly DocumentEntry[];
  readonly documentResources: readonly ListedResource[];
  readonly skills: readonly SkillEntry[];
  readonly skillResources: readonly ListedResource[];
  readonly documentPositions: ReadonlyMap<string, number>;
  readonly skillPositions: ReadonlyMap<string, number>;
}

export const NO_LISTS: ServedLists = {
  documentPaths: [],
  skillIds: [],
  documents: [],
  documentResources: [],
  skills: [],
  skillResources: [],
  documentPositions: new Map(),
  skillPositions: new Map(),
};

/** Which documents and skills are served, in order: the membership the entry lists follow. */
export function buildMembership(
  documentUnits: ReadonlyMap<string, DocumentUnit>,
  skillUnits: ReadonlyMap<string, SkillUnit>,
  servesSkill: (skill: ParsedSkill | undefined) => skill is ParsedSkill,
): { readonly documentPaths: readonly string[]; readonly skillIds: readonly string[] } {
  return {
    documentPaths: [...documentUnits.keys()].filter((p) => documentUnits.get(p)!.document).sort(compare),
    skillIds: [...skillUnits.keys()].filter((id) => servesSkill(skillUnits.get(id)!.skill)).sort(compare),
  };
}

/** The lists of a new membership, from every served unit's entry. */
export function buildLists(
  membership: { readonly documentPaths: readonly string[]; readonly skillIds: readonly string[] },
  documentUnits: ReadonlyMap<string, DocumentUnit>,
  skillUnits: ReadonlyMap<string, SkillUnit>,
): ServedLists {
  const { documentPaths, skillIds } = membership;
  return {
    documentPaths,
    skillIds,
    documents: documentPaths.map((p) => documentUnits.get(p)!.entry!),
    documentResources: documentPaths.map((p) => documentUnits.get(p)!.resource!),
    documentPositions: new Map(documentPaths.map((p, i) => [p, i])),
    skills: skillIds.map((id) => skillUnits.get(id)!.entry!),
    skillResources: skillIds.map((id) => skillUnits.get(id)!.resource!),
    skillPositions: new Map(skillIds.map((id, i) => [id, i])),
  };
}

/** The same membership, with the entries of `touchedDocuments` and `touchedSkills` replaced in copies. */
export function patchLists(
  lists: ServedLists,
  touchedDocuments: Iterable<string>,
  touchedSkills: Iterable<string>,
  documentUnits: ReadonlyMap<string, DocumentUnit>,
  skillUnits: ReadonlyMap<string, SkillUnit>,
): ServedLists {
  const documents = lists.documents.slice();
  const documentResources = lists.documentResources.slice();
  for (const path of touchedDocuments) {
    const unit = documentUnits.get(path);
    const at = lists.documentPositions.get(path);
    if (unit?.document === undefined || at === undefined) continue;
    documents[at] = unit.entry!;
    documentResources[at] = unit.resource!;
  }
  const skills = lists.skills.slice();
  const skillResources = lists.skillResources.slice();
  for (const id of touchedSkills) {
    const unit = skillUnits.get(id);
    const at = lists.skillPositions.get(id);
    if (unit?.entry === undefined || at === undefined) continue;
    skills[at] = unit.entry;
    skillResources[at] = unit.resource!;
  }
  return { ...lists, documents, documentResources, skills, skillResources };
}
