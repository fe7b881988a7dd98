/**
 * Splits a Markdown file into YAML front matter and body, and parses the YAML with the 1.2 core schema (a date
 * stays a string, `yes` stays a string), keeping positions so every finding points at a file line.
 *
 * The `yaml` package is used instead of gray-matter: it never evaluates code, has no content cache, speaks YAML
 * 1.2, and gives ranges for every node — which is what a diagnostic with a line and column needs.
 *
 * Most front matter is flat: `key: value` lines with plain or quoted one-line scalars and at most one nested
 * mapping (`metadata:`). A strict fast path (front-matter-fast.ts) reads exactly that subset by hand and gives up — handing the text to
 * `yaml` — on anything else (block scalars, flow collections, sequences, anchors, tags, comments, multi-line
 * scalars, unusual escapes, duplicate keys, tabs, uneven indentation, …). What it accepts, it answers exactly as
 * the `yaml` path does: same data, key order and types, same key positions, same ambiguities
 * (`test/core/front-matter.property.test.ts` checks it). `yaml` itself is loaded on first use, so a build whose
 * front matter all fits the subset never loads it.
 */
import { createRequire } from 'node:module';
import type { Node } from 'yaml';
import { CARRIAGE_RETURN, parseFast, plainAmbiguity } from './front-matter-fast.js';

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
