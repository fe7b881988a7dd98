/**
 * The little Markdown companion needs to understand: which lines are inside code fences, the `# ` titles, the
 * `## ` sections, and the links. Line numbers are file lines (the body's first line is `firstLine`).
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
    const match = /^# +(.+?)\s*#*\s*$/.exec(l.text);
    if (match) titles.push({ text: match[1]!, line: l.line });
  }
  return titles;
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
    const match = l.fenced ? null : /^## +(.+?)\s*#*\s*$/.exec(l.text);
    if (match) {
      flush();
      heading = match[1]!;
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

export interface MarkdownLink {
  readonly target: string;
  readonly line: number;
  readonly column: number;
}

const INLINE_LINK = /!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/;

const linksMemo = new WeakMap<readonly MarkdownLine[], readonly MarkdownLink[]>();
const urisMemo = new WeakMap<
  readonly MarkdownLine[],
  { readonly scheme: string; readonly found: readonly UriMention[] }
>();

/**
 * Every inline link and reference definition outside code fences and inline code spans. Memoized per `lines`
 * array, which the callers keep per file: an unchanged file is never scanned twice.
 */
export function findLinks(lines: readonly MarkdownLine[]): readonly MarkdownLink[] {
  const cached = linksMemo.get(lines);
  if (cached) return cached;
  const found = scanLinks(lines);
  linksMemo.set(lines, found);
  return found;
}

function scanLinks(lines: readonly MarkdownLine[]): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const l of lines) {
    // Most lines hold no link at all; skip them before any regex runs (a 10,000-document tree has a million).
    if (l.fenced || (!l.text.includes('](') && !l.text.includes(']:'))) continue;
    const text = maskCodeSpans(l.text);
    const definition = REFERENCE_DEFINITION.exec(text);
    if (definition) {
      links.push({
        target: unbracket(definition[1]!),
        line: l.line,
        column: text.indexOf(definition[1]!) + 1,
      });
      continue;
    }
    for (const match of text.matchAll(INLINE_LINK)) {
      const raw = match[1]!;
      links.push({
        target: unbracket(raw),
        line: l.line,
        column: (match.index ?? 0) + match[0].indexOf(raw) + 1,
      });
    }
  }
  return links;
}

export interface UriMention {
  readonly uri: string;
  readonly line: number;
  readonly column: number;
}

/**
 * Every `<scheme>://…` URI written in `lines`, code included (a URI in an example is still a promise to the
 * reader). A URI followed directly by `{` or `<` is a template or a placeholder and is skipped.
 */
export function findSchemeUris(lines: readonly MarkdownLine[], scheme: string): readonly UriMention[] {
  const cached = urisMemo.get(lines);
  if (cached?.scheme === scheme) return cached.found;
  const found = scanSchemeUris(lines, scheme);
  urisMemo.set(lines, { scheme, found });
  return found;
}

function scanSchemeUris(lines: readonly MarkdownLine[], scheme: string): UriMention[] {
  const pattern = new RegExp(`(?<![A-Za-z0-9+.-])${escapeRegExp(scheme)}://[A-Za-z0-9._~/%+-]*`, 'g');
  const found: UriMention[] = [];
  const marker = `${scheme}://`;
  for (const l of lines) {
    if (!l.text.includes(marker)) continue;
    for (const match of l.text.matchAll(pattern)) {
      const end = (match.index ?? 0) + match[0].length;
      const next = l.text[end];
      if (next === '{' || next === '<') continue;
      const uri = match[0].replace(/[.,;:!?]+$/, '').replace(/\/$/, '');
      found.push({ uri, line: l.line, column: (match.index ?? 0) + 1 });
    }
  }
  return found;
}

function maskCodeSpans(text: string): string {
  return text.replace(/(`+)(?:(?!\1).)*?\1/g, (span) => ' '.repeat(span.length));
}

function unbracket(target: string): string {
  return target.startsWith('<') && target.endsWith('>') ? target.slice(1, -1) : target;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
