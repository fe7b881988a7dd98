/**
 * A document's own front matter fields, judged by what the scope file declares under `documents.fields` (a small
 * JSON Schema subset: type, items, enum, required): the valid values become the document's `fields` (and its
 * index entry's), a value that does not match or a required field that is missing is an error at the key, and
 * a key nobody declared is a warning as before. The bytes served are never touched: this only reads.
 */
import type { FieldMismatch } from './codes/documents.js';
import { codes, type Diagnostic, diagnose } from './diagnostics.js';
import type { DocumentKeys } from './documents.js';
import { type Memo, memoTable, NO_MEMO } from './memo.js';
import { type FieldDeclaration, matchesType } from './scope-schema-content.js';

export type FieldDeclarations = Readonly<Record<string, FieldDeclaration>>;

export interface DocumentFieldsCheck {
  /** The declared fields with a valid value, in declaration order. */
  readonly fields: Readonly<Record<string, unknown>>;
  readonly diagnostics: readonly Diagnostic[];
}

const NONE: DocumentFieldsCheck = { fields: {}, diagnostics: [] };
const CHECKS = memoTable<DocumentKeys, { readonly declared: FieldDeclarations; result: DocumentFieldsCheck }>(
  'document-fields.checks',
);

/**
 * Checks `document`'s front matter keys beside description and whenToUse against `declared`. Pure; memoized on
 * the parsed document and the declarations object (the scope file's, which a rebuild keeps while its text does).
 */
export function checkDocumentFields(
  document: DocumentKeys,
  declared: FieldDeclarations,
  memo: Memo = NO_MEMO,
): DocumentFieldsCheck {
  const names = Object.keys(declared);
  // Most documents of most repositories: nothing declared, nothing extra, and no memo entry for them.
  if (names.length === 0 && document.extraKeys.size === 0) return NONE;
  const checks = memo.table(CHECKS);
  const cached = checks.get(document);
  if (cached?.declared === declared) return cached.result;
  const result = check(document, declared, names);
  checks.set(document, { declared, result });
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
        diagnose(codes.documentField, { kind: 'unknown', key, declared: names }, { file, ...position }),
      );
    }
  }
  const fields: Record<string, unknown> = {};
  for (const name of names) {
    const declaration = declared[name]!;
    const found = document.extraKeys.get(name);
    if (found === undefined) {
      if (declaration.required) {
        diagnostics.push(diagnose(codes.documentFieldMissing, { name }, { file, line: 1 }));
      }
      continue;
    }
    const mismatch = findMismatch(found.value, declaration);
    if (mismatch === undefined) fields[name] = found.value;
    else
      diagnostics.push(diagnose(codes.documentFieldValue, { name, mismatch }, { file, ...found.position }));
  }
  return { fields, diagnostics };
}

/** How `value` does not fit `declaration`, or undefined when it does. */
function findMismatch(value: unknown, declaration: FieldDeclaration): FieldMismatch | undefined {
  if (!matchesType(value, declaration.type)) return { kind: 'type', value, type: declaration.type };
  if (declaration.type === 'array') {
    const items = declaration.items;
    if (items === undefined) return undefined;
    const list = value as readonly unknown[];
    for (let index = 0; index < list.length; index++) {
      const item = list[index];
      if (!matchesType(item, items.type)) return { kind: 'item-type', index, value: item, type: items.type };
      if (items.enum && !items.enum.includes(item as string | number | boolean)) {
        return { kind: 'item-enum', index, value: item, allowed: items.enum };
      }
    }
    return undefined;
  }
  if (declaration.enum && !declaration.enum.includes(value as string | number | boolean)) {
    return { kind: 'enum', value, allowed: declaration.enum };
  }
  return undefined;
}
