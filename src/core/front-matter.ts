/**
 * Splits a Markdown file into YAML front matter and body, and parses the YAML with the 1.2 core schema (a date
 * stays a string, `yes` stays a string), keeping positions so every finding points at a file line.
 *
 * The `yaml` package is used instead of gray-matter: it never evaluates code, has no content cache, speaks YAML
 * 1.2, and gives ranges for every node — which is what a diagnostic with a line and column needs.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseDocument, Scalar } from 'yaml';

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
  | { readonly kind: 'error'; readonly message: string; readonly line: number; readonly column: number };

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
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = source.split('\n');
  if (lines.length === 0 || !OPEN.test(lines[0] ?? '')) return { kind: 'missing', body: source };
  let close = -1;
  for (let i = 1; i < lines.length; i++) {
    if (CLOSE.test(lines[i] ?? '')) {
      close = i;
      break;
    }
  }
  if (close === -1) {
    return { kind: 'error', message: 'The front matter has no closing "---" line.', line: 1, column: 1 };
  }
  // CRLF files parse as LF files; a carriage return anywhere else stays, to be reported as stray.
  const yamlText = lines
    .slice(1, close)
    .map((line) => line.replace(/\r$/, ''))
    .join('\n');
  // The body is a slice of the source, not a re-join of its lines: one copy of a large document, not two.
  let bodyStart = 0;
  for (let i = 0; i <= close; i++) bodyStart += (lines[i] ?? '').length + 1;
  const body = source.slice(Math.min(bodyStart, source.length));
  const lineCounter = new LineCounter();
  const doc = parseDocument(yamlText, { schema: 'core', lineCounter, uniqueKeys: true, prettyErrors: true });
  const at = (offset: number): Position => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line + 1, column: pos.col };
  };
  const firstError = doc.errors[0];
  if (firstError) {
    const pos = firstError.linePos?.[0];
    const first = (firstError.message.split('\n')[0] ?? firstError.message).replace(
      / at line \d+, column \d+:?$/,
      '',
    );
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
  return { kind: 'ok', data: data as Record<string, unknown>, body, bodyLine: close + 2, keys, ambiguities };
}

const YAML11_BOOLEAN = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/;
const YAML11_TIMESTAMP = /^\d{4}-\d{1,2}-\d{1,2}(?:[Tt ]|$)/;
const YAML11_OCTAL_OR_SEXAGESIMAL = /^(?:[-+]?0[0-7]+|[-+]?\d+(?::[0-5]?\d)+(?:\.\d*)?)$/;

/** Records plain scalars under `key` whose meaning depends on which YAML parser a host runs. */
function collectAmbiguities(
  key: string,
  node: Node | null,
  at: (offset: number) => Position,
  out: Ambiguity[],
): void {
  if (node === null) return;
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
    out.push({ key, reason: 'holds a stray carriage return (\\r)', ...pos });
  }
  if (node.type !== Scalar.PLAIN) return;
  const source = typeof node.source === 'string' ? node.source : String(value);
  if (YAML11_BOOLEAN.test(source)) {
    out.push({ key, reason: `is "${source}", which YAML 1.1 parsers read as a boolean`, ...pos });
  } else if (YAML11_TIMESTAMP.test(source)) {
    out.push({ key, reason: `is "${source}", which YAML 1.1 parsers read as a date`, ...pos });
  } else if (YAML11_OCTAL_OR_SEXAGESIMAL.test(source)) {
    out.push({ key, reason: `is "${source}", which YAML 1.1 parsers read as a different number`, ...pos });
  }
}
