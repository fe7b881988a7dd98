/**
 * Edits a host's JSON (or JSONC) MCP configuration in place: only companion's owned fields of its one entry
 * change. `jsonc-parser` finds the nodes; the edits are made on the text by hand, in the file's own layout, so
 * comments, key order, formatting and every other entry and field stay exactly as the user left them.
 */
import {
  findNodeAtLocation,
  getNodeValue,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';
import { formatEntryCommand } from './server-entry.js';

/** The outcome of planning one config edit. `text` is the whole new file. */
export type ConfigEdit =
  | { readonly status: 'created' | 'updated' | 'unchanged'; readonly text: string }
  | { readonly status: 'refused'; readonly reason: string };

/** What an entry in a config file looks like to `companion doctor`. */
export type ConfigEntryRead =
  | { readonly status: 'found'; readonly entry: Record<string, unknown> }
  | { readonly status: 'missing' }
  | { readonly status: 'invalid'; readonly reason: string };

export interface EntryEdit {
  /** The servers table (`mcpServers`, `servers`). */
  readonly serversKey: string;
  /** The entry's key: the catalog's `server.name`. */
  readonly key: string;
  /** The owned fields' new values; owned fields absent here are removed. */
  readonly owned: Record<string, unknown>;
  readonly ownedFields: readonly string[];
  /** Whether an existing entry under `key` is companion's to rewrite. */
  readonly isOurs: (entry: Record<string, unknown>) => boolean;
  /** The file as messages name it. */
  readonly shownPath: string;
}

/**
 * Plans the edit of a JSON config file whose current text is `text` (undefined: the file does not exist). Refuses
 * a file that does not parse, a servers table that is not an object, and an entry under `key` that is not
 * companion's. Pure.
 */
export function buildJsonConfigEdit(text: string | undefined, edit: EntryEdit): ConfigEdit {
  const { serversKey, key, owned, shownPath } = edit;
  if (text === undefined || text.trim() === '') {
    return { status: 'created', text: `${JSON.stringify({ [serversKey]: { [key]: owned } }, null, 2)}\n` };
  }
  const read = readJsonEntry(text, serversKey, key, shownPath);
  if (read.status === 'invalid') return { status: 'refused', reason: read.reason };
  const style = detectStyle(text);
  let next = text;
  if (read.status === 'missing') {
    const tree = parseJson(next);
    const servers = findNodeAtLocation(tree, [serversKey]);
    next =
      servers === undefined
        ? insertProperty(next, tree, serversKey, { [key]: owned }, style)
        : insertProperty(next, servers, key, owned, style);
  } else {
    const entry = read.entry;
    if (!edit.isOurs(entry)) {
      return {
        status: 'refused',
        reason: `${shownPath} already has an entry "${key}" that runs \`${formatEntryCommand(entry)}\`, which is not companion. companion install never overwrites an entry it did not write: rename or remove that entry, then run install again.`,
      };
    }
    for (const field of edit.ownedFields) {
      const wanted = owned[field];
      if (isDeepEqual(entry[field], wanted)) continue;
      // Offsets move with every edit: find the entry again in the current text.
      const node = findNodeAtLocation(parseJson(next), [serversKey, key])!;
      const value = findNodeAtLocation(node, [field]);
      if (wanted === undefined) next = removeProperty(next, value!.parent!);
      else if (value !== undefined) next = replaceValue(next, value, wanted, style);
      else next = insertProperty(next, node, field, wanted, style);
    }
  }
  if (next === text) return { status: 'unchanged', text };
  return { status: 'updated', text: next.endsWith('\n') ? next : `${next}${style.eol}` };
}

/** Reads the entry `key` of the servers table `serversKey` from a JSON config's text. Pure. */
export function readJsonEntry(
  text: string,
  serversKey: string,
  key: string,
  shownPath: string,
): ConfigEntryRead {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || tree === undefined) {
    const first = errors[0];
    const where =
      first === undefined
        ? ''
        : ` (${printParseErrorCode(first.error)} at ${formatOffset(text, first.offset)})`;
    return {
      status: 'invalid',
      reason: `${shownPath} does not parse as JSON${where}; fix it by hand, then run again.`,
    };
  }
  if (tree.type !== 'object') {
    return {
      status: 'invalid',
      reason: `${shownPath} is not a JSON object; fix it by hand, then run again.`,
    };
  }
  const servers = findNodeAtLocation(tree, [serversKey]);
  if (servers === undefined) return { status: 'missing' };
  if (servers.type !== 'object') {
    return {
      status: 'invalid',
      reason: `"${serversKey}" in ${shownPath} is not an object; fix it by hand, then run again.`,
    };
  }
  const node = findNodeAtLocation(servers, [key]);
  if (node === undefined) return { status: 'missing' };
  const value: unknown = getNodeValue(node);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      status: 'invalid',
      reason: `${shownPath} has an entry "${key}" that is not an object; companion install will not replace it.`,
    };
  }
  return { status: 'found', entry: value as Record<string, unknown> };
}

/** The file's own indentation unit and line end, for everything written into it. */
interface Style {
  readonly unit: string;
  readonly eol: string;
}

function detectStyle(text: string): Style {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { unit: '\t', eol };
  return { unit: ' '.repeat(indent?.length ?? 2), eol };
}

function parseJson(text: string): Node {
  return parseTree(text, [], { allowTrailingComma: true })!;
}

/** The whitespace before `offset` on its line, when only whitespace precedes it there. */
function readIndent(text: string, offset: number): string | undefined {
  const prefix = text.slice(text.lastIndexOf('\n', offset - 1) + 1, offset);
  return /^[ \t]*$/.test(prefix) ? prefix : undefined;
}

function isOneLine(text: string, node: Node): boolean {
  return !text.slice(node.offset, node.offset + node.length).includes('\n');
}

/** `value` as JSON: one line inside a one-line object, else pretty with the file's unit, continued at `indent`. */
function formatJsonValue(value: unknown, indent: string, style: Style, oneLine: boolean): string {
  if (oneLine) return formatOneLine(value);
  return JSON.stringify(value, null, style.unit).replaceAll('\n', `${style.eol}${indent}`);
}

function formatOneLine(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(formatOneLine).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{ ${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${formatOneLine(v)}`)
      .join(', ')} }`;
  }
  return JSON.stringify(value);
}

/**
 * Appends `"key": value` to `object` after its last property, in the object's own layout, touching nothing else.
 * (`jsonc-parser`'s `modify` re-indents the neighbouring properties it formats.)
 */
function insertProperty(text: string, object: Node, key: string, value: unknown, style: Style): string {
  const children = object.children ?? [];
  // An empty object takes the layout of the object around it (a whole file of `{}` becomes pretty).
  const container = children.length === 0 ? object.parent?.parent : object;
  const oneLine = container !== undefined && isOneLine(text, container);
  const lineIndent = /^[ \t]*/.exec(text.slice(text.lastIndexOf('\n', object.offset - 1) + 1))![0];
  const last = children[children.length - 1];
  if (last === undefined) {
    const open = object.offset + 1;
    const close = object.offset + object.length - 1;
    const inner = text.slice(open, close);
    if (oneLine || inner.trim() !== '') {
      const pair = `${JSON.stringify(key)}: ${formatJsonValue(value, '', style, true)}`;
      return `${text.slice(0, open)}${inner.trim() === '' ? ` ${pair} ` : `${pair}${inner}`}${text.slice(close)}`;
    }
    const indent = lineIndent + style.unit;
    const pair = `${JSON.stringify(key)}: ${formatJsonValue(value, indent, style, false)}`;
    return `${text.slice(0, open)}${style.eol}${indent}${pair}${style.eol}${lineIndent}${text.slice(close)}`;
  }
  const lastEnd = last.offset + last.length;
  const comma = /^[ \t]*,/.exec(text.slice(lastEnd));
  let out = text;
  let at = lastEnd;
  if (comma === null) out = `${text.slice(0, lastEnd)},${text.slice(lastEnd)}`;
  at += comma === null ? 1 : comma[0].length;
  if (oneLine) {
    const pair = `${JSON.stringify(key)}: ${formatJsonValue(value, '', style, true)}`;
    return `${out.slice(0, at)} ${pair}${out.slice(at)}`;
  }
  const indent = readIndent(text, last.offset) ?? lineIndent + style.unit;
  const pair = `${JSON.stringify(key)}: ${formatJsonValue(value, indent, style, false)}`;
  // After a trailing line comment, not inside it.
  const rest = /^[ \t]*(\/\/[^\r\n]*)?/.exec(out.slice(at))![0];
  at += rest.length;
  return `${out.slice(0, at)}${style.eol}${indent}${pair}${out.slice(at)}`;
}

/** Replaces one value, formatted to sit where the old one was. */
function replaceValue(text: string, node: Node, value: unknown, style: Style): string {
  const property = node.parent!;
  const indent = readIndent(text, property.offset) ?? '';
  const formatted = formatJsonValue(value, indent, style, isOneLine(text, property.parent!));
  return `${text.slice(0, node.offset)}${formatted}${text.slice(node.offset + node.length)}`;
}

/**
 * Removes a property with the line(s) it stands on and its comma, touching nothing around it. A comment on the
 * property's own line goes with it; comments on lines of their own stay.
 */
function removeProperty(text: string, property: Node): string {
  const object = property.parent!;
  const siblings = object.children ?? [];
  const index = siblings.indexOf(property);
  const lineStart = text.lastIndexOf('\n', property.offset - 1) + 1;
  const start = text.slice(lineStart, property.offset).trim() === '' ? lineStart : property.offset;
  // After the value: spaces, its comma, spaces, a line comment, then the line end.
  const after = /^[ \t]*,?[ \t]*(\/\/[^\n]*)?(\r?\n)?/.exec(
    text.slice(property.offset + property.length),
  )![0];
  let out = text.slice(0, start) + text.slice(property.offset + property.length + after.length);
  if (index === siblings.length - 1 && index > 0) {
    // The new last property loses its comma, so JSON without trailing commas stays valid.
    const previous = siblings[index - 1]!;
    const previousEnd = previous.offset + previous.length;
    const comma = /^\s*,/.exec(out.slice(previousEnd));
    if (comma !== null) {
      const at = previousEnd + comma[0].length - 1;
      out = out.slice(0, at) + out.slice(at + 1);
    }
  }
  return out;
}

function formatOffset(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

/** Structural equality of JSON values (key order does not matter). */
export function isDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => isDeepEqual(item, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.hasOwn(b, k) && isDeepEqual((a as never)[k], (b as never)[k]))
  );
}
