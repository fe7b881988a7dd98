/**
 * CMP3xx: knowledge documents — front matter, description, title (CMP301–CMP305) and the fields the scope file
 * declares (CMP306–CMP399).
 */
import type { DiagnosticData } from '../diagnostics.js';

/** How a declared field's value does not fit its declaration. */
export type FieldMismatch =
  | { readonly kind: 'type'; readonly value: unknown; readonly type: string }
  | { readonly kind: 'item-type'; readonly index: number; readonly value: unknown; readonly type: string }
  | { readonly kind: 'enum'; readonly value: unknown; readonly allowed: readonly unknown[] }
  | {
      readonly kind: 'item-enum';
      readonly index: number;
      readonly value: unknown;
      readonly allowed: readonly unknown[];
    };

function describeValue(value: unknown): string {
  if (value === null) return 'empty (null)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'number')
    return Number.isInteger(value) ? `the integer ${value}` : `the number ${value}`;
  if (typeof value === 'boolean') return `the boolean ${value}`;
  return `the string ${JSON.stringify(value)}`;
}

function article(type: string): string {
  return type === 'array' ? 'a list' : type === 'integer' ? 'an integer' : `a ${type}`;
}

function formatValues(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

/** The phrase that follows the field's name: ` is the string "x"; the scope file declares an integer`. */
function describeMismatch(mismatch: FieldMismatch): string {
  switch (mismatch.kind) {
    case 'type':
      return ` is ${describeValue(mismatch.value)}; the scope file declares ${article(mismatch.type)}`;
    case 'item-type':
      return `[${mismatch.index}] is ${describeValue(mismatch.value)}; the scope file declares items of type ${mismatch.type}`;
    case 'enum':
      return ` is ${JSON.stringify(mismatch.value)}, not one of ${formatValues(mismatch.allowed)}`;
    case 'item-enum':
      return `[${mismatch.index}] is ${JSON.stringify(mismatch.value)}, not one of ${formatValues(mismatch.allowed)}`;
  }
}

/** Front matter that did not parse: the parser's own words for why. */
export interface ParseFailure {
  readonly reason: string;
}

export const documentCodes = {
  documentFrontMatterMissing: {
    code: 'CMP301',
    severity: 'error',
    title: 'Document has no front matter',
    message: () => 'The document does not start with a "---" front matter block.',
    hint: () => 'Start the file with a "---" line, a `description:` line, and a closing "---" line.',
    examples: [{}],
  } satisfies DiagnosticData<Record<string, never>>,
  documentYaml: {
    code: 'CMP302',
    severity: 'error',
    title: 'Document front matter is not valid YAML',
    message: ({ reason }) => `The front matter does not parse: ${reason}`,
    hint: () =>
      'Fix the YAML at the line shown; quote values that contain ": " or start with a special character.',
    examples: [{ reason: 'The front matter has no closing "---" line.' }],
  } satisfies DiagnosticData<ParseFailure>,
  documentDescription: {
    code: 'CMP303',
    severity: 'error',
    title: 'Document has no description',
    message: ({ present }) =>
      present ? '`description` must be a non-empty string.' : 'The front matter has no `description`.',
    hint: () =>
      'Add `description:` to the front matter: one or two sentences on what the page is. Hosts pick documents by it.',
    examples: [{ present: false }, { present: true }],
  } satisfies DiagnosticData<{
    /** The key is there, with a value that is not a non-empty string. */
    readonly present: boolean;
  }>,
  documentTitle: {
    code: 'CMP304',
    severity: 'error',
    title: 'Document does not have exactly one "# " title',
    message: ({ titles }) =>
      titles === 0
        ? 'The document has no "# " title line.'
        : `The document has ${titles} "# " title lines; the second is here.`,
    hint: () => 'Give the document one top-level "# Title" line; use "## " for its sections.',
    examples: [{ titles: 0 }, { titles: 2 }],
  } satisfies DiagnosticData<{ readonly titles: number }>,
  documentField: {
    code: 'CMP305',
    severity: 'warning',
    title: 'Unexpected document front matter field',
    message: (found) =>
      found.kind === 'when-to-use'
        ? '`whenToUse` must be a string.'
        : found.declared.length === 0
          ? `Front matter key "${found.key}" is not one documents take.`
          : `Front matter key "${found.key}" is not one documents take, nor one the scope file declares (${found.declared.join(', ')}).`,
    hint: () =>
      'Documents take `description` (required) and `whenToUse` (optional), both strings, and the fields the scope file declares under documents.fields: declare this one there, or remove it.',
    examples: [
      { kind: 'unknown', key: 'tags', declared: [] },
      { kind: 'unknown', key: 'tags', declared: ['level', 'hints'] },
      { kind: 'when-to-use' },
    ],
  } satisfies DiagnosticData<
    /** `whenToUse` holds something other than a string. */
    | { readonly kind: 'when-to-use' }
    | { readonly kind: 'unknown'; readonly key: string; readonly declared: readonly string[] }
  >,
  documentFieldValue: {
    code: 'CMP306',
    severity: 'error',
    title: 'Document field does not match its declaration',
    message: ({ name, mismatch }) => `Field "${name}"${describeMismatch(mismatch)}.`,
    hint: () =>
      'Give the field a value of the type (and one of the values) the scope file declares under documents.fields; the document is served as written, but the field is left out of its index entry.',
    examples: [
      { name: 'level', mismatch: { kind: 'type', value: 'high', type: 'integer' } },
      { name: 'level', mismatch: { kind: 'enum', value: 7, allowed: [1, 2, 3] } },
      { name: 'hints', mismatch: { kind: 'item-type', index: 1, value: 3, type: 'string' } },
      { name: 'hints', mismatch: { kind: 'item-enum', index: 0, value: 'x', allowed: ['a', 'b'] } },
    ],
  } satisfies DiagnosticData<{ readonly name: string; readonly mismatch: FieldMismatch }>,
  documentFieldMissing: {
    code: 'CMP307',
    severity: 'error',
    title: 'Document lacks a required field',
    message: ({ name }) => `The front matter has no "${name}", which the scope file declares as required.`,
    hint: () =>
      'Add the field to the front matter, or declare it with "required": false under documents.fields in the scope file.',
    examples: [{ name: 'owner' }],
  } satisfies DiagnosticData<{ readonly name: string }>,
};
