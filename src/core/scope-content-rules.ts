/**
 * Rules on the scope file's content-model sections that its schema cannot state: a declared document field
 * that contradicts itself or redeclares a built-in one, and icons a host would refuse or that weigh down every
 * `initialize`. Each finding sits at the JSON position it concerns.
 */
import { codes, type Diagnostic, diagnose } from './diagnostics.js';
import { BUILTIN_DOCUMENT_KEYS } from './documents.js';
import type { ServerScope } from './scope-schema.js';
import { type FieldDeclaration, MAX_DATA_ICON_CHARS, matchesType } from './scope-schema-content.js';

type PositionOf = (path: readonly (string | number)[]) => { line: number; column: number } | undefined;

export function validateContentDeclarations(
  scope: ServerScope,
  file: string,
  positionOf: PositionOf,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const where = (path: (string | number)[]) => ({ file, ...positionOf(path) });
  for (const [name, field] of Object.entries(scope.documents?.fields ?? {})) {
    const path = ['documents', 'fields', name];
    if (BUILTIN_DOCUMENT_KEYS.has(name)) {
      out.push(
        diagnose(
          codes.fieldShadowsBuiltin,
          `documents.fields declares "${name}", which every document already has.`,
          where(path),
        ),
      );
    }
    for (const problem of findContradictions(field)) {
      out.push(
        diagnose(
          codes.fieldDeclaration,
          `documents.fields.${name}: ${problem.message}.`,
          where([...path, ...problem.at]),
        ),
      );
    }
  }
  scope.server.icons?.forEach((icon, i) => {
    const at = where(['server', 'icons', i, 'src']);
    const problem = checkIconSource(icon.src);
    if (problem !== undefined) {
      out.push(diagnose(codes.iconSource, `server.icons[${i}].src ${problem}.`, at));
    } else if (icon.src.startsWith('data:') && icon.src.length > MAX_DATA_ICON_CHARS) {
      out.push(
        diagnose(
          codes.iconTooLarge,
          `server.icons[${i}].src is a data: URI of ${icon.src.length} characters; every initialize answer carries it.`,
          at,
        ),
      );
    }
  });
  return out;
}

/** What makes a declaration say two things at once, with the key to point at. */
function findContradictions(field: FieldDeclaration): { message: string; at: string[] }[] {
  const out: { message: string; at: string[] }[] = [];
  if (field.items !== undefined && field.type !== 'array') {
    out.push({ message: `"items" applies only to "type": "array", not "${field.type}"`, at: ['items'] });
  }
  if (field.enum !== undefined) {
    if (field.type === 'array') {
      out.push({ message: 'an array lists its allowed values under "items", not "enum"', at: ['enum'] });
    } else {
      const wrong = field.enum.find((value) => !matchesType(value, field.type));
      if (wrong !== undefined) {
        out.push({
          message: `enum value ${JSON.stringify(wrong)} is not of type "${field.type}"`,
          at: ['enum'],
        });
      }
    }
  }
  const items = field.type === 'array' ? field.items : undefined;
  const wrongItem = items?.enum?.find((value) => !matchesType(value, items.type));
  if (items && wrongItem !== undefined) {
    out.push({
      message: `items.enum value ${JSON.stringify(wrongItem)} is not of type "${items.type}"`,
      at: ['items', 'enum'],
    });
  }
  return out;
}

const DATA_IMAGE = /^data:image\/[A-Za-z0-9.+-]+(?:;[A-Za-z0-9.+=-]+)*(?:;base64)?,/;

/** Why hosts would refuse an icon source, or undefined when it is an https URL or a `data:image/…` URI. */
function checkIconSource(src: string): string | undefined {
  if (src.startsWith('data:')) {
    return DATA_IMAGE.test(src) ? undefined : 'is a data: URI that is not data:image/<type>[;base64],…';
  }
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return 'is neither a URL nor a data: URI';
  }
  return url.protocol === 'https:'
    ? undefined
    : `uses ${url.protocol.slice(0, -1)}:, which hosts do not fetch`;
}
