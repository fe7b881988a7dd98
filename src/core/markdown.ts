/**
 * The little Markdown companion needs to understand: which lines are inside code fences, the `# ` titles, the
 * `## ` sections (the links and scheme URIs are markdown-links.ts's). Line numbers are file lines (the body's
 * first line is `firstLine`).
 */
import type { DocumentSection } from './types.js';

export interface MarkdownLine {
  readonly text: string;
  /** 1-based file line. */
  readonly line: number;
  /** Inside a fenced code block (fence lines included). */
  readonly fenced: boolean;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Splits `body` into lines, marking those inside fenced code blocks. */
export function readLines(body: string, firstLine = 1): MarkdownLine[] {
  const out: MarkdownLine[] = [];
  let fence: string | undefined;
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const text = (lines[i] ?? '').replace(/\r$/, '');
    const match = FENCE.exec(text);
    if (fence === undefined && match) {
      fence = match[1]!;
      out.push({ text, line: firstLine + i, fenced: true });
      continue;
    }
    if (fence !== undefined) {
      if (
        match &&
        match[1]![0] === fence[0] &&
        match[1]!.length >= fence.length &&
        text.trim() === match[1]
      ) {
        fence = undefined;
      }
      out.push({ text, line: firstLine + i, fenced: true });
      continue;
    }
    out.push({ text, line: firstLine + i, fenced: false });
  }
  return out;
}

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
 * Splits on `## ` headings outside code fences. The `# ` title line is dropped; text before the first `## `
 * is a section with an empty heading (omitted when blank). `lines` are `readLines(body, …)`: a section whose
 * lines run unbroken through `body` is a slice of it, not a copy (a large corpus holds its text once).
 */
export function splitSections(body: string, lines: readonly MarkdownLine[]): DocumentSection[] {
  const sections: DocumentSection[] = [];
  // Offsets into `body` are exact only when no line lost a trailing \r to `readLines`.
  const sliceable = !body.includes('\r');
  let heading = '';
  let start = lines[0]?.line ?? 1;
  let buffer: string[] = [];
  let from = -1;
  let to = -1;
  let contiguous = true;
  let offset = 0;
  const flush = () => {
    const text = (sliceable && contiguous && from >= 0 ? body.slice(from, to) : buffer.join('\n')).trim();
    if (heading !== '' || text !== '') sections.push({ heading, body: text, line: start });
  };
  for (const l of lines) {
    const lineStart = offset;
    offset += l.text.length + 1;
    if (!l.fenced && /^# +/.test(l.text)) {
      if (buffer.length > 0) contiguous = false;
      continue;
    }
    const match = l.fenced ? undefined : readHeadingText(l.text, 2);
    if (match !== undefined) {
      flush();
      heading = match;
      start = l.line;
      buffer = [];
      from = -1;
      contiguous = true;
    } else {
      if (from < 0) from = lineStart;
      to = lineStart + l.text.length;
      buffer.push(l.text);
    }
  }
  flush();
  return sections;
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
