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
import { releaseFileTexts } from '../content.js';
import type { Diagnostic } from '../diagnostics.js';
import type { Directive } from '../lint/index.js';
import type { Memo } from '../memo.js';
import { BASE_FILE, PROMPTS_DIR, SCOPE_FILE } from '../names.js';
import { type KeyForm, PersistentMap, type PersistentMapEditor } from '../persistent-map.js';
import { createPromptBuilder } from '../prompt-catalog.js';
import type { ParsedSkill } from '../skills.js';
import type {
  BuildOptions,
  BuildResult,
  PromptEntry,
  ServedContent,
  Snapshot,
  SourceFile,
} from '../types.js';
import { buildIndexUri } from '../uris.js';
import { assembleResult } from './assemble.js';
import { type Availability, createAvailability } from './availability.js';
import { classifyPaths, pathsToDerive, reachesFrame } from './classify.js';
import { type CoverageFindings, checkCoverage } from './coverage-check.js';
import { DRAFT_SENTENCE, deriveSkill } from './entries.js';
import { type Frame, readFrame } from './frame.js';
import { buildIndexContent, type IndexFacts, measureIndex } from './index-content.js';
import { documentTime, type IndexInput, noteInput, skillTime } from './index-json.js';
import { LastGood } from './last-good.js';
import { createLinkChecks, createUriJudge } from './links.js';
import type { Presence } from './presence.js';
import {
  type Changes,
  checkEveryDocument,
  createUnitStore,
  rereadDocuments,
  rereadSkills,
} from './reread.js';
import {
  buildLists,
  buildMembership,
  type Membership,
  NO_LISTS,
  NO_MEMBERSHIP,
  patchLists,
  type ServedLists,
} from './served-lists.js';
import { checkSkillSet, descriptionBudgetOf, type SkillSetFindings } from './skill-set.js';
import { buildContentsForm } from './text-backed-content.js';
import type { UnitContext } from './units.js';

export interface Engine {
  /** The result for `snapshot`; `changed` undefined derives everything, else only what those paths reach. */
  derive(snapshot: Snapshot, changed: ReadonlySet<string> | undefined): BuildResult;
}

/** `memo` is the builder's, shared by every engine it creates: a full build after an edit reuses it. */
export function createEngine(options: BuildOptions, memo: Memo): Engine {
  const includeDrafts = options.includeDrafts === true;
  /** No incremental derive follows (`BuildOptions.once`): what only one would read is not kept. */
  const once = options.once === true;
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
  let units = createUnitStore();
  const links = createLinkChecks(!once);
  const prompts = createPromptBuilder(memo);

  // Derived across units; recomputed only when what they read changed.
  let coverage: CoverageFindings = { diagnostics: [], skillScopes: new Map() };
  let skillSet: SkillSetFindings = { budget: [], duplicates: [] };
  let membership: Membership = NO_MEMBERSHIP;
  let lists: ServedLists = NO_LISTS;
  let contents = PersistentMap.empty<ServedContent>();
  let contentsForm: { readonly prefix: string; readonly form: KeyForm<ServedContent> } | undefined;
  /**
   * The index text's size and digest only: a read builds the text again from the lists (on XL it is 31.5 MB,
   * held for the catalog's life before).
   */
  let index: IndexFacts | undefined;
  let promptEntries: readonly PromptEntry[] = [];
  let promptDiagnostics: readonly Diagnostic[] = [];
  /** Last good files kept apart from the contents (every one but a served document's: see `LastGood`). */
  let lastGood = PersistentMap.empty<SourceFile>();

  function reset(): void {
    strays.clear();
    directives.clear();
    units = createUnitStore();
    links.clear();
    membership = NO_MEMBERSHIP;
    lists = NO_LISTS;
    // A document's content is kept under its file's path, not a URI string of its own (`buildContentsForm`); the
    // same form while the scheme is, so the next diff compares the two versions chunk by chunk.
    const prefix = frame!.prefixes.document;
    if (contentsForm?.prefix !== prefix) contentsForm = { prefix, form: buildContentsForm(prefix) };
    contents = PersistentMap.empty(contentsForm.form);
    lastGood = PersistentMap.empty();
    prompts.reset();
  }

  function derive(snapshot: Snapshot, changed: ReadonlySet<string> | undefined): BuildResult {
    try {
      return deriveHolding(snapshot, changed);
    } finally {
      // No text read during the build, nor its `FileText`, stays held past it (see `FileText`).
      releaseFileTexts(memo);
    }
  }

  function deriveHolding(snapshot: Snapshot, changed: ReadonlySet<string> | undefined): BuildResult {
    const full = frame === undefined || reachesFrame(changed);
    const previousProblems = availability.problems;
    availability = createAvailability(snapshot.problems);
    fallback = snapshot.lastGood ?? new Map();
    if (full) {
      frame = readFrame({ snapshot, availability, fallback, options, memo });
      reset();
    }
    const f = frame!;
    const context: UnitContext = { frame: f, availability, fallback, servesSkill, servedPresence, memo };
    const { documents: documentUnits, skills: skillUnits } = units;

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
    const touched = classifyPaths(paths, snapshot.files, availability.problems, memo);
    // What each classified path carried before goes (a full derive started from empty tables); what it carries
    // now comes back, in the paths' order as before.
    if (!full) {
      for (const path of paths) {
        strays.delete(path);
        directives.delete(path);
      }
    }
    for (const [path, found] of touched.strays) strays.set(path, found);
    for (const [path, written] of touched.directives) directives.set(path, written);

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
    const good = once ? DISCARD : lastGood.edit();
    const editor = contents.edit();
    const reread = { touched, context, previousProblems, full, good, editor, memo };
    rereadDocuments(units, reread, changes);
    rereadSkills(units, reread, changes);

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
        servedDocumentIds: membership.documentIds,
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
      : patchLists(lists, touched.documents.keys(), touched.skills, documentUnits, skillUnits);

    // Links: the touched units, and every group mentioning a document or skill that appeared or vanished.
    for (const owner of changes.owners) for (const key of links.mentioning(owner)) changes.recheck.add(key);
    // A full derive touched every skill, and reading each noted it already; base.md's group too.
    if (full) changes.recheck.add('b');
    const linkContext = {
      frame: f,
      documentUnits,
      skillUnits,
      servesSkill,
      skills: lists.skills,
      judgeUri: createUriJudge(editor, f, documentUnits, skillUnits, availability.problems),
      memo,
    };
    if (full) checkEveryDocument(units, (key) => links.check(key, linkContext));
    for (const key of changes.recheck) links.check(key, linkContext);

    // The listing budget hosts keep for all skill names and descriptions together, and shared descriptions.
    if (changes.skills || changes.list) {
      skillSet = checkSkillSet(
        lists.skillIds.map((id) => skillUnits.get(id)!.skill!),
        descriptionBudgetOf(options.descriptionBudget, f.scope?.descriptionBudget),
        memo,
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
    const indexInput: IndexInput = {
      server: f.server,
      scheme: f.scheme,
      coverage: f.coverage,
      documents: lists.documents,
      documentIds: membership.documentIds,
      skills: lists.skills,
      prompts: promptEntries,
    };
    // Otherwise the text is the one measured before (`changes.index`): the facts stay, over the current lists.
    if (changes.index || index === undefined) index = measureIndex(indexInput, once ? 'asked' : 'now');
    const { newest } = units;
    if (newest.stale) {
      newest.stale = false;
      newest.mtimeMs = 0;
      for (const unit of documentUnits.values()) noteInput(newest, undefined, documentTime(unit));
      for (const unit of skillUnits.values()) noteInput(newest, undefined, skillTime(unit, servesSkill));
    }
    const inputsModified = Math.max(0, f.scopeFile?.mtimeMs ?? 0, f.base?.mtimeMs ?? 0, newest.mtimeMs);
    const indexContent = buildIndexContent(indexUri, indexInput, index, inputsModified);
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
      unitFindings: [units.readFindings, prompts.readFindings(), links.findings],
      directives,
      index: indexContent,
      documentResources: lists.documentResources,
      skillResources: lists.skillResources,
      contents,
      documents: lists.documents,
      skills: lists.skills,
      prompts: promptEntries,
      held: [...units.held.values(), ...prompts.held().values()],
      // A build no other follows keeps none (`DISCARD`): not even the documents' read through the contents.
      lastGood: once ? lastGood : new LastGood(contents, lastGood, f.prefixes.document),
    });
  }

  return { derive };
}

/**
 * The last-good editor of a build no other build follows: it keeps nothing (on L, 14,000 sets into a persistent
 * map that no one reads), and `done` answers the empty map.
 */
const DISCARD: PersistentMapEditor<SourceFile> = {
  get: () => undefined,
  set: () => {},
  delete: () => {},
  done: () => EMPTY_GOOD,
};
const EMPTY_GOOD = PersistentMap.empty<SourceFile>();
