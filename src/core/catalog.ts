/**
 * `buildCatalog(snapshot, options) → { catalog, diagnostics }`: the one place where what the server serves is
 * derived from the files. Pure and deterministic — no fs, no clock, no SDK — so the same snapshot always gives
 * the same catalog, byte for byte, and every adapter (MCP, UI, check) reads the same answer.
 */
import { buildDigest, buildMimeType, decodeUtf8, encodeUtf8, formatTime, isTextual } from './content.js';
import { buildInstructions, buildOfferedCoverage, buildOfferedTools, fitInstructions } from './coverage.js';
import { codes, compare, type Diagnostic, diagnose, sortDiagnostics } from './diagnostics.js';
import { checkDocumentFields, type FieldDeclarations } from './document-fields.js';
import {
  buildDocumentId,
  DOCUMENTS_DIR,
  type DocumentRead,
  type ParsedDocument,
  readDocument,
} from './documents.js';
import { DEFAULT_DESCRIPTION_BUDGET, INSTRUCTIONS_BUDGET } from './limits.js';
import { resolveLink } from './links.js';
import {
  applyCheckConfig,
  type CheckConfig,
  checkConfigCodes,
  classifyLinkPath,
  DEFAULT_CHECK_CONFIG,
  type Directive,
  lintBase,
  lintRouting,
  lintScope,
  lintSkill,
  lintSkillSet,
  lintUnservedMarkdown,
  readDirectivesOf,
  readMarkdownFacts,
  resolveCheckConfig,
} from './lint/index.js';
import { findLinks, findSchemeUris, type MarkdownLine } from './markdown.js';
import { KNOWLEDGE_DIR } from './names.js';
import { PersistentMap, type PersistentMapEditor } from './persistent-map.js';
import { createPromptBuilder } from './prompt-catalog.js';
import { buildPromptName, PROMPTS_DIR } from './prompts.js';
import { readScope, SCOPE_FILE } from './scope.js';
import { DEFAULT_SCHEME, SCOPE_SCHEMA_FILE, type ServerScope } from './scope-schema.js';
import {
  BASE_FILE,
  BASE_PATH,
  DEFAULT_DRAFT_MARKER,
  type DraftMarker,
  type ParsedSkill,
  readSkill,
  SKILL_BODY,
  SKILLS_DIR,
} from './skills.js';
import type {
  BuildOptions,
  BuildResult,
  Catalog,
  Coverage,
  DocumentEntry,
  FileProblem,
  HeldItem,
  ListedResource,
  ManifestEntry,
  PromptEntry,
  ResourceTemplateEntry,
  ScopeDefinition,
  ServedContent,
  ServerIdentity,
  SkillEntry,
  SkillFile,
  Snapshot,
  SourceFile,
} from './types.js';
import {
  buildDocumentTemplate,
  buildDocumentUri,
  buildIndexUri,
  buildSkillFileTemplate,
  buildSkillFileUri,
  buildSkillUri,
} from './uris.js';

/** The order a picker sorts by; only the order carries meaning. */
export const PRIORITY = {
  index: 1,
  transfers: 0.8,
  local: 0.5,
  documentTemplate: 0.3,
  skillFileTemplate: 0.2,
} as const;

export { DEFAULT_DESCRIPTION_BUDGET, resolveLink };

/** The sentence in front of every skill's description: a skill is followed, not read (the scope file's
 * `skills.sentence` replaces it). */
export const SKILL_SENTENCE =
  'A workflow to follow while doing the task, not a page to read; the files it hands over are served beside it, one URI each.';

/** What a draft's description starts with, in a catalog built with `includeDrafts`. */
export const DRAFT_SENTENCE = 'Draft, served only by companion dev --drafts: not published yet.';

const NO_FIELDS: FieldDeclarations = {};

/**
 * Memos keyed by the identity of a file's bytes: the store hands an unchanged file to the next build as the same
 * `Uint8Array`, so a rebuild after one edit derives again only what that edit touched. Invisible to callers:
 * the result is the same with or without them.
 */
const servedMemo = new WeakMap<
  Uint8Array,
  { readonly uri: string; readonly path: string; readonly mtimeMs: number; readonly content: ServedContent }
>();
const documentMemo = new WeakMap<
  ParsedDocument,
  {
    readonly content: ServedContent;
    readonly sentence: string | undefined;
    readonly priority: number;
    readonly fields: Readonly<Record<string, unknown>>;
    readonly entry: DocumentEntry;
    readonly resource: ListedResource;
  }
>();

/** The paths of `files` in code-point order; the loader already hands them over sorted, so usually no sort. */
function sortedPaths(files: ReadonlyMap<string, SourceFile>): string[] {
  const paths = [...files.keys()];
  for (let i = 1; i < paths.length; i++) {
    if (compare(paths[i - 1]!, paths[i]!) > 0) return paths.sort(compare);
  }
  return paths;
}

/**
 * The lines of a Markdown file that a link check reads (those holding `](`, `]:` or `://`; the scans skip every
 * other line), from the one scan of the file the lint rules share; undefined when the bytes are not UTF-8.
 */
function readLinkLines(bytes: Uint8Array): readonly MarkdownLine[] | undefined {
  return readMarkdownFacts(bytes)?.linkLines;
}

const DEFAULT_SERVER: ServerIdentity = {
  name: 'companion',
  title: 'companion',
  version: '0.0.0',
  scheme: DEFAULT_SCHEME,
};
const KNOWN_KNOWLEDGE_FILES = new Set([SCOPE_FILE, `${KNOWLEDGE_DIR}${SCOPE_SCHEMA_FILE}`]);

/**
 * Builds everything the server serves from one snapshot, and every finding on the way. Never throws on
 * content: a file that cannot be served is left out and said why. A builder's `update` answers exactly this
 * for the same snapshot (test/core/catalog-builder.property.test.ts holds it to that).
 */
export function buildCatalog(snapshot: Snapshot, options: BuildOptions = {}): BuildResult {
  return createCatalogBuilder(options).build(snapshot);
}

/**
 * Derives catalogs one snapshot after another, keeping what each file derived so that the next snapshot costs
 * what changed, not what exists: an edit of one document on a corpus of 10,000 re-reads that document, replaces
 * its entries and re-checks the links that could have changed meaning, without walking the others.
 *
 * Pure like `buildCatalog` (no fs, no clock), but stateful: it remembers the last snapshot it was given.
 */
export interface CatalogBuilder {
  /** Everything from scratch; the same as `buildCatalog(snapshot, options)`. */
  build(snapshot: Snapshot): BuildResult;
  /**
   * The result for `snapshot`, which differs from the last snapshot given to this builder at most at
   * `changedPaths` (files or problems added, removed or replaced). Equal, value for value, to
   * `build(snapshot)`. Without a last snapshot (or after a call threw) it builds from scratch.
   */
  update(snapshot: Snapshot, changedPaths: Iterable<string>): BuildResult;
}

/** What one document file derived. */
interface DocumentUnit {
  /** The file served: the one on disk, or its last good version while held. */
  readonly file: SourceFile;
  readonly document?: ParsedDocument;
  /** The findings of the file on disk (not of the held version). */
  readonly readDiagnostics: readonly Diagnostic[];
  readonly held?: HeldItem;
  content?: ServedContent;
  entry?: DocumentEntry;
  resource?: ListedResource;
}

/** What one skill directory derived. */
interface SkillUnit {
  readonly id: string;
  /** Keyed by the path inside the skill directory; replaced, never mutated, so `readSkill`'s memo holds. */
  readonly files: ReadonlyMap<string, SourceFile>;
  /** Parsed from `files`, or while held from the last good version's files. */
  readonly skill?: ParsedSkill;
  /** The findings of the files on disk (not of the held version). */
  readonly readDiagnostics: readonly Diagnostic[];
  readonly held?: HeldItem;
  /** Root-relative paths of the version served (for `BuildResult.lastGood`); empty when none is. */
  readonly servedPaths: readonly string[];
  readonly servedFiles: readonly SourceFile[];
  entry?: SkillEntry;
  resource?: ListedResource;
}

/** Whether a document or skill exists, and in which state: what coverage and URI checks depend on. */
type Presence = 'absent' | 'failed' | 'draft' | 'published';

/** A document's presence: served, on disk but failed (a file that does not parse, a problem), or absent. */
function documentPresence(
  units: ReadonlyMap<string, DocumentUnit>,
  path: string,
  problems: ReadonlyMap<string, FileProblem>,
): Presence {
  const unit = units.get(path);
  if (unit?.document) return 'published';
  return unit || problems.has(path) ? 'failed' : 'absent';
}

/** A skill's presence; a problem anywhere below its directory puts it on disk. */
function skillPresence(
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

/** Where a link check's findings are kept: `d:<path>` for a document, `s:<id>` for a skill, `b` for the base. */
type CheckKey = string;

export function createCatalogBuilder(options: BuildOptions = {}): CatalogBuilder {
  let state: BuilderState | undefined;
  const run = (snapshot: Snapshot, changed: Iterable<string> | undefined): BuildResult => {
    const previous = state;
    state = undefined; // a call that throws leaves no half-updated state behind: the next one starts over
    const fresh = previous === undefined || changed === undefined;
    const next = fresh ? createState(options) : previous;
    const result = next.derive(snapshot, fresh ? undefined : new Set(changed));
    state = next;
    return result;
  };
  return {
    build: (snapshot) => run(snapshot, undefined),
    update: (snapshot, changedPaths) => run(snapshot, changedPaths),
  };
}

interface BuilderState {
  derive(snapshot: Snapshot, changed: ReadonlySet<string> | undefined): BuildResult;
}

function createState(options: BuildOptions): BuilderState {
  // Whole-snapshot facts, set by `reset`.
  let scopeFile: SourceFile | undefined;
  let scope: ServerScope | undefined;
  let scopeDiagnostics: Diagnostic[] = [];
  let positionOf: (path: readonly (string | number)[]) => { line: number; column: number } | undefined = () =>
    undefined;
  let server: ServerIdentity = DEFAULT_SERVER;
  let scheme = server.scheme;
  let scopesById = new Map<string, ScopeDefinition>();
  let base: SourceFile | undefined;
  let baseDiagnostics: Diagnostic[] = [];
  let instructionsDiagnostics: Diagnostic[] = [];
  let instructions = '';
  let coverage: Coverage = { purpose: '', scopes: [], topics: [], routing: [], notCovered: [] };
  let tools: readonly string[] = [];
  let templates: readonly ResourceTemplateEntry[] = buildTemplates(scheme);
  /** The scope file's `check` section, and what the lint rules found in the scope file. */
  let checkConfig: CheckConfig = DEFAULT_CHECK_CONFIG;
  let scopeLintDiagnostics: Diagnostic[] = [];
  /** Inline `companion-disable` directives, per file that has any. */
  const directives = new Map<string, readonly Directive[]>();
  // What the scope file says about content (set by `reset`).
  let documentFields: FieldDeclarations = NO_FIELDS;
  let draftMarker: DraftMarker = DEFAULT_DRAFT_MARKER;
  let skillSentence = SKILL_SENTENCE;
  const includeDrafts = options.includeDrafts === true;
  /** Whether a skill that parsed is served: published, or a draft when this build includes drafts. */
  const servesSkill = (skill: ParsedSkill | undefined): skill is ParsedSkill =>
    skill !== undefined && (!skill.draft || includeDrafts);
  const servedPresence = (presence: Presence): boolean =>
    presence === 'published' || (includeDrafts && presence === 'draft');

  // Per file and per skill.
  const strays = new Map<string, Diagnostic>();
  const documentUnits = new Map<string, DocumentUnit>();
  const skillUnits = new Map<string, SkillUnit>();
  /** What reading each document (`d:<path>`) and skill (`s:<id>`) found. Only non-empty ones are kept. */
  const readFindings = new Map<CheckKey, readonly Diagnostic[]>();
  /** The newest mtime among served documents and published skill bodies (the index's `lastModified`). */
  let newest = { mtimeMs: 0, stale: true };
  /** Findings of the link checks, per checked file group. Only non-empty ones are kept. */
  const linkFindings = new Map<CheckKey, readonly Diagnostic[]>();
  /** Which checked groups mention a URI owned by a document (`d:<id>`) or a skill (`s:<id>`). */
  const mentionedBy = new Map<string, Set<CheckKey>>();
  const mentionsOf = new Map<CheckKey, readonly string[]>();

  // Derived across units; recomputed only when what they read changed.
  let coverageDiagnostics: Diagnostic[] = [];
  let skillScopes = new Map<string, string>();
  let budgetDiagnostics: Diagnostic[] = [];
  let skillSetDiagnostics: Diagnostic[] = [];
  let servedDocumentPaths: string[] = [];
  /** Served skills: the published ones, and the drafts when `includeDrafts`. */
  let servedSkillIds: string[] = [];
  let documents: DocumentEntry[] = [];
  let documentResources: ListedResource[] = [];
  let documentPositions = new Map<string, number>();
  let skills: SkillEntry[] = [];
  let skillResources: ListedResource[] = [];
  let skillPositions = new Map<string, number>();
  let contents = PersistentMap.empty<ServedContent>();
  let index: { readonly text: string; readonly bytes: Uint8Array } | undefined;
  let problemsByPath = new Map<string, FileProblem>();
  const promptBuilder = createPromptBuilder();
  let prompts: readonly PromptEntry[] = [];
  let promptDiagnostics: readonly Diagnostic[] = [];

  // Last good versions: what the caller handed over, and what this build hands back (see Snapshot.lastGood).
  let fallback: ReadonlyMap<string, SourceFile> = new Map();
  let lastGood = PersistentMap.empty<SourceFile>();
  let heldScope: HeldItem | undefined;
  let heldBase: HeldItem | undefined;
  /** Held documents (`d:<path>`) and skills (`s:<id>`). */
  const heldUnits = new Map<CheckKey, HeldItem>();
  /** Whether any problem is `unavailable`: most snapshots have none, and then no lookup walks ancestors. */
  let anyUnavailable = false;
  /** The path, or a directory above it, could not be read just now: what is below is unknown, not gone. */
  const unavailableAt = (path: string): boolean => {
    if (!anyUnavailable) return false;
    for (let at = path.length; at > 0; at = path.lastIndexOf('/', at - 1)) {
      if (problemsByPath.get(path.slice(0, at))?.kind === 'unavailable') return true;
    }
    return false;
  };
  /** Something at or below a skill's directory (or above it) could not be read just now. */
  const skillUnavailable = (id: string): boolean => {
    if (!anyUnavailable) return false;
    const dir = `${SKILLS_DIR}${id}`;
    if (unavailableAt(dir)) return true;
    for (const [path, problem] of problemsByPath) {
      if (problem.kind === 'unavailable' && path.startsWith(`${dir}/`)) return true;
    }
    return false;
  };
  /** The files of a skill's last good version, keyed by the path inside its directory. */
  const fallbackSkillFiles = (id: string): Map<string, SourceFile> => {
    const prefix = `${SKILLS_DIR}${id}/`;
    const files = new Map<string, SourceFile>();
    for (const [path, file] of fallback)
      if (path.startsWith(prefix)) files.set(path.slice(prefix.length), file);
    return files;
  };

  /** Where URIs into documents and into skills start, for the current scheme (set by `reset`). */
  let prefixes = { document: `${scheme}://guides/`, skill: `${scheme}://skill/` };

  /** The owner of a URI whose servedness can change: a document or skill id, else undefined (fixed). */
  const ownerOf = (uri: string): string | undefined => {
    const { document, skill } = prefixes;
    if (uri.startsWith(document)) return `d:${uri.slice(document.length)}`;
    if (uri.startsWith(skill)) return `s:${uri.slice(skill.length).split('/')[0]!}`;
    return undefined;
  };

  function reset(snapshot: Snapshot): void {
    scopeFile = snapshot.files.get(SCOPE_FILE);
    const scopeText = scopeFile ? decodeUtf8(scopeFile.bytes) : undefined;
    scope = undefined;
    scopeDiagnostics = [];
    positionOf = () => undefined;
    if (scopeFile && scopeText === undefined) {
      scopeDiagnostics.push(diagnose(codes.invalidUtf8, { file: 'scope' }, { file: SCOPE_FILE }));
    } else if (!problemsByPath.has(SCOPE_FILE) && !unavailableAt(SCOPE_FILE)) {
      const read = readScope(scopeText);
      scopeDiagnostics.push(...read.diagnostics);
      scope = read.scope;
      positionOf = read.positionOf;
    }
    heldScope = undefined;
    const last = fallback.get(SCOPE_FILE);
    if (scope === undefined && last !== undefined && (scopeFile !== undefined || unavailableAt(SCOPE_FILE))) {
      // On disk but broken, or unreadable just now: hosts keep the last good scope, byte for byte.
      const read = readScope(decodeUtf8(last.bytes));
      if (read.scope) {
        scope = read.scope;
        positionOf = read.positionOf;
        heldScope = {
          kind: 'scope',
          id: SCOPE_FILE,
          path: SCOPE_FILE,
          reason: scopeFile === undefined ? 'unavailable' : 'invalid',
          modifiedMs: last.mtimeMs,
        };
        scopeFile = last;
      }
    }
    // The check configuration of the scope hosts are served (the last good one while the file on disk is broken).
    checkConfig = resolveCheckConfig(scope);
    server = scope?.server ?? DEFAULT_SERVER;
    scheme = server.scheme;
    scopesById = new Map(scope?.scopes.map((s) => [s.id, s]) ?? []);
    documentFields = scope?.documents?.fields ?? NO_FIELDS;
    draftMarker = scope?.skills?.draft ?? DEFAULT_DRAFT_MARKER;
    skillSentence = scope?.skills?.sentence ?? SKILL_SENTENCE;
    templates = buildTemplates(scheme);
    prefixes = { document: `${scheme}://guides/`, skill: `${scheme}://skill/` };

    base = snapshot.files.get(BASE_FILE);
    baseDiagnostics = [];
    heldBase = undefined;
    if (base && decodeUtf8(base.bytes) === undefined) {
      baseDiagnostics.push(diagnose(codes.invalidUtf8, { file: 'base' }, { file: BASE_FILE }));
      base = undefined;
    }
    // Lint findings are of the file on disk, never of a held version.
    if (base) baseDiagnostics.push(...lintBase(BASE_FILE, base.bytes, decodeUtf8(base.bytes)!));
    const lastBase = fallback.get(BASE_FILE);
    if (!base && lastBase && (snapshot.files.has(BASE_FILE) || unavailableAt(BASE_FILE))) {
      base = lastBase;
      heldBase = {
        kind: 'base',
        id: BASE_FILE,
        path: BASE_FILE,
        reason: snapshot.files.has(BASE_FILE) ? 'invalid' : 'unavailable',
        modifiedMs: lastBase.mtimeMs,
      };
    }

    // Coverage offered to this client and the instructions depend on the scope file alone.
    tools = buildOfferedTools(options.excludeTools ?? []);
    coverage = scope
      ? buildOfferedCoverage(scope, tools)
      : { purpose: '', scopes: [], topics: [], routing: [], notCovered: [] };
    // The budget is the author's to keep: a notice added at run time is fitted in, never reported as their error.
    instructions = scope ? buildInstructions(scope, tools) : '';
    instructionsDiagnostics = [];
    if (instructions.length > INSTRUCTIONS_BUDGET) {
      instructionsDiagnostics.push(
        diagnose(
          codes.instructionsOverBudget,
          { length: instructions.length },
          { file: SCOPE_FILE, ...positionOf(['instructions']) },
        ),
      );
      instructions = fitInstructions(instructions);
    }
    scopeLintDiagnostics =
      scope && scopeText !== undefined
        ? [
            ...checkConfigCodes(scope, SCOPE_FILE, positionOf),
            ...lintScope(scope, scopeText, positionOf, tools),
          ]
        : [];

    strays.clear();
    directives.clear();
    readFindings.clear();
    newest = { mtimeMs: 0, stale: true };
    documentUnits.clear();
    skillUnits.clear();
    linkFindings.clear();
    mentionedBy.clear();
    mentionsOf.clear();
    documentPositions = new Map();
    skillPositions = new Map();
    documents = [];
    documentResources = [];
    skills = [];
    skillResources = [];
    servedDocumentPaths = [];
    servedSkillIds = [];
    contents = PersistentMap.empty();
    heldUnits.clear();
    lastGood = PersistentMap.empty();
    promptBuilder.reset();
  }

  function derive(snapshot: Snapshot, changed: ReadonlySet<string> | undefined): BuildResult {
    // The scope file and base.md shape everything; so does a change above them (a directory that could not be
    // read just now, or can again), which decides whether they are held, missing or there.
    const full =
      changed === undefined ||
      changed.has(SCOPE_FILE) ||
      changed.has(BASE_FILE) ||
      changed.has(SCOPE_FILE.slice(0, SCOPE_FILE.indexOf('/'))) ||
      changed.has(BASE_FILE.slice(0, BASE_FILE.indexOf('/')));
    const previousProblems = problemsByPath;
    problemsByPath = new Map(snapshot.problems.map((p) => [p.path, p]));
    anyUnavailable = snapshot.problems.some((p) => p.kind === 'unavailable');
    fallback = snapshot.lastGood ?? new Map();
    if (full) reset(snapshot);
    const paths = full ? [...sortedPaths(snapshot.files), ...problemsByPath.keys()] : [...changed];
    // Below a directory that could not be read, only the last good versions say what is there.
    if (full && anyUnavailable) {
      for (const path of fallback.keys())
        if (!snapshot.files.has(path) && unavailableAt(path)) paths.push(path);
    }
    // A directory whose availability changed (it could not be read just now, or can again) changes everything
    // below it, named or not: a version held there because it could not be read may be gone now, or back.
    if (!full) {
      for (const dir of changed) {
        const was = previousProblems.get(dir)?.kind === 'unavailable';
        if (!was && problemsByPath.get(dir)?.kind !== 'unavailable') continue;
        const prefix = `${dir}/`;
        const below = new Set<string>();
        const collect = (keys: Iterable<string>): void => {
          for (const path of keys) if (path.startsWith(prefix) && !changed.has(path)) below.add(path);
        };
        collect(snapshot.files.keys());
        collect(fallback.keys());
        collect(documentUnits.keys());
        collect(promptBuilder.paths());
        for (const id of skillUnits.keys()) collect([`${SKILLS_DIR}${id}/${SKILL_BODY}`]);
        paths.push(...below);
      }
    }
    const good = lastGood.edit();

    // Sort the changed paths into documents, skill directories and strays.
    const touchedDocuments = new Set<string>();
    const touchedSkills = new Set<string>();
    const touchedPrompts = new Set<string>();
    const skillFileChanges = new Map<string, Map<string, SourceFile | undefined>>();
    for (const path of paths) {
      strays.delete(path);
      const file = snapshot.files.get(path);
      const written = file ? readDirectivesOf(path, file.bytes) : [];
      if (written.length > 0) directives.set(path, written);
      else directives.delete(path);
      if (path.startsWith(KNOWLEDGE_DIR)) {
        if (KNOWN_KNOWLEDGE_FILES.has(path)) continue;
        if (buildDocumentId(path) !== undefined) touchedDocuments.add(path);
        else if (file) {
          strays.set(path, diagnose(codes.strayFile, { path, area: 'knowledge' }, { file: path }));
        }
      } else if (path.startsWith(PROMPTS_DIR)) {
        if (buildPromptName(path) !== undefined) touchedPrompts.add(path);
        else if (file) {
          strays.set(path, diagnose(codes.strayFile, { path, area: 'prompts' }, { file: path }));
        }
      } else if (path.startsWith(SKILLS_DIR) && path !== BASE_FILE) {
        const rest = path.slice(SKILLS_DIR.length);
        const slash = rest.indexOf('/');
        if (slash === -1) {
          if (file) {
            strays.set(path, diagnose(codes.strayFile, { path, area: 'skills' }, { file: path }));
          }
          // A problem directly in skills/ still names a skill directory for coverage (see skillPresence).
          if (problemsByPath.has(path)) touchedSkills.add(rest);
          continue;
        }
        const id = rest.slice(0, slash);
        touchedSkills.add(id);
        const changes = skillFileChanges.get(id) ?? new Map<string, SourceFile | undefined>();
        skillFileChanges.set(id, changes);
        changes.set(rest.slice(slash + 1), file);
      }
    }

    // Documents: re-read the touched ones; note what others depend on (presence, index fields). Whether a path
    // could be read decides which of the ids a topic names may merely be unknown for now.
    let coverageChanged =
      full ||
      ((anyUnavailable || previousProblems.size > 0) &&
        paths.some(
          (path) =>
            problemsByPath.get(path)?.kind === 'unavailable' ||
            previousProblems.get(path)?.kind === 'unavailable',
        ));
    let listChanged = full;
    let indexChanged = full;
    const ownersChanged = new Set<string>();
    const recheck = new Set<CheckKey>();
    const editor = contents.edit();
    for (const path of [...touchedDocuments].sort(compare)) {
      const id = buildDocumentId(path)!;
      const before = documentUnits.get(path);
      const presenceBefore = full ? 'absent' : documentPresence(documentUnits, path, previousProblems);
      const file = snapshot.files.get(path);
      if (before?.content) editor.delete(before.content.uri);
      good.delete(path);
      heldUnits.delete(`d:${path}`);
      const unit = readDocumentUnit(id, path, file);
      if (unit === undefined) documentUnits.delete(path);
      else {
        documentUnits.set(path, unit);
        if (unit.held) heldUnits.set(`d:${path}`, unit.held);
        if (unit.document) {
          deriveDocument(unit, unit.document);
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
      noteInput(before && documentTime(before), after && documentTime(after));
      const presenceAfter = documentPresence(documentUnits, path, problemsByPath);
      if (presenceBefore !== presenceAfter) coverageChanged = true;
      if ((presenceBefore === 'absent') !== (presenceAfter === 'absent')) ownersChanged.add(`d:${id}`);
      if ((presenceBefore === 'published') !== (presenceAfter === 'published')) listChanged = true;
      else if (
        before?.document &&
        after?.document &&
        !sameIndexedDocument(before.document, after.document, documentFields)
      ) {
        indexChanged = true;
      }
      recheck.add(`d:${path}`);
    }

    // Skills: the same, per directory.
    let skillsChanged = full;
    for (const id of [...touchedSkills].sort(compare)) {
      const before = skillUnits.get(id);
      const presenceBefore = full ? 'absent' : skillPresence(skillUnits, id, previousProblems);
      const files = new Map(before?.files);
      for (const [path, file] of skillFileChanges.get(id) ?? []) {
        if (file === undefined) files.delete(path);
        else files.set(path, file);
      }
      if (before?.entry) for (const f of before.entry.files) editor.delete(f.uri);
      for (const path of before?.servedPaths ?? []) good.delete(path);
      heldUnits.delete(`s:${id}`);
      const unit = readSkillUnit(id, files);
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
      noteInput(before && skillTime(before, includeDrafts), after && skillTime(after, includeDrafts));
      const presenceAfter = skillPresence(skillUnits, id, problemsByPath);
      skillsChanged = true;
      if (presenceBefore !== presenceAfter) coverageChanged = true;
      if (servedPresence(presenceBefore) !== servedPresence(presenceAfter)) listChanged = true;
      // What the skill serves decides which URIs into it resolve and what base.md's links reach.
      const filesBefore = before?.entry?.files.map((f) => f.path).join('\n');
      const filesAfter = after?.skill
        ? [SKILL_BODY, ...otherFilesOf(after.skill, base).map(([p]) => p)].join('\n')
        : undefined;
      if (presenceBefore !== presenceAfter || filesBefore !== filesAfter) {
        ownersChanged.add(`s:${id}`);
        recheck.add('b');
        indexChanged = true;
      }
      if (before?.skill?.title !== after?.skill?.title) indexChanged = true;
      recheck.add(`s:${id}`);
    }

    // The ordered lists of what is served, rebuilt only when membership changed.
    if (listChanged) {
      servedDocumentPaths = [...documentUnits.keys()]
        .filter((p) => documentUnits.get(p)!.document)
        .sort(compare);
      servedSkillIds = [...skillUnits.keys()]
        .filter((id) => servesSkill(skillUnits.get(id)!.skill))
        .sort(compare);
      indexChanged = true;
    }

    // Coverage in both directions, when a document or skill came, went, failed or turned draft.
    if (coverageChanged) {
      const before = skillScopes;
      computeCoverage();
      for (const id of servedSkillIds) if (before.get(id) !== skillScopes.get(id)) touchedSkills.add(id);
      indexChanged = true;
    }

    // Skill entries (their scope comes from coverage) and their served files.
    for (const id of touchedSkills) {
      const unit = skillUnits.get(id);
      if (!servesSkill(unit?.skill)) continue;
      if (unit!.entry) for (const f of unit!.entry.files) editor.delete(f.uri);
      deriveSkill(unit!, unit!.skill!, editor);
    }

    // Entry arrays: copied and patched in place, or rebuilt when membership changed.
    if (listChanged) {
      documents = servedDocumentPaths.map((p) => documentUnits.get(p)!.entry!);
      documentResources = servedDocumentPaths.map((p) => documentUnits.get(p)!.resource!);
      documentPositions = new Map(servedDocumentPaths.map((p, i) => [p, i]));
      skills = servedSkillIds.map((id) => skillUnits.get(id)!.entry!);
      skillResources = servedSkillIds.map((id) => skillUnits.get(id)!.resource!);
      skillPositions = new Map(servedSkillIds.map((id, i) => [id, i]));
    } else {
      documents = documents.slice();
      documentResources = documentResources.slice();
      for (const path of touchedDocuments) {
        const unit = documentUnits.get(path);
        const at = documentPositions.get(path);
        if (unit?.document === undefined || at === undefined) continue;
        documents[at] = unit.entry!;
        documentResources[at] = unit.resource!;
      }
      skills = skills.slice();
      skillResources = skillResources.slice();
      for (const id of touchedSkills) {
        const unit = skillUnits.get(id);
        const at = skillPositions.get(id);
        if (unit?.entry === undefined || at === undefined) continue;
        skills[at] = unit.entry;
        skillResources[at] = unit.resource!;
      }
    }

    // Links: the touched files, and every file mentioning a document or skill that appeared or vanished.
    for (const owner of ownersChanged) for (const key of mentionedBy.get(owner) ?? []) recheck.add(key);
    if (full) {
      for (const path of servedDocumentPaths) recheck.add(`d:${path}`);
      for (const id of servedSkillIds) recheck.add(`s:${id}`);
      recheck.add('b');
    }
    const isServed = createServedCheck(editor);
    for (const key of recheck) checkLinksOf(key, isServed);

    // The listing budget hosts keep for all skill names and descriptions together.
    if (skillsChanged || listChanged) {
      budgetDiagnostics = checkBudget();
      // Across what hosts list: the published skills (a draft served by `dev --drafts` is not listed by them).
      skillSetDiagnostics = lintSkillSet(
        servedSkillIds.map((id) => skillUnits.get(id)!.skill!).filter((skill) => !skill.draft),
      );
    }

    // Prompts: the files, and the skills offered as prompts; assembled again when anything they read changed.
    for (const path of touchedPrompts) {
      good.delete(path);
      const served = promptBuilder.touch(
        path,
        snapshot.files.get(path),
        fallback.get(path),
        unavailableAt(path),
      );
      if (served !== undefined) good.set(path, served);
    }
    if (full || touchedPrompts.size > 0 || skillsChanged || listChanged || coverageChanged) {
      const assembly = promptBuilder.assemble({
        scope,
        scopeFile: SCOPE_FILE,
        positionOf,
        skills,
        documents,
        problemPaths: new Set([...problemsByPath.keys()].filter((path) => path.startsWith(PROMPTS_DIR))),
        draftPrefix: DRAFT_SENTENCE,
      });
      if (assembly.prompts !== prompts) indexChanged = true;
      prompts = assembly.prompts;
      promptDiagnostics = assembly.diagnostics;
    }

    // The index, when a title, id, scope or membership changed; its mtime is the newest of its inputs.
    const indexUri = buildIndexUri(scheme);
    if (indexChanged || index === undefined) {
      const text = buildIndexText();
      index = index?.text === text ? index : { text, bytes: encodeUtf8(text) };
    }
    if (newest.stale) {
      newest = { mtimeMs: 0, stale: false };
      for (const unit of documentUnits.values()) noteInput(undefined, documentTime(unit));
      for (const unit of skillUnits.values()) noteInput(undefined, skillTime(unit, includeDrafts));
    }
    const inputsModified = Math.max(0, scopeFile?.mtimeMs ?? 0, base?.mtimeMs ?? 0, newest.mtimeMs);
    const indexContent = serve(indexUri, 'index.json', {
      path: SCOPE_FILE,
      bytes: index.bytes,
      mtimeMs: inputsModified,
    });
    editor.set(indexUri, indexContent);
    contents = editor.done();
    if (full) {
      if (scope && scopeFile) good.set(SCOPE_FILE, scopeFile);
      if (base) good.set(BASE_FILE, base);
    }
    lastGood = good.done();

    const diagnostics: Diagnostic[] = [
      ...snapshot.problems.map(describeProblem),
      ...scopeDiagnostics,
      ...strays.values(),
      ...baseDiagnostics,
      ...instructionsDiagnostics,
      ...coverageDiagnostics,
      ...budgetDiagnostics,
      ...scopeLintDiagnostics,
      ...skillSetDiagnostics,
      ...promptDiagnostics,
    ];
    if (
      !snapshot.files.has(BASE_FILE) &&
      !problemsByPath.has(BASE_FILE) &&
      !unavailableAt(BASE_FILE) &&
      snapshot.files.size > 0
    ) {
      diagnostics.push(diagnose(codes.baseMissing, {}, { file: BASE_FILE }));
    }
    for (const findings of readFindings.values()) diagnostics.push(...findings);
    for (const findings of promptBuilder.readFindings().values()) diagnostics.push(...findings);
    for (const findings of linkFindings.values()) diagnostics.push(...findings);

    const indexResource: ListedResource = {
      uri: indexUri,
      name: `${server.name}-index`,
      title: `${server.title} index`,
      description:
        'What this server covers, for whom, which tool answers what, and every document and skill it serves with its URI. The one to read first.',
      mimeType: indexContent.mimeType,
      size: indexContent.size,
      annotations: withLastModified({ priority: PRIORITY.index }, indexContent.lastModified),
    };
    const catalog: Catalog = {
      server,
      instructions,
      coverage,
      tools,
      indexUri,
      resources: [indexResource, ...documentResources, ...skillResources],
      templates,
      contents,
      documents,
      skills,
      descriptionBudget: options.descriptionBudget ?? scope?.descriptionBudget ?? DEFAULT_DESCRIPTION_BUDGET,
      prompts,
    };
    const held: HeldItem[] = [];
    if (heldScope) held.push(heldScope);
    if (heldBase) held.push(heldBase);
    held.push(...heldUnits.values(), ...promptBuilder.held().values());
    const checked = applyCheckConfig(diagnostics, checkConfig, directives);
    return {
      catalog: options.notice ? withNotice(catalog, options.notice) : catalog,
      diagnostics: sortDiagnostics(checked.diagnostics),
      suppressed: sortDiagnostics(checked.suppressed),
      held: held.sort((a, b) => compare(a.path, b.path)),
      lastGood,
    };
  }

  /**
   * What a document path derives: the file on disk when it parses; else, while it is on disk (or could not be
   * read just now) and has a last good version, that version, held; else the broken file, served nowhere.
   * Undefined when there is nothing at the path (deleted, or kept out by a file problem).
   */
  /** A document file's read, the findings on its declared fields included: they are the file's own. */
  function readDocumentFile(file: SourceFile): DocumentRead {
    const read = readDocument(file);
    const fields = read.keys ? checkDocumentFields(read.keys, documentFields).diagnostics : [];
    return fields.length === 0 ? read : { ...read, diagnostics: [...read.diagnostics, ...fields] };
  }

  function readDocumentUnit(
    id: string,
    path: string,
    file: SourceFile | undefined,
  ): DocumentUnit | undefined {
    const unavailable = file === undefined && unavailableAt(path);
    if (file === undefined && !unavailable) return undefined;
    const read = file ? readDocumentFile(file) : undefined;
    if (file && read?.document) return { file, readDiagnostics: read.diagnostics, document: read.document };
    const last = fallback.get(path);
    const lastRead = last ? readDocument(last) : undefined;
    if (last && lastRead?.document) {
      return {
        file: last,
        readDiagnostics: read?.diagnostics ?? [],
        document: lastRead.document,
        held: {
          kind: 'document',
          id,
          path,
          reason: unavailable ? 'unavailable' : 'invalid',
          modifiedMs: last.mtimeMs,
        },
      };
    }
    return file && read ? { file, readDiagnostics: read.diagnostics } : undefined;
  }

  /**
   * What a skill directory derives, the same way: its files when they make a whole skill (one that parses,
   * every file read, none dropped as invalid UTF-8), else its last good version, whole — a skill's files never
   * mix two states —, else the broken skill, served nowhere. A draft is a good state: it is never held.
   */
  function readSkillUnit(id: string, files: ReadonlyMap<string, SourceFile>): SkillUnit | undefined {
    const unavailable = skillUnavailable(id);
    if (files.size === 0 && !unavailable) return undefined;
    const baseSize = base?.bytes.byteLength ?? 0;
    const prefix = `${SKILLS_DIR}${id}/`;
    const read = files.size > 0 ? readSkill(id, files, baseSize, draftMarker) : undefined;
    const whole =
      read?.skill !== undefined &&
      !unavailable &&
      !read.diagnostics.some((d) => d.code === codes.invalidUtf8.code);
    // A skill this build does not serve (a draft) has nothing to hold; one it serves, a draft included, is held.
    if (read?.skill && (whole || !servesSkill(read.skill))) {
      const served = servesSkill(read.skill) ? [...files] : [];
      return {
        id,
        files,
        skill: read.skill,
        readDiagnostics: read.diagnostics,
        servedPaths: served.map(([path]) => `${prefix}${path}`),
        servedFiles: served.map(([, file]) => file),
      };
    }
    const lastFiles = fallbackSkillFiles(id);
    const lastRead = lastFiles.size > 0 ? readSkill(id, lastFiles, baseSize, draftMarker) : undefined;
    if (lastRead?.skill && servesSkill(lastRead.skill)) {
      let modifiedMs = 0;
      for (const file of lastFiles.values()) modifiedMs = Math.max(modifiedMs, file.mtimeMs);
      return {
        id,
        files,
        skill: lastRead.skill,
        readDiagnostics: read?.diagnostics ?? [],
        held: {
          kind: 'skill',
          id,
          path: prefix,
          reason: unavailable ? 'unavailable' : 'invalid',
          modifiedMs,
        },
        servedPaths: [...lastFiles.keys()].map((path) => `${prefix}${path}`),
        servedFiles: [...lastFiles.values()],
      };
    }
    if (read === undefined) return undefined;
    // With nothing to hold, a skill that parses but lost a file (invalid UTF-8) is served without that file,
    // and one that does not parse is served nowhere; neither is a last good version.
    return {
      id,
      files,
      readDiagnostics: read.diagnostics,
      servedPaths: [],
      servedFiles: [],
      ...(read.skill === undefined ? {} : { skill: read.skill }),
    };
  }

  /**
   * Keeps `newest` current as one input's mtime goes from `before` to `after` (undefined: not an input); marks it
   * stale when the newest input got older or went, so it is recomputed from all of them.
   */
  function noteInput(before: number | undefined, after: number | undefined): void {
    if (newest.stale) return;
    if (before !== undefined && before >= newest.mtimeMs && (after === undefined || after < before)) {
      newest.stale = true;
    } else if (after !== undefined && after > newest.mtimeMs) newest.mtimeMs = after;
  }

  function priorityOf(scopeId: string | undefined): number {
    const definition = scopeId === undefined ? undefined : scopesById.get(scopeId);
    return definition?.transfers ? PRIORITY.transfers : PRIORITY.local;
  }

  function deriveDocument(unit: DocumentUnit, d: ParsedDocument): void {
    const uri = buildDocumentUri(scheme, d.id);
    const content = serve(uri, d.path, unit.file);
    const sentence = scopesById.get(d.scope)?.sentence;
    const priority = priorityOf(d.scope);
    const { fields } = checkDocumentFields(d, documentFields);
    unit.content = content;
    const previous = documentMemo.get(d);
    if (
      previous?.content === content &&
      previous.sentence === sentence &&
      previous.priority === priority &&
      previous.fields === fields
    ) {
      unit.entry = previous.entry;
      unit.resource = previous.resource;
      return;
    }
    const entry: DocumentEntry = {
      id: d.id,
      uri,
      path: d.path,
      title: d.title,
      scope: d.scope,
      description: d.description,
      ...(d.whenToUse === undefined ? {} : { whenToUse: d.whenToUse }),
      fields,
      body: d.body,
      sections: d.sections,
    };
    const resource: ListedResource = {
      uri,
      name: d.id,
      title: d.title,
      description: joinSentences(d.description, d.whenToUse, sentence),
      mimeType: content.mimeType,
      size: content.size,
      annotations: withLastModified({ priority }, content.lastModified),
    };
    documentMemo.set(d, { content, sentence, priority, fields, entry, resource });
    unit.entry = entry;
    unit.resource = resource;
  }

  function deriveSkill(unit: SkillUnit, s: ParsedSkill, editor: PersistentMapEditor<ServedContent>): void {
    const skillScope = skillScopes.get(s.id);
    const files: SkillFile[] = [];
    const manifest: ManifestEntry[] = [];
    const add = (path: string, source: SourceFile) => {
      const uri = buildSkillFileUri(scheme, s.id, path);
      const content = serve(uri, path, source);
      editor.set(uri, content);
      const file: SkillFile = { path, uri, source: source.path };
      files.push(source.mode === undefined ? file : { ...file, mode: source.mode });
      manifest.push({ uri, digest: content.digest, size: content.size });
      return content;
    };
    const body = add(SKILL_BODY, s.body);
    for (const [path, file] of otherFilesOf(s, base)) add(path, file);
    const uri = buildSkillUri(scheme, s.id);
    unit.entry = {
      id: s.id,
      uri,
      title: s.title,
      description: s.description,
      ...(skillScope === undefined ? {} : { scope: skillScope }),
      ...(s.draft ? { draft: true as const } : {}),
      frontmatter: s.frontmatter,
      body: s.bodyText,
      files,
      manifest,
    };
    const definition = skillScope === undefined ? undefined : scopesById.get(skillScope);
    unit.resource = {
      uri,
      name: s.id,
      title: s.title,
      description: joinSentences(
        s.draft ? DRAFT_SENTENCE : undefined,
        skillSentence,
        s.description,
        definition?.skillSentence ?? definition?.sentence,
      ),
      mimeType: body.mimeType,
      size: body.size,
      annotations: withLastModified({ priority: priorityOf(skillScope) }, body.lastModified),
    };
  }

  /** Coverage in both directions: every document and skill is named by a topic, every name exists. */
  function computeCoverage(): void {
    coverageDiagnostics = [];
    const documentScopes = new Map<string, string>();
    skillScopes = new Map();
    if (!scope) return;
    const diagnostics = coverageDiagnostics;
    const parsedDocuments = servedDocumentPaths.map((path) => documentUnits.get(path)!.document!);
    const documentsById = new Map(parsedDocuments.map((d) => [d.id, d]));
    const documentIdsOnDisk = new Set<string>();
    for (const path of [...documentUnits.keys(), ...problemsByPath.keys()]) {
      const id = buildDocumentId(path);
      if (id !== undefined) documentIdsOnDisk.add(id);
    }
    const servedSkills = new Set(servedSkillIds);
    const draftSkills = new Set<string>();
    for (const unit of skillUnits.values()) if (unit.skill?.draft) draftSkills.add(unit.id);
    const skillIdsOnDisk = new Set<string>(skillUnits.keys());
    for (const path of problemsByPath.keys()) {
      if (path.startsWith(SKILLS_DIR) && path !== BASE_FILE) {
        const id = path.slice(SKILLS_DIR.length).split('/')[0];
        if (id) skillIdsOnDisk.add(id);
      }
    }
    scope.topics.forEach((topic, i) => {
      topic.documents.forEach((id, j) => {
        // Positions are looked up only for a finding: a large scope file names thousands of ids.
        const where = () => ({ file: SCOPE_FILE, ...positionOf(['topics', i, 'documents', j]) });
        const document = documentsById.get(id);
        if (!document) {
          if (!documentIdsOnDisk.has(id) && !unavailableAt(`${DOCUMENTS_DIR}${id}.md`)) {
            diagnostics.push(diagnose(codes.unknownDocument, { topic: topic.id, id }, where()));
          }
          return;
        }
        documentScopes.set(id, topic.scope);
        if (document.scope !== topic.scope && scopesById.has(document.scope)) {
          diagnostics.push(
            diagnose(
              codes.scopeMismatch,
              { topic: topic.id, topicScope: topic.scope, id, documentScope: document.scope },
              where(),
            ),
          );
        }
      });
      topic.skills.forEach((id, j) => {
        const where = () => ({ file: SCOPE_FILE, ...positionOf(['topics', i, 'skills', j]) });
        // A draft is not published, so a topic naming it is wrong even while `includeDrafts` serves it.
        if (draftSkills.has(id)) {
          diagnostics.push(diagnose(codes.unknownSkill, { topic: topic.id, id, draft: true }, where()));
        }
        if (!servedSkills.has(id)) {
          if (!skillIdsOnDisk.has(id) && !skillUnavailable(id)) {
            diagnostics.push(diagnose(codes.unknownSkill, { topic: topic.id, id, draft: false }, where()));
          }
          return;
        }
        const previous = skillScopes.get(id);
        if (previous !== undefined && previous !== topic.scope) {
          diagnostics.push(
            diagnose(
              codes.conflictingScopes,
              { kind: 'skill', id, first: previous, second: topic.scope },
              where(),
            ),
          );
          return;
        }
        skillScopes.set(id, topic.scope);
      });
    });
    for (const document of parsedDocuments) {
      if (!scopesById.has(document.scope)) {
        diagnostics.push(
          diagnose(
            codes.documentScopeUnknown,
            { kind: 'unknown', scope: document.scope, declared: [...scopesById.keys()] },
            { file: document.path, line: 1 },
          ),
        );
      } else if (!documentScopes.has(document.id)) {
        diagnostics.push(
          diagnose(codes.documentNotCovered, { id: document.id }, { file: document.path, line: 1 }),
        );
      }
    }
    for (const id of servedSkillIds) {
      // A draft needs no topic until it is published (and `check` never sees it).
      if (!skillScopes.has(id) && !skillUnits.get(id)!.skill!.draft) {
        diagnostics.push(
          diagnose(codes.skillNotCovered, { id }, { file: `${SKILLS_DIR}${id}/${SKILL_BODY}`, line: 1 }),
        );
      }
    }
    diagnostics.push(
      ...lintRouting(scope, scheme, positionOf, (owner) =>
        owner.startsWith('d:')
          ? documentPresence(documentUnits, `${DOCUMENTS_DIR}${owner.slice(2)}.md`, problemsByPath)
          : skillPresence(skillUnits, owner.slice(2), problemsByPath),
      ),
    );
  }

  /**
   * Whether a URI names something served. A URI into a document or skill that exists but failed to build counts
   * as served: its own error says why, and it is not reported twice.
   */
  function createServedCheck(editor: PersistentMapEditor<ServedContent>): (uri: string) => boolean {
    const indexUri = buildIndexUri(scheme);
    const { document, skill } = prefixes;
    return (uri) => {
      if (uri === indexUri || editor.get(uri) !== undefined) return true;
      if (uri.startsWith(document)) {
        const id = uri.slice(document.length);
        return documentPresence(documentUnits, `${DOCUMENTS_DIR}${id}.md`, problemsByPath) === 'failed';
      }
      if (uri.startsWith(skill)) {
        return skillPresence(skillUnits, uri.slice(skill.length).split('/')[0]!, problemsByPath) === 'failed';
      }
      return false;
    };
  }

  /** Re-runs the link checks of one document, one skill or the shared base, and indexes what they mention. */
  function checkLinksOf(key: CheckKey, isServed: (uri: string) => boolean): void {
    const findings: Diagnostic[] = [];
    const owners = new Set<string>();
    const checkUris = (file: string, lines: readonly MarkdownLine[]) => {
      for (const mention of findSchemeUris(lines, scheme)) {
        const owner = ownerOf(mention.uri);
        if (owner !== undefined) owners.add(owner);
        if (isServed(mention.uri)) continue;
        findings.push(
          diagnose(
            codes.unknownUri,
            { uri: mention.uri },
            { file, line: mention.line, column: mention.column },
          ),
        );
      }
    };
    if (key.startsWith('d:')) {
      const document = documentUnits.get(key.slice(2))?.document;
      if (document) checkUris(document.path, document.uriLines);
    } else if (key.startsWith('s:')) {
      const unit = skillUnits.get(key.slice(2));
      if (servesSkill(unit?.skill) && unit!.entry)
        findings.push(...checkSkillLinks(unit!.skill!, unit!.entry, checkUris));
    } else {
      const lines = base ? readLinkLines(base.bytes) : undefined;
      if (base && lines !== undefined) {
        checkUris(BASE_FILE, lines);
        findings.push(...checkBaseLinks(lines, skills));
      }
    }
    for (const owner of mentionsOf.get(key) ?? []) mentionedBy.get(owner)?.delete(key);
    if (owners.size === 0) mentionsOf.delete(key);
    else {
      mentionsOf.set(key, [...owners]);
      for (const owner of owners) {
        const set = mentionedBy.get(owner) ?? new Set<CheckKey>();
        mentionedBy.set(owner, set);
        set.add(key);
      }
    }
    setFindings(linkFindings, key, findings);
  }

  function checkBudget(): Diagnostic[] {
    const budget = options.descriptionBudget ?? scope?.descriptionBudget ?? DEFAULT_DESCRIPTION_BUDGET;
    // Drafts a build includes are the author's to try; hosts list only what is published.
    const published = servedSkillIds.map((id) => skillUnits.get(id)!.skill!).filter((s) => !s.draft);
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

  function buildIndexText(): string {
    const servedDocuments = new Set(documents.map((d) => d.id));
    const servedSkills = new Set(skills.map((s) => s.id));
    const servedPrompts = new Set(prompts.map((p) => p.name));
    const index = {
      server: { name: server.name, title: server.title, version: server.version },
      purpose: coverage.purpose,
      scopes: coverage.scopes.map((s) => ({
        id: s.id,
        title: s.title,
        transfers: s.transfers,
        sentence: s.sentence,
        ...(s.skillSentence === undefined ? {} : { skillSentence: s.skillSentence }),
      })),
      covers: coverage.topics.map((t) => ({
        id: t.id,
        topic: t.title,
        scope: t.scope,
        ...(t.depth === undefined ? {} : { depth: t.depth }),
        tools: t.tools,
        documents: t.documents
          .filter((id) => servedDocuments.has(id))
          .map((id) => buildDocumentUri(scheme, id)),
        skills: t.skills.filter((id) => servedSkills.has(id)).map((id) => buildSkillUri(scheme, id)),
        ...indexPrompts(t.prompts.filter((name) => servedPrompts.has(name))),
      })),
      routing: coverage.routing,
      notCovered: coverage.notCovered,
      documents: documents.map((d) => ({
        id: d.id,
        title: d.title,
        uri: d.uri,
        scope: d.scope,
        ...(Object.keys(d.fields).length === 0 ? {} : { fields: d.fields }),
      })),
      skills: skills.map((s) => ({
        id: s.id,
        title: s.title,
        uri: s.uri,
        ...(s.draft ? { draft: true } : {}),
        files: s.files.map((f) => f.uri),
      })),
      prompts: prompts.map((p) => ({
        name: p.name,
        ...(p.title === undefined ? {} : { title: p.title }),
        description: p.description,
        ...(p.scope === undefined ? {} : { scope: p.scope }),
        ...(p.source.kind === 'skill' ? { skill: p.source.id } : {}),
        ...(p.draft ? { draft: true } : {}),
        arguments: p.arguments.map((a) => ({ name: a.name, required: a.required })),
      })),
    };
    return `${JSON.stringify(index, null, 2)}\n`;
  }

  return { derive };
}

/** A topic's prompts in the index: only when it names any, so content without prompts reads as before. */
function indexPrompts(names: readonly string[]): { prompts?: readonly string[] } {
  return names.length === 0 ? {} : { prompts: names };
}

/** A document's mtime when it is served (an input of the index), else undefined. */
function documentTime(unit: DocumentUnit): number | undefined {
  return unit.document ? unit.file.mtimeMs : undefined;
}

/** A skill body's mtime when the skill is served (an input of the index), else undefined. */
function skillTime(unit: SkillUnit, includeDrafts: boolean): number | undefined {
  return unit.skill && (!unit.skill.draft || includeDrafts) ? unit.skill.body.mtimeMs : undefined;
}

function setFindings(
  findings: Map<CheckKey, readonly Diagnostic[]>,
  key: CheckKey,
  found: readonly Diagnostic[] | undefined,
): void {
  if (found === undefined || found.length === 0) findings.delete(key);
  else findings.set(key, found);
}

/** The files a skill serves besides SKILL.md — its own and the shared base — sorted by path. */
function otherFilesOf(s: ParsedSkill, base: SourceFile | undefined): [string, SourceFile][] {
  const others: [string, SourceFile][] = s.files.map((f) => [f.path, f.file]);
  if (base) others.push([BASE_PATH, base]);
  return others.sort(([a], [b]) => compare(a, b));
}

/** Relative links inside a skill resolve to its own files; scheme URIs go to `checkUris`. */
function checkSkillLinks(
  s: ParsedSkill,
  entry: SkillEntry,
  checkUris: (file: string, lines: readonly MarkdownLine[]) => void,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const served = new Set(entry.files.map((f) => f.path));
  const markdown: [string, string, readonly MarkdownLine[]][] = [
    [SKILL_BODY, `${SKILLS_DIR}${s.id}/${SKILL_BODY}`, s.bodyLines],
  ];
  for (const f of s.files) {
    if (!f.path.endsWith('.md')) continue;
    const lines = readLinkLines(f.file.bytes);
    if (lines !== undefined) markdown.push([f.path, f.file.path, lines]);
  }
  for (const [path, file, lines] of markdown) {
    checkUris(file, lines);
    for (const link of findLinks(lines)) {
      // Backslashes and absolute local paths have their own findings (CMP505, CMP506).
      if (classifyLinkPath(link.target) !== undefined) continue;
      const resolved = resolveLink(path, link.target);
      if (resolved === null || (resolved !== undefined && served.has(resolved))) continue;
      out.push(
        diagnose(
          codes.brokenLink,
          { kind: 'skill', target: link.target, resolved, skill: s.id },
          { file, line: link.line, column: link.column },
        ),
      );
    }
  }
  return out;
}

/** skills/base.md is served as references/base.md in every published skill: its links must hold in each. */
function checkBaseLinks(lines: readonly MarkdownLine[], skills: readonly SkillEntry[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const links = findLinks(lines);
  if (links.length === 0) return out;
  const filesOf = new Map(skills.map((s) => [s.id, new Set(s.files.map((f) => f.path))]));
  for (const link of links) {
    if (classifyLinkPath(link.target) !== undefined) continue;
    const resolved = resolveLink(BASE_PATH, link.target);
    if (resolved === null) continue;
    const missing = skills
      .filter((s) => resolved === undefined || !filesOf.get(s.id)!.has(resolved))
      .map((s) => s.id);
    if (missing.length === 0) continue;
    out.push(
      diagnose(
        codes.brokenLink,
        { kind: 'base', target: link.target, missing, everywhere: missing.length === skills.length },
        { file: BASE_FILE, line: link.line, column: link.column },
      ),
    );
  }
  return out;
}

/** The text-only lint findings of the SKILL.md of a skill that is not served. */
function lintUnservedSkill(id: string, files: ReadonlyMap<string, SourceFile>): readonly Diagnostic[] {
  const body = files.get(SKILL_BODY);
  return body ? lintUnservedMarkdown(`${SKILLS_DIR}${id}/${SKILL_BODY}`, body.bytes) : [];
}

/** Whether two versions of a document give the same index entry: id, title, scope and declared fields. */
function sameIndexedDocument(a: ParsedDocument, b: ParsedDocument, declared: FieldDeclarations): boolean {
  if (a.id !== b.id || a.title !== b.title || a.scope !== b.scope) return false;
  const x = checkDocumentFields(a, declared).fields;
  const y = checkDocumentFields(b, declared).fields;
  return x === y || JSON.stringify(x) === JSON.stringify(y);
}

function buildTemplates(scheme: string): ResourceTemplateEntry[] {
  return [
    {
      uriTemplate: buildDocumentTemplate(scheme),
      name: 'document',
      title: 'Knowledge document',
      description:
        'One knowledge document by id (its path below knowledge/documents/ without .md; ids contain slashes). Every document is also listed; the index names them all.',
      mimeType: 'text/markdown',
      annotations: { priority: PRIORITY.documentTemplate },
    },
    {
      uriTemplate: buildSkillFileTemplate(scheme),
      name: 'skill-file',
      title: 'What a skill hands over at a step',
      description:
        "Any file of a published skill, by the path its SKILL.md links to (references/base.md is in every skill). Read the one a skill's body sends you to, at the step that sends you.",
      annotations: { priority: PRIORITY.skillFileTemplate },
    },
  ];
}

/** The served content of a file at a URI; an unchanged file (same bytes, URI, path, mtime) keeps its object. */
function serve(uri: string, path: string, file: SourceFile): ServedContent {
  const previous = servedMemo.get(file.bytes);
  if (previous?.uri === uri && previous.mtimeMs === file.mtimeMs && previous.path === path)
    return previous.content;
  const mimeType = buildMimeType(path);
  const text = isTextual(mimeType) ? decodeUtf8(file.bytes) : undefined;
  const lastModified = formatTime(file.mtimeMs);
  const content: ServedContent = {
    uri,
    mimeType,
    bytes: file.bytes,
    ...(text === undefined ? {} : { text }),
    digest: buildDigest(file.bytes),
    size: file.bytes.byteLength,
    ...(lastModified === undefined ? {} : { lastModified }),
  };
  servedMemo.set(file.bytes, { uri, path, mtimeMs: file.mtimeMs, content });
  return content;
}

/**
 * The catalog with `notice` in front of its instructions (and in `catalog.notice`, for the UI), fitted to the
 * budget. For a catalog built without a notice: an adapter that learns the notice only from the catalog
 * (say, that the skills published into a project are stale) adds it without building twice.
 */
export function withNotice(catalog: Catalog, notice: string): Catalog {
  const text = notice.trim();
  return {
    ...catalog,
    notice: text,
    instructions: fitInstructions(catalog.instructions === '' ? text : `${text}\n\n${catalog.instructions}`),
  };
}

/** The code of each loader problem; its message names the path and the loader's detail. */
const PROBLEM_CODES = {
  'symlink-escape': codes.symlinkEscape,
  'link-outside-area': codes.linkOutsideArea,
  'link-to-hidden': codes.linkToHidden,
  hardlinked: codes.hardlinked,
  'symlink-broken': codes.symlinkBroken,
  unreadable: codes.unreadable,
  'too-large': codes.tooLarge,
  'not-regular': codes.notRegular,
  unavailable: codes.fileUnavailable,
} as const satisfies Record<FileProblem['kind'], unknown>;

function describeProblem(problem: FileProblem): Diagnostic {
  return diagnose(
    PROBLEM_CODES[problem.kind],
    { path: problem.path, detail: problem.detail },
    { file: problem.path },
  );
}

function joinSentences(...parts: (string | undefined)[]): string {
  return parts
    .filter((p): p is string => p !== undefined && p.trim() !== '')
    .map((p) => p.trim().replace(/\s+/g, ' '))
    .join(' ');
}

function withLastModified(annotations: { priority: number }, lastModified: string | undefined) {
  return lastModified === undefined ? annotations : { ...annotations, lastModified };
}
