/**
 * Markdown that breaks (CMP503–CMP508): unclosed code fences, link fragments that name no heading, link paths
 * with backslashes or to absolute local paths, CRLF line endings and trailing whitespace in front matter. Every
 * rule reads lines `readLines` already split, or the text once; nothing here backtracks.
 */
import { decodeUtf8 } from '../content.js';
import { codes, type Diagnostic, diagnose } from '../diagnostics.js';
import { keepLines, type MarkdownLine, readLines, selectLines } from '../markdown.js';
import { canBeFenceAt } from '../markdown-body.js';
import { findLinkMark, holdsLinkMark, type MarkdownLink, scanInlineLinks } from '../markdown-links.js';
import { type Memo, memoTable, NO_MEMO } from '../memo.js';

/** What the rules need of one Markdown file, kept in place of its lines (a tree has a million of them). */
export interface MarkdownFacts {
  /** The lines a link or URI check reads: those holding `](`, `]:` or `://`. */
  readonly linkLines: readonly MarkdownLine[];
  /** The opening line of a code fence that is never closed. */
  readonly unclosedFence?: number;
}

const FACTS = memoTable<Uint8Array, MarkdownFacts | null>('lint.markdown.facts');
const ANCHORS = memoTable<Uint8Array, ReadonlySet<string>>('lint.markdown.anchors');

/** The facts of a Markdown file's bytes, computed once per bytes; undefined when they are not UTF-8. */
export function readMarkdownFacts(bytes: Uint8Array, memo: Memo = NO_MEMO): MarkdownFacts | undefined {
  const table = memo.table(FACTS);
  let facts = table.get(bytes);
  if (facts === undefined) {
    const text = decodeUtf8(bytes, memo);
    facts = text === undefined ? null : scanMarkdownFacts(text);
    table.set(bytes, facts);
  }
  return facts ?? undefined;
}

/**
 * The anchors of a Markdown file's bytes, computed on the first link that names one of them: most files are
 * never the target of a fragment, and headings are the part of a file the other rules do not keep.
 */
export function readAnchors(bytes: Uint8Array, memo: Memo = NO_MEMO): ReadonlySet<string> {
  const table = memo.table(ANCHORS);
  let anchors = table.get(bytes);
  if (anchors === undefined) {
    const text = decodeUtf8(bytes, memo);
    anchors = text === undefined ? new Set() : buildAnchors(readLines(text));
    table.set(bytes, anchors);
  }
  return anchors;
}

/** The facts of a Markdown text and its lines (`readLines(text)`). */
export function buildMarkdownFacts(text: string, lines: readonly MarkdownLine[]): MarkdownFacts {
  const unclosed = findUnclosedFence(lines);
  return {
    linkLines: keepLines(selectLines(text, lines, createLinkLineSearch(text), holdsLinkLineMark)),
    ...(unclosed === undefined ? {} : { unclosedFence: unclosed }),
  };
}

/**
 * `buildMarkdownFacts(text, readLines(text))` in one pass that makes no object or string for a line it does not
 * keep: a skill's references are whole files of prose, and splitting each into `MarkdownLine`s was 12–17 MB of
 * a cold build's allocations on L for the few lines a link check reads. The fence state is `readLines`'s, and
 * the fence left open at the end is the one `findUnclosedFence` finds (its walk repeats the same state machine
 * over the same lines). A text with a carriage return (whose lines are shorter than their runs) takes the split.
 */
export function scanMarkdownFacts(text: string): MarkdownFacts {
  if (text.includes('\r')) return buildMarkdownFacts(text, readLines(text));
  const next = createLinkLineSearch(text);
  let hit = next(0);
  const kept: MarkdownLine[] = [];
  let fence: string | undefined;
  let fenceLine = 0;
  let start = 0;
  for (let line = 1; ; line++) {
    const newline = text.indexOf('\n', start);
    const stop = newline === -1 ? text.length : newline;
    let fenced = fence !== undefined;
    if (canBeFenceAt(text, start)) {
      const lineText = text.slice(start, stop);
      const match = FENCE.exec(lineText);
      if (fence === undefined) {
        if (match) {
          fence = match[1]!;
          fenceLine = line;
          fenced = true;
        }
      } else if (
        match &&
        match[1]![0] === fence[0] &&
        match[1]!.length >= fence.length &&
        lineText.trim() === match[1]
      ) {
        fence = undefined;
      }
    }
    // As `selectLines` walks: a line holds the next hit when the hit starts before the line's end.
    if (hit !== -1 && hit <= stop) {
      kept.push({ text: text.slice(start, stop), line, fenced });
      hit = next(stop + 1);
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  return {
    linkLines: keepLines(kept),
    ...(fence === undefined ? {} : { unclosedFence: fenceLine }),
  };
}

/** Whether a line is one a link or URI check reads: it holds `](`, `]:` or `://`. */
export function holdsLinkLineMark(text: string): boolean {
  return holdsLinkMark(text) || text.includes('://');
}

/**
 * `next` for `selectLines`: the first `](`, `]:` or `://` at or after `from`. Each mark's last hit is kept and
 * searched again only once `from` passes it, so the text is searched once per mark, not once per line.
 */
function createLinkLineSearch(text: string): (from: number) => number {
  let link = -2;
  let uri = -2;
  return (from) => {
    if (link !== -1 && link < from) link = findLinkMark(text, from);
    if (uri !== -1 && uri < from) uri = text.indexOf('://', from);
    return link === -1 ? uri : uri === -1 ? link : Math.min(link, uri);
  };
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The line of the fence that opens a block never closed, by the rules `readLines` marks fences with. Only the
 * last line tells: a file whose last line is outside a fence closed every fence it opened.
 */
export function findUnclosedFence(lines: readonly MarkdownLine[]): number | undefined {
  if (lines.length === 0 || !lines[lines.length - 1]!.fenced) return undefined;
  let open: { fence: string; line: number } | undefined;
  for (const l of lines) {
    const match = FENCE.exec(l.text);
    if (open === undefined) {
      if (match) open = { fence: match[1]!, line: l.line };
    } else if (
      match &&
      match[1]![0] === open.fence[0] &&
      match[1]!.length >= open.fence.length &&
      l.text.trim() === match[1]
    ) {
      open = undefined;
    }
  }
  return open?.line;
}

/** The anchors a link fragment may name in a file: heading slugs (GitHub's, with -1, -2 for repeats), ids. */
export function buildAnchors(lines: readonly MarkdownLine[]): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  const add = (heading: string) => {
    const slug = slugify(heading);
    const n = counts.get(slug) ?? 0;
    counts.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  };
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.fenced) continue;
    const atx = readAtxHeading(l.text);
    if (atx !== undefined) add(atx);
    else {
      const next = lines[i + 1];
      if (next && !next.fenced && l.text.trim() !== '' && /^ {0,3}(?:=+|-+)[ \t]*$/.test(next.text)) {
        if (!/^ {0,3}(?:[-*_][ \t]*){3,}$/.test(l.text)) add(l.text.trim());
      }
    }
    if (l.text.includes('id=') || l.text.includes('name=') || l.text.includes('{#')) {
      for (const m of l.text.matchAll(
        /\b(?:id|name)=["']([^"'<>]{1,200})["']|\{#([A-Za-z0-9_-]{1,200})\}/g,
      )) {
        anchors.add((m[1] ?? m[2])!);
      }
    }
  }
  return anchors;
}

/** The text of an ATX heading (`#` to `######`), without its closing hashes; undefined for other lines. */
function readAtxHeading(text: string): string | undefined {
  let i = 0;
  while (i < 3 && text.charCodeAt(i) === 0x20) i++;
  let level = 0;
  while (text.charCodeAt(i + level) === 0x23) level++;
  if (level === 0 || level > 6) return undefined;
  const after = i + level;
  if (after < text.length && text[after] !== ' ' && text[after] !== '\t') return undefined;
  let content = text.slice(after).trim();
  let end = content.length;
  while (end > 0 && content.charCodeAt(end - 1) === 0x23) end--;
  if (end === 0 || content[end - 1] === ' ' || content[end - 1] === '\t')
    content = content.slice(0, end).trim();
  return content;
}

/**
 * GitHub's anchor for a heading: links and images reduced to their text, code and emphasis markers dropped,
 * lowercased, every character but letters, marks, digits, spaces, `-` and `_` removed, spaces turned to `-`.
 */
export function slugify(heading: string): string {
  let text = '';
  let copied = 0;
  scanInlineLinks(heading, (_from, _to, link) => {
    const labelStart = heading.indexOf('[', link.start) + 1;
    text += heading.slice(copied, link.start) + heading.slice(labelStart, link.labelEnd);
    copied = link.end;
  });
  text += heading.slice(copied);
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N} _-]/gu, '')
    .replaceAll(' ', '-');
}

/** How a link's path part is written, when it is wrong for a URI reference. */
export function classifyLinkPath(target: string): 'backslash' | 'absolute' | undefined {
  const path = target.replace(/[?#].*$/s, '');
  if (/^(?:file:|~\/|[A-Za-z]:[\\/])/i.test(path) || (path.startsWith('/') && !path.startsWith('//'))) {
    return 'absolute';
  }
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(path)) return undefined; // http:, mailto:, companion:
  // A backslash before ASCII punctuation is a Markdown escape; before anything else it is a separator.
  for (let i = path.indexOf('\\'); i !== -1; i = path.indexOf('\\', i + 2)) {
    if (!/[!-/:-@[-`{-~]/.test(path[i + 1] ?? 'a')) return 'backslash';
  }
  return undefined;
}

/**
 * Findings about the links of one Markdown file: paths with backslashes (CMP505), absolute local paths
 * (CMP506), and fragments naming no anchor (CMP504). `anchorsOf(target)` answers the anchors of the file a
 * path part resolves to (`''` for the file itself), or undefined when that file is not one to judge.
 */
export function lintLinks(
  file: string,
  links: readonly MarkdownLink[],
  anchorsOf: (pathPart: string) => ReadonlySet<string> | undefined,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const link of links) {
    const where = { file, line: link.line, column: link.column };
    const kind = classifyLinkPath(link.target);
    if (kind === 'backslash') {
      out.push(diagnose(codes.backslashLink, { target: link.target }, where));
      continue;
    }
    if (kind === 'absolute') {
      out.push(diagnose(codes.absoluteLink, { target: link.target }, where));
      continue;
    }
    const hash = link.target.indexOf('#');
    if (hash === -1 || /^[A-Za-z][A-Za-z0-9+.-]*:|^\/\//.test(link.target)) continue;
    const fragment = decodeFragment(link.target.slice(hash + 1));
    if (fragment === '') continue;
    const anchors = anchorsOf(link.target.slice(0, hash).replace(/\?.*$/s, ''));
    if (anchors === undefined || hasAnchor(anchors, fragment)) continue;
    out.push(
      diagnose(
        codes.brokenFragment,
        { target: link.target, fragment, file: link.target.slice(0, hash) },
        where,
      ),
    );
  }
  return out;
}

function decodeFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/** GitHub's own anchor matching is forgiving about case; so is this. */
function hasAnchor(anchors: ReadonlySet<string>, fragment: string): boolean {
  if (anchors.has(fragment)) return true;
  const lower = fragment.toLowerCase();
  for (const anchor of anchors) if (anchor.toLowerCase() === lower) return true;
  return false;
}

/** CMP503 for a fence `facts` found open at the end of `file`. */
export function lintFence(file: string, unclosedFence: number | undefined): Diagnostic[] {
  if (unclosedFence === undefined) return [];
  return [diagnose(codes.unclosedFence, { line: unclosedFence }, { file, line: unclosedFence, column: 1 })];
}

/**
 * CRLF line endings (CMP507) and trailing whitespace on the first `frontMatterLines` lines (CMP508), the
 * delimiters included, of a Markdown file's `text`.
 */
export function lintLineEndings(file: string, text: string, frontMatterLines: number): Diagnostic[] {
  const out: Diagnostic[] = [];
  const crlf = text.indexOf('\r\n');
  if (crlf !== -1) {
    let line = 1;
    for (let i = text.indexOf('\n'); i !== -1 && i < crlf; i = text.indexOf('\n', i + 1)) line++;
    out.push(diagnose(codes.crlf, { line }, { file, line, column: 1 }));
  }
  let start = 0;
  for (let line = 1; line <= frontMatterLines && start <= text.length; line++) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const content = text.charCodeAt(end - 1) === 0x0d ? end - 1 : end;
    let trimmed = content;
    while (trimmed > start && (text[trimmed - 1] === ' ' || text[trimmed - 1] === '\t')) trimmed--;
    if (trimmed < content) {
      out.push(diagnose(codes.frontMatterWhitespace, { line }, { file, line, column: trimmed - start + 1 }));
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  return out;
}

/** The lines a file's front matter takes, delimiters included (0 without front matter). */
export function countFrontMatterLines(text: string): number {
  if (!/^---[ \t]*\r?(?:\n|$)/.test(text)) return 0;
  let line = 1;
  for (let start = text.indexOf('\n') + 1; start > 0 && start < text.length; line++) {
    const end = text.indexOf('\n', start);
    const content = text.slice(start, end === -1 ? text.length : end);
    if (/^(?:---|\.\.\.)[ \t]*\r?$/.test(content)) return line + 1;
    if (end === -1) break;
    start = end + 1;
  }
  return 0;
}

/**
 * The rules that need nothing but the text, for a Markdown file that is not served (a document or SKILL.md
 * that does not parse): CRLF line endings and trailing whitespace in its front matter, so `--fix` can repair
 * them before the author fixes the rest.
 */
export function lintUnservedMarkdown(file: string, bytes: Uint8Array, memo: Memo = NO_MEMO): Diagnostic[] {
  const text = decodeUtf8(bytes, memo);
  return text === undefined ? [] : lintLineEndings(file, text, countFrontMatterLines(text));
}
