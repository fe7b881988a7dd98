/**
 * companion's entry in a host's JSON (or JSONC) MCP configuration. `jsonc-parser` finds the nodes; every edit
 * is a text range inside the entry (or an insertion beside it) in the file's own layout, applied to the bytes,
 * so comments, key order, formatting, invalid bytes and every other entry stay as the user left them. Each
 * result is parsed again and must equal the old document with only companion's entry changed. Pure.
 */
import {
  getNodeValue,
  type Node,
  type ParseError,
  parse,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';
import { applyEdits, type ConfigText, decodeConfig, detectLineEnd, type TextEdit } from './config-bytes.js';
import {
  buildDocumentWithout,
  buildExpectedDocument,
  checkEditResult,
  type EditResult,
  type EntryRead,
  type EntrySpec,
  isSameValue,
} from './config-entry.js';

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false } as const;

/**
 * Reads the entry `spec.key` of the servers table. Invalid: a file that does not parse or is not an object,
 * a servers table that is not an object, an entry that is not one, and a key written twice on the way (hosts
 * read the last of duplicate keys, jsonc-parser the first: an edit would land where no host reads it).
 */
export function readJsonEntry(config: ConfigText, spec: EntrySpec): EntryRead {
  const found = locateEntry(config.text, spec);
  if ('reason' in found) return { status: 'invalid', reason: found.reason };
  if (found.entry === undefined) return { status: 'missing' };
  return { status: 'found', entry: getNodeValue(found.entry) as Record<string, unknown> };
}

/**
 * Plans setting the owned fields of the entry to `owned` (fields absent from `owned` are removed), creating the
 * entry, the servers table or the whole file as needed. The caller has decided the entry is companion's.
 */
export function buildJsonEntryEdit(
  config: ConfigText | undefined,
  spec: EntrySpec,
  owned: Readonly<Record<string, unknown>>,
): EditResult {
  const created = { ...spec.createdWith, ...owned };
  if (config === undefined || config.text.trim() === '') {
    const text = `${JSON.stringify({ [spec.serversKey]: { [spec.key]: created } }, null, 2)}\n`;
    return { ok: true, bytes: new Uint8Array(Buffer.from(text, 'utf8')) };
  }
  const before = readDocument(config.text);
  let current = config;
  const apply = (edits: TextEdit[]) => {
    current = decodeConfig(applyEdits(current, edits));
  };
  const located = locateEntry(current.text, spec);
  if ('reason' in located) return { ok: false, reason: located.reason };
  const style = detectStyle(current.text);
  if (located.entry === undefined) {
    apply(
      located.servers === undefined
        ? insertProperty(current.text, located.root, spec.serversKey, { [spec.key]: created }, style)
        : insertProperty(current.text, located.servers, spec.key, created, style),
    );
  } else {
    for (const field of spec.ownedFields) {
      // Offsets move with every edit: find the entry again in the current text.
      const entry = (locateEntry(current.text, spec) as Located).entry!;
      const property = entry.children?.find((p) => p.children?.[0]?.value === field);
      const wanted = owned[field];
      if (wanted === undefined) {
        if (property !== undefined) apply(removeProperty(current.text, property));
      } else if (property === undefined) {
        apply(insertProperty(current.text, entry, field, wanted, style));
      } else if (!isSameValue(getNodeValue(property.children![1]!), wanted)) {
        apply(replaceValue(current.text, property.children![1]!, wanted, style));
      }
    }
  }
  return checkResult(current, [buildExpectedDocument(before, spec, owned)], spec);
}

/** Plans removing the entry (its property, the lines it stands on, its comma). */
export function buildJsonEntryRemoval(config: ConfigText, spec: EntrySpec): EditResult {
  const located = locateEntry(config.text, spec);
  if ('reason' in located) return { ok: false, reason: located.reason };
  if (located.entry === undefined) return { ok: true, bytes: config.bytes };
  const after = decodeConfig(applyEdits(config, removeProperty(config.text, located.entry.parent!)));
  return checkResult(after, [buildDocumentWithout(readDocument(config.text), spec)], spec);
}

interface Located {
  readonly root: Node;
  readonly servers?: Node;
  readonly entry?: Node;
}

function locateEntry(text: string, spec: EntrySpec): Located | { readonly reason: string } {
  const { serversKey, key, shownPath } = spec;
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, PARSE_OPTIONS);
  if (errors.length > 0 || root === undefined) {
    const first = errors[0];
    const where =
      first === undefined
        ? ''
        : ` (${printParseErrorCode(first.error)} at ${formatOffset(text, first.offset)})`;
    return { reason: `${shownPath} does not parse as JSON${where}; fix it by hand, then run again.` };
  }
  if (root.type !== 'object')
    return { reason: `${shownPath} is not a JSON object; fix it by hand, then run again.` };
  const tables = findProperties(root, serversKey);
  if (tables.length > 1) return { reason: formatDuplicate(text, shownPath, `"${serversKey}"`, tables) };
  const servers = tables[0]?.children?.[1];
  if (servers === undefined) return { root };
  if (servers.type !== 'object') {
    return { reason: `"${serversKey}" in ${shownPath} is not an object; fix it by hand, then run again.` };
  }
  const entries = findProperties(servers, key);
  if (entries.length > 1) return { reason: formatDuplicate(text, shownPath, `the entry "${key}"`, entries) };
  const entry = entries[0]?.children?.[1];
  if (entry === undefined) return { root, servers };
  if (entry.type !== 'object') {
    return {
      reason: `${shownPath} has an entry "${key}" that is not an object; companion install will not replace it.`,
    };
  }
  for (const field of spec.ownedFields) {
    const twice = findProperties(entry, field);
    if (twice.length > 1)
      return { reason: formatDuplicate(text, shownPath, `"${field}" of "${key}"`, twice) };
  }
  return { root, servers, entry };
}

function findProperties(object: Node, key: string): Node[] {
  return (object.children ?? []).filter((p) => p.type === 'property' && p.children?.[0]?.value === key);
}

function formatDuplicate(text: string, shownPath: string, what: string, properties: readonly Node[]): string {
  const lines = properties.map((p) => formatOffset(text, p.offset).split(',')[0]).join(' and ');
  return `${shownPath} defines ${what} more than once (${lines}); hosts read only the last one. Keep one, then run again.`;
}

/** The parsed document; duplicate keys have been refused, so there is one meaning. */
function readDocument(text: string): unknown {
  return parse(text, [], PARSE_OPTIONS);
}

function checkResult(after: ConfigText, expected: readonly unknown[], spec: EntrySpec): EditResult {
  return checkEditResult(after, expected, spec, `the entry "${spec.key}"`, (text) => {
    const errors: ParseError[] = [];
    const value = parse(text, errors, PARSE_OPTIONS);
    return errors.length > 0 ? undefined : { value };
  });
}

/** The file's own indentation unit and line end, for everything written into it. */
interface Style {
  readonly unit: string;
  readonly eol: string;
}

function detectStyle(text: string): Style {
  const eol = detectLineEnd(text);
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { unit: '\t', eol };
  return { unit: ' '.repeat(indent?.length ?? 2), eol };
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
 * Appends `"key": value` to `object` after its last property, in the object's own layout: insertions only,
 * beside text that stays as it is. (`jsonc-parser`'s `modify` re-indents the neighbouring properties.)
 */
function insertProperty(text: string, object: Node, key: string, value: unknown, style: Style): TextEdit[] {
  const children = object.children ?? [];
  // An empty object takes the layout of the object around it (a whole file of `{}` becomes pretty).
  const container = children.length === 0 ? object.parent?.parent : object;
  const oneLine = container !== undefined && isOneLine(text, container);
  const lineIndent = /^[ \t]*/.exec(text.slice(text.lastIndexOf('\n', object.offset - 1) + 1))![0];
  const last = children[children.length - 1];
  if (last === undefined) {
    const open = object.offset + 1;
    const close = object.offset + object.length - 1;
    const blank = text.slice(open, close).trim() === '';
    if (oneLine || !blank) {
      const pair = `${JSON.stringify(key)}: ${formatJsonValue(value, '', style, true)}`;
      // Only whitespace is replaced; an object holding just a comment keeps it after the new pair.
      return [
        blank ? { start: open, end: close, insert: ` ${pair} ` } : { start: open, end: open, insert: pair },
      ];
    }
    const indent = lineIndent + style.unit;
    const pair = `${JSON.stringify(key)}: ${formatJsonValue(value, indent, style, false)}`;
    return [{ start: open, end: close, insert: `${style.eol}${indent}${pair}${style.eol}${lineIndent}` }];
  }
  const lastEnd = last.offset + last.length;
  const comma = /^[ \t]*,/.exec(text.slice(lastEnd));
  const edits: TextEdit[] = comma === null ? [{ start: lastEnd, end: lastEnd, insert: ',' }] : [];
  let at = lastEnd + (comma === null ? 0 : comma[0].length);
  if (oneLine) {
    const pair = `${JSON.stringify(key)}: ${formatJsonValue(value, '', style, true)}`;
    return [...edits, { start: at, end: at, insert: ` ${pair}` }];
  }
  const indent = readIndent(text, last.offset) ?? lineIndent + style.unit;
  const pair = `${JSON.stringify(key)}: ${formatJsonValue(value, indent, style, false)}`;
  // After a trailing line comment, not inside it.
  at += /^[ \t]*(\/\/[^\r\n]*)?/.exec(text.slice(at))![0].length;
  return [...edits, { start: at, end: at, insert: `${style.eol}${indent}${pair}` }];
}

/** Replaces one value, formatted to sit where the old one was. */
function replaceValue(text: string, node: Node, value: unknown, style: Style): TextEdit[] {
  const property = node.parent!;
  const indent = readIndent(text, property.offset) ?? '';
  const formatted = formatJsonValue(value, indent, style, isOneLine(text, property.parent!));
  return [{ start: node.offset, end: node.offset + node.length, insert: formatted }];
}

/**
 * Removes a property with the line(s) it stands on and its comma. A comment on the property's own line goes
 * with it; comments on lines of their own stay.
 */
function removeProperty(text: string, property: Node): TextEdit[] {
  const siblings = property.parent!.children ?? [];
  const index = siblings.indexOf(property);
  const lineStart = text.lastIndexOf('\n', property.offset - 1) + 1;
  const ownLine = text.slice(lineStart, property.offset).trim() === '';
  const end = property.offset + property.length;
  // After the value: spaces, its comma, spaces, a line comment, then the line end (when it stood alone).
  const after = /^[ \t]*,?[ \t]*(\/\/[^\n]*)?/.exec(text.slice(end))![0];
  const eol = ownLine ? (/^\r?\n/.exec(text.slice(end + after.length))?.[0] ?? '') : '';
  const last = index === siblings.length - 1 && index > 0;
  // The last pair of a one-line object takes the space before it along (its comma goes below).
  const space = !ownLine && last ? /[ \t]*$/.exec(text.slice(0, property.offset))![0].length : 0;
  const start = ownLine ? lineStart : property.offset - space;
  const edits: TextEdit[] = [{ start, end: end + after.length + eol.length, insert: '' }];
  if (last) {
    // The new last property loses its comma, so JSON without trailing commas stays valid.
    const previous = siblings[index - 1]!;
    const previousEnd = previous.offset + previous.length;
    const comma = /^\s*,/.exec(text.slice(previousEnd));
    if (comma !== null) {
      const at = previousEnd + comma[0].length - 1;
      if (at < edits[0]!.start) edits.push({ start: at, end: at + 1, insert: '' });
    }
  }
  return edits;
}

function formatOffset(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}
