/**
 * The first phase of a full derive: the facts every other phase reads, from the scope file and skills/base.md
 * alone — each held at its last good version while the file on disk is broken or unreadable — and from the build
 * options: the server's identity and scheme, its scopes, the check configuration, the offered tools, coverage and
 * instructions, the templates. A change to either file (or above them) derives everything again from a new frame.
 */
import { decodeUtf8, readFileText } from '../content.js';
import { buildInstructions, buildOfferedCoverage, buildOfferedTools, fitInstructions } from '../coverage.js';
import { codes, type Diagnostic, diagnose } from '../diagnostics.js';
import type { FieldDeclarations } from '../document-fields.js';
import { INSTRUCTIONS_BUDGET } from '../limits.js';
import {
  type CheckConfig,
  checkConfigCodes,
  lintBase,
  lintScope,
  resolveCheckConfig,
} from '../lint/index.js';
import type { Memo } from '../memo.js';
import { BASE_FILE, DEFAULT_SCHEME, SCOPE_FILE } from '../names.js';
import { readScope, type ScopeRead } from '../scope.js';
import type { ServerScope } from '../scope-schema.js';
import { DEFAULT_DRAFT_MARKER, type DraftMarker } from '../skills.js';
import type {
  BuildOptions,
  Coverage,
  HeldItem,
  ResourceTemplateEntry,
  ScopeDefinition,
  ServerIdentity,
  Snapshot,
  SourceFile,
} from '../types.js';
import type { Availability } from './availability.js';
import { buildTemplates, SKILL_SENTENCE } from './entries.js';

export type PositionOf = ScopeRead['positionOf'];

/** What a full derive reads from the scope file, base.md and the options; the same for every unit. */
export interface Frame {
  /** The scope file served (its last good version while held); its mtime is an input of the index. */
  readonly scopeFile: SourceFile | undefined;
  readonly scope: ServerScope | undefined;
  readonly positionOf: PositionOf;
  readonly server: ServerIdentity;
  readonly scheme: string;
  readonly scopesById: ReadonlyMap<string, ScopeDefinition>;
  /** skills/base.md as served in every skill (its last good version while held), if it is. */
  readonly base: SourceFile | undefined;
  /** The scope file's `check` section: of the scope hosts are served, the last good one while held. */
  readonly checkConfig: CheckConfig;
  readonly documentFields: FieldDeclarations;
  readonly draftMarker: DraftMarker;
  readonly skillSentence: string;
  /** Where URIs into documents and into skills start, for this scheme. */
  readonly prefixes: { readonly document: string; readonly skill: string };
  readonly templates: readonly ResourceTemplateEntry[];
  /** Tools offered (all minus the excluded), and the coverage and instructions offered with them. */
  readonly tools: readonly string[];
  readonly coverage: Coverage;
  readonly instructions: string;
  /** The scope file and base.md when served from their last good version. */
  readonly heldScope: HeldItem | undefined;
  readonly heldBase: HeldItem | undefined;
  /** What reading the scope file found, and what the lint rules found in it. */
  readonly scopeDiagnostics: readonly Diagnostic[];
  readonly scopeLintDiagnostics: readonly Diagnostic[];
  readonly baseDiagnostics: readonly Diagnostic[];
  readonly instructionsDiagnostics: readonly Diagnostic[];
}

const DEFAULT_SERVER: ServerIdentity = {
  name: 'companion',
  title: 'companion',
  version: '0.0.0',
  scheme: DEFAULT_SCHEME,
};
const NO_FIELDS: FieldDeclarations = {};

export interface FrameInput {
  readonly snapshot: Snapshot;
  readonly availability: Availability;
  /** The last good versions the caller handed over (`Snapshot.lastGood`). */
  readonly fallback: ReadonlyMap<string, SourceFile>;
  readonly options: BuildOptions;
  readonly memo: Memo;
}

export function readFrame({ snapshot, availability, fallback, options, memo }: FrameInput): Frame {
  const { unavailableAt } = availability;
  let scopeFile = snapshot.files.get(SCOPE_FILE);
  const scopeText = scopeFile ? decodeUtf8(scopeFile.bytes, memo) : undefined;
  let scope: ServerScope | undefined;
  const scopeDiagnostics: Diagnostic[] = [];
  let positionOf: PositionOf = () => undefined;
  if (scopeFile && scopeText === undefined) {
    scopeDiagnostics.push(diagnose(codes.invalidUtf8, { file: 'scope' }, { file: SCOPE_FILE }));
  } else if (!availability.problems.has(SCOPE_FILE) && !unavailableAt(SCOPE_FILE)) {
    const read = readScope(scopeFile && readFileText(scopeFile.bytes, memo), memo);
    scopeDiagnostics.push(...read.diagnostics);
    scope = read.scope;
    positionOf = read.positionOf;
  }
  let heldScope: HeldItem | undefined;
  const last = fallback.get(SCOPE_FILE);
  if (scope === undefined && last !== undefined && (scopeFile !== undefined || unavailableAt(SCOPE_FILE))) {
    // On disk but broken, or unreadable just now: hosts keep the last good scope, byte for byte.
    const lastText = readFileText(last.bytes, memo);
    const read = readScope(lastText.read() === undefined ? undefined : lastText, memo);
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
  const server = scope?.server ?? DEFAULT_SERVER;
  const scheme = server.scheme;

  let base = snapshot.files.get(BASE_FILE);
  const baseDiagnostics: Diagnostic[] = [];
  let heldBase: HeldItem | undefined;
  if (base && decodeUtf8(base.bytes, memo) === undefined) {
    baseDiagnostics.push(diagnose(codes.invalidUtf8, { file: 'base' }, { file: BASE_FILE }));
    base = undefined;
  }
  // Lint findings are of the file on disk, never of a held version.
  if (base) baseDiagnostics.push(...lintBase(BASE_FILE, base.bytes, decodeUtf8(base.bytes, memo)!, memo));
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
  const tools = buildOfferedTools(options.excludeTools ?? []);
  // The budget is the author's to keep: a notice added at run time is fitted in, never reported as their error.
  let instructions = scope ? buildInstructions(scope, tools) : '';
  const instructionsDiagnostics: Diagnostic[] = [];
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
  return {
    scopeFile,
    scope,
    positionOf,
    server,
    scheme,
    scopesById: new Map(scope?.scopes.map((s) => [s.id, s]) ?? []),
    base,
    checkConfig: resolveCheckConfig(scope, memo),
    documentFields: scope?.documents?.fields ?? NO_FIELDS,
    draftMarker: scope?.skills?.draft ?? DEFAULT_DRAFT_MARKER,
    skillSentence: scope?.skills?.sentence ?? SKILL_SENTENCE,
    prefixes: { document: `${scheme}://guides/`, skill: `${scheme}://skill/` },
    templates: buildTemplates(scheme),
    tools,
    coverage: scope
      ? buildOfferedCoverage(scope, tools)
      : { purpose: '', scopes: [], topics: [], routing: [], notCovered: [] },
    instructions,
    heldScope,
    heldBase,
    scopeDiagnostics,
    scopeLintDiagnostics:
      scope && scopeText !== undefined
        ? [
            ...checkConfigCodes(scope, SCOPE_FILE, positionOf),
            ...lintScope(scope, scopeText, positionOf, tools),
          ]
        : [],
    baseDiagnostics,
    instructionsDiagnostics,
  };
}
