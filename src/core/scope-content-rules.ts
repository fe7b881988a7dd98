/**
 * Rules on the scope file's content-model sections that its schema cannot state: a declared document field
 * that contradicts itself or redeclares a built-in one, and icons a host would refuse or that weigh down every
 * `initialize`. Each finding sits at the JSON position it concerns.
 */
import type { FieldContradiction, IconProblem } from './codes/scope-file.js';
import { codes, type Diagnostic, diagnose } from './diagnostics.js';
import { MAX_DATA_ICON_CHARS } from './limits.js';
import { BUILTIN_DOCUMENT_KEYS } from './names.js';
import type { ServerScope } from './scope-schema.js';
import { type FieldDeclaration, matchesType } from './scope-schema-content.js';

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
      out.push(diagnose(codes.fieldShadowsBuiltin, { name }, where(path)));
    }
    for (const { problem, at } of findContradictions(field)) {
      out.push(diagnose(codes.fieldDeclaration, { name, problem }, where([...path, ...at])));
    }
  }
  scope.server.icons?.forEach((icon, i) => {
    const at = where(['server', 'icons', i, 'src']);
    const problem = checkIconSource(icon.src);
    if (problem !== undefined) {
      out.push(diagnose(codes.iconSource, { index: i, problem }, at));
    } else if (icon.src.startsWith('data:') && icon.src.length > MAX_DATA_ICON_CHARS) {
      out.push(diagnose(codes.iconTooLarge, { index: i, length: icon.src.length }, at));
    }
  });
  return out;
}

/** What makes a declaration say two things at once, with the key to point at. */
function findContradictions(field: FieldDeclaration): { problem: FieldContradiction; at: string[] }[] {
  const out: { problem: FieldContradiction; at: string[] }[] = [];
  if (field.items !== undefined && field.type !== 'array') {
    out.push({ problem: { kind: 'items-not-array', type: field.type }, at: ['items'] });
  }
  if (field.enum !== undefined) {
    if (field.type === 'array') {
      out.push({ problem: { kind: 'array-enum' }, at: ['enum'] });
    } else {
      const wrong = field.enum.find((value) => !matchesType(value, field.type));
      if (wrong !== undefined) {
        out.push({ problem: { kind: 'enum-type', value: wrong, type: field.type }, at: ['enum'] });
      }
    }
  }
  const items = field.type === 'array' ? field.items : undefined;
  const wrongItem = items?.enum?.find((value) => !matchesType(value, items.type));
  if (items && wrongItem !== undefined) {
    out.push({
      problem: { kind: 'items-enum-type', value: wrongItem, type: items.type },
      at: ['items', 'enum'],
    });
  }
  return out;
}

const DATA_IMAGE = /^data:image\/[A-Za-z0-9.+-]+(?:;[A-Za-z0-9.+=-]+)*(?:;base64)?,/;

/** Why hosts would refuse an icon source, or undefined when it is an https URL or a `data:image/…` URI. */
function checkIconSource(src: string): IconProblem | undefined {
  if (src.startsWith('data:')) return DATA_IMAGE.test(src) ? undefined : { kind: 'data-not-image' };
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return { kind: 'not-a-url' };
  }
  return url.protocol === 'https:' ? undefined : { kind: 'protocol', protocol: url.protocol.slice(0, -1) };
}
