/**
 * The incremental engine: it owns every piece of per-file state a builder keeps between snapshots (the units,
 * their findings, who mentions whom, the served lists, the last good versions) and runs the phases in order,
 * each only when what it reads changed:
 *
 *   classify paths → read units → coverage → derive entries → served lists → links → skill set → prompts
 *   → index → assemble
 *
 * The frame (the scope file, base.md and the options) is read again on a full derive, which also starts every
 * other piece of state over. The domain rules live in the phase modules beside this one; here is only what to
 * redo when something changed.
 */
import { encodeUtf8 } from '../content.js';
import { compare, type Diagnostic } from '../diagnostics.js';
import { checkDocumentFields } from '../document-fields.js';
import { buildDocumentId, type ParsedDocument } from '../documents.js';
import { type Directive, lintSkill, lintUnservedMarkdown } from '../lint/index.js';
import { BASE_FILE, PROMPTS_DIR, SCOPE_FILE, SKILL_BODY, SKILLS_DIR } from '../names.js';
import { PersistentMap, type PersistentMapEditor } from '../persistent-map.js';
import { createPromptBuilder } from '../prompt-catalog.js';
import type { ParsedSkill } from '../skills.js';
import type {
  BuildOptions,
  BuildResult,
  HeldItem,
  PromptEntry,
  ServedContent,
  Snapshot,
  SourceFile,
} from '../types.js';
import { buildIndexUri } from '../uris.js';
import { assembleResult } from './assemble.js';
import { type Availability, createAvailability } from './availability.js';
import { type Classified, classifyPaths, pathsToDerive, reachesFrame } from './classify.js';
import { type CoverageFindings, checkCoverage } from './coverage-check.js';
import {
  DRAFT_SENTENCE,
  deriveDocument,
  deriveSkill,
  type EntryMemo,
  otherFilesOf,
  serve,
} from './entries.js';
import { type Frame, readFrame } from './frame.js';
import { buildIndexText, documentTime, type Newest, noteInput, skillTime } from './index-json.js';
import { type CheckKey, createLinkChecks, createServedCheck, setFindings } from './links.js';
import { documentPresence, type Presence, skillPresence } from './presence.js';
import { buildLists, buildMembership, NO_LISTS, patchLists, type ServedLists } from './served-lists.js';
import { checkSkillSet, descriptionBudgetOf, type SkillSetFindings } from './skill-set.js';
import {
  type DocumentUnit,
  readDocumentUnit,
  readSkillUnit,
  type SkillUnit,
  type UnitContext,
} from './units.js';

export interface Engine {
  /** The result for `snapshot`; `changed` undefined derives everything, else only what those paths reach. */
  derive(snapshot: Snapshot, changed: ReadonlySet<string> | undefined): BuildResult;
}

/** What re-reading the touched units changed, for the phases after them to know what to redo. */
interface Changes {
  coverage: boolean;
  list: boolean;
  index: boolean;
  skills: boolean;
  /** Owners (`d:<id>`, `s:<id>`) that appeared or vanished: the groups mentioning them are checked again. */
  readonly owners: Set<string>;
  readonly recheck: Set<CheckKey>;
}

/** `memo` is the builder's, shared by every engine it creates: a full build after an edit reuses it. */
export function createEngine(options: BuildOptions, memo: EntryMemo): Engine {
  const includeDrafts = options.includeDrafts === true;
  const servesSkill = (skill: ParsedSkill | undefined): skill is ParsedSkill =>
    skill !== undefined && (!skill.draft || includeDrafts);
  const servedPresence = (presence: Presence): boolean =>
    presence === 'published' || (includeDrafts && presence === 'draft');

  // Set by each derive (the frame by a full one).
  let frame: Frame | undefined;
  let availability: Availability = createAvailability([]);
  let fallback: ReadonlyMap<string, SourceFile> = new Map();

  // Per file and per unit.
  const strays = new Map<string, Diagnostic>();
  /** Inline `companion-disable` directives, per file that has any. */
  const directives = new Map<string, readonly Directive[]>();
  const documentUnits = new Map<string, DocumentUnit>();
  const skillUnits = new Map<string, SkillUnit>();
  /** What reading each document (`d:<path>`) and skill (`s:<id>`) found. Only non-empty ones are kept. */
  const readFindings = new Map<CheckKey, readonly Diagnostic[]>();
  /** Held documents (`d:<path>`) and skills (`s:<id>`). */
  const heldUnits = new Map<CheckKey, HeldItem>();
  const links = createLinkChecks();
  const prompts = createPromptBuilder();

  // Derived across units; recomputed only when what they read changed.
  let newest: Newest = { mtimeMs: 0, stale: true };
  let coverage: CoverageFindings = { diagnostics: [], skillScopes: new Map() };
  let skillSet: SkillSetFindings = { budget: [], duplicates: [] };
  let membership: Pick<ServedLists, 'documentPaths' | 'skillIds'> = NO_LISTS;
  let lists: ServedLists = NO_LISTS;
  let contents = PersistentMap.empty<ServedContent>();
  let index: { readonly text: string; readonly bytes: Uint8Array } | undefined;
  let promptEntries: readonly PromptEntry[] = [];
  let promptDiagnostics: readonly Diagnostic[] = [];
  let lastGood = PersistentMap.empty<SourceFile>();

  function reset(): void {
    strays.clear();
    directives.clear();
    readFindings.clear();
    newest = { mtimeMs: 0, stale: true };
    documentUnits.clear();
    skillUnits.clear();
    links.clear();
    membership = NO_LISTS;
    lists = NO_LISTS;
    contents = PersistentMap.empty();
    heldUnits.clear();
    lastGood = PersistentMap.empty();
    prompts.reset();
  }

  function derive(snapshot: Snapshot, changed: ReadonlySet<string> | undefined): BuildResult {
    const full = reachesFrame(changed);
    const previousProblems = availability.problems;
    availability = createAvailability(snapshot.problems);
    fallback = snapshot.lastGood ?? new Map();
    if (full || frame === undefined) {
      frame = readFrame({ snapshot, availability, fallback, options });
      reset();
    }
    const f = frame;
    const context: UnitContext = { frame: f, availability, fallback, servesSkill };

    // Classify paths.
    const paths = pathsToDerive({
      snapshot,
      changed: full ? undefined : changed,
      availability,
      previousProblems,
      fallback,
      known: () => ({
        documentPaths: documentUnits.keys(),
        promptPaths: prompts.paths(),
        skillIds: skillUnits.keys(),
      }),
    });
    const touched = classifyPaths(paths, snapshot.files, availability.problems);
    for (const [path, found] of touched.strays) {
      strays.delete(path);
      if (found) strays.set(path, found);
    }
    for (const [path, written] of touched.directives) {
      if (written.length > 0) directives.set(path, written);
      else directives.delete(path);
    }

    // Read units: whether a path could be read decides which of the ids a topic names may merely be unknown.
    const changes: Changes = {
      coverage:
        full ||
        ((availability.anyUnavailable || previousProblems.size > 0) &&
          paths.some(
            (path) => availability.isUnavailable(path) || previousProblems.get(path)?.kind === 'unavailable',
          )),
      list: full,
      index: full,
      skills: full,
      owners: new Set(),
      recheck: new Set(),
    };
    const good = lastGood.edit();
    const editor = contents.edit();
    readDocuments(touched, snapshot, context, previousProblems, full, changes, good, editor);
    readSkills(touched, context, previousProblems, full, changes, good, editor);

    // Which documents and skills are served, rebuilt only when membership changed.
    if (changes.list) {
      membership = buildMembership(documentUnits, skillUnits, servesSkill);
      changes.index = true;
    }

    // Coverage in both directions, when a document or skill came, went, failed or turned draft.
    if (changes.coverage) {
      const before = coverage.skillScopes;
      coverage = checkCoverage({
        frame: f,
        availability,
        documentUnits,
        skillUnits,
        servedDocumentPaths: membership.documentPaths,
        servedSkillIds: membership.skillIds,
      });
      for (const id of membership.skillIds)
        if (before.get(id) !== coverage.skillScopes.get(id)) touched.skills.add(id);
      changes.index = true;
    }

    // Skill entries (their scope comes from coverage) and their served files.
    for (const id of touched.skills) {
      const unit = skillUnits.get(id);
      if (!servesSkill(unit?.skill)) continue;
      if (unit!.entry) for (const file of unit!.entry.files) editor.delete(file.uri);
      deriveSkill(memo, unit!, unit!.skill!, f, coverage.skillScopes.get(id), editor);
    }

    // Entry lists: copied and patched in place, or rebuilt when membership changed.
    lists = changes.list
      ? buildLists(membership, documentUnits, skillUnits)
      : patchLists(lists, touched.documents, touched.skills, documentUnits, skillUnits);

    // Links: the touched units, and every group mentioning a document or skill that appeared or vanished.
    for (const owner of changes.owners) for (const key of links.mentioning(owner)) changes.recheck.add(key);
    if (full) {
      for (const path of lists.documentPaths) changes.recheck.add(`d:${path}`);
      for (const id of lists.skillIds) changes.recheck.add(`s:${id}`);
      changes.recheck.add('b');
    }
    const isServed = createServedCheck(editor, f, documentUnits, skillUnits, availability.problems);
    const linkContext = { frame: f, documentUnits, skillUnits, servesSkill, skills: lists.skills, isServed };
    for (const key of changes.recheck) links.check(key, linkContext);

    // The listing budget hosts keep for all skill names and descriptions together, and shared descriptions.
    if (changes.skills || changes.list) {
      skillSet = checkSkillSet(
        lists.skillIds.map((id) => skillUnits.get(id)!.skill!),
        descriptionBudgetOf(options.descriptionBudget, f.scope?.descriptionBudget),
      );
    }

    // Prompts: the files, and the skills offered as prompts; assembled again when anything they read changed.
    for (const path of touched.prompts) {
      good.delete(path);
      const served = prompts.touch(
        path,
        snapshot.files.get(path),
        fallback.get(path),
        availability.unavailableAt(path),
      );
      if (served !== undefined) good.set(path, served);
    }
    if (full || touched.prompts.size > 0 || changes.skills || changes.list || changes.coverage) {
      const assembly = prompts.assemble({
        scope: f.scope,
        scopeFile: SCOPE_FILE,
        positionOf: f.positionOf,
        skills: lists.skills,
        documents: lists.documents,
        problemPaths: new Set(
          [...availability.problems.keys()].filter((path) => path.startsWith(PROMPTS_DIR)),
        ),
        draftPrefix: DRAFT_SENTENCE,
      });
      if (assembly.prompts !== promptEntries) changes.index = true;
      promptEntries = assembly.prompts;
      promptDiagnostics = assembly.diagnostics;
    }

    // The index, when a title, id, scope or membership changed; its mtime is the newest of its inputs.
    const indexUri = buildIndexUri(f.scheme);
    if (changes.index || index === undefined) {
      const text = buildIndexText({
        server: f.server,
        scheme: f.scheme,
        coverage: f.coverage,
        documents: lists.documents,
        skills: lists.skills,
        prompts: promptEntries,
      });
      index = index?.text === text ? index : { text, bytes: encodeUtf8(text) };
    }
    if (newest.stale) {
      newest = { mtimeMs: 0, stale: false };
      for (const unit of documentUnits.values()) noteInput(newest, undefined, documentTime(unit));
      for (const unit of skillUnits.values()) noteInput(newest, undefined, skillTime(unit, servesSkill));
    }
    const inputsModified = Math.max(0, f.scopeFile?.mtimeMs ?? 0, f.base?.mtimeMs ?? 0, newest.mtimeMs);
    const indexContent = serve(memo, indexUri, 'index.json', {
      path: SCOPE_FILE,
      bytes: index.bytes,
      mtimeMs: inputsModified,
    });
    editor.set(indexUri, indexContent);
    contents = editor.done();
    if (full) {
      if (f.scope && f.scopeFile) good.set(SCOPE_FILE, f.scopeFile);
      if (f.base) good.set(BASE_FILE, f.base);
    }
    lastGood = good.done();

    return assembleResult({
      snapshot,
      options,
      frame: f,
      availability,
      derived: [
        coverage.diagnostics,
        skillSet.budget,
        f.scopeLintDiagnostics,
        skillSet.duplicates,
        promptDiagnostics,
      ],
      strays: strays.values(),
      unitFindings: [readFindings, prompts.readFindings(), links.findings],
      directives,
      index: indexContent,
      documentResources: lists.documentResources,
      skillResources: lists.skillResources,
      contents,
      documents: lists.documents,
      skills: lists.skills,
      prompts: promptEntries,
      held: [...heldUnits.values(), ...prompts.held().values()],
      lastGood,
    });
  }

  /** Re-reads the touched documents; notes what others depend on (presence, index fields). */
  function readDocuments(
    touched: Classified,
    snapshot: Snapshot,
    context: UnitContext,
    previousProblems: Availability['problems'],
    full: boolean,
    changes: Changes,
    good: PersistentMapEditor<SourceFile>,
    editor: PersistentMapEditor<ServedContent>,
  ): void {
    for (const path of [...touched.documents].sort(compare)) {
      const id = buildDocumentId(path)!;
      const before = documentUnits.get(path);
      const presenceBefore = full ? 'absent' : documentPresence(documentUnits, path, previousProblems);
      if (before?.content) editor.delete(before.content.uri);
      good.delete(path);
      heldUnits.delete(`d:${path}`);
      const unit = readDocumentUnit(id, path, snapshot.files.get(path), context);
      if (unit === undefined) documentUnits.delete(path);
      else {
        documentUnits.set(path, unit);
        if (unit.held) heldUnits.set(`d:${path}`, unit.held);
        if (unit.document) {
          deriveDocument(memo, unit, unit.document, context.frame);
          editor.set(unit.content!.uri, unit.content!);
          good.set(path, unit.file);
        }
      }
      const after = documentUnits.get(path);
      setFindings(
        readFindings,
        `d:${path}`,
        after && !after.document
          ? [...after.readDiagnostics, ...lintUnservedMarkdown(path, after.file.bytes)]
          : after?.readDiagnostics,
      );
      noteInput(newest, before && documentTime(before), after && documentTime(after));
      const presenceAfter = documentPresence(documentUnits, path, availability.problems);
      if (presenceBefore !== presenceAfter) changes.coverage = true;
      if ((presenceBefore === 'absent') !== (presenceAfter === 'absent')) changes.owners.add(`d:${id}`);
      if ((presenceBefore === 'published') !== (presenceAfter === 'published')) changes.list = true;
      else if (
        before?.document &&
        after?.document &&
        !sameIndexedDocument(before.document, after.document, context.frame.documentFields)
      ) {
        changes.index = true;
      }
      changes.recheck.add(`d:${path}`);
    }
  }

  /** Re-reads the touched skill directories, the same way. */
  function readSkills(
    touched: Classified,
    context: UnitContext,
    previousProblems: Availability['problems'],
    full: boolean,
    changes: Changes,
    good: PersistentMapEditor<SourceFile>,
    editor: PersistentMapEditor<ServedContent>,
  ): void {
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
            : [...after.readDiagnostics, ...lintSkill(after.skill, base, checkConfig.rules)]
          : after && [...after.readDiagnostics, ...lintUnservedSkill(id, after.files)],
      );
      noteInput(newest, before && skillTime(before, servesSkill), after && skillTime(after, servesSkill));
      const presenceAfter = skillPresence(skillUnits, id, availability.problems);
      changes.skills = true;
      if (presenceBefore !== presenceAfter) changes.coverage = true;
      if (servedPresence(presenceBefore) !== servedPresence(presenceAfter)) changes.list = true;
      // What the skill serves decides which URIs into it resolve and what base.md's links reach.
      const filesBefore = before?.entry?.files.map((file) => file.path).join('\n');
      const filesAfter = after?.skill
        ? [SKILL_BODY, ...otherFilesOf(after.skill, base).map(([path]) => path)].join('\n')
        : undefined;
      if (presenceBefore !== presenceAfter || filesBefore !== filesAfter) {
        changes.owners.add(`s:${id}`);
        changes.recheck.add('b');
        changes.index = true;
      }
      if (before?.skill?.title !== after?.skill?.title) changes.index = true;
      changes.recheck.add(`s:${id}`);
    }
  }

  return { derive };
}

/** Whether two versions of a document give the same index entry: id, title, scope and declared fields. */
function sameIndexedDocument(
  a: ParsedDocument,
  b: ParsedDocument,
  declared: Frame['documentFields'],
): boolean {
  if (a.id !== b.id || a.title !== b.title || a.scope !== b.scope) return false;
  const x = checkDocumentFields(a, declared).fields;
  const y = checkDocumentFields(b, declared).fields;
  return x === y || JSON.stringify(x) === JSON.stringify(y);
}

/** The text-only lint findings of the SKILL.md of a skill that is not served. */
function lintUnservedSkill(id: string, files: ReadonlyMap<string, SourceFile>): readonly Diagnostic[] {
  const body = files.get(SKILL_BODY);
  return body ? lintUnservedMarkdown(`${SKILLS_DIR}${id}/${SKILL_BODY}`, body.bytes) : [];
}
