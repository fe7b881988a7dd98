/**
 * Splits a Markdown file into YAML front matter and body, and parses the YAML with the 1.2 core schema (a date
 * stays a string, `yes` stays a string), keeping positions so every finding points at a file line.
 *
 * The `yaml` package is used instead of gray-matter: it never evaluates code, has no content cache, speaks YAML
 * 1.2, and gives ranges for every node — which is what a diagnostic with a line and column needs.
 *
 * Most front matter is flat: `key: value` lines with plain or quoted one-line scalars and at most one nested
 * mapping (`metadata:`). A strict fast path reads exactly that subset by hand and gives up — handing the text to
 * `yaml` — on anything else (block scalars, flow collections, sequences, anchors, tags, comments, multi-line
 * scalars, unusual escapes, duplicate keys, tabs, uneven indentation, …). What it accepts, it answers exactly as
 * the `yaml` path does: same data, key order and types, same key positions, same ambiguities
 * (`test/core/front-matter.property.test.ts` checks it). `yaml` itself is loaded on first use, so a build whose
 * front matter all fits the subset never loads it.
 */
import { createRequire } from 'node:module';
import type { Node } from 'yaml';

export interface Position {
  readonly line: number;
  readonly column: number;
}

export type FrontMatter =
  | {
      readonly kind: 'ok';
      /** The front matter as JSON values. */
      readonly data: Readonly<Record<string, unknown>>;
      /** The Markdown after the closing `---` line. */
      readonly body: string;
      /** 1-based file line on which `body` starts. */
      readonly bodyLine: number;
      /** File position of each top-level key. */
      readonly keys: ReadonlyMap<string, Position>;
      /** Scalars that YAML parsers read differently, with a reason each. */
      readonly ambiguities: readonly Ambiguity[];
    }
  | { readonly kind: 'missing'; readonly body: string }
  | {
      readonly kind: 'error';
      readonly message: string;
      readonly line: number;
      readonly column: number;
      /** The Markdown after the closing `---` line, when there is one: the body can be checked all the same. */
      readonly body?: string;
      readonly bodyLine?: number;
    };

export interface Ambiguity {
  readonly key: string;
  readonly reason: string;
  readonly line: number;
  readonly column: number;
}

const OPEN = /^---[ \t]*\r?$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*\r?$/;

/**
 * Parses `text` (a whole Markdown file, decoded). A file that does not start with a `---` line has no front
 * matter (`missing`); an opening line without a closing one, YAML that does not parse, or YAML that is not a
 * mapping is an `error` with the file position of the problem.
 */
export function parseFrontMatter(text: string): FrontMatter {
  const split = splitFrontMatter(text);
  if (!('lines' in split)) return split;
  return withBody(
    parseFast(split.lines, split.body, split.bodyLine) ??
      parseWithYaml(split.lines, split.body, split.bodyLine),
    split,
  );
}

/** An error still says where the body is, when the closing `---` was found: the body can be checked regardless. */
function withBody(parsed: FrontMatter, split: Split): FrontMatter {
  return parsed.kind === 'error' ? { ...parsed, body: split.body, bodyLine: split.bodyLine } : parsed;
}

/**
 * @internal For tests and benchmarks only — not part of the module's contract. `yaml` parses with the `yaml`
 * package unconditionally (the reference); `fast` answers with the fast path, or `undefined` when the front
 * matter is outside its subset (where `parseFrontMatter` would fall back to `yaml`).
 */
export const frontMatterInternals = {
  yaml(text: string): FrontMatter {
    const split = splitFrontMatter(text);
    return 'lines' in split ? withBody(parseWithYaml(split.lines, split.body, split.bodyLine), split) : split;
  },
  fast(text: string): FrontMatter | undefined {
    const split = splitFrontMatter(text);
    if (!('lines' in split)) return split;
    const parsed = parseFast(split.lines, split.body, split.bodyLine);
    return parsed === undefined ? undefined : withBody(parsed, split);
  },
  /** Whether the `yaml` package has been loaded in this process (Node's module cache holds it). */
  yamlLoaded(): boolean {
    const require = createRequire(import.meta.url);
    return require.cache[require.resolve('yaml')] !== undefined;
  },
};

interface Split {
  /** The lines between the `---` lines, each without a trailing carriage return. */
  readonly lines: string[];
  readonly body: string;
  readonly bodyLine: number;
}

/**
 * Finds the front matter lines and the body. Only the lines up to the closing `---` are cut out; the body is a
 * slice of the source (one copy of a large document, not two).
 */
function splitFrontMatter(text: string): Split | Exclude<FrontMatter, { kind: 'ok' }> {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let end = source.indexOf('\n');
  if (!OPEN.test(end === -1 ? source : source.slice(0, end))) return { kind: 'missing', body: source };
  const lines: string[] = [];
  while (end !== -1) {
    const start = end + 1;
    end = source.indexOf('\n', start);
    const line = end === -1 ? source.slice(start) : source.slice(start, end);
    if (CLOSE.test(line)) {
      const body = end === -1 ? '' : source.slice(end + 1);
      // Line 1 is the opening `---`, then the front matter lines, then the closing line.
      return { lines, body, bodyLine: lines.length + 3 };
    }
    // CRLF files parse as LF files; a carriage return anywhere else stays, to be reported as stray.
    lines.push(line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line);
  }
  return { kind: 'error', message: 'The front matter has no closing "---" line.', line: 1, column: 1 };
}

// ---------------------------------------------------------------------------------------------------------------
// The `yaml` path: the reference for everything, and the only path for what the fast path declines.

type Yaml = typeof import('yaml');
/**
 * `yaml` ships CommonJS; requiring it on first use keeps it out of the start-up of a build that never needs it.
 * Node's module cache is what keeps it loaded: this file holds no state of its own.
 */
function loadYaml(): Yaml {
  return createRequire(import.meta.url)('yaml') as Yaml;
}

/**
 * The most YAML the `yaml` path reads. `yaml` is not linear on hostile input (a 64 KiB line of commas takes
 * seconds), so what the fast path declines is bounded here: real front matter is a few hundred bytes, and the
 * Agent Skills fields together stay under 2 KiB.
 */
export const MAX_YAML_BYTES = 16 * 1024;

function parseWithYaml(lines: readonly string[], body: string, bodyLine: number): FrontMatter {
  let size = lines.length;
  for (const line of lines) size += line.length;
  if (size > MAX_YAML_BYTES) {
    return {
      kind: 'error',
      message: `The front matter is ${size} characters of YAML beyond plain \`key: value\` lines; companion reads at most ${MAX_YAML_BYTES} of that. Shorten it, or write its values as one-line \`key: value\` pairs.`,
      line: 2,
      column: 1,
    };
  }
  const { isMap, isPair, isScalar, LineCounter, parseDocument } = loadYaml();
  const yamlText = lines.join('\n');
  const lineCounter = new LineCounter();
  // prettyErrors would build a code frame for every error, quadratic in their number; only the first is used.
  const doc = parseDocument(yamlText, { schema: 'core', lineCounter, uniqueKeys: true, prettyErrors: false });
  const at = (offset: number): Position => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line + 1, column: pos.col };
  };
  const firstError = doc.errors[0];
  if (firstError) {
    const pos = firstError.pos[0] === -1 ? undefined : lineCounter.linePos(firstError.pos[0]);
    const first = firstError.message.split('\n')[0] ?? firstError.message;
    // The usual cause of this one is an unquoted ": " inside a value; say so in the author's terms.
    const message = /Nested mappings|Implicit map keys/.test(first)
      ? `${first} — a value containing ": " must be quoted.`
      : `${first}.`;
    return {
      kind: 'error',
      message,
      line: (pos?.line ?? 1) + 1,
      column: pos?.col ?? 1,
    };
  }
  const contents = doc.contents;
  if (contents !== null && !isMap(contents)) {
    const pos = contents.range ? at(contents.range[0]) : { line: 2, column: 1 };
    return { kind: 'error', message: 'The front matter must be a mapping of keys to values.', ...pos };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 50 }) ?? {};
  } catch (error) {
    return {
      kind: 'error',
      message: `The front matter cannot be read: ${(error as Error).message}`,
      line: 2,
      column: 1,
    };
  }
  const keys = new Map<string, Position>();
  const ambiguities: Ambiguity[] = [];
  if (isMap(contents)) {
    for (const item of contents.items) {
      if (!isPair(item) || !isScalar(item.key)) continue;
      const key = String(item.key.value);
      if (item.key.range) keys.set(key, at(item.key.range[0]));
      collectAmbiguities(key, item.value as Node | null, at, ambiguities);
    }
  }
  return { kind: 'ok', data: data as Record<string, unknown>, body, bodyLine, keys, ambiguities };
}

const YAML11_BOOLEAN = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/;
const YAML11_TIMESTAMP = /^\d{4}-\d{1,2}-\d{1,2}(?:[Tt ]|$)/;
const YAML11_OCTAL_OR_SEXAGESIMAL = /^(?:[-+]?0[0-7]+|[-+]?\d+(?::[0-5]?\d)+(?:\.\d*)?)$/;
const CARRIAGE_RETURN = 'holds a stray carriage return (\\r)';

/** Why a plain scalar written as `source` reads differently under YAML 1.1, if it does. */
function plainAmbiguity(source: string): string | undefined {
  if (YAML11_BOOLEAN.test(source)) return `is "${source}", which YAML 1.1 parsers read as a boolean`;
  if (YAML11_TIMESTAMP.test(source)) return `is "${source}", which YAML 1.1 parsers read as a date`;
  if (YAML11_OCTAL_OR_SEXAGESIMAL.test(source)) {
    return `is "${source}", which YAML 1.1 parsers read as a different number`;
  }
  return undefined;
}

/** Records plain scalars under `key` whose meaning depends on which YAML parser a host runs. */
function collectAmbiguities(
  key: string,
  node: Node | null,
  at: (offset: number) => Position,
  out: Ambiguity[],
): void {
  if (node === null) return;
  const { isMap, isPair, isScalar, isSeq, Scalar } = loadYaml();
  if (isMap(node)) {
    for (const item of node.items) {
      if (isPair(item) && isScalar(item.key)) {
        collectAmbiguities(`${key}.${String(item.key.value)}`, item.value as Node | null, at, out);
      }
    }
    return;
  }
  if (isSeq(node)) {
    node.items.forEach((item, index) => {
      collectAmbiguities(`${key}[${index}]`, item as Node | null, at, out);
    });
    return;
  }
  if (!isScalar(node) || !node.range) return;
  const pos = at(node.range[0]);
  const value = node.value;
  if (typeof value === 'string' && value.includes('\r')) {
    out.push({ key, reason: CARRIAGE_RETURN, ...pos });
  }
  if (node.type !== Scalar.PLAIN) return;
  const reason = plainAmbiguity(typeof node.source === 'string' ? node.source : String(value));
  if (reason) out.push({ key, reason, ...pos });
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

function parseFast(lines: readonly string[], body: string, bodyLine: number): FrontMatter | undefined {
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
