/**
 * The fast path of `parseFrontMatter` (front-matter.ts): flat `key: value` front matter read by hand, line by
 * line, answering exactly what the `yaml` path answers for what it accepts and declining (undefined) everything
 * else; and the YAML 1.1 ambiguities both paths report the same way.
 */
import type { Ambiguity, FrontMatter, Position } from './front-matter.js';

const YAML11_BOOLEAN = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/;
const YAML11_TIMESTAMP = /^\d{4}-\d{1,2}-\d{1,2}(?:[Tt ]|$)/;
const YAML11_OCTAL_OR_SEXAGESIMAL = /^(?:[-+]?0[0-7]+|[-+]?\d+(?::[0-5]?\d)+(?:\.\d*)?)$/;
export const CARRIAGE_RETURN = 'holds a stray carriage return (\\r)';

/** Why a plain scalar written as `source` reads differently under YAML 1.1, if it does. */
export function plainAmbiguity(source: string): string | undefined {
  if (YAML11_BOOLEAN.test(source)) return `is "${source}", which YAML 1.1 parsers read as a boolean`;
  if (YAML11_TIMESTAMP.test(source)) return `is "${source}", which YAML 1.1 parsers read as a date`;
  if (YAML11_OCTAL_OR_SEXAGESIMAL.test(source)) {
    return `is "${source}", which YAML 1.1 parsers read as a different number`;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// The fast path. Accepted, line by line (after CRLF → LF):
//   - an empty or all-space line;
//   - `key:` at column 1, then one space or more and a value, or nothing (null, or the start of a nested mapping);
//   - `  key: value` / `  key:` lines, all at the same indentation, right after an empty-valued top-level key.
// A key is ASCII `[A-Za-z_][A-Za-z0-9_.-]*` that the core schema reads as a string. A value is one of:
//   - a double-quoted scalar closed on its line, with the escapes YAML 1.2 defines (`\x`, `\u`, `\U` included);
//   - a single-quoted scalar closed on its line (`''` is a quote);
//   - a plain scalar that cannot be anything else: it does not start with an indicator, holds no `: ` and no ` #`,
//     does not end with `:`; it is resolved with the core schema's own tests, in the core schema's order.
// Only spaces may follow a quoted scalar. Tabs, carriage returns, other control characters, U+2028/2029, a BOM
// and lone surrogates anywhere send the whole front matter to `yaml`.

const UNSAFE =
  /[\t\r\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const ENTRY = /^( *)([A-Za-z_][\w.-]*):(?: +|$)(.*)$/;
const BLANK = /^ *$/;
/** Keys the core schema does not read as strings, and a key a plain object cannot hold. */
const NON_STRING_KEY = /^(?:[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|__proto__)$/;
/** First characters of a plain scalar that mean something else (quotes are handled before). */
const INDICATOR = /^(?:[?:,[\]{}#&*!|>%@`]|-(?: |$))/;
const MAX_KEY_LENGTH = 128;

// The core schema's scalar tags, in its order (node_modules/yaml/dist/schema/core/*.js).
const CORE_NULL = /^(?:~|[Nn]ull|NULL)?$/;
const CORE_BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const CORE_INT_OCT = /^0o[0-7]+$/;
const CORE_INT = /^[-+]?[0-9]+$/;
const CORE_INT_HEX = /^0x[0-9a-fA-F]+$/;
const CORE_FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const CORE_FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const CORE_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

function resolvePlain(source: string): unknown {
  if (CORE_NULL.test(source)) return null;
  if (CORE_BOOL.test(source)) return source[0] === 't' || source[0] === 'T';
  if (CORE_INT_OCT.test(source)) return Number.parseInt(source.substring(2), 8);
  if (CORE_INT.test(source)) return Number.parseInt(source, 10);
  if (CORE_INT_HEX.test(source)) return Number.parseInt(source.substring(2), 16);
  if (CORE_FLOAT_NAN.test(source)) {
    if (source.slice(-3).toLowerCase() === 'nan') return Number.NaN;
    return source[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (CORE_FLOAT_EXP.test(source) || CORE_FLOAT.test(source)) return Number.parseFloat(source);
  return source;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
};
const HEX_LENGTH: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };
const HEX = /^[0-9a-fA-F]+$/;

/** A one-line double-quoted scalar starting at `text[0]`: its value and where its closing quote is. */
function readDoubleQuoted(text: string): { value: string; end: number } | undefined {
  let value = '';
  let from = 1;
  for (let i = 1; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22) return { value: value + text.slice(from, i), end: i };
    if (ch !== 0x5c) continue;
    value += text.slice(from, i);
    const next = text[i + 1];
    if (next === undefined) return undefined; // an escaped line break: the scalar goes on
    const simple = ESCAPES[next];
    if (simple !== undefined) {
      value += simple;
      i += 1;
    } else {
      const length = HEX_LENGTH[next];
      if (length === undefined) return undefined;
      const hex = text.substr(i + 2, length);
      if (hex.length !== length || !HEX.test(hex)) return undefined;
      const code = Number.parseInt(hex, 16);
      if (code > 0x10ffff) return undefined;
      value += String.fromCodePoint(code);
      i += 1 + length;
    }
    from = i + 1;
  }
  return undefined;
}

/** A one-line single-quoted scalar starting at `text[0]`: its value and where its closing quote is. */
function readSingleQuoted(text: string): { value: string; end: number } | undefined {
  let value = '';
  let from = 1;
  for (;;) {
    const quote = text.indexOf("'", from);
    if (quote === -1) return undefined;
    if (text.charCodeAt(quote + 1) === 0x27) {
      value += text.slice(from, quote + 1);
      from = quote + 2;
    } else {
      return { value: value + text.slice(from, quote), end: quote };
    }
  }
}

/** Whether `text` from `from` on is spaces only. */
function onlySpaces(text: string, from: number): boolean {
  for (let i = from; i < text.length; i++) if (text.charCodeAt(i) !== 0x20) return false;
  return true;
}

/**
 * Reads the value `text` (non-empty, no leading space) of `key`, whose first character is on file `line`,
 * `column`; records its ambiguities. Returns `undefined` when the value is outside the subset.
 */
function readValue(
  text: string,
  key: string,
  line: number,
  column: number,
  ambiguities: Ambiguity[],
): { value: unknown } | undefined {
  const first = text.charCodeAt(0);
  if (first === 0x22 || first === 0x27) {
    const quoted = first === 0x22 ? readDoubleQuoted(text) : readSingleQuoted(text);
    if (quoted === undefined || !onlySpaces(text, quoted.end + 1)) return undefined;
    if (quoted.value.includes('\r')) ambiguities.push({ key, reason: CARRIAGE_RETURN, line, column });
    return { value: quoted.value };
  }
  if (INDICATOR.test(text) || text.includes(': ') || text.includes(' #')) return undefined;
  let end = text.length;
  while (text.charCodeAt(end - 1) === 0x20) end--;
  const source = end === text.length ? text : text.slice(0, end);
  if (source.charCodeAt(source.length - 1) === 0x3a) return undefined; // `value:` starts a mapping
  const reason = plainAmbiguity(source);
  if (reason) ambiguities.push({ key, reason, line, column });
  return { value: resolvePlain(source) };
}

/** Sets `key` the way `yaml`'s `toJS` does (an inherited name such as `constructor` becomes an own property). */
function setKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key in target) {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

export function parseFast(lines: readonly string[], body: string, bodyLine: number): FrontMatter | undefined {
  const data: Record<string, unknown> = {};
  const keys = new Map<string, Position>();
  const ambiguities: Ambiguity[] = [];
  /** The last top-level key, when its value was empty: the nested mapping may follow. */
  let open: string | undefined;
  let nested: { key: string; indent: number; map: Record<string, unknown>; keys: Set<string> } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    if (UNSAFE.test(text)) return undefined;
    const match = ENTRY.exec(text);
    if (match === null) {
      if (BLANK.test(text)) continue;
      return undefined;
    }
    const indent = match[1]!.length;
    const key = match[2]!;
    const rest = match[3]!;
    if (key.length > MAX_KEY_LENGTH || NON_STRING_KEY.test(key)) return undefined;
    const line = i + 2;
    const column = text.length - rest.length + 1;
    if (indent === 0) {
      if (keys.has(key)) return undefined;
      keys.set(key, { line, column: 1 });
      nested = undefined;
      if (rest === '') {
        setKey(data, key, null);
        open = key;
        continue;
      }
      open = undefined;
      const value = readValue(rest, key, line, column, ambiguities);
      if (value === undefined) return undefined;
      setKey(data, key, value.value);
      continue;
    }
    if (nested === undefined) {
      if (open === undefined) return undefined;
      nested = { key: open, indent, map: {}, keys: new Set() };
      data[open] = nested.map;
      open = undefined;
    } else if (indent !== nested.indent) {
      return undefined;
    }
    if (nested.keys.has(key)) return undefined;
    nested.keys.add(key);
    if (rest === '') {
      setKey(nested.map, key, null);
      continue;
    }
    const value = readValue(rest, `${nested.key}.${key}`, line, column, ambiguities);
    if (value === undefined) return undefined;
    setKey(nested.map, key, value.value);
  }
  return { kind: 'ok', data, body, bodyLine, keys, ambiguities };
}
