/**
 * Scope-file truth (CMP108–CMP110): tools the prose names that the server does not serve, tools no topic
 * reaches, and routing that names a document or skill that does not exist; and credentials in the scope
 * file, whose prose every host is shown.
 */
import { codes, type Diagnostic, diagnose } from '../diagnostics.js';
import { SCOPE_FILE, TOOLS } from '../names.js';
import { type ServerScope, TOOL_NAMES } from '../scope-schema.js';
import { lintSecretsInText } from './text-rules.js';

type PositionOf = (path: readonly (string | number)[]) => { line: number; column: number } | undefined;

/** What exists of a document or skill id, as coverage sees it. */
export type Presence = 'absent' | 'failed' | 'draft' | 'published';

/** The prose of the scope file a model reads, with the JSON path of each string. */
function* proseOf(scope: ServerScope): Generator<[string, (string | number)[]]> {
  yield [scope.purpose, ['purpose']];
  yield [scope.instructions.start, ['instructions', 'start']];
  if (scope.instructions.then !== undefined) yield [scope.instructions.then, ['instructions', 'then']];
  for (const [i, entry] of scope.instructions.index.entries()) {
    yield [entry.question, ['instructions', 'index', i, 'question']];
    if (entry.with !== undefined) yield [entry.with, ['instructions', 'index', i, 'with']];
    if (entry.note !== undefined) yield [entry.note, ['instructions', 'index', i, 'note']];
  }
  for (const [i, topic] of scope.topics.entries()) {
    yield [topic.title, ['topics', i, 'title']];
    if (topic.depth !== undefined) yield [topic.depth, ['topics', i, 'depth']];
  }
  for (const [i, entry] of scope.routing.entries()) {
    yield [entry.when, ['routing', i, 'when']];
    if (entry.with !== undefined) yield [entry.with, ['routing', i, 'with']];
    for (const [j, call] of (entry.then ?? []).entries()) {
      if (call.with !== undefined) yield [call.with, ['routing', i, 'then', j, 'with']];
    }
  }
  for (const [i, entry] of scope.notCovered.entries()) {
    yield [entry.topic, ['notCovered', i, 'topic']];
    yield [entry.why, ['notCovered', i, 'why']];
    if (entry.instead !== undefined) yield [entry.instead, ['notCovered', i, 'instead']];
  }
}

/** A name written like a tool's: lowercase words joined by underscores. */
const TOOL_LIKE = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;

/**
 * CMP108 and CMP109 for `scope`, whose `offered` tools the server serves; CMP600 for credentials in `text`.
 */
export function lintScope(
  scope: ServerScope,
  text: string,
  positionOf: PositionOf,
  offered: readonly string[],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const served = new Set<string>(TOOL_NAMES);
  for (const [prose, path] of proseOf(scope)) {
    const named = new Set(prose.match(TOOL_LIKE) ?? []);
    for (const name of named) {
      if (served.has(name)) continue;
      // A near miss: a few letters off, or the same first word (document_search for document_lookup).
      const near =
        TOOL_NAMES.find((t) => editDistance(t, name) <= 3) ??
        TOOL_NAMES.find((t) => t.split('_')[0] === name.split('_')[0]);
      out.push(
        diagnose(codes.proseUnknownTool, { path, name, near }, { file: SCOPE_FILE, ...positionOf(path) }),
      );
    }
  }
  const reached = new Set(scope.topics.flatMap((t) => t.tools));
  for (const tool of offered) {
    if (reached.has(tool)) continue;
    out.push(diagnose(codes.toolUnreached, { tool }, { file: SCOPE_FILE, ...positionOf(['topics']) }));
  }
  out.push(...lintSecretsInText(SCOPE_FILE, text));
  return out;
}

/**
 * CMP110 for routing entries whose `with` names a skill (skill_load) or a document (an id below a declared
 * scope, or a URI) that does not exist. `presence` answers for `d:<id>` and `s:<id>`.
 */
export function lintRouting(
  scope: ServerScope,
  scheme: string,
  positionOf: PositionOf,
  presence: (owner: string) => Presence,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const scopes = new Set(scope.scopes.map((s) => s.id));
  for (const [i, entry] of scope.routing.entries()) {
    // The first call's `with` and `when`, then each further call's `with` (with its own tool).
    const texts = [
      { field: 'with' as const, value: entry.with, tool: entry.tool, path: ['routing', i, 'with'] },
      { field: 'when' as const, value: entry.when, tool: entry.tool, path: ['routing', i, 'when'] },
      ...(entry.then ?? []).map((call, j) => ({
        field: 'with' as const,
        value: call.with,
        tool: call.tool,
        path: ['routing', i, 'then', j, 'with'],
      })),
    ];
    for (const { field, value, tool, path } of texts) {
      if (value === undefined) continue;
      for (const { owner, written } of namedTargets(value, field, tool, scheme, scopes)) {
        const state = presence(owner);
        if (state === 'published' || state === 'failed') continue;
        const target = { kind: owner.startsWith('s:') ? 'skill' : 'document', id: owner.slice(2) } as const;
        // Placed only when there is a finding: a position parses the scope file's syntax tree again.
        const where = { file: SCOPE_FILE, ...positionOf(path) };
        out.push(
          diagnose(codes.routingUnknownTarget, { path, target, written, draft: state === 'draft' }, where),
        );
      }
    }
  }
  return out;
}

/** The documents and skills a routing field names: `d:<id>` or `s:<id>`, with the words that named them. */
function namedTargets(
  value: string,
  field: 'with' | 'when',
  tool: string,
  scheme: string,
  scopes: ReadonlySet<string>,
): { owner: string; written: string }[] {
  const out: { owner: string; written: string }[] = [];
  const trimmed = value.trim();
  if (field === 'with' && tool === TOOLS.load && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(trimmed)) {
    out.push({ owner: `s:${trimmed}`, written: trimmed });
    return out;
  }
  for (const word of trimmed.split(/\s+/)) {
    const clean = word.replace(/^[("'`]+|[)"'`.,;:!?]+$/g, '');
    const documentPrefix = `${scheme}://guides/`;
    const skillPrefix = `${scheme}://skill/`;
    if (clean.startsWith(documentPrefix)) {
      out.push({ owner: `d:${clean.slice(documentPrefix.length)}`, written: clean });
    } else if (clean.startsWith(skillPrefix)) {
      out.push({ owner: `s:${clean.slice(skillPrefix.length).split('/')[0]!}`, written: clean });
    } else if (/^[a-z0-9-]+(?:\/[A-Za-z0-9._-]+)+$/.test(clean) && scopes.has(clean.split('/')[0]!)) {
      out.push({ owner: `d:${clean.replace(/\.md$/, '')}`, written: clean });
    }
  }
  return out;
}

/** Levenshtein distance, for "did you mean"; both strings are short tool names. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3 || b.length > 64) return 99;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}
