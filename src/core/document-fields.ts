/**
 * A document's own front matter fields, judged by what the scope file declares under `documents.fields` (a small
 * JSON Schema subset: type, items, enum, required): the valid values become the document's `fields` (and its
 * index entry's), a value that does not match or a required field that is missing is an error at the key, and
 * a key nobody declared is a warning as before. The bytes served are never touched: this only reads.
 */
import { codes, type Diagnostic, diagnose } from './diagnostics.js';
import type { DocumentKeys } from './documents.js';
import { type FieldDeclaration, matchesType } from './scope-schema-content.js';

export type FieldDeclarations = Readonly<Record<string, FieldDeclaration>>;

export interface DocumentFieldsCheck {
  /** The declared fields with a valid value, in declaration order. */
  readonly fields: Readonly<Record<string, unknown>>;
  readonly diagnostics: readonly Diagnostic[];
}

const NONE: DocumentFieldsCheck = { fields: {}, diagnostics: [] };
const memo = new WeakMap<
  DocumentKeys,
  { readonly declared: FieldDeclarations; result: DocumentFieldsCheck }
>();
/** The declared names of each declarations object (one per scope file read). */
const namesOf = new WeakMap<FieldDeclarations, readonly string[]>();

/**
 * Checks `document`'s front matter keys beside description and whenToUse against `declared`. Pure; memoized on
 * the parsed document and the declarations object (the scope file's, which a rebuild keeps while its text does).
 */
export function checkDocumentFields(
  document: DocumentKeys,
  declared: FieldDeclarations,
): DocumentFieldsCheck {
  let names = namesOf.get(declared);
  if (names === undefined) {
    names = Object.keys(declared);
    namesOf.set(declared, names);
  }
  // Most documents of most repositories: nothing declared, nothing extra, and no memo entry for them.
  if (names.length === 0 && document.extraKeys.size === 0) return NONE;
  const cached = memo.get(document);
  if (cached?.declared === declared) return cached.result;
  const result = check(document, declared, names);
  memo.set(document, { declared, result });
  return result;
}

function check(
  document: DocumentKeys,
  declared: FieldDeclarations,
  names: readonly string[],
): DocumentFieldsCheck {
  const file = document.path;
  const diagnostics: Diagnostic[] = [];
  for (const [key, { position }] of document.extraKeys) {
    if (declared[key] === undefined) {
      diagnostics.push(
        diagnose(
          codes.documentField,
          names.length === 0
            ? `Front matter key "${key}" is not one documents take.`
            : `Front matter key "${key}" is not one documents take, nor one the scope file declares (${names.join(', ')}).`,
          { file, ...position },
        ),
      );
    }
  }
  const fields: Record<string, unknown> = {};
  for (const name of names) {
    const declaration = declared[name]!;
    const found = document.extraKeys.get(name);
    if (found === undefined) {
      if (declaration.required) {
        diagnostics.push(
          diagnose(
            codes.documentFieldMissing,
            `The front matter has no "${name}", which the scope file declares as required.`,
            { file, line: 1 },
          ),
        );
      }
      continue;
    }
    const problem = findMismatch(found.value, declaration);
    if (problem === undefined) fields[name] = found.value;
    else {
      diagnostics.push(
        diagnose(codes.documentFieldValue, `Field "${name}"${problem}.`, { file, ...found.position }),
      );
    }
  }
  return { fields, diagnostics };
}

/** Why `value` does not fit `declaration` (a phrase that follows the field's name), or undefined. */
function findMismatch(value: unknown, declaration: FieldDeclaration): string | undefined {
  if (!matchesType(value, declaration.type)) {
    return ` is ${describeValue(value)}; the scope file declares ${article(declaration.type)}`;
  }
  if (declaration.type === 'array') {
    const items = declaration.items;
    if (items === undefined) return undefined;
    const list = value as readonly unknown[];
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      if (!matchesType(item, items.type)) {
        return `[${i}] is ${describeValue(item)}; the scope file declares items of type ${items.type}`;
      }
      if (items.enum && !items.enum.includes(item as string | number | boolean)) {
        return `[${i}] is ${JSON.stringify(item)}, not one of ${formatValues(items.enum)}`;
      }
    }
    return undefined;
  }
  if (declaration.enum && !declaration.enum.includes(value as string | number | boolean)) {
    return ` is ${JSON.stringify(value)}, not one of ${formatValues(declaration.enum)}`;
  }
  return undefined;
}

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
