/**
 * Inline suppressions, and the one step that applies the `check` configuration to every finding.
 *
 * In Markdown, an HTML comment outside code (fences and inline code spans):
 *
 *     <!-- companion-disable CMP504 CMP612 -->         every finding of these codes in this file
 *     <!-- companion-disable-next-line CMP600 -->      findings on the next line
 *     text <!-- companion-disable-line CMP504 -->      findings on this line
 *
 * In YAML front matter and in any other text file but JSON (which has no comments), the same words in a comment
 * that starts with `#` or `//`: `# companion-disable-next-line CMP600`. Codes are separated by spaces or
 * commas; `--` ends them and starts a free-text reason. A directive naming no known code is CMP691; one that
 * suppresses nothing is CMP692. Neither can be suppressed.
 */
import { Buffer } from 'node:buffer';
import { buildMimeType, decodeUtf8, isTextual } from '../content.js';
import { codes, type Diagnostic, diagnose } from '../diagnostics.js';
import { readLines } from '../markdown.js';
import { maskCodeSpans } from '../markdown-links.js';
import { type Memo, memoTable, NO_MEMO } from '../memo.js';
import { DISABLE_DIRECTIVE } from '../names.js';
import { type CheckConfig, isKnownCode } from './config.js';

export interface Directive {
  readonly kind: 'file' | 'line' | 'next-line';
  /** Known codes it names. */
  readonly codes: readonly string[];
  /** Codes it names that companion does not report, and anything else that is not a code. */
  readonly unknown: readonly string[];
  /** Where the directive is written, 1-based. */
  readonly line: number;
  readonly column: number;
}

/** A finding a directive suppressed, with where that directive is (`file:line`). */
export interface SuppressedDiagnostic extends Diagnostic {
  readonly suppressedBy: string;
}

const MARKER = DISABLE_DIRECTIVE;
const OPEN = /^---[ \t]*\r?$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*\r?$/;

/** The answer for most files, shared: see `NO_DIAGNOSTICS`. */
const NO_DIRECTIVES: readonly Directive[] = Object.freeze([]);
/**
 * The directives of a file's bytes at a path; or, when there are none, which kind of path found none (`kindOf`:
 * whether none are found depends on the path only through it), one shared record per kind instead of one per
 * file (on XL, 100,000 of them held ~4 MB).
 */
const FOUND = memoTable<
  Uint8Array,
  { readonly path: string; readonly found: readonly Directive[] } | { readonly none: number }
>('lint.directives');

/** What `readDirectivesOf` reads of a path: ends in `.md`; text that is not JSON; Markdown to `readDirectives`. */
function kindOf(path: string): number {
  return (
    (path.endsWith('.md') ? 1 : 0) |
    (isTextual(buildMimeType(path)) && !path.endsWith('.json') ? 2 : 0) |
    (MARKDOWN.test(path) ? 4 : 0)
  );
}

const MARKDOWN = /\.(?:md|markdown)$/i;
const NONE_BY_KIND: readonly { readonly none: number }[] = Array.from({ length: 8 }, (_, none) =>
  Object.freeze({ none }),
);

/**
 * The directives of a file's bytes, read once per bytes; none for files that are not text, nor for JSON, which
 * has no comments (a string holding the words is not a directive).
 */
export function readDirectivesOf(
  path: string,
  bytes: Uint8Array,
  memo: Memo = NO_MEMO,
): readonly Directive[] {
  const table = memo.table(FOUND);
  const cached = table.get(bytes);
  if (cached !== undefined) {
    if ('none' in cached) {
      if (cached.none === kindOf(path)) return NO_DIRECTIVES;
    } else if (cached.path === path) return cached.found;
  }
  const markdown = path.endsWith('.md');
  // Most files hold no directive: the bytes say so without decoding them (the needles are ASCII, which UTF-8
  // never uses inside another character), and the text is decoded by the phase that parses the file. In
  // Markdown, `readDirectives` looks only in HTML comments and the front matter, so the marker is looked for
  // only there: the whole body is not searched a second time.
  const candidate = markdown
    ? includesAscii(bytes, '<!--') || frontMatterIncludesAscii(bytes, MARKER)
    : isTextual(buildMimeType(path)) &&
      !path.endsWith('.json') &&
      (includesAscii(bytes, '<!--') || includesAscii(bytes, MARKER));
  const text = candidate ? decodeUtf8(bytes, memo) : undefined;
  const read = text === undefined ? NO_DIRECTIVES : readDirectives(path, text);
  if (read.length === 0) {
    table.set(bytes, NONE_BY_KIND[kindOf(path)]!);
    return NO_DIRECTIVES;
  }
  table.set(bytes, { path, found: read });
  return read;
}

/** Whether `bytes` contain the ASCII string `needle`. */
function includesAscii(bytes: Uint8Array, needle: string): boolean {
  return indexOfAscii(bytes, needle, 0, bytes.length) !== -1;
}

/**
 * Whether `needle` (ASCII) occurs before the end of a front matter block at the start of `bytes`: what
 * `frontMatterOf(text).includes(needle)` answers for their text, since ASCII bytes are the same characters.
 */
function frontMatterIncludesAscii(bytes: Uint8Array, needle: string): boolean {
  if (bytes[0] !== 0x2d || bytes[1] !== 0x2d || bytes[2] !== 0x2d) return false;
  const end = indexOfAscii(bytes, '\n---', 3, bytes.length);
  return end !== -1 && indexOfAscii(bytes, needle, 0, end) !== -1;
}

/**
 * Where the ASCII string `needle` starts in `bytes[from, to)`, or -1: Node's native substring search over a
 * view of the same memory (no copy). `TypedArray.prototype.indexOf` for the first character and a compare at
 * each hit, as before, scanned ~1 GB/s; this ~3 GB/s (every Markdown file of L, 103 MB: 85–130 → 30–55 ms).
 */
export function indexOfAscii(bytes: Uint8Array, needle: string, from: number, to: number): number {
  if (from >= to) return -1;
  return Buffer.from(bytes.buffer, bytes.byteOffset, to).indexOf(needle, from, 'latin1');
}

/** The directives written in `text`, a file at `path` (Markdown when it ends in `.md`). */
export function readDirectives(path: string, text: string): Directive[] {
  const markdown = MARKDOWN.test(path);
  // In Markdown a directive sits in an HTML comment or in the front matter: look for those first (indexOf finds
  // "<!--" several times faster than the marker, and a large tree has a hundred megabytes of Markdown).
  if (markdown ? !text.includes('<!--') && !frontMatterOf(text).includes(MARKER) : !text.includes(MARKER)) {
    return [];
  }
  const out: Directive[] = [];
  const lines = text.split('\n');
  let bodyFrom = 0;
  if (markdown && OPEN.test(lines[0] ?? '')) {
    const close = lines.findIndex((l, i) => i > 0 && CLOSE.test(l));
    if (close > 0) {
      for (let i = 1; i < close; i++) readCommentDirective(lines[i]!, i + 1, out);
      bodyFrom = close + 1;
    }
  }
  if (!markdown) {
    lines.forEach((l, i) => {
      readCommentDirective(l, i + 1, out);
    });
    return out;
  }
  for (const l of readLines(lines.slice(bodyFrom).join('\n'), bodyFrom + 1)) {
    if (l.fenced || !l.text.includes(MARKER)) continue;
    const masked = maskCodeSpans(l.text);
    for (let at = masked.indexOf('<!--'); at !== -1; at = masked.indexOf('<!--', at + 4)) {
      const end = masked.indexOf('-->', at + 4);
      const inner = masked.slice(at + 4, end === -1 ? masked.length : end);
      const start = inner.length - inner.trimStart().length;
      const directive = parseDirective(inner.trim(), l.line, at + 5 + start);
      if (directive) out.push(directive);
    }
  }
  return out;
}

/** The text up to the end of a front matter block at the start of `text` ('' without one). */
function frontMatterOf(text: string): string {
  if (!text.startsWith('---')) return '';
  const end = text.indexOf('\n---', 3);
  return end === -1 ? '' : text.slice(0, end);
}

/** A `# companion-disable…` or `// companion-disable…` comment on `text`. */
function readCommentDirective(text: string, line: number, out: Directive[]): void {
  const at = text.indexOf(MARKER);
  if (at === -1) return;
  const before = text.slice(0, at).trimEnd();
  if (!before.endsWith('#') && !before.endsWith('//')) return;
  const inner = text.slice(at).replace(/\s*(?:\*\/|-->)\s*$/, '');
  const directive = parseDirective(inner.trim(), line, at + 1);
  if (directive) out.push(directive);
}

function parseDirective(text: string, line: number, column: number): Directive | undefined {
  if (!text.startsWith(MARKER)) return undefined;
  const rest = text.slice(MARKER.length);
  let kind: Directive['kind'];
  let list: string;
  if (rest.startsWith('-next-line')) {
    kind = 'next-line';
    list = rest.slice('-next-line'.length);
  } else if (rest.startsWith('-line')) {
    kind = 'line';
    list = rest.slice('-line'.length);
  } else {
    kind = 'file';
    list = rest;
  }
  if (list !== '' && !/^[\s,]/.test(list)) return undefined; // `companion-disabled`, another word
  const reason = list.indexOf('--');
  const names = (reason === -1 ? list : list.slice(0, reason)).split(/[\s,]+/).filter((t) => t !== '');
  return {
    kind,
    codes: names.filter(isKnownCode),
    unknown: names.filter((t) => !isKnownCode(t)),
    line,
    column,
  };
}

/** The line a directive applies to; undefined for a file-wide one. */
function targetLine(d: Directive): number | undefined {
  return d.kind === 'file' ? undefined : d.kind === 'line' ? d.line : d.line + 1;
}

/**
 * Applies the configuration and the directives to every finding: a code set to `off` is dropped, one set to
 * a severity takes it, and one a directive covers moves to `suppressed`. Directives that name no known code
 * (CMP691) or suppress nothing (CMP692) are reported, under the configured severities too.
 */
export function applyCheckConfig(
  diagnostics: readonly Diagnostic[],
  config: CheckConfig,
  directives: ReadonlyMap<string, readonly Directive[]>,
): { diagnostics: Diagnostic[]; suppressed: SuppressedDiagnostic[] } {
  const kept: Diagnostic[] = [];
  const suppressed: SuppressedDiagnostic[] = [];
  const used = new Set<Directive>();
  const configure = (d: Diagnostic) => {
    const setting = config.severity.get(d.code);
    if (setting === 'off') return undefined;
    return setting === undefined || setting === d.severity ? d : { ...d, severity: setting };
  };
  for (const d of diagnostics) {
    const inFile = d.file === undefined ? undefined : directives.get(d.file);
    const by = inFile?.find(
      (directive) =>
        directive.codes.includes(d.code) && (directive.kind === 'file' || targetLine(directive) === d.line),
    );
    if (by) used.add(by);
    const configured = configure(d);
    if (configured === undefined) continue;
    if (by) suppressed.push({ ...configured, suppressedBy: `${d.file}:${by.line}` });
    else kept.push(configured);
  }
  for (const [file, list] of directives) {
    for (const directive of list) {
      const where = { file, line: directive.line, column: directive.column };
      const problem =
        directive.codes.length === 0 || directive.unknown.length > 0
          ? diagnose(codes.directiveUnknownCode, { kind: directive.kind, unknown: directive.unknown }, where)
          : used.has(directive)
            ? undefined
            : diagnose(codes.directiveUnused, { kind: directive.kind, codes: directive.codes }, where);
      const configured = problem && configure(problem);
      if (configured) kept.push(configured);
    }
  }
  return { diagnostics: kept, suppressed };
}
