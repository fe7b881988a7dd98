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
import { codes, type Diagnostic, diagnose } from './diagnostics.js';
import { validateContentDeclarations } from './scope-content-rules.js';
import { SCOPE_SCHEMA_FILE, type ServerScope, ServerScopeSchema, TOOL_NAMES } from './scope-schema.js';

export const SCOPE_FILE = 'knowledge/server-scope.json';

export interface ScopeRead {
  /** Undefined when the file is missing or does not validate. */
  readonly scope?: ServerScope;
  readonly diagnostics: readonly Diagnostic[];
  /** File position of the value at a JSON path (nearest existing ancestor), for findings made later. */
  readonly positionOf: (path: readonly (string | number)[]) => { line: number; column: number } | undefined;
}

/** Parses and validates the scope file's text. `undefined` text means the file does not exist. */
export function readScope(text: string | undefined): ScopeRead {
  // The scope file changes rarely and every rebuild reads it: keep the last answer for the same text.
  if (text !== undefined && lastScope?.text === text) return lastScope.read;
  const read = parseScope(text);
  if (text !== undefined) lastScope = { text, read };
  return read;
}

let lastScope: { readonly text: string; readonly read: ScopeRead } | undefined;

function parseScope(text: string | undefined): ScopeRead {
  if (text === undefined) {
    return {
      diagnostics: [diagnose(codes.scopeMissing, `${SCOPE_FILE} does not exist.`, { file: SCOPE_FILE })],
      positionOf: () => undefined,
    };
  }
  const offsets = buildLineOffsets(text);
  const at = (offset: number) => positionAt(offsets, offset);
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, {
    disallowComments: true,
    allowTrailingComma: false,
    allowEmptyContent: false,
  });
  if (errors.length > 0 || tree === undefined) {
    return {
      diagnostics: errors
        .slice(0, 5)
        .map((error) =>
          diagnose(
            codes.scopeJsonSyntax,
            `${SCOPE_FILE} is not valid JSON: ${describeParseError(printParseErrorCode(error.error))}.`,
            { file: SCOPE_FILE, ...at(error.offset) },
          ),
        ),
      positionOf: () => undefined,
    };
  }
  const positionOf = (path: readonly (string | number)[]) => {
    for (let n = path.length; n >= 0; n--) {
      const node = findNodeAtLocation(tree, path.slice(0, n) as (string | number)[]);
      if (node) return at(keyOffset(node));
    }
    return undefined;
  };
  const diagnostics: Diagnostic[] = [];
  const value = getNodeValue(tree) as unknown;
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && !('$schema' in value)) {
    diagnostics.push(
      diagnose(codes.schemaReference, `${SCOPE_FILE} has no "$schema" key.`, {
        file: SCOPE_FILE,
        line: 1,
        column: 1,
      }),
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
        `${SCOPE_FILE} points "$schema" at ${JSON.stringify(value.$schema)}, not ./${SCOPE_SCHEMA_FILE}.`,
        { file: SCOPE_FILE, ...positionOf(['$schema']) },
      ),
    );
  }
  const parsed = ServerScopeSchema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) diagnostics.push(describeIssue(issue, positionOf));
    return { diagnostics, positionOf };
  }
  const scope = parsed.data;
  diagnostics.push(...validateReferences(scope, positionOf));
  diagnostics.push(...validateContentDeclarations(scope, SCOPE_FILE, positionOf));
  return { scope, diagnostics, positionOf };
}

/** Cross-field rules the schema cannot state: declared scopes, known tools, unique ids. */
function validateReferences(scope: ServerScope, positionOf: ScopeRead['positionOf']): Diagnostic[] {
  const out: Diagnostic[] = [];
  const where = (path: (string | number)[]) => ({ file: SCOPE_FILE, ...positionOf(path) });
  const scopeIds = new Set<string>();
  scope.scopes.forEach((s, i) => {
    if (scopeIds.has(s.id)) {
      out.push(
        diagnose(codes.duplicateId, `Scope id "${s.id}" is declared twice.`, where(['scopes', i, 'id'])),
      );
    }
    scopeIds.add(s.id);
  });
  const topicIds = new Set<string>();
  const known = new Set<string>(TOOL_NAMES);
  const checkTool = (tool: string, path: (string | number)[]) => {
    if (!known.has(tool)) {
      out.push(
        diagnose(
          codes.unknownTool,
          `"${tool}" is not a tool companion serves (${TOOL_NAMES.join(', ')}).`,
          where(path),
        ),
      );
    }
  };
  scope.topics.forEach((topic, i) => {
    if (topicIds.has(topic.id)) {
      out.push(
        diagnose(codes.duplicateId, `Topic id "${topic.id}" is declared twice.`, where(['topics', i, 'id'])),
      );
    }
    topicIds.add(topic.id);
    if (!scopeIds.has(topic.scope)) {
      out.push(
        diagnose(
          codes.unknownScope,
          `Topic "${topic.id}" names scope "${topic.scope}", which "scopes" does not declare (declared: ${[...scopeIds].join(', ')}).`,
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
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    location = [...path, key];
    message = `unknown ${issue.keys.length === 1 ? 'key' : 'keys'} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  } else if (issue.code === 'invalid_type' && issue.input === undefined) {
    message = `required ${issue.expected} is missing`;
  }
  return diagnose(codes.scopeSchema, `${formatJsonPath(path) || 'The scope file'}: ${message}.`, {
    file: SCOPE_FILE,
    ...positionOf(location),
  });
}

/** `topics[2].scope` from `['topics', 2, 'scope']`. */
export function formatJsonPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out === '' ? part : `.${part}`;
  return out;
}

/** A property's position is its key's; anything else, the value's own. */
function keyOffset(node: Node): number {
  if (node.parent?.type === 'property' && node.parent.children?.[0]) return node.parent.children[0].offset;
  return node.offset;
}

function describeParseError(code: string): string {
  const words: Record<string, string> = {
    InvalidSymbol: 'unexpected character',
    InvalidNumberFormat: 'invalid number',
    PropertyNameExpected: 'property name expected (is there a trailing comma?)',
    ValueExpected: 'value expected (is there a trailing comma?)',
    ColonExpected: 'colon expected',
    CommaExpected: 'comma expected',
    CloseBraceExpected: 'closing brace expected',
    CloseBracketExpected: 'closing bracket expected',
    EndOfFileExpected: 'end of file expected',
    InvalidCommentToken: 'comments are not allowed in JSON',
    UnexpectedEndOfComment: 'unterminated comment',
    UnexpectedEndOfString: 'unterminated string',
    UnexpectedEndOfNumber: 'unterminated number',
    InvalidUnicode: 'invalid unicode escape',
    InvalidEscapeCharacter: 'invalid escape character',
    InvalidCharacter: 'invalid character in a string',
  };
  return words[code] ?? code;
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
