/**
 * CMP1xx: knowledge/server-scope.json — whether it parses and validates (CMP100–CMP107), whether its prose tells
 * the truth (CMP108–CMP149), and its content-model sections (CMP150–CMP199).
 */
import type { DiagnosticData } from '../diagnostics.js';
import { formatSize, INSTRUCTIONS_BUDGET, MAX_DATA_ICON_CHARS } from '../limits.js';
import {
  BUILTIN_DOCUMENT_KEYS,
  formatList,
  SCOPE_FILE,
  SCOPE_SCHEMA_FILE,
  TOOL_NAMES,
  TOOLS,
} from '../names.js';
import { COMMAND_NAME, EXCLUDE_TOOLS_VARIABLE } from '../product.js';

/** A JSON path as the scope file's keys spell it: `topics[2].scope` for `['topics', 2, 'scope']`. */
export type JsonPath = readonly (string | number)[];

/** `topics[2].scope` from `['topics', 2, 'scope']`. */
export function formatJsonPath(path: JsonPath): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out === '' ? part : `.${part}`;
  return out;
}

/** jsonc-parser's error codes (`printParseErrorCode`), in words. */
const PARSE_ERRORS: Readonly<Record<string, string>> = {
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

/** What the schema found wrong at a path. */
export type SchemaIssue =
  | { readonly kind: 'unknown-keys'; readonly keys: readonly string[] }
  | { readonly kind: 'missing'; readonly expected: string }
  /** Anything else, in the schema library's own words (`must not be empty`). */
  | { readonly kind: 'invalid'; readonly message: string };

function describeIssue(issue: SchemaIssue): string {
  switch (issue.kind) {
    case 'unknown-keys':
      return `unknown ${issue.keys.length === 1 ? 'key' : 'keys'} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    case 'missing':
      return `required ${issue.expected} is missing`;
    case 'invalid':
      return issue.message;
  }
}

/** Why a declared document field says two things at once. */
export type FieldContradiction =
  | { readonly kind: 'items-not-array'; readonly type: string }
  | { readonly kind: 'array-enum' }
  | { readonly kind: 'enum-type' | 'items-enum-type'; readonly value: unknown; readonly type: string };

function describeContradiction(problem: FieldContradiction): string {
  switch (problem.kind) {
    case 'items-not-array':
      return `"items" applies only to "type": "array", not "${problem.type}"`;
    case 'array-enum':
      return 'an array lists its allowed values under "items", not "enum"';
    case 'enum-type':
      return `enum value ${JSON.stringify(problem.value)} is not of type "${problem.type}"`;
    case 'items-enum-type':
      return `items.enum value ${JSON.stringify(problem.value)} is not of type "${problem.type}"`;
  }
}

/** Why hosts would refuse an icon's `src`. */
export type IconProblem =
  | { readonly kind: 'data-not-image' }
  | { readonly kind: 'not-a-url' }
  | { readonly kind: 'protocol'; readonly protocol: string };

function describeIcon(problem: IconProblem): string {
  switch (problem.kind) {
    case 'data-not-image':
      return 'is a data: URI that is not data:image/<type>[;base64],…';
    case 'not-a-url':
      return 'is neither a URL nor a data: URI';
    case 'protocol':
      return `uses ${problem.protocol}:, which hosts do not fetch`;
  }
}

const toolList = TOOL_NAMES.join(', ');

export const scopeFileCodes = {
  scopeMissing: {
    code: 'CMP100',
    severity: 'error',
    title: 'Scope file missing',
    message: () => `${SCOPE_FILE} does not exist.`,
    hint: () =>
      `Create ${SCOPE_FILE} (run \`${COMMAND_NAME} init\` in an empty directory to see one), or point --root at the repository that has it.`,
    examples: [{}],
  } satisfies DiagnosticData<Record<string, never>>,
  scopeJsonSyntax: {
    code: 'CMP101',
    severity: 'error',
    title: 'Scope file is not valid JSON',
    message: ({ error }) => `${SCOPE_FILE} is not valid JSON: ${PARSE_ERRORS[error] ?? error}.`,
    hint: () =>
      'Fix the JSON at the position shown: a missing comma, a trailing comma or a comment are the usual causes.',
    examples: [{ error: 'PropertyNameExpected' }, { error: 'InvalidCommentToken' }],
  } satisfies DiagnosticData<{
    /** jsonc-parser's name for the error (`printParseErrorCode`): `CommaExpected`, … */
    readonly error: string;
  }>,
  scopeSchema: {
    code: 'CMP102',
    severity: 'error',
    title: 'Scope file does not match its schema',
    message: ({ path, issue }) => `${formatJsonPath(path) || 'The scope file'}: ${describeIssue(issue)}.`,
    hint: () =>
      `Keep "$schema": "./${SCOPE_SCHEMA_FILE}" in the file so your editor completes and checks every field.`,
    examples: [
      { path: ['topics', 0], issue: { kind: 'unknown-keys', keys: ['summary'] } },
      { path: ['purpose'], issue: { kind: 'missing', expected: 'string' } },
      {
        path: ['server', 'name'],
        issue: { kind: 'invalid', message: 'lowercase letters, digits and single inner hyphens' },
      },
    ],
  } satisfies DiagnosticData<{ readonly path: JsonPath; readonly issue: SchemaIssue }>,
  unknownScope: {
    code: 'CMP103',
    severity: 'error',
    title: 'Unknown scope',
    message: ({ topic, scope, declared }) =>
      `Topic "${topic}" names scope "${scope}", which "scopes" does not declare (declared: ${declared.join(', ')}).`,
    hint: () => 'Use one of the ids declared under "scopes", or declare the scope there.',
    examples: [{ topic: 'releases', scope: 'ops', declared: ['any', 'local'] }],
  } satisfies DiagnosticData<{
    readonly topic: string;
    readonly scope: string;
    readonly declared: readonly string[];
  }>,
  unknownTool: {
    code: 'CMP104',
    severity: 'error',
    title: 'Unknown tool',
    message: ({ tool }) => `"${tool}" is not a tool companion serves (${toolList}).`,
    hint: () => `Name one of the tools companion serves: ${toolList}.`,
    examples: [{ tool: 'document_search' }],
  } satisfies DiagnosticData<{ readonly tool: string }>,
  instructionsOverBudget: {
    code: 'CMP105',
    severity: 'error',
    title: `Instructions over ${INSTRUCTIONS_BUDGET} characters`,
    message: ({ length }) =>
      `The assembled instructions are ${length} characters; hosts keep ${INSTRUCTIONS_BUDGET}.`,
    hint: () => 'Shorten "instructions" (start, index, then): hosts silently cut what does not fit.',
    examples: [{ length: 2311 }],
  } satisfies DiagnosticData<{ readonly length: number }>,
  duplicateId: {
    code: 'CMP106',
    severity: 'error',
    title: 'Duplicate id',
    message: ({ kind, id }) => `${kind === 'scope' ? 'Scope' : 'Topic'} id "${id}" is declared twice.`,
    hint: () => 'Give every scope and every topic its own id.',
    examples: [
      { kind: 'topic', id: 'releases' },
      { kind: 'scope', id: 'any' },
    ],
  } satisfies DiagnosticData<{ readonly kind: 'scope' | 'topic'; readonly id: string }>,
  schemaReference: {
    code: 'CMP107',
    severity: 'warning',
    title: 'Scope file does not reference its JSON Schema',
    message: (found) =>
      found.kind === 'missing'
        ? `${SCOPE_FILE} has no "$schema" key.`
        : `${SCOPE_FILE} points "$schema" at ${JSON.stringify(found.value)}, not ./${SCOPE_SCHEMA_FILE}.`,
    hint: () =>
      `Add "$schema": "./${SCOPE_SCHEMA_FILE}" as the first key so editors complete and check the file.`,
    examples: [{ kind: 'missing' }, { kind: 'other', value: 'https://example.com/schema.json' }],
  } satisfies DiagnosticData<
    { readonly kind: 'missing' } | { readonly kind: 'other'; readonly value: unknown }
  >,
  proseUnknownTool: {
    code: 'CMP108',
    severity: 'warning',
    title: 'Scope prose names a tool this server does not serve',
    message: ({ path, name, near }) =>
      `The scope file's ${formatJsonPath(path)} names "${name}", which is not a tool companion serves${near ? `; did you mean ${near}?` : '.'}`,
    hint: () =>
      `The model reads the instructions, routing and "not covered" entries as written and calls what they name. Name one of the tools companion serves (${toolList}), or reword the text.`,
    examples: [
      { path: ['instructions', 'start'], name: 'document_search', near: TOOLS.lookup },
      { path: ['routing', 2, 'when'], name: 'run_tests' },
    ],
  } satisfies DiagnosticData<{
    readonly path: JsonPath;
    readonly name: string;
    /** The served tool it is a near miss of, if any. */
    readonly near?: string;
  }>,
  toolUnreached: {
    code: 'CMP109',
    severity: 'warning',
    title: 'A tool no topic reaches',
    message: ({ tool }) => `No topic lists the tool ${tool}, which this server serves.`,
    hint: () =>
      `Add the tool to the "tools" of the topics it answers, or exclude it from the server (${EXCLUDE_TOOLS_VARIABLE}) if nothing here needs it: a tool no topic names is offered with nothing to say about it.`,
    examples: [{ tool: TOOLS.guide }],
  } satisfies DiagnosticData<{ readonly tool: string }>,
  routingUnknownTarget: {
    code: 'CMP110',
    severity: 'error',
    title: 'Routing names a document or skill that does not exist',
    message: ({ path, target, written, draft }) =>
      `${formatJsonPath(path)} names ${target.kind} "${target.id}" (${JSON.stringify(written)}), which ${draft ? 'is a draft and so not published' : 'does not exist'}.`,
    hint: () =>
      `Correct the id in "with" (a skill id for ${TOOLS.load}, a document id or URI for ${TOOLS.lookup}), or write the document or skill. The model passes it to the tool as written, and the call fails.`,
    examples: [
      {
        path: ['routing', 0, 'with'],
        target: { kind: 'skill', id: 'release' },
        written: 'release',
        draft: false,
      },
      {
        path: ['routing', 1, 'then', 0, 'with'],
        target: { kind: 'document', id: 'any/hosts/codx' },
        written: 'any/hosts/codx',
        draft: false,
      },
      { path: ['routing', 2, 'with'], target: { kind: 'skill', id: 'wip' }, written: 'wip', draft: true },
    ],
  } satisfies DiagnosticData<{
    readonly path: JsonPath;
    readonly target: { readonly kind: 'document' | 'skill'; readonly id: string };
    /** The words that named it, as written. */
    readonly written: string;
    /** It exists, but as a draft. */
    readonly draft: boolean;
  }>,
  fieldDeclaration: {
    code: 'CMP150',
    severity: 'error',
    title: 'Declared document field contradicts itself',
    message: ({ name, problem }) => `documents.fields.${name}: ${describeContradiction(problem)}.`,
    hint: () =>
      'Give "items" only to a field of "type": "array", write "enum" values of the declared type, and list an array\'s allowed values under its "items".',
    examples: [
      { name: 'level', problem: { kind: 'items-not-array', type: 'integer' } },
      { name: 'tags', problem: { kind: 'array-enum' } },
      { name: 'level', problem: { kind: 'enum-type', value: 'high', type: 'integer' } },
      { name: 'tags', problem: { kind: 'items-enum-type', value: 3, type: 'string' } },
    ],
  } satisfies DiagnosticData<{ readonly name: string; readonly problem: FieldContradiction }>,
  fieldShadowsBuiltin: {
    code: 'CMP151',
    severity: 'error',
    title: 'Declared document field is a built-in one',
    message: ({ name }) => `documents.fields declares "${name}", which every document already has.`,
    hint: () =>
      `${formatList([...BUILTIN_DOCUMENT_KEYS])} are fields every document already has; declare only fields of your own under documents.fields.`,
    examples: [{ name: 'description' }],
  } satisfies DiagnosticData<{ readonly name: string }>,
  iconSource: {
    code: 'CMP152',
    severity: 'error',
    title: 'Icon source is not https or a data: image',
    message: ({ index, problem }) => `server.icons[${index}].src ${describeIcon(problem)}.`,
    hint: () =>
      'Hosts fetch only https icons or read data: URIs; use "https://…" or "data:image/png;base64,…" (svg+xml, png, jpeg, webp).',
    examples: [
      { index: 0, problem: { kind: 'protocol', protocol: 'http' } },
      { index: 0, problem: { kind: 'data-not-image' } },
      { index: 1, problem: { kind: 'not-a-url' } },
    ],
  } satisfies DiagnosticData<{ readonly index: number; readonly problem: IconProblem }>,
  iconTooLarge: {
    code: 'CMP153',
    severity: 'warning',
    title: `Icon data: URI over ${formatSize(MAX_DATA_ICON_CHARS)}`,
    message: ({ index, length }) =>
      `server.icons[${index}].src is a data: URI of ${length} characters; every initialize answer carries it.`,
    hint: () => 'Every initialize answer carries the icon: shrink the image, or serve it from an https URL.',
    examples: [{ index: 0, length: 91_234 }],
  } satisfies DiagnosticData<{ readonly index: number; readonly length: number }>,
};
