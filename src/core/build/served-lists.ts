/**
 * The ordered lists of what is served — documents by path, skills by id, each with its `resources/list` entry —
 * rebuilt when membership changed, else copied and patched at the positions of the units that were derived again
 * (an edit of one document on a large corpus costs one copy, not a walk of every unit).
 */
import { compare } from '../diagnostics.js';
import { DOCUMENTS_DIR } from '../names.js';
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
}

export const NO_LISTS: ServedLists = {
  documentPaths: [],
  skillIds: [],
  documents: [],
  documentResources: [],
  skills: [],
  skillResources: [],
};

/** Which documents and skills are served, in order: what the entry lists, coverage and the index follow. */
export interface Membership {
  /** Served documents' paths and served skills' ids (drafts too when the build includes them), sorted. */
  readonly documentPaths: readonly string[];
  readonly skillIds: readonly string[];
  /**
   * Each served document's id → its position in `documentPaths`, for coverage and the index to look topics' ids
   * up in: a binary search for the id's path (`knowledge/documents/<id>.md`, the one path whose id it is), not a
   * map of its own (on XL, 100,000 entries held 3.5 MB; the lookups cost about what the map's did).
   */
  readonly documentIds: DocumentPositions;
}

/** Where a served document's id is in the sorted served paths. */
export interface DocumentPositions {
  get(id: string): number | undefined;
}

/** The positions of `documentPaths` (sorted by `compare`) by id. */
export function buildDocumentPositions(documentPaths: readonly string[]): DocumentPositions {
  return { get: (id) => findPosition(documentPaths, `${DOCUMENTS_DIR}${id}.md`) };
}

export const NO_MEMBERSHIP: Membership = {
  documentPaths: [],
  skillIds: [],
  documentIds: buildDocumentPositions([]),
};

export function buildMembership(
  documentUnits: ReadonlyMap<string, DocumentUnit>,
  skillUnits: ReadonlyMap<string, SkillUnit>,
  servesSkill: (skill: ParsedSkill | undefined) => skill is ParsedSkill,
): Membership {
  const documentPaths: string[] = [];
  for (const [path, unit] of documentUnits) if (unit.document) documentPaths.push(path);
  documentPaths.sort(compare);
  const skillIds: string[] = [];
  for (const [id, unit] of skillUnits) if (servesSkill(unit.skill)) skillIds.push(id);
  return {
    documentPaths,
    skillIds: skillIds.sort(compare),
    documentIds: buildDocumentPositions(documentPaths),
  };
}

/** The lists of a new membership, from every served unit's entry. */
export function buildLists(
  membership: Membership,
  documentUnits: ReadonlyMap<string, DocumentUnit>,
  skillUnits: ReadonlyMap<string, SkillUnit>,
): ServedLists {
  const { documentPaths, skillIds } = membership;
  const served = documentPaths.map((p) => documentUnits.get(p)!);
  const servedSkills = skillIds.map((id) => skillUnits.get(id)!);
  return {
    documentPaths,
    skillIds,
    documents: served.map((unit) => unit.entry!),
    documentResources: served.map((unit) => unit.resource!),
    skills: servedSkills.map((unit) => unit.entry!),
    skillResources: servedSkills.map((unit) => unit.resource!),
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
    const at = findPosition(lists.documentPaths, path);
    if (unit?.document === undefined || at === undefined) continue;
    documents[at] = unit.entry!;
    documentResources[at] = unit.resource!;
  }
  const skills = lists.skills.slice();
  const skillResources = lists.skillResources.slice();
  for (const id of touchedSkills) {
    const unit = skillUnits.get(id);
    const at = findPosition(lists.skillIds, id);
    if (unit?.entry === undefined || at === undefined) continue;
    skills[at] = unit.entry;
    skillResources[at] = unit.resource!;
  }
  return { ...lists, documents, documentResources, skills, skillResources };
}

/**
 * Where `key` is in `sorted` (code-point order, no repeats), or undefined: a binary search, so no map of every
 * position is built with each membership (two of them, 100,000 entries on XL) for the few keys an edit touches.
 */
export function findPosition(sorted: readonly string[], key: string): number | undefined {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const order = compare(sorted[middle]!, key);
    if (order === 0) return middle;
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}
