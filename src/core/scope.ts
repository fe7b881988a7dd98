/**
 * Reads `knowledge/server-scope.json` into a validated `ServerScope`, with every finding placed at the JSON
 * position it concerns (a syntax error at its offset, a schema violation at the value its path names).
 */
import {
  findNodeAtLocation,
  getNodeValue,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';
import type * as z from 'zod';
import type { SchemaIssue } from './codes/scope-file.js';
import type { FileText } from './content.js';
import { codes, type Diagnostic, diagnose } from './diagnostics.js';
import { type Memo, memoCell, NO_MEMO } from './memo.js';
import { SCOPE_FILE } from './names.js';
import { validateContentDeclarations } from './scope-content-rules.js';
import { SCOPE_SCHEMA_FILE, type ServerScope, ServerScopeSchema, TOOL_NAMES } from './scope-schema.js';

export { SCOPE_FILE };

export interface ScopeRead {
  /** Undefined when the file is missing or does not validate. */
  readonly scope?: ServerScope;
  readonly diagnostics: readonly Diagnostic[];
  /** File position of the value at a JSON path (nearest existing ancestor), for findings made later. */
  readonly positionOf: (path: readonly (string | number)[]) => { line: number; column: number } | undefined;
}

/**
 * Parses and validates the scope file's text, `source`'s (valid UTF-8). `undefined` means the file does not
 * exist. Neither the answer nor the memo holds the text (on XL it is 6 MB): a finding placed later decodes it
 * again.
 */
export function readScope(source: FileText | undefined, memo: Memo = NO_MEMO): ScopeRead {
  // The scope file changes rarely and every rebuild reads it: keep the last answer for the same bytes (a builder
  // makes a new `FileText` of them for each build), or for other bytes of the same text.
  const last = memo.get(LAST_SCOPE);
  if (source === undefined) return parseScope(undefined);
  const text = source.read()!;
  if (last !== undefined && (last.source.bytes === source.bytes || last.source.decode() === text))
    return last.read;
  const read = parseScope(text, source);
  memo.set(LAST_SCOPE, { source, read });
  return read;
}

/** The last scope file the builder read, and what it read: one cell, replaced by the next file. */
const LAST_SCOPE = memoCell<{ readonly source: FileText; readonly read: ScopeRead }>('scope.last');

function parseScope(text: string | undefined, source?: FileText): ScopeRead {
  if (text === undefined) {
    return {
      diagnostics: [diagnose(codes.scopeMissing, {}, { file: SCOPE_FILE })],
      positionOf: () => undefined,
    };
  }
  // The syntax tree and the line offsets place findings; the read keeps neither for the life of the catalog (on
  // XL the tree of 100,000 entries is ~10 MB): a finding placed later parses them again, once, and keeps them.
  let offsets: number[] | undefined;
  // The text while this parse runs; afterwards decoded again from `source` by the first finding placed.
  let heldText: string | undefined = text;
  const textNow = () => (heldText ??= source!.decode()!);
  const at = (offset: number) => {
    offsets ??= buildLineOffsets(textNow());
    return positionAt(offsets, offset);
  };
  // Strict JSON (every valid scope file) is read by `JSON.parse`; the tree is parsed only for what it does not
  // accept (to say why) and for a finding's position.
  const strict = parseStrictJson(text);
  let held: Node | undefined;
  if (strict === undefined) {
    const errors: ParseError[] = [];
    held = parseTree(text, errors, PARSE_OPTIONS);
    if (errors.length > 0 || held === undefined) {
      const diagnostics = errors
        .slice(0, 5)
        .map((error) =>
          diagnose(
            codes.scopeJsonSyntax,
            { error: printParseErrorCode(error.error) },
            { file: SCOPE_FILE, ...at(error.offset) },
          ),
        );
      // Nothing is placed later: let go of what placed these (a closure made here shares their scope).
      held = undefined;
      offsets = undefined;
      heldText = undefined;
      return { diagnostics, positionOf: () => undefined };
    }
  }
  const value = strict === undefined ? (getNodeValue(held!) as unknown) : strict.value;
  const positionOf = (path: readonly (string | number)[]) => {
    held ??= parseTree(textNow(), [], PARSE_OPTIONS)!;
    for (let n = path.length; n >= 0; n--) {
      const node = findNodeAtLocation(held, path.slice(0, n) as (string | number)[]);
      if (node) return at(keyOffset(node));
    }
    return undefined;
  };
  const diagnostics: Diagnostic[] = [];
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && !('$schema' in value)) {
    diagnostics.push(
      diagnose(
        codes.schemaReference,
        { kind: 'missing' },
        {
          file: SCOPE_FILE,
          line: 1,
          column: 1,
        },
      ),
    );
  } else if (
    typeof value === 'object' &&
    value !== null &&
    '$schema' in value &&
    value.$schema !== `./${SCOPE_SCHEMA_FILE}`
  ) {
    diagnostics.push(
      diagnose(
        codes.schemaReference,
        { kind: 'other', value: value.$schema },
        { file: SCOPE_FILE, ...positionOf(['$schema']) },
      ),
    );
  }
  const parsed = ServerScopeSchema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) diagnostics.push(describeIssue(issue, positionOf));
    held = undefined;
    offsets = undefined;
    heldText = undefined;
    return { diagnostics, positionOf };
  }
  const scope = parsed.data;
  diagnostics.push(...validateReferences(scope, positionOf));
  diagnostics.push(...validateContentDeclarations(scope, SCOPE_FILE, positionOf));
  held = undefined;
  offsets = undefined;
  heldText = undefined;
  return { scope, diagnostics, positionOf };
}

const PARSE_OPTIONS = {
  disallowComments: true,
  allowTrailingComma: false,
  allowEmptyContent: false,
} as const;

/**
 * What `getNodeValue(parseTree(text))` answers for text `JSON.parse` accepts (strict JSON, which jsonc-parser
 * reads without an error under `PARSE_OPTIONS`): the same values, objects made without a prototype as
 * jsonc-parser makes them. Undefined when `JSON.parse` refuses the text: the tree then says why, or reads what
 * JSON does not allow but jsonc-parser does (other whitespace).
 */
function parseStrictJson(text: string): { readonly value: unknown } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return { value: withoutPrototypes(value) };
}

function withoutPrototypes(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = withoutPrototypes(value[i]);
    return value;
  }
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value)) out[key] = withoutPrototypes((value as Record<string, unknown>)[key]);
  return out;
}

/** @internal For tests. */
export const scopeInternals = { parseStrictJson };

/** Cross-field rules the schema cannot state: declared scopes, known tools, unique ids. */
function validateReferences(scope: ServerScope, positionOf: ScopeRead['positionOf']): Diagnostic[] {
  const out: Diagnostic[] = [];
  const where = (path: (string | number)[]) => ({ file: SCOPE_FILE, ...positionOf(path) });
  const scopeIds = new Set<string>();
  scope.scopes.forEach((s, i) => {
    if (scopeIds.has(s.id)) {
      out.push(diagnose(codes.duplicateId, { kind: 'scope', id: s.id }, where(['scopes', i, 'id'])));
    }
    scopeIds.add(s.id);
  });
  const topicIds = new Set<string>();
  const known = new Set<string>(TOOL_NAMES);
  const checkTool = (tool: string, path: (string | number)[]) => {
    if (!known.has(tool)) {
      out.push(diagnose(codes.unknownTool, { tool }, where(path)));
    }
  };
  scope.topics.forEach((topic, i) => {
    if (topicIds.has(topic.id)) {
      out.push(diagnose(codes.duplicateId, { kind: 'topic', id: topic.id }, where(['topics', i, 'id'])));
    }
    topicIds.add(topic.id);
    if (!scopeIds.has(topic.scope)) {
      out.push(
        diagnose(
          codes.unknownScope,
          { topic: topic.id, scope: topic.scope, declared: [...scopeIds] },
          where(['topics', i, 'scope']),
        ),
      );
    }
    topic.tools.forEach((tool, j) => {
      checkTool(tool, ['topics', i, 'tools', j]);
    });
  });
  scope.instructions.index.forEach((entry, i) => {
    checkTool(entry.tool, ['instructions', 'index', i, 'tool']);
  });
  scope.routing.forEach((entry, i) => {
    checkTool(entry.tool, ['routing', i, 'tool']);
    entry.then?.forEach((call, j) => {
      checkTool(call.tool, ['routing', i, 'then', j, 'tool']);
    });
  });
  return out;
}

function describeIssue(issue: z.core.$ZodIssue, positionOf: ScopeRead['positionOf']): Diagnostic {
  const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  let location = path;
  let found: SchemaIssue = { kind: 'invalid', message: issue.message };
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    location = [...path, key];
    found = { kind: 'unknown-keys', keys: issue.keys };
  } else if (issue.code === 'invalid_type' && issue.input === undefined) {
    found = { kind: 'missing', expected: issue.expected };
  }
  return diagnose(codes.scopeSchema, { path, issue: found }, { file: SCOPE_FILE, ...positionOf(location) });
}

/** A property's position is its key's; anything else, the value's own. */
function keyOffset(node: Node): number {
  if (node.parent?.type === 'property' && node.parent.children?.[0]) return node.parent.children[0].offset;
  return node.offset;
}

export function buildLineOffsets(text: string): number[] {
  const offsets = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) offsets.push(i + 1);
  return offsets;
}

/** 1-based line and column of a character offset. */
export function positionAt(offsets: readonly number[], offset: number): { line: number; column: number } {
  let low = 0;
  let high = offsets.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((offsets[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - (offsets[low] ?? 0) + 1 };
}
