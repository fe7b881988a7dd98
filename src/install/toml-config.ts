/**
 * companion's entry in Codex's TOML configuration: the table `[mcp_servers.<name>]`. `toml-eslint-parser` (a
 * full TOML parser that keeps every node's range) reads the file; edits replace the range of an owned value,
 * remove the lines of an owned key, insert a key after the table's last owned one, or append the table — applied
 * to the bytes, so every other table, key, comment and byte stays as it was. A file that is not valid TOML
 * (duplicate keys included) is refused, and so is our entry defined any other way than as its own table (dotted
 * keys, an inline table, an array of tables), which a range edit could not change safely. Each result is parsed
 * again and must equal the old document with only companion's entry changed. Pure.
 */
import { type AST, getStaticTOMLValue, ParseError, parseTOML } from 'toml-eslint-parser';
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

/** Reads the table `[serversKey.key]` as the value a TOML reader sees (sub-tables and dotted keys included). */
export function readTomlEntry(config: ConfigText, spec: EntrySpec): EntryRead {
  const located = locateTable(config.text, spec);
  if ('reason' in located) return { status: 'invalid', reason: located.reason };
  if (located.table === undefined) return { status: 'missing' };
  return { status: 'found', entry: readEntryValue(located.program, spec) };
}

/**
 * Plans setting the owned fields of `[serversKey.key]` to `owned` (fields absent from `owned` are removed),
 * appending the table when it is missing. The caller has decided the table is companion's.
 */
export function buildTomlEntryEdit(
  config: ConfigText | undefined,
  spec: EntrySpec,
  owned: Readonly<Record<string, unknown>>,
): EditResult {
  const header = `[${formatKeyPath([spec.serversKey, spec.key])}]`;
  const body = [
    ...Object.entries(spec.createdWith ?? {}),
    ...spec.ownedFields
      .filter((field) => owned[field] !== undefined)
      .map((field) => [field, owned[field]] as const),
  ].map(([field, value]) => `${formatKeyPath([field])} = ${formatTomlValue(value)}`);
  if (config === undefined || config.text.trim() === '') {
    return { ok: true, bytes: new Uint8Array(Buffer.from(`${[header, ...body].join('\n')}\n`, 'utf8')) };
  }
  let current = config;
  const first = locateTable(current.text, spec);
  if ('reason' in first) return { ok: false, reason: first.reason };
  const before = getStaticTOMLValue(first.program) as Record<string, unknown>;
  const eol = detectLineEnd(current.text);
  if (first.table === undefined) {
    const text = current.text;
    const separator = text.endsWith('\n') ? eol : `${eol}${eol}`;
    const insert = `${separator}${[header, ...body].join(eol)}${eol}`;
    current = decodeConfig(applyEdits(current, [{ start: text.length, end: text.length, insert }]));
  } else {
    let anchor: AST.TOMLKeyValue | undefined;
    for (const field of spec.ownedFields) {
      // Ranges move with every edit: find the table again in the current text.
      const located = locateTable(current.text, spec) as Located;
      const pair = located.fields.get(field);
      const wanted = owned[field];
      let edit: TextEdit | undefined;
      if (pair === undefined) {
        if (wanted !== undefined) edit = insertPair(current.text, located.table!, anchor, field, wanted, eol);
      } else if (wanted === undefined) {
        edit = removeLines(current.text, pair.range);
      } else if (!isSameValue(getStaticTOMLValue(pair.value), wanted)) {
        edit = { start: pair.value.range[0], end: pair.value.range[1], insert: formatTomlValue(wanted) };
      }
      if (edit !== undefined) current = decodeConfig(applyEdits(current, [edit]));
      anchor = wanted === undefined ? anchor : (locateTable(current.text, spec) as Located).fields.get(field);
    }
  }
  return checkResult(current, [buildExpectedDocument(before, spec, owned)], spec);
}

/** Plans removing the table `[serversKey.key]`: its header and body lines (sub-tables are separate tables). */
export function buildTomlEntryRemoval(config: ConfigText, spec: EntrySpec): EditResult {
  const located = locateTable(config.text, spec);
  if ('reason' in located) return { ok: false, reason: located.reason };
  if (located.table === undefined) return { ok: true, bytes: config.bytes };
  const text = config.text;
  const edit = removeLines(text, located.table.range);
  // The blank line install put before an appended table goes with it.
  const blankBefore = /(\r?\n)[ \t]*\r?\n$/.exec(text.slice(0, edit.start));
  const start =
    blankBefore === null ? edit.start : edit.start - blankBefore[0].length + blankBefore[1]!.length;
  const after = decodeConfig(applyEdits(config, [{ ...edit, start }]));
  const expected = buildDocumentWithout(getStaticTOMLValue(located.program), spec);
  // A servers table that only held this entry disappears with it, unless it has a header of its own.
  const withoutServers = { ...expected };
  if (Object.keys(expected[spec.serversKey]!).length === 0) delete withoutServers[spec.serversKey];
  return checkResult(after, [expected, withoutServers], spec);
}

interface Located {
  readonly program: AST.TOMLProgram;
  /** The `[serversKey.key]` table, when the file has one. */
  readonly table?: AST.TOMLTable;
  /** Its one-segment keys. */
  readonly fields: ReadonlyMap<string, AST.TOMLKeyValue>;
}

function locateTable(text: string, spec: EntrySpec): Located | { readonly reason: string } {
  let program: AST.TOMLProgram;
  try {
    program = parseTOML(text);
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    return {
      reason: `${spec.shownPath} is not valid TOML (${error.message.replace(/\.$/, '')} at line ${error.lineNumber}, column ${error.column + 1}); fix it by hand, then run again.`,
    };
  }
  const path = [spec.serversKey, spec.key];
  const name = `[${formatKeyPath(path)}]`;
  const refuse = (how: string) => ({
    reason: `${spec.shownPath} ${how}; companion install edits only a ${name} table of its own. Change it by hand, or pass --name to use another name.`,
  });
  let table: AST.TOMLTable | undefined;
  const fields = new Map<string, AST.TOMLKeyValue>();
  for (const node of program.body[0].body) {
    if (node.type === 'TOMLTable') {
      const resolved = node.resolvedKey.map(String);
      const header = readKeys(node.key);
      if (node.kind === 'array' && (isSamePath(header, path) || isSamePath(header, [spec.serversKey]))) {
        return refuse(`declares ${formatKeyPath(header)} as an array of tables`);
      }
      const ours = node.kind === 'standard' && isSamePath(resolved, path);
      if (ours) table = node;
      // A table below ours (`[mcp_servers.fixture.env]`) is part of the entry, and the user's.
      else if (startsWith(resolved, path)) continue;
      for (const pair of node.body) {
        const keys = readKeys(pair.key);
        const full = [...resolved, ...keys];
        if (ours) {
          if (keys.length === 1) fields.set(keys[0]!, pair);
          else if (spec.ownedFields.includes(keys[0]!))
            return refuse(`writes ${formatKeyPath(full)} as a dotted key`);
        } else {
          const conflict = checkPair(full, pair, path, spec.serversKey);
          if (conflict !== undefined) return refuse(conflict);
        }
      }
    } else {
      const conflict = checkPair(readKeys(node.key), node, path, spec.serversKey);
      if (conflict !== undefined) return refuse(conflict);
    }
  }
  return table === undefined ? { program, fields } : { program, table, fields };
}

/** Why a key outside our table would collide with it, or undefined. */
function checkPair(
  full: readonly string[],
  pair: AST.TOMLKeyValue,
  path: readonly string[],
  serversKey: string,
): string | undefined {
  if (startsWith(full, path)) {
    return `defines ${formatKeyPath(full)} outside a [${formatKeyPath(path)}] table (dotted keys or an inline table)`;
  }
  if (isSamePath(full, [serversKey]) && pair.value.type === 'TOMLInlineTable') {
    return `defines ${serversKey} as an inline table, which no [${formatKeyPath(path)}] table can extend`;
  }
  return undefined;
}

function readKeys(key: AST.TOMLKey): string[] {
  return key.keys.map((k) => (k.type === 'TOMLBare' ? k.name : k.value));
}

function readEntryValue(program: AST.TOMLProgram, spec: EntrySpec): Record<string, unknown> {
  const document = getStaticTOMLValue(program) as Record<string, Record<string, Record<string, unknown>>>;
  return document[spec.serversKey]?.[spec.key] ?? {};
}

/** `field = value` on a line of its own after `anchor` (the table's last owned key, else its header line). */
function insertPair(
  text: string,
  table: AST.TOMLTable,
  anchor: AST.TOMLKeyValue | undefined,
  field: string,
  value: unknown,
  eol: string,
): TextEdit {
  const after = anchor?.range[1] ?? text.indexOf(']', table.key.range[1]) + 1;
  const lineEnd = findLineEnd(text, after);
  const reference = anchor ?? table.body[0];
  const indent =
    reference === undefined ? '' : /^[ \t]*/.exec(text.slice(findLineStart(text, reference.range[0])))![0];
  const line = `${indent}${formatKeyPath([field])} = ${formatTomlValue(value)}`;
  return { start: lineEnd, end: lineEnd, insert: `${eol}${line}` };
}

/** Removes the whole lines `range` spans, line end included (and a comment on its last line). */
function removeLines(text: string, range: readonly [number, number]): TextEdit {
  const start = findLineStart(text, range[0]);
  let end = findLineEnd(text, range[1]);
  if (text.startsWith('\r\n', end)) end += 2;
  else if (text[end] === '\n') end += 1;
  return { start, end, insert: '' };
}

function findLineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The offset of the line end (before `\r\n` or `\n`) of the line holding `offset`. */
function findLineEnd(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  if (newline === -1) return text.length;
  return text[newline - 1] === '\r' ? newline - 1 : newline;
}

function checkResult(after: ConfigText, expected: readonly unknown[], spec: EntrySpec): EditResult {
  return checkEditResult(after, expected, spec, `[${formatKeyPath([spec.serversKey, spec.key])}]`, (text) => {
    try {
      return { value: getStaticTOMLValue(parseTOML(text)) };
    } catch {
      return undefined;
    }
  });
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
}

function isSamePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && startsWith(a, b);
}

function formatKeyPath(path: readonly string[]): string {
  return path
    .map((segment) => (/^[A-Za-z0-9_-]+$/.test(segment) ? segment : formatTomlString(segment)))
    .join('.');
}

/** A TOML basic string: JSON's escapes are TOML's, plus DEL, which TOML forbids raw. */
export function formatTomlString(value: string): string {
  return JSON.stringify(value).replaceAll('\x7f', '\\u007F');
}

/** A one-line TOML value for the owned fields' types: a string or an array of strings. */
export function formatTomlValue(value: unknown): string {
  if (typeof value === 'string') return formatTomlString(value);
  if (Array.isArray(value)) return `[${value.map(formatTomlValue).join(', ')}]`;
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  throw new TypeError(`cannot write ${JSON.stringify(value)} as TOML`);
}
