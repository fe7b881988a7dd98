/**
 * The little Markdown companion needs to understand: which lines are inside code fences, the `# ` titles, the
 * `## ` sections (the links and scheme URIs are markdown-links.ts's). Line numbers are file lines (the body's
 * first line is `firstLine`).
 */
import { detachText } from './content.js';
import type { DocumentSection } from './types.js';

export interface MarkdownLine {
  readonly text: string;
  /** 1-based file line. */
  readonly line: number;
  /** Inside a fenced code block (fence lines included). */
  readonly fenced: boolean;
}

/** A line that opens or closes a code fence (CommonMark: up to three spaces, three or more ` or ~). */
export const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Splits `body` into lines (`\n`, a trailing `\r` dropped), marking those inside fenced code blocks. One pass of
 * `indexOf` over the text: no array of raw lines first, and the fence pattern runs only on lines that can open
 * or close a fence (a backtick or a tilde after at most three spaces).
 */
export function readLines(body: string, firstLine = 1): MarkdownLine[] {
  const out: MarkdownLine[] = [];
  let fence: string | undefined;
  let line = firstLine;
  let start = 0;
  for (;;) {
    const newline = body.indexOf('\n', start);
    const stop = newline === -1 ? body.length : newline;
    const end = stop > start && body.charCodeAt(stop - 1) === 0x0d ? stop - 1 : stop;
    const text = body.slice(start, end);
    const match = canBeFence(text) ? FENCE.exec(text) : null;
    if (fence === undefined && match) {
      fence = match[1]!;
      out.push({ text, line, fenced: true });
    } else if (fence !== undefined) {
      if (
        match &&
        match[1]![0] === fence[0] &&
        match[1]!.length >= fence.length &&
        text.trim() === match[1]
      ) {
        fence = undefined;
      }
      out.push({ text, line, fenced: true });
    } else out.push({ text, line, fenced: false });
    if (newline === -1) return out;
    start = newline + 1;
    line++;
  }
}

/** Whether `FENCE` can match `text`: its first character after at most three spaces is a backtick or tilde. */
function canBeFence(text: string): boolean {
  let i = 0;
  while (i < 3 && text.charCodeAt(i) === 0x20) i++;
  const c = text.charCodeAt(i);
  return c === 0x60 || c === 0x7e;
}

/**
 * The lines of `lines` (`readLines(body, …)`) that hold a hit: `next(from)` answers where the first hit at or
 * after `from` starts in `body` (-1: none), a hit being a run without a line break. The body is searched, not
 * each line: the lines are walked by their lengths up to the last hit, with no search per line. A body with a
 * carriage return (whose lines are shorter than their runs) is tested line by line with `holds`.
 */
export function selectLines(
  body: string,
  lines: readonly MarkdownLine[],
  next: (from: number) => number,
  holds: (text: string) => boolean,
): MarkdownLine[] {
  let hit = next(0);
  if (hit === -1) return [];
  if (body.includes('\r')) return lines.filter((l) => holds(l.text));
  const out: MarkdownLine[] = [];
  let at = 0;
  for (const l of lines) {
    const end = at + l.text.length;
    if (hit <= end) {
      out.push(l);
      hit = next(end + 1);
      if (hit === -1) break;
    }
    at = end + 1;
  }
  return out;
}

/**
 * `lines` with their text copied, for lines kept after the parse: a line is a slice of the file's text, and a
 * kept slice keeps the whole text alive.
 */
export function keepLines(lines: readonly MarkdownLine[]): readonly MarkdownLine[] {
  if (lines.length === 0) return NO_LINES;
  return lines.map((l) => ({ text: detachText(l.text), line: l.line, fenced: l.fenced }));
}

/**
 * What a kept list of none is: one shared empty array, not one per document (32 bytes each, held for the life
 * of the parse's memo entry: ~3 MB per list on XL's 100,000 documents).
 */
const NO_LINES: readonly MarkdownLine[] = Object.freeze([]);
const NO_SECTIONS: SectionList = Object.freeze([]);

/** The `# ` title lines outside code fences. */
export function findTitles(lines: readonly MarkdownLine[]): { text: string; line: number }[] {
  const titles: { text: string; line: number }[] = [];
  for (const l of lines) {
    if (l.fenced) continue;
    const text = readHeadingText(l.text, 1);
    if (text !== undefined) titles.push({ text, line: l.line });
  }
  return titles;
}

/**
 * The text of a heading line of `level` (`# Title` for 1, `## Heading` for 2), or undefined. Answers what
 * `/^#{level} +(.+?)\s*#*\s*$/` answers, in one pass: that pattern backtracks quadratically on a long run of
 * spaces followed by anything else, this reads the line once from each end.
 */
export function readHeadingText(text: string, level: number): string | undefined {
  for (let i = 0; i < level; i++) if (text.charCodeAt(i) !== 0x23) return undefined;
  let start = level;
  while (text.charCodeAt(start) === 0x20) start++;
  const spaces = start - level;
  if (spaces === 0) return undefined;
  if (start === text.length) {
    // Only spaces after the hashes: the pattern gives one space back to the title.
    return spaces >= 2 ? ' ' : undefined;
  }
  // The longest tail of the form whitespace, hashes, whitespace; the title is what precedes it (at least one
  // character, since the lazy group takes one before the tail may start).
  let end = text.length;
  while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--;
  while (end > start && text.charCodeAt(end - 1) === 0x23) end--;
  while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--;
  if (end === start) {
    // All tail: the title is its first character, unless `.` cannot take it (a line terminator); then, as
    // above, one space given back is the title.
    if (!isLineTerminator(text.charCodeAt(start))) return text[start];
    return spaces >= 2 ? ' ' : undefined;
  }
  // `.` matches no line terminator: a title holding one cannot match, however the spaces are shared out.
  for (let i = start; i < end; i++) if (isLineTerminator(text.charCodeAt(i))) return undefined;
  return text.slice(start, end);
}

/**
 * Where one `## ` section's body is in the text its ranges were found in: the body trimmed is
 * `text.slice(from, to)`, or `body` itself when it does not run unbroken through the text (a `# ` line inside
 * it, or carriage returns the lines lost). Holding ranges instead of slices lets a document's text go once it
 * is parsed (a V8 slice keeps its whole parent alive).
 */
export interface SectionRange {
  /** The heading text without `## `; empty before the first `## `. */
  readonly heading: string;
  /** Where the heading's line starts in the text (-1: no heading), to read the heading from again. */
  readonly headingAt: number;
  /** 1-based line of the heading (or of the first body line) in the file. */
  readonly line: number;
  readonly from: number;
  readonly to: number;
  /** Set only when the body is not one run of the text; a copy. */
  readonly body?: string;
}

/**
 * A document's sections as its parse keeps them (`keepSections`): when every body runs unbroken through the
 * text, four numbers a section — `line`, `from`, `to`, `headingAt` — and the heading read again from its line
 * when asked (on L's 10,000 documents, ~90,000 section objects and their heading strings held ~9 MB; the numbers
 * hold ~3); the same four numbers as the code units of one string when each fits in one (`headingAt` + 1): a
 * string of 4 code units a section is ~50 bytes less than an array of numbers (~5 MB on XL's 100,000 documents);
 * else the ranges themselves, headings and bodies copied. Read back with `readSections`.
 */
export type SectionList = string | readonly number[] | readonly SectionRange[];

/**
 * The `## ` sections of `body` (headings outside code fences) as ranges into the text `body` ends at
 * `offset` of. The `# ` title line is dropped; text before the first `## ` is a section with an empty heading
 * (omitted when blank). `lines` are `readLines(body, …)`.
 */
export function findSections(body: string, lines: readonly MarkdownLine[], offset = 0): SectionList {
  const sections: SectionRange[] = [];
  // Offsets into `body` are exact only when no line lost a trailing \r to `readLines`.
  const sliceable = !body.includes('\r');
  let heading = '';
  let headingAt = -1;
  let start = lines[0]?.line ?? 1;
  // The body's lines, kept only when a section's body cannot be one slice of `body`: lines that lost a \r, or a
  // section a `# ` line breaks (materialized from the text at that line, which until then was one run).
  let buffer: string[] | undefined = sliceable ? undefined : [];
  let from = -1;
  let to = -1;
  let at = 0;
  const flush = () => {
    const section = buildSection(body, offset, heading, headingAt, start, from, to, buffer);
    if (section !== undefined) sections.push(section);
  };
  for (const l of lines) {
    const lineStart = at;
    at += l.text.length + 1;
    if (!l.fenced && l.text.charCodeAt(0) === 0x23 && l.text.charCodeAt(1) === 0x20) {
      // A `# ` line (what `/^# +/` matches) inside a section's body: the body is no longer one run.
      if (from >= 0 && buffer === undefined) buffer = body.slice(from, to).split('\n');
      continue;
    }
    const match = l.fenced ? undefined : readHeadingText(l.text, 2);
    if (match !== undefined) {
      flush();
      heading = match;
      headingAt = offset + lineStart;
      start = l.line;
      buffer = sliceable ? undefined : [];
      from = -1;
    } else {
      if (from < 0) from = lineStart;
      to = lineStart + l.text.length;
      buffer?.push(l.text);
    }
  }
  flush();
  return keepSections(sections);
}

/**
 * `sections` as a parse keeps them (see `SectionList`): packed into numbers when no body is a copy, else an exact
 * copy of the ranges with their headings copied (a heading is a slice of the text); the one shared empty list
 * when there are none.
 */
export function keepSections(sections: readonly SectionRange[]): SectionList {
  if (sections.length === 0) return NO_SECTIONS;
  if (sections.some((s) => s.body !== undefined))
    return sections.map((s) => ({ ...s, heading: detachText(s.heading) }));
  const packed = new Array<number>(sections.length * 4);
  let i = 0;
  let units = true;
  for (const s of sections) {
    packed[i++] = s.line;
    packed[i++] = s.from;
    packed[i++] = s.to;
    packed[i++] = s.headingAt;
    units &&= s.line <= MAX_UNIT && s.to <= MAX_UNIT && s.headingAt < MAX_UNIT;
  }
  return units ? packUnits(packed) : packed;
}

/** The largest number a code unit holds. */
const MAX_UNIT = 0xffff;

/** `packed` (`line`, `from`, `to`, `headingAt` a section, each within a code unit once `headingAt` + 1) as one string. */
function packUnits(packed: number[]): string {
  for (let i = 3; i < packed.length; i += 4) packed[i]! += 1;
  let out = '';
  // In chunks: a call takes its arguments on the stack.
  for (let i = 0; i < packed.length; i += 4096) out += String.fromCharCode(...packed.slice(i, i + 4096));
  return out;
}

/** The sections `list` describes, read from the text its ranges index. */
export function readSections(text: string, list: SectionList): DocumentSection[] {
  if (typeof list === 'string') return readUnitSections(text, list);
  if (typeof list[0] !== 'number') return (list as readonly SectionRange[]).map((r) => readSection(text, r));
  const numbers = list as readonly number[];
  const out: DocumentSection[] = [];
  for (let i = 0; i < numbers.length; i += 4) {
    const headingAt = numbers[i + 3]!;
    out.push({
      heading: headingAt < 0 ? '' : readHeadingAt(text, headingAt),
      body: text.slice(numbers[i + 1]!, numbers[i + 2]!),
      line: numbers[i]!,
    });
  }
  return out;
}

/** `readSections` of the string `packUnits` made. */
function readUnitSections(text: string, units: string): DocumentSection[] {
  const out: DocumentSection[] = [];
  for (let i = 0; i < units.length; i += 4) {
    const headingAt = units.charCodeAt(i + 3) - 1;
    out.push({
      heading: headingAt < 0 ? '' : readHeadingAt(text, headingAt),
      body: text.slice(units.charCodeAt(i + 1), units.charCodeAt(i + 2)),
      line: units.charCodeAt(i),
    });
  }
  return out;
}

/**
 * The heading of the `## ` line that starts at `at` of `text` (a line with no carriage return), as a string of
 * its own: a slice would keep the whole decoded text alive for as long as whoever asked keeps the heading (the
 * search index keeps every section's: on L, every document's text, ~60 MB).
 */
function readHeadingAt(text: string, at: number): string {
  const newline = text.indexOf('\n', at);
  return detachText(readHeadingText(text.slice(at, newline === -1 ? text.length : newline), 2) ?? '');
}

/**
 * The section read so far, or undefined when it is blank and has no heading: its body is `body[from, to)`
 * trimmed (`from` -1: empty), found by the characters `trim` drops, without slicing; or, when `buffer` holds its
 * lines (the body is not one run of the text), those lines joined and trimmed, copied.
 */
export function buildSection(
  body: string,
  offset: number,
  heading: string,
  headingAt: number,
  line: number,
  from: number,
  to: number,
  buffer: readonly string[] | undefined,
): SectionRange | undefined {
  if (buffer === undefined) {
    let first = Math.max(from, 0);
    let last = from < 0 ? 0 : to;
    while (first < last && isWhitespace(body.charCodeAt(first))) first++;
    while (last > first && isWhitespace(body.charCodeAt(last - 1))) last--;
    if (heading === '' && first === last) return undefined;
    return { heading, headingAt, line, from: offset + first, to: offset + last };
  }
  const text = buffer.join('\n').trim();
  if (heading === '' && text === '') return undefined;
  return { heading, headingAt, line, from: -1, to: -1, body: detachText(text) };
}

/** The section `range` describes, read from the text its ranges index. */
export function readSection(text: string, range: SectionRange): DocumentSection {
  return {
    heading: range.heading,
    body: range.body ?? text.slice(range.from, range.to),
    line: range.line,
  };
}

/**
 * Splits on `## ` headings outside code fences, as `findSections` does, with each body read: a section whose
 * lines run unbroken through `body` is a slice of it, not a copy.
 */
export function splitSections(body: string, lines: readonly MarkdownLine[]): DocumentSection[] {
  return readSections(body, findSections(body, lines));
}

/** What `\s` matches in a JavaScript regular expression. */
export function isWhitespace(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x20 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** The characters `.` does not match in a JavaScript regular expression. */
export function isLineTerminator(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
}

export const markdownInternals = { readHeadingText };
