/**
 * One pass over a document's body for what its parse needs — the `# ` titles, the `## ` sections, whether the
 * last line is inside a code fence, and the few lines a check keeps — without an object and a string per line:
 * a corpus of 10,000 documents has a million lines, and splitting them into `MarkdownLine`s was a fifth of
 * everything a cold build allocated. Answers exactly what `readLines` followed by `findTitles`, `findSections`
 * and `selectLines` answer (test/core/markdown-scan.property.test.ts holds it to that); a body with a carriage
 * return takes that path itself.
 */
import { Buffer } from 'node:buffer';
import {
  buildSection,
  FENCE,
  findSections,
  findTitles,
  keepLines,
  keepSections,
  type MarkdownLine,
  readHeadingText,
  readLines,
  type SectionList,
  type SectionRange,
  selectLines,
} from './markdown.js';

/**
 * Lines kept after a parse: numbers into the file's bytes (`BodyScan.selectKept` of an ASCII file, whose
 * offsets into its text are offsets into its bytes), or the lines themselves. Read back with `readKeptLines`
 * from a few bytes, without decoding the file.
 */
export type KeptLines = readonly number[] | readonly MarkdownLine[];

export interface BodyScan {
  /** `findTitles(readLines(body, firstLine))`. */
  readonly titles: readonly { readonly text: string; readonly line: number }[];
  /** `findSections(body, lines, offset)`. */
  readonly sections: SectionList;
  /** Whether the last line is inside a code fence (then a fence may be unclosed). */
  readonly lastFenced: boolean;
  /** `selectLines(body, lines, next, holds)`: only these lines become objects. */
  select(next: (from: number) => number, holds: (text: string) => boolean): MarkdownLine[];
  /**
   * The lines `select` answers as numbers, three a line — its file line (negated when fenced), where it starts
   * and where it ends in the file's text — for lines kept after the parse without their text (`readKeptLines`,
   * for an ASCII file); undefined for a body whose lines lost carriage returns (no offsets hold there).
   */
  selectKept(next: (from: number) => number): readonly number[] | undefined;
  /** Every line, `readLines(body, firstLine)`, split on the first ask (a rare rule needs them all). */
  lines(): readonly MarkdownLine[];
}

/** Scans `body`, whose first line is file line `firstLine` and which ends at `offset` of the file's text. */
export function scanBody(body: string, firstLine: number, offset: number): BodyScan {
  if (body.includes('\r')) return scanSplit(body, firstLine, offset);
  /**
   * Where each line starts; a line ends one character before the next starts (at its `\n`). An array of small
   * integers, not an `Int32Array`: a typed array's backing store is allocated apart, ~2 µs each, 20 ms of 10,000
   * documents. Made for a line per 64 characters (L's average is 88), so most never grow.
   */
  const starts: number[] = new Array(Math.max(16, body.length >> 6));
  let count = 0;
  /** The fenced lines, as pairs of line indexes [first, last] (few per document: one pair per code block). */
  const fences: number[] = [];
  let lastFenced = false;
  const titles: { text: string; line: number }[] = [];
  const sections: SectionRange[] = [];
  let fence: string | undefined;
  // The section being read: as in `findSections`, a body is one run of the text [from, to) unless a `# ` line
  // breaks it, from when on its lines are kept in `buffer`.
  let heading = '';
  let headingAt = -1;
  let headingLine = firstLine;
  let from = -1;
  let to = -1;
  let buffer: string[] | undefined;
  const flush = () => {
    const section = buildSection(body, offset, heading, headingAt, headingLine, from, to, buffer);
    if (section !== undefined) sections.push(section);
  };
  let start = 0;
  for (let line = firstLine; ; line++) {
    const newline = body.indexOf('\n', start);
    const stop = newline === -1 ? body.length : newline;
    let inFence = fence !== undefined;
    // What the line starts with decides what it can be (a fence, a heading): most lines are neither.
    const first = body.charCodeAt(start);
    if (first === 0x60 || first === 0x7e || (first === 0x20 && canBeFenceAt(body, start))) {
      const text = body.slice(start, stop);
      const match = FENCE.exec(text);
      if (fence === undefined && match) {
        fence = match[1]!;
        fences.push(count, -1);
        inFence = true;
      } else if (
        fence !== undefined &&
        match &&
        match[1]![0] === fence[0] &&
        match[1]!.length >= fence.length &&
        text.trim() === match[1]
      ) {
        fence = undefined;
        fences[fences.length - 1] = count;
      }
    }
    lastFenced = inFence;
    starts[count++] = start;
    let bodyLine = true;
    // Only `# ` can be a title and only `##` a section heading (`readHeadingText` answers nothing else).
    const second = first === 0x23 && !inFence ? body.charCodeAt(start + 1) : 0;
    if (second === 0x20) {
      const title = readHeadingText(body.slice(start, stop), 1);
      if (title !== undefined) titles.push({ text: title, line });
      // A `# ` line: never part of a section, and the section it interrupts is no longer one run.
      if (from >= 0 && buffer === undefined) buffer = body.slice(from, to).split('\n');
      bodyLine = false;
    } else if (second === 0x23) {
      const match = readHeadingText(body.slice(start, stop), 2);
      if (match !== undefined) {
        flush();
        heading = match;
        headingAt = offset + start;
        headingLine = line;
        buffer = undefined;
        from = -1;
        bodyLine = false;
      }
    }
    if (bodyLine) {
      if (from < 0) from = start;
      to = stop;
      buffer?.push(body.slice(start, stop));
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  flush();
  if (fence !== undefined) fences[fences.length - 1] = count - 1;
  let all: readonly MarkdownLine[] | undefined;
  /**
   * Calls `found` for every line holding a hit (see `selectLines`): its index, where it ends, whether fenced.
   * Each hit's line is searched for in `starts` (the last line starting at or before it), not walked to: a few
   * hits cost a few searches, not a step per line.
   */
  const walk = (next: (from: number) => number, found: (i: number, end: number, fenced: boolean) => void) => {
    let pair = 0;
    let i = 0;
    for (let hit = next(0); hit !== -1; hit = next(starts[i]!)) {
      let last = count - 1;
      while (i < last) {
        const middle = (i + last + 1) >> 1;
        if (starts[middle]! <= hit) i = middle;
        else last = middle - 1;
      }
      const end = i + 1 < count ? starts[i + 1]! - 1 : body.length;
      while (pair < fences.length && fences[pair + 1]! < i) pair += 2;
      found(i, end, pair < fences.length && fences[pair]! <= i);
      if (++i === count) break;
    }
  };
  return {
    titles,
    sections: keepSections(sections),
    lastFenced,
    select(next) {
      const out: MarkdownLine[] = [];
      walk(next, (i, end, fenced) => {
        out.push({ text: body.slice(starts[i]!, end), line: firstLine + i, fenced });
      });
      return out;
    },
    selectKept(next) {
      const out: number[] = [];
      walk(next, (i, end, fenced) => {
        out.push(fenced ? -(firstLine + i) : firstLine + i, offset + starts[i]!, offset + end);
      });
      return out.length === 0 ? NO_KEPT : out.slice();
    },
    lines: () => {
      all ??= readLines(body, firstLine);
      return all;
    },
  };
}

/** The same answers through `readLines`, for a body whose lines lost carriage returns (no offsets hold there). */
function scanSplit(body: string, firstLine: number, offset: number): BodyScan {
  const lines = readLines(body, firstLine);
  return {
    titles: findTitles(lines),
    sections: findSections(body, lines, offset),
    lastFenced: lines[lines.length - 1]!.fenced,
    select: (next, holds) => selectLines(body, lines, next, holds),
    selectKept: () => undefined,
    lines: () => lines,
  };
}

const NO_KEPT: readonly number[] = Object.freeze([]);

/**
 * The lines `kept` describes, read from the bytes of the (ASCII) file their numbers index (kept lines that are
 * not numbers are `MarkdownLine`s already).
 */
export function readKeptLines(bytes: Uint8Array, kept: KeptLines): readonly MarkdownLine[] {
  if (typeof kept[0] !== 'number') return kept as readonly MarkdownLine[];
  const numbers = kept as readonly number[];
  const out: MarkdownLine[] = [];
  // One view of the bytes for all the lines, each read as Latin-1 (ASCII: a byte is a character): no view and
  // no decoder call per line (`decodeAscii`, ~2.5x the time a line).
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < numbers.length; i += 3) {
    const line = numbers[i]!;
    const text = view.toString('latin1', numbers[i + 1]!, numbers[i + 2]!);
    out.push({ text, line: Math.abs(line), fenced: line < 0 });
  }
  return out;
}

/**
 * The lines of `lines` (`readLines(body, …)`) that `holds` keeps, as `KeptLines`: ranges into the text `body`
 * ends at `offset` of when that text is ASCII (`ascii`), else copies (also when the body has carriage returns:
 * its lines are shorter than their runs).
 */
export function keepLinesOf(
  body: string,
  lines: readonly MarkdownLine[],
  offset: number,
  ascii: boolean,
  holds: (text: string) => boolean,
): KeptLines {
  if (!ascii || body.includes('\r')) return keepLines(lines.filter((l) => holds(l.text)));
  const out: number[] = [];
  let at = offset;
  for (const l of lines) {
    if (holds(l.text)) out.push(l.fenced ? -l.line : l.line, at, at + l.text.length);
    at += l.text.length + 1;
  }
  return out.length === 0 ? NO_KEPT : out;
}

/** `canBeFence` (markdown.ts) of the line starting at `start`, read in place. */
export function canBeFenceAt(body: string, start: number): boolean {
  let i = start;
  while (i < start + 3 && body.charCodeAt(i) === 0x20) i++;
  const c = body.charCodeAt(i);
  return c === 0x60 || c === 0x7e;
}
