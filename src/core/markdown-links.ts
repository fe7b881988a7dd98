/**
 * The links and scheme URIs of Markdown lines (`readLines`): inline links and reference definitions outside code
 * fences and code spans, and every `<scheme>://…` URI, code included. Linear in the line's length whatever its
 * content (a `ScanMeter` counts the steps for the tests that hold it to that); memoized per lines array in the
 * builder's memo.
 */
import { detachText } from './content.js';
import { isLineTerminator, isWhitespace, type MarkdownLine } from './markdown.js';
import { type Memo, memoTable, NO_MEMO } from './memo.js';

export interface MarkdownLink {
  readonly target: string;
  readonly line: number;
  /** 1-based column of the target's first character (its `<` when written in angle brackets). */
  readonly column: number;
}

const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/d;

const LINKS = memoTable<readonly MarkdownLine[], readonly MarkdownLink[]>('markdown.links');

/**
 * Every inline link and reference definition outside code fences and inline code spans. Memoized per `lines`
 * array, which the callers keep per file: an unchanged file is never scanned twice.
 */
export function findLinks(lines: readonly MarkdownLine[], memo: Memo = NO_MEMO): readonly MarkdownLink[] {
  const links = memo.table(LINKS);
  const cached = links.get(lines);
  if (cached) return cached;
  const found = scanLinks(lines);
  links.set(lines, found);
  return found;
}

/**
 * `findLinks` without the memo, for lines that live only as long as one parse (a document's): remembering them
 * by a key that dies at once would cost a table entry per file and find nothing.
 */
export function scanLinks(lines: readonly MarkdownLine[]): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const l of lines) {
    // Most lines hold no link at all; skip them before any scan runs (a 10,000-document tree has a million).
    if (l.fenced || !holdsLinkMark(l.text)) continue;
    const text = maskCodeSpans(l.text);
    const definition = REFERENCE_DEFINITION.exec(text);
    if (definition) {
      links.push({ target: unbracket(definition[1]!), line: l.line, column: definition.indices![1]![0] + 1 });
      continue;
    }
    scanInlineLinks(text, (from, to) => {
      links.push({ target: unbracket(text.slice(from, to)), line: l.line, column: from + 1 });
    });
  }
  return links;
}

/** Whether `text` holds `](` or `]:`: one search for `]` (rare in prose) instead of one per mark. */
export function holdsLinkMark(text: string): boolean {
  return findLinkMark(text, 0) !== -1;
}

/** Where the first `](` or `]:` at or after `from` in `text` starts, or -1. */
export function findLinkMark(text: string, from: number): number {
  for (let at = text.indexOf(']', from); at !== -1; at = text.indexOf(']', at + 1)) {
    const next = text.charCodeAt(at + 1);
    if (next === 0x28 || next === 0x3a) return at;
  }
  return -1;
}

/** Counts the characters the linear scanners examine, for tests that check the work grows linearly. */
export interface ScanMeter {
  steps: number;
}

/**
 * Calls `found(from, to, link)` with the destination of every inline link `[label](destination "title")` in
 * `text` (and, in `link`, where the whole link starts and ends and where its label ends, at the `]`),
 * left to right, never overlapping: the matches of
 *
 *     /!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g
 *
 * (what this scanner replaced), found in time linear in `text`. That pattern tries every `[` and, for each,
 * scans to the end of the line when the link does not close: a line of `[](` repeated took seconds. Here every
 * scan that several starts would repeat answers from the last one (see `createFinder`).
 */
export function scanInlineLinks(
  text: string,
  found: (from: number, to: number, link: { start: number; labelEnd: number; end: number }) => void,
  meter?: ScanMeter,
): void {
  const n = text.length;
  // The finders and the memo of closes are made on first use: most lines scanned hold a `](` and one link, and
  // each finder's state is its own, so making one later changes no answer.
  let runEnd: ((from: number) => number) | undefined;
  let closeAngle: ((from: number) => number) | undefined;
  // Titles after an angle-bracket destination and after a plain one (`path` 0 and 1), each scanned forward only:
  // by path, the finders of `"`, `'` and `)`.
  const titleEnds: (((from: number) => number) | undefined)[] = [];
  const titleCloser = [0x22, 0x27, 0x29];
  let closes: Map<number, number> | undefined;
  /** Where a link whose destination ends at `k` ends (after its `)`), or -1: optional title, spaces, `)`. */
  const close = (k: number, path: number): number => {
    closes ??= new Map();
    const cached = closes.get(k);
    if (cached !== undefined) return cached;
    const m = skipWhitespace(text, k, meter);
    let end = -1;
    if (m > k) {
      const c = text.charCodeAt(m);
      const kind = c === 0x22 ? 0 : c === 0x27 ? 1 : c === 0x28 ? 2 : -1;
      let finder: ((from: number) => number) | undefined;
      if (kind !== -1) {
        const slot = path * 3 + kind;
        const closer = titleCloser[kind]!;
        titleEnds[slot] ??= createFinder(text, (ch) => ch === closer, meter);
        finder = titleEnds[slot];
      }
      const quote = finder ? finder(m + 1) : -1;
      if (quote !== -1) {
        const after = skipWhitespace(text, quote + 1, meter);
        if (text.charCodeAt(after) === 0x29) end = after + 1;
      }
    }
    if (end === -1 && text.charCodeAt(m) === 0x29) end = m + 1;
    closes.set(k, end);
    return end;
  };
  let labelFrom = -1;
  let labelEnd = -1;
  let i = 0;
  while (i < n) {
    const open = text.indexOf('[', i);
    if (open === -1) break;
    // A `[` inside the label scanned last starts on one of its token boundaries, so its label ends there too.
    let e: number;
    if (open + 1 > labelFrom && open + 1 <= labelEnd) e = labelEnd;
    else {
      e = readLabelEnd(text, open + 1, meter);
      labelFrom = open + 1;
      labelEnd = e;
    }
    let matchEnd = -1;
    let from = -1;
    let to = -1;
    if (text.charCodeAt(e) === 0x5d && text.charCodeAt(e + 1) === 0x28) {
      const q = skipWhitespace(text, e + 2, meter);
      if (q < n) {
        if (text.charCodeAt(q) === 0x3c) {
          closeAngle ??= createFinder(text, (c) => c === 0x3e, meter);
          const gt = closeAngle(q + 1);
          if (gt !== -1) {
            matchEnd = close(gt + 1, 0);
            if (matchEnd !== -1) {
              from = q;
              to = gt + 1;
            }
          }
        }
        if (matchEnd === -1) {
          runEnd ??= createFinder(text, (c) => c === 0x29 || isWhitespace(c), meter);
          const d = runEnd(q);
          const stop = d === -1 ? n : d;
          // A shorter destination would be followed by a character that is neither a space nor `)`: no match.
          if (stop > q) {
            matchEnd = close(stop, 1);
            if (matchEnd !== -1) {
              from = q;
              to = stop;
            }
          }
        }
      }
    }
    if (matchEnd === -1) {
      i = open + 1;
      continue;
    }
    const start = open > i && text.charCodeAt(open - 1) === 0x21 ? open - 1 : open;
    found(from, to, { start, labelEnd: e, end: matchEnd });
    i = matchEnd;
  }
}

/**
 * Where the label that starts at `from` stops: at its closing `]`, or where `(?:[^\]\\]|\\.)*` stops (a
 * backslash before a line terminator or at the end), or at the end of `text`.
 */
function readLabelEnd(text: string, from: number, meter: ScanMeter | undefined): number {
  const n = text.length;
  let k = from;
  while (k < n) {
    const c = text.charCodeAt(k);
    if (c === 0x5d) break;
    if (c === 0x5c) {
      if (k + 1 >= n || isLineTerminator(text.charCodeAt(k + 1))) break;
      k += 2;
    } else k++;
  }
  if (meter) meter.steps += k - from + 1;
  return Math.min(k, n);
}

/**
 * A search for the first index at or after `from` whose character satisfies `test` (-1: none). Queried with
 * positions that never decrease, it scans each character at most once: an answer covers every later query up
 * to it.
 */
function createFinder(
  text: string,
  test: (c: number) => boolean,
  meter: ScanMeter | undefined,
): (from: number) => number {
  /** The first match at or after `lastFrom` is `lastFound` (-1: there is none); nothing asked yet while -1. */
  let lastFrom = -1;
  let lastFound = -1;
  return (from) => {
    if (lastFrom !== -1 && from >= lastFrom && (lastFound === -1 || from <= lastFound)) return lastFound;
    let k = from;
    const n = text.length;
    while (k < n && !test(text.charCodeAt(k))) k++;
    if (meter) meter.steps += k - from + 1;
    lastFrom = from;
    lastFound = k < n ? k : -1;
    return lastFound;
  };
}

function skipWhitespace(text: string, from: number, meter: ScanMeter | undefined): number {
  let k = from;
  while (k < text.length && isWhitespace(text.charCodeAt(k))) k++;
  if (meter) meter.steps += k - from + 1;
  return k;
}

export interface UriMention {
  readonly uri: string;
  readonly line: number;
  readonly column: number;
}

/**
 * Every `<scheme>://…` URI written in `lines`, code included (a URI in an example is still a promise to the
 * reader). A URI followed directly by `{` or `<` is a template or a placeholder and is skipped. The matches of
 * `(?<![A-Za-z0-9+.-])<scheme>://[A-Za-z0-9._~/%+-]*` in each line, found with `indexOf` and a loop over the
 * URI's characters: no pattern compiled per call nor run per line. Not memoized: a link check scans a group's
 * few kept lines again faster than a table of every file's mentions is worth (on L they held ~4 MB).
 */
export function findSchemeUris(lines: readonly MarkdownLine[], scheme: string): UriMention[] {
  const found: UriMention[] = [];
  const marker = `${scheme}://`;
  for (const l of lines) {
    const text = l.text;
    let at = text.indexOf(marker);
    while (at !== -1) {
      if (at > 0 && isSchemeCharacter(text.charCodeAt(at - 1))) {
        at = text.indexOf(marker, at + 1);
        continue;
      }
      let end = at + marker.length;
      while (end < text.length && isUriCharacter(text.charCodeAt(end))) end++;
      const next = text.charCodeAt(end);
      if (next !== 0x7b && next !== 0x3c) {
        // A copy: a line is a slice of its file's text, and a kept finding would keep the whole text alive.
        found.push({ uri: detachText(trimUri(text.slice(at, end))), line: l.line, column: at + 1 });
      }
      at = text.indexOf(marker, end);
    }
  }
  return found;
}

/** `[A-Za-z0-9+.-]`: what may precede a scheme's first letter inside a longer scheme name. */
function isSchemeCharacter(c: number): boolean {
  return isAlphanumeric(c) || c === 0x2b || c === 0x2e || c === 0x2d;
}

/** `[A-Za-z0-9._~/%+-]`: what a URI's path is read as. */
function isUriCharacter(c: number): boolean {
  return (
    isAlphanumeric(c) ||
    c === 0x2e ||
    c === 0x5f ||
    c === 0x7e ||
    c === 0x2f ||
    c === 0x25 ||
    c === 0x2b ||
    c === 0x2d
  );
}

function isAlphanumeric(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
}

/** Trailing sentence punctuation is not part of a URI written in prose, nor is one trailing slash. */
function trimUri(uri: string): string {
  let end = uri.length;
  while (end > 0 && '.,;:!?'.includes(uri[end - 1]!)) end--;
  if (end > 0 && uri.charCodeAt(end - 1) === 0x2f) end--;
  return end === uri.length ? uri : uri.slice(0, end);
}

/**
 * `text` with every inline code span (backticks included) replaced by spaces, so nothing inside one reads as a
 * link. As CommonMark has it within a line: a run of backticks opens a span that the next run of exactly as
 * many backticks closes; a run that nothing closes is literal. Linear: the next run of each length is looked up,
 * not searched for (a line of backtick runs made the pattern this replaced quadratic).
 */
export function maskCodeSpans(text: string, meter?: ScanMeter): string {
  if (!text.includes('`')) return text;
  const starts: number[] = [];
  const lengths: number[] = [];
  for (let i = text.indexOf('`'); i !== -1; i = text.indexOf('`', i)) {
    let j = i;
    while (text.charCodeAt(j) === 0x60) j++;
    starts.push(i);
    lengths.push(j - i);
    i = j;
  }
  if (meter) meter.steps += text.length;
  // next[r]: the next run after r with the same length, found right to left through a map keyed by length.
  const next = new Int32Array(starts.length).fill(-1);
  const seen = new Map<number, number>();
  for (let r = starts.length - 1; r >= 0; r--) {
    const length = lengths[r]!;
    next[r] = seen.get(length) ?? -1;
    seen.set(length, r);
  }
  let out = '';
  let copied = 0;
  for (let r = 0; r < starts.length; r++) {
    const closing = next[r]!;
    if (closing === -1) continue;
    const from = starts[r]!;
    const to = starts[closing]! + lengths[closing]!;
    out += text.slice(copied, from) + ' '.repeat(to - from);
    copied = to;
    r = closing;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

function unbracket(target: string): string {
  return target.startsWith('<') && target.endsWith('>') ? target.slice(1, -1) : target;
}

/** @internal For tests: the scanners this module is built from. */
export const markdownLinkInternals = { maskCodeSpans, scanInlineLinks };
