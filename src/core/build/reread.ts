/**
 * Reading units again, with the bookkeeping that keeps a build incremental: each touched document or skill
 * directory is read (`units.ts`), its entries derived (`entries.ts`), its served content and last good version
 * replaced, its own findings kept; and what changed about it — its presence, what it serves, its index fields —
 * is noted in `Changes`, so that the phases after this one redo only what it reaches.
 */
import { releaseHeldTexts } from '../content.js';
import { compare, type Diagnostic } from '../diagnostics.js';
import { checkDocumentFields } from '../document-fields.js';
import { buildDocumentId, type ParsedDocument } from '../documents.js';
import { lintSkill, lintUnservedMarkdown } from '../lint/index.js';
import type { Memo } from '../memo.js';
import { SKILL_BODY, SKILLS_DIR } from '../names.js';
import type { PersistentMapEditor } from '../persistent-map.js';
import type { FileProblem, HeldItem, ServedContent, SourceFile } from '../types.js';
import type { Classified } from './classify.js';
import { deriveDocument, otherFilesOf } from './entries.js';
import type { Frame } from './frame.js';
import { documentTime, type Newest, noteInput, skillTime } from './index-json.js';
import { keepsLastGoodApart } from './last-good.js';
import { type CheckKey, setFindings } from './links.js';
import { documentPresence, presenceOfDocument, skillPresence } from './presence.js';
import { DocumentUnits, readDocumentUnit, readSkillUnit, type SkillUnit, type UnitContext } from './units.js';

/** Every unit a build holds, and what they found; a full derive starts a new one. */
export interface UnitStore {
  readonly documents: DocumentUnits;
  readonly skills: Map<string, SkillUnit>;
  /** What reading each document (`d:<path>`) and skill (`s:<id>`) found. Only non-empty ones are kept. */
  readonly readFindings: Map<CheckKey, readonly Diagnostic[]>;
  /** Held documents (`d:<path>`) and skills (`s:<id>`). */
  readonly held: Map<CheckKey, HeldItem>;
  /** The newest mtime among served documents and skill bodies (the index's `lastModified`). */
  newest: Newest;
}

export function createUnitStore(): UnitStore {
  return {
    documents: new DocumentUnits(),
    skills: new Map(),
    readFindings: new Map(),
    held: new Map(),
    newest: { mtimeMs: 0, stale: true },
  };
}

/** What re-reading the touched units changed, for the phases after them to know what to redo. */
export interface Changes {
  coverage: boolean;
  list: boolean;
  index: boolean;
  skills: boolean;
  /**
   * Owners (`d:<id>`, `s:<id>`) that appeared or vanished: the groups mentioning them are checked again. Not
   * noted on a full derive, where no group has been checked yet, so none mentions anyone (and every one is).
   */
  readonly owners: Set<string>;
  readonly recheck: Set<CheckKey>;
}

export interface RereadInput {
  readonly touched: Classified;
  readonly context: UnitContext;
  /** The last snapshot's problems: presence before the change is judged by them. */
  readonly previousProblems: ReadonlyMap<string, FileProblem>;
  /** A full derive: every unit was absent before. */
  readonly full: boolean;
  readonly good: PersistentMapEditor<SourceFile>;
  readonly editor: PersistentMapEditor<ServedContent>;
  readonly memo: Memo;
}

/**
 * The entries of `map` in code-point order of their keys: the map itself when they already are (a full derive's
 * paths come in order), so its 100,000 entries on XL are neither copied nor looked up again.
 */
function inKeyOrder<V>(map: ReadonlyMap<string, V>): Iterable<[string, V]> {
  let previous: string | undefined;
  for (const key of map.keys()) {
    if (previous !== undefined && compare(previous, key) > 0)
      return [...map].sort(([a], [b]) => compare(a, b));
    previous = key;
  }
  return map;
}

/** Re-reads the touched documents; notes what others depend on (presence, index fields). */
export function rereadDocuments(units: UnitStore, input: RereadInput, changes: Changes): void {
  const { touched, context, previousProblems, full, good, editor, memo } = input;
  const { documents: documentUnits, held: heldUnits, readFindings } = units;
  for (const [path, file] of inKeyOrder(touched.documents)) {
    const id = buildDocumentId(path)!;
    // One key string for every table below: each template would be a new string to flatten and hash.
    const key: CheckKey = `d:${path}`;
    const before = full ? undefined : documentUnits.get(path);
    const presenceBefore = full ? 'absent' : documentPresence(documentUnits, path, previousProblems);
    // A full derive starts from empty tables: nothing of this document to drop.
    if (!full) {
      if (before?.content) editor.delete(before.content.uri);
      good.delete(path);
      heldUnits.delete(key);
    }
    const unit = readDocumentUnit(id, path, file, context);
    if (unit === undefined) documentUnits.delete(path);
    else {
      if (unit.held) heldUnits.set(key, unit.held);
      if (unit.document) {
        deriveDocument(memo, unit, unit.document, context.frame);
        editor.set(unit.content!.uri, unit.content!);
        // Its last good file is read through its content (`LastGood`), unless the content serves another.
        if (keepsLastGoodApart(unit.content!, unit.file)) good.set(path, unit.file);
      }
      // Set once derived: a derived unit is kept as its entry (`DocumentUnits`).
      documentUnits.set(path, unit);
    }
    // The unit just set (or deleted): no lookup of it again in a table of every document.
    const after = unit;
    const found =
      after && !after.document
        ? [...after.readDiagnostics, ...lintUnservedMarkdown(path, after.file.bytes, memo)]
        : after?.readDiagnostics;
    if (!full || (found !== undefined && found.length > 0)) setFindings(readFindings, key, found);
    noteInput(units.newest, before && documentTime(before), after && documentTime(after));
    const presenceAfter = presenceOfDocument(after, path, context.availability.problems);
    if (presenceBefore !== presenceAfter) changes.coverage = true;
    if (!full && (presenceBefore === 'absent') !== (presenceAfter === 'absent'))
      changes.owners.add(`d:${id}`);
    if ((presenceBefore === 'published') !== (presenceAfter === 'published')) changes.list = true;
    else if (
      before?.document &&
      after?.document &&
      !sameIndexedDocument(before.document, after.document, context.frame.documentFields, memo)
    ) {
      changes.index = true;
    }
    // A full derive checks the links of every document itself (`checkEveryDocument`).
    if (!full) changes.recheck.add(key);
    // Its texts are done with: the phases after this one read what the unit kept, or decode again.
    releaseHeldTexts(memo);
  }
}

/**
 * The link checks of a full derive's documents: each served one that mentions a URI, in path order, as a
 * recheck of every document would (most mention none: 88,000 of XL's 100,000, each a key to hash in a set of
 * all of them, and a full derive has no findings of theirs to forget).
 */
export function checkEveryDocument(units: UnitStore, check: (key: CheckKey) => void): void {
  for (const [path, unit] of units.documents) if (unit.document?.uriLines.length) check(`d:${path}`);
}

/** Re-reads the touched skill directories, the same way. */
export function rereadSkills(units: UnitStore, input: RereadInput, changes: Changes): void {
  const { touched, context, previousProblems, full, good, editor } = input;
  const { skills: skillUnits, held: heldUnits, readFindings } = units;
  const { servesSkill, servedPresence } = context;
  const { base, checkConfig } = context.frame;
  for (const id of [...touched.skills].sort(compare)) {
    const before = skillUnits.get(id);
    const presenceBefore = full ? 'absent' : skillPresence(skillUnits, id, previousProblems);
    const files = new Map(before?.files);
    for (const [path, file] of touched.skillFiles.get(id) ?? []) {
      if (file === undefined) files.delete(path);
      else files.set(path, file);
    }
    if (before?.entry) for (const file of before.entry.files) editor.delete(file.uri);
    for (const path of before?.servedPaths ?? []) good.delete(path);
    heldUnits.delete(`s:${id}`);
    const unit = readSkillUnit(id, files, context);
    if (unit === undefined) skillUnits.delete(id);
    else {
      skillUnits.set(id, unit);
      if (unit.held) heldUnits.set(`s:${id}`, unit.held);
      unit.servedPaths.forEach((path, i) => {
        good.set(path, unit.servedFiles[i]!);
      });
    }
    const after = skillUnits.get(id);
    setFindings(
      readFindings,
      `s:${id}`,
      // Drafts are linted once published, as their links are; a skill that is not served, by its text alone.
      after?.skill
        ? !servesSkill(after.skill)
          ? after.readDiagnostics
          : [...after.readDiagnostics, ...lintSkill(after.skill, base, checkConfig.rules, input.memo)]
        : after && [...after.readDiagnostics, ...lintUnservedSkill(id, after.files, input.memo)],
    );
    noteInput(units.newest, before && skillTime(before, servesSkill), after && skillTime(after, servesSkill));
    const presenceAfter = skillPresence(skillUnits, id, context.availability.problems);
    changes.skills = true;
    if (presenceBefore !== presenceAfter) changes.coverage = true;
    if (servedPresence(presenceBefore) !== servedPresence(presenceAfter)) changes.list = true;
    // What the skill serves decides which URIs into it resolve and what base.md's links reach.
    const filesBefore = before?.entry?.files.map((file) => file.path).join('\n');
    const filesAfter = after?.skill
      ? [SKILL_BODY, ...otherFilesOf(after.skill, base).map(([path]) => path)].join('\n')
      : undefined;
    if (presenceBefore !== presenceAfter || filesBefore !== filesAfter) {
      if (!full) changes.owners.add(`s:${id}`);
      changes.recheck.add('b');
      changes.index = true;
    }
    if (before?.skill?.title !== after?.skill?.title) changes.index = true;
    changes.recheck.add(`s:${id}`);
    releaseHeldTexts(input.memo);
  }
}

/** Whether two versions of a document give the same index entry: id, title, scope and declared fields. */
function sameIndexedDocument(
  a: ParsedDocument,
  b: ParsedDocument,
  declared: Frame['documentFields'],
  memo: Memo,
): boolean {
  if (a.id !== b.id || a.title !== b.title || a.scope !== b.scope) return false;
  const x = checkDocumentFields(a, declared, memo).fields;
  const y = checkDocumentFields(b, declared, memo).fields;
  return x === y || JSON.stringify(x) === JSON.stringify(y);
}

/** The text-only lint findings of the SKILL.md of a skill that is not served. */
function lintUnservedSkill(
  id: string,
  files: ReadonlyMap<string, SourceFile>,
  memo: Memo,
): readonly Diagnostic[] {
  const body = files.get(SKILL_BODY);
  return body ? lintUnservedMarkdown(`${SKILLS_DIR}${id}/${SKILL_BODY}`, body.bytes, memo) : [];
}
