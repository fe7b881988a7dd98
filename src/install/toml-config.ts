/**
 * The TOML that `companion install` needs for Codex, and no more: find one `[mcp_servers.<key>]` table, read its
 * one-line values, and rewrite only the lines of the fields companion owns (`command`, `args`, `url`). Every
 * other line — other tables, other keys, comments, blank lines — is kept byte for byte.
 *
 * The scanner understands enough of TOML to never mistake a line inside a multi-line string or array for a
 * table header or a key. It refuses what it will not edit safely: an owned field written over several lines,
 * and our entry defined any other way than as its own table (dotted keys, an inline table).
 */
import type { ConfigEdit, ConfigEntryRead, EntryEdit } from './json-config.js';
import { isDeepEqual } from './json-config.js';
import { formatEntryCommand } from './server-entry.js';

interface Line {
  /** The line without its line end. */
  readonly text: string;
  readonly eol: string;
  readonly kind: 'blank' | 'header' | 'pair' | 'continuation';
  /** The table a pair belongs to, or a header's own path. */
  readonly table: readonly string[];
  readonly arrayTable?: boolean;
  /** A pair's dotted key. */
  readonly key?: readonly string[];
  /** Where a pair's value starts in `text`. */
  readonly valueStart?: number;
  /** Where a one-line value ends (before trailing whitespace and comment); undefined when it spans lines. */
  readonly valueEnd?: number;
}

class TomlSyntaxError extends Error {}

/** Not a value this parser reads (a date, a float with exponent…): it is kept, never compared equal. */
const UNREAD = Symbol('unread');

/** Splits `text` into classified lines. Throws `TomlSyntaxError` on what it cannot follow. */
function scanLines(text: string): Line[] {
  const lines: Line[] = [];
  const raw = text.split(/(?<=\n)/);
  let table: readonly string[] = [];
  // Open multi-line construct carried from one line to the next.
  let carry: { string?: '"""' | "'''"; depth: number } | undefined;
  raw.forEach((chunk, index) => {
    const eol = chunk.endsWith('\r\n') ? '\r\n' : chunk.endsWith('\n') ? '\n' : '';
    const line = chunk.slice(0, chunk.length - eol.length);
    const at = `line ${index + 1}`;
    if (carry !== undefined) {
      const end = scanValue(line, 0, carry, at);
      carry = end.open;
      lines.push({ text: line, eol, kind: 'continuation', table });
      return;
    }
    const start = line.search(/\S/);
    if (start === -1 || line[start] === '#') {
      lines.push({ text: line, eol, kind: 'blank', table });
      return;
    }
    if (line[start] === '[') {
      const arrayTable = line[start + 1] === '[';
      const parsed = parseKey(line, start + (arrayTable ? 2 : 1), at);
      let pos = skipSpace(line, parsed.end);
      const close = arrayTable ? ']]' : ']';
      if (!line.startsWith(close, pos)) throw new TomlSyntaxError(`a table header is not closed (${at})`);
      pos = skipSpace(line, pos + close.length);
      if (pos < line.length && line[pos] !== '#')
        throw new TomlSyntaxError(`text after a table header (${at})`);
      table = parsed.path;
      lines.push({ text: line, eol, kind: 'header', table, arrayTable });
      return;
    }
    const parsed = parseKey(line, start, at);
    let pos = skipSpace(line, parsed.end);
    if (line[pos] !== '=') throw new TomlSyntaxError(`expected "=" after a key (${at})`);
    pos = skipSpace(line, pos + 1);
    if (pos >= line.length) throw new TomlSyntaxError(`a key has no value (${at})`);
    const end = scanValue(line, pos, { depth: 0 }, at);
    carry = end.open;
    lines.push({
      text: line,
      eol,
      kind: 'pair',
      table,
      key: parsed.path,
      valueStart: pos,
      ...(end.open === undefined ? { valueEnd: end.valueEnd } : {}),
    });
  });
  if (carry !== undefined)
    throw new TomlSyntaxError('a multi-line value is not closed at the end of the file');
  return lines;
}

/**
 * Scans a value (or its continuation) from `from`: strings, brackets and the trailing comment. Answers where
 * the value's text ends, or the construct still open at the end of the line.
 */
function scanValue(
  line: string,
  from: number,
  state: { string?: '"""' | "'''"; depth: number },
  at: string,
): { valueEnd: number; open?: { string?: '"""' | "'''"; depth: number } } {
  let depth = state.depth;
  let string = state.string;
  let lastContent = from;
  let i = from;
  while (i < line.length) {
    if (string !== undefined) {
      const close = line.indexOf(string, i);
      if (string === '"""') {
        // Find an unescaped closing delimiter.
        let j = i;
        let found = -1;
        while (j < line.length) {
          if (line[j] === '\\') j += 2;
          else if (line.startsWith('"""', j)) {
            found = j;
            break;
          } else j++;
        }
        if (found === -1) return { valueEnd: line.length, open: { string, depth } };
        // A closing run may be up to five quotes long (quotes just inside the delimiter).
        let k = found + 3;
        while (line[k] === '"' && k < found + 5) k++;
        i = k;
      } else {
        if (close === -1) return { valueEnd: line.length, open: { string, depth } };
        let k = close + 3;
        while (line[k] === "'" && k < close + 5) k++;
        i = k;
      }
      string = undefined;
      lastContent = i;
      continue;
    }
    const c = line[i]!;
    if (c === '#') break;
    if (c === '"' || c === "'") {
      if (line.startsWith(c.repeat(3), i)) {
        string = c === '"' ? '"""' : "'''";
        i += 3;
        continue;
      }
      let j = i + 1;
      while (j < line.length && line[j] !== c) j += c === '"' && line[j] === '\\' ? 2 : 1;
      if (j >= line.length) throw new TomlSyntaxError(`a string is not closed (${at})`);
      i = j + 1;
      lastContent = i;
      continue;
    }
    if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth < 0) throw new TomlSyntaxError(`an unbalanced "${c}" (${at})`);
    }
    if (c !== ' ' && c !== '\t') lastContent = i + 1;
    i++;
  }
  if (string !== undefined) return { valueEnd: line.length, open: { string, depth } };
  if (depth > 0) return { valueEnd: line.length, open: { depth } };
  return { valueEnd: lastContent };
}

/** Parses a dotted key from `from`: bare, "basic" or 'literal' segments. */
function parseKey(line: string, from: number, at: string): { path: string[]; end: number } {
  const path: string[] = [];
  let pos = from;
  for (;;) {
    pos = skipSpace(line, pos);
    const c = line[pos];
    if (c === '"' || c === "'") {
      const [value, end] = parseString(line, pos);
      path.push(value);
      pos = end;
    } else {
      const bare = /^[A-Za-z0-9_-]+/.exec(line.slice(pos));
      if (bare === null) throw new TomlSyntaxError(`expected a key (${at})`);
      path.push(bare[0]);
      pos += bare[0].length;
    }
    const next = skipSpace(line, pos);
    if (line[next] !== '.') return { path, end: pos };
    pos = next + 1;
  }
}

function skipSpace(line: string, pos: number): number {
  while (line[pos] === ' ' || line[pos] === '\t') pos++;
  return pos;
}

const ESCAPES: Readonly<Record<string, string>> = {
  b: '\b',
  t: '\t',
  n: '\n',
  f: '\f',
  r: '\r',
  e: '\x1b',
  '"': '"',
  '\\': '\\',
};

/** Parses a one-line basic or literal string at `from`; answers the value and the index after it. */
function parseString(text: string, from: number): [string, number] {
  const quote = text[from];
  if (quote === "'") {
    const end = text.indexOf("'", from + 1);
    if (end === -1) throw new TomlSyntaxError('a string is not closed');
    return [text.slice(from + 1, end), end + 1];
  }
  let out = '';
  let i = from + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') return [out, i + 1];
    if (c !== '\\') {
      out += c;
      i++;
      continue;
    }
    const e = text[i + 1] ?? '';
    if (e in ESCAPES) {
      out += ESCAPES[e];
      i += 2;
    } else if (e === 'u' || e === 'U' || e === 'x') {
      const size = e === 'u' ? 4 : e === 'U' ? 8 : 2;
      const hex = text.slice(i + 2, i + 2 + size);
      if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== size) throw new TomlSyntaxError('a bad escape');
      out += String.fromCodePoint(Number.parseInt(hex, 16));
      i += 2 + size;
    } else throw new TomlSyntaxError('a bad escape');
  }
  throw new TomlSyntaxError('a string is not closed');
}

/** Parses a one-line value: strings, booleans, simple numbers, arrays and inline tables of those. */
function parseValue(text: string, from: number): [unknown, number] {
  const pos = skipSpace(text, from);
  const c = text[pos];
  if (c === '"' || c === "'") {
    if (text.startsWith(c.repeat(3), pos)) throw new TomlSyntaxError('a multi-line string');
    return parseString(text, pos);
  }
  if (c === '[') {
    const items: unknown[] = [];
    let i = skipSpace(text, pos + 1);
    while (text[i] !== ']') {
      const [item, end] = parseValue(text, i);
      items.push(item);
      i = skipSpace(text, end);
      if (text[i] === ',') i = skipSpace(text, i + 1);
      else if (text[i] !== ']') throw new TomlSyntaxError('expected "," or "]"');
    }
    return [items, i + 1];
  }
  if (c === '{') {
    const table: Record<string, unknown> = {};
    let i = skipSpace(text, pos + 1);
    while (text[i] !== '}') {
      const key = parseKey(text, i, 'an inline table');
      i = skipSpace(text, key.end);
      if (text[i] !== '=') throw new TomlSyntaxError('expected "="');
      const [value, end] = parseValue(text, i + 1);
      table[key.path.join('.')] = value;
      i = skipSpace(text, end);
      if (text[i] === ',') i = skipSpace(text, i + 1);
      else if (text[i] !== '}') throw new TomlSyntaxError('expected "," or "}"');
    }
    return [table, i + 1];
  }
  const word = /^[^\s,\]}#]+/.exec(text.slice(pos))?.[0] ?? '';
  if (word === 'true' || word === 'false') return [word === 'true', pos + word.length];
  if (/^[+-]?\d[\d_]*$/.test(word)) return [Number(word.replaceAll('_', '')), pos + word.length];
  return [UNREAD, pos + Math.max(word.length, 1)];
}

function readLineValue(line: Line): unknown {
  if (line.valueEnd === undefined) return UNREAD;
  try {
    return parseValue(line.text.slice(0, line.valueEnd), line.valueStart!)[0];
  } catch {
    return UNREAD;
  }
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
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

interface Located {
  readonly lines: Line[];
  /** Index of the `[servers.key]` header, or -1. */
  readonly header: number;
  /** Index of each one-segment key's line in that table. */
  readonly pairs: ReadonlyMap<string, number>;
}

/** Finds the table and refuses what cannot be edited safely. Throws `TomlSyntaxError` with the reason. */
function locateTable(text: string, path: readonly string[]): Located {
  const lines = scanLines(text);
  let header = -1;
  const pairs = new Map<string, number>();
  const name = `[${formatKeyPath(path)}]`;
  lines.forEach((line, index) => {
    if (line.kind === 'header') {
      if (startsWith(line.table, path) && line.arrayTable) {
        throw new TomlSyntaxError(`it declares ${formatKeyPath(line.table)} as an array of tables`);
      }
      if (line.table.length === path.length && startsWith(line.table, path)) {
        if (header !== -1) throw new TomlSyntaxError(`it declares ${name} twice`);
        header = index;
      }
      return;
    }
    if (line.kind !== 'pair') return;
    const full = [...line.table, ...line.key!];
    const inOurTable = line.table.length >= path.length && startsWith(line.table, path);
    if (!inOurTable && (startsWith(full, path) || startsWith(path, full))) {
      throw new TomlSyntaxError(
        `it defines ${formatKeyPath(full)} outside a ${name} table (dotted keys or an inline table); companion install edits only a ${name} table`,
      );
    }
    if (line.table.length === path.length && inOurTable && line.key!.length === 1) {
      if (!pairs.has(line.key![0]!)) pairs.set(line.key![0]!, index);
    }
  });
  return { lines, header, pairs };
}

/**
 * Reads the table `[serversKey.key]` of a TOML config as a flat entry of its one-line, one-segment keys (a value
 * this parser does not read stays out of the entry's equality but keeps its key). Pure.
 */
export function readTomlEntry(
  text: string,
  serversKey: string,
  key: string,
  shownPath: string,
): ConfigEntryRead {
  let located: Located;
  try {
    located = locateTable(text, [serversKey, key]);
  } catch (error) {
    if (!(error instanceof TomlSyntaxError)) throw error;
    return { status: 'invalid', reason: `${shownPath} cannot be read safely: ${error.message}.` };
  }
  if (located.header === -1) return { status: 'missing' };
  const entry: Record<string, unknown> = {};
  for (const [field, index] of located.pairs) entry[field] = readLineValue(located.lines[index]!);
  return { status: 'found', entry };
}

/**
 * Plans the edit of a TOML config (undefined text: the file does not exist): rewrites, adds or removes only the
 * lines of the owned fields in `[serversKey.key]`, keeping each rewritten line's indentation and trailing comment,
 * or appends the table when it is missing. Refuses an owned field whose value spans lines, a file it cannot
 * follow, and a table under `key` that is not companion's. Pure.
 */
export function buildTomlConfigEdit(text: string | undefined, edit: EntryEdit): ConfigEdit {
  const path = [edit.serversKey, edit.key];
  const header = `[${formatKeyPath(path)}]`;
  const body = edit.ownedFields
    .filter((field) => edit.owned[field] !== undefined)
    .map((field) => `${formatKeyPath([field])} = ${formatTomlValue(edit.owned[field])}`);
  if (text === undefined || text.trim() === '') {
    return { status: 'created', text: `${[header, ...body].join('\n')}\n` };
  }
  let located: Located;
  try {
    located = locateTable(text, path);
  } catch (error) {
    if (!(error instanceof TomlSyntaxError)) throw error;
    return {
      status: 'refused',
      reason: `${edit.shownPath} cannot be edited safely: ${error.message}. Fix it by hand, then run again.`,
    };
  }
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const { lines, pairs } = located;
  if (located.header === -1) {
    const separator = text.endsWith('\n') ? eol : `${eol}${eol}`;
    return { status: 'created', text: `${text}${separator}${[header, ...body].join(eol)}${eol}` };
  }

  const entry: Record<string, unknown> = {};
  for (const field of edit.ownedFields) {
    const index = pairs.get(field);
    if (index === undefined) continue;
    if (lines[index]!.valueEnd === undefined) {
      return {
        status: 'refused',
        reason: `${edit.shownPath} writes "${field}" of ${header} over several lines; companion install rewrites only one-line values. Put it on one line, then run again.`,
      };
    }
    entry[field] = readLineValue(lines[index]!);
  }
  if (!edit.isOurs(entry)) {
    return {
      status: 'refused',
      reason: `${edit.shownPath} already has ${header} running \`${formatEntryCommand(entry)}\`, which is not companion. companion install never overwrites an entry it did not write: rename or remove that table, then run again.`,
    };
  }

  const replaced = new Map<number, string | null>();
  const inserted = new Map<number, string[]>();
  let anchor = located.header;
  for (const field of edit.ownedFields) {
    const wanted = edit.owned[field];
    const index = pairs.get(field);
    if (index === undefined) {
      if (wanted === undefined) continue;
      const after = inserted.get(anchor) ?? [];
      after.push(`${formatKeyPath([field])} = ${formatTomlValue(wanted)}`);
      inserted.set(anchor, after);
      continue;
    }
    const line = lines[index]!;
    if (wanted === undefined) {
      replaced.set(index, null);
      continue;
    }
    anchor = index;
    if (isDeepEqual(entry[field], wanted)) continue;
    const indent = line.text.slice(0, line.text.search(/\S/));
    // Keep what follows the value (spacing and a comment) as the user wrote it.
    const rest = line.text.slice(line.valueEnd);
    replaced.set(index, `${indent}${formatKeyPath([field])} = ${formatTomlValue(wanted)}${rest}`);
  }
  if (replaced.size === 0 && inserted.size === 0) return { status: 'unchanged', text };

  let out = '';
  lines.forEach((line, index) => {
    const replacement = replaced.get(index);
    if (replacement !== null) {
      const lineEnd = line.eol === '' && inserted.has(index) ? eol : line.eol;
      out += `${replacement ?? line.text}${lineEnd}`;
    }
    for (const added of inserted.get(index) ?? []) out += `${added}${eol}`;
  });
  return { status: 'updated', text: out };
}
