/**
 * Assembling the result, the last phase: every finding of every phase in one list (the loader's problems first,
 * then the frame's, the strays', the derived ones, then each unit's own), filtered by the check configuration
 * and inline directives; the catalog hosts are served; what is held at its last good version.
 */
import { fitInstructions } from '../coverage.js';
import { codes, compare, type Diagnostic, diagnose, sortDiagnostics } from '../diagnostics.js';
import { applyCheckConfig, type Directive } from '../lint/index.js';
import { BASE_FILE } from '../names.js';
import type { PersistentMap } from '../persistent-map.js';
import type {
  BuildOptions,
  BuildResult,
  Catalog,
  DocumentEntry,
  FileProblem,
  HeldItem,
  ListedResource,
  PromptEntry,
  ServedContent,
  SkillEntry,
  Snapshot,
  SourceFile,
} from '../types.js';
import type { Availability } from './availability.js';
import type { Frame } from './frame.js';
import { buildIndexResource } from './index-json.js';
import { descriptionBudgetOf } from './skill-set.js';

export interface AssemblyInput {
  readonly snapshot: Snapshot;
  readonly options: BuildOptions;
  readonly frame: Frame;
  readonly availability: Availability;
  /** The findings derived across units, in the order they are reported. */
  readonly derived: readonly (readonly Diagnostic[])[];
  readonly strays: Iterable<Diagnostic>;
  /** Each unit's own findings, keyed per unit; reported after everything else. */
  readonly unitFindings: readonly ReadonlyMap<string, readonly Diagnostic[]>[];
  readonly directives: ReadonlyMap<string, readonly Directive[]>;
  readonly index: ServedContent;
  readonly documentResources: readonly ListedResource[];
  readonly skillResources: readonly ListedResource[];
  readonly contents: PersistentMap<ServedContent>;
  readonly documents: readonly DocumentEntry[];
  readonly skills: readonly SkillEntry[];
  readonly prompts: readonly PromptEntry[];
  /** Documents, skills and prompts served from their last good version. */
  readonly held: Iterable<HeldItem>;
  readonly lastGood: ReadonlyMap<string, SourceFile>;
}

export function assembleResult(input: AssemblyInput): BuildResult {
  const { snapshot, options, frame, availability } = input;
  const diagnostics: Diagnostic[] = [
    ...snapshot.problems.map(describeProblem),
    ...frame.scopeDiagnostics,
    ...input.strays,
    ...frame.baseDiagnostics,
    ...frame.instructionsDiagnostics,
  ];
  for (const findings of input.derived) diagnostics.push(...findings);
  if (
    !snapshot.files.has(BASE_FILE) &&
    !availability.problems.has(BASE_FILE) &&
    !availability.unavailableAt(BASE_FILE) &&
    snapshot.files.size > 0
  ) {
    diagnostics.push(diagnose(codes.baseMissing, {}, { file: BASE_FILE }));
  }
  for (const findings of input.unitFindings)
    for (const found of findings.values()) diagnostics.push(...found);

  const catalog: Catalog = {
    server: frame.server,
    instructions: frame.instructions,
    coverage: frame.coverage,
    tools: frame.tools,
    indexUri: input.index.uri,
    resources: [
      buildIndexResource(frame.server, input.index, options.once === true),
      ...input.documentResources,
      ...input.skillResources,
    ],
    templates: frame.templates,
    contents: input.contents,
    documents: input.documents,
    skills: input.skills,
    descriptionBudget: descriptionBudgetOf(options.descriptionBudget, frame.scope?.descriptionBudget),
    prompts: input.prompts,
  };
  const held: HeldItem[] = [];
  if (frame.heldScope) held.push(frame.heldScope);
  if (frame.heldBase) held.push(frame.heldBase);
  held.push(...input.held);
  const checked = applyCheckConfig(diagnostics, frame.checkConfig, input.directives);
  return {
    catalog: options.notice ? withNotice(catalog, options.notice) : catalog,
    diagnostics: sortDiagnostics(checked.diagnostics),
    suppressed: sortDiagnostics(checked.suppressed),
    held: held.sort((a, b) => compare(a.path, b.path)),
    lastGood: input.lastGood,
  };
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
