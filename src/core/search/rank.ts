/**
 * Ranking: which sections answer a query, in what order, and how much of each is handed back. A query's terms are
 * weighted by how rare they are among sections (IDF), a term counts more in a heading than in the document title
 * and more there than in the body, and a section must carry at least half of the query's weight (`coverage`) to
 * be an answer, so a section that mentions one common word never outranks the one that is about the question.
 */
import { compare } from '../diagnostics.js';
import { lowerBound, type SearchableDocument, type SectionIndex } from './section-index.js';
import { extractTerms, termMatchesWord } from './terms.js';

/** One answer: a section (or, when every answer came from one document, that document whole). */
export interface SectionMatch {
  readonly documentId: string;
  readonly title: string;
  readonly uri: string;
  /** The section heading; empty for the text before the first `## ` and for a whole document. */
  readonly heading: string;
  readonly body: string;
  /** Relevance, higher is better; comparable within one search only. 3 decimals. */
  readonly score: number;
  /** Share of the query's weight this section carries, 0–1, 3 decimals. */
  readonly coverage: number;
  /** True when `body` was cut (on a line boundary, never inside a code fence). */
  readonly truncated: boolean;
}

export interface SearchResult {
  /** The terms searched for, after lowercasing, stopwords and stemming. */
  readonly terms: readonly string[];
  readonly matches: readonly SectionMatch[];
  /** True when every match came from one document and `matches` holds that document whole. */
  readonly wholeDocument: boolean;
  /** The headings that matched, when `wholeDocument` (they are all inside the one body). */
  readonly matchedHeadings: readonly string[];
}

export interface SearchOptions {
  /** Most matches returned. @default 6 */
  readonly limit?: number;
  /** A section body is cut at about this many characters. @default 2400 */
  readonly bodyLimit?: number;
  /** A whole document is cut at about this many characters. @default 24000 */
  readonly wholeDocumentLimit?: number;
  /** Sections below this coverage are dropped. @default 0.5 */
  readonly minCoverage?: number;
}

const FIELD_WEIGHT = { heading: 4, title: 2, body: 1 } as const;

/**
 * Cuts `body` to at most about `limit` characters on a line boundary, never leaving a ``` fence open: the cut
 * moves back before an unclosed fence, or (when that would leave nothing) the fence is closed.
 */
export function truncateBody(body: string, limit: number): { text: string; truncated: boolean } {
  if (body.length <= limit) return { text: body, truncated: false };
  const lines = body.split('\n');
  const kept: string[] = [];
  let length = 0;
  for (const line of lines) {
    if (length + line.length + 1 > limit && kept.length > 0) break;
    kept.push(line);
    length += line.length + 1;
  }
  let openFenceAt = -1;
  kept.forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) openFenceAt = openFenceAt === -1 ? index : -1;
  });
  if (openFenceAt > 0) kept.length = openFenceAt;
  else if (openFenceAt === 0) kept.push('```');
  while (kept.length > 0 && kept[kept.length - 1]!.trim() === '') kept.pop();
  const text = kept.join('\n');
  // One line longer than the limit has no line boundary to cut on.
  return { text: text.length > limit * 2 ? text.slice(0, limit) : text, truncated: true };
}

/** The words of a sorted vocabulary that `term` matches (a prefix range, or the one whole word). */
function matchingWords(term: string, vocabulary: readonly string[]): string[] {
  const words: string[] = [];
  for (
    let at = lowerBound(vocabulary, term);
    at < vocabulary.length && termMatchesWord(term, vocabulary[at]!);
    at++
  ) {
    words.push(vocabulary[at]!);
    if (term.length < 4) break;
  }
  return words;
}

/** How one term occurs in each section it reaches: summed over every word it matches. */
interface TermHits {
  readonly weight: number;
  /** Section → its body occurrences and whether its heading holds it, packed: `body * 2 + inHeading`. */
  readonly sections: Map<number, number>;
  readonly titled: Set<number>;
}

function findTerm(term: string, index: SectionIndex, n: number): TermHits {
  const units = index.units;
  const sections = new Map<number, number>();
  const visit = (unit: number, value: number): void => {
    if (units[unit] === undefined) return;
    const hit = sections.get(unit);
    // Body occurrences add up; the heading flag (the low bit) is or-ed.
    sections.set(
      unit,
      hit === undefined ? value : hit - (hit & 1) + value - (value & 1) + ((hit | value) & 1),
    );
  };
  for (const word of matchingWords(term, index.vocabulary)) index.postings.forEach(word, visit);
  const titled = new Set<number>();
  for (const word of matchingWords(term, index.titleVocabulary)) {
    index.titlePostings.forEach(word, (unit) => {
      if (units[unit] !== undefined) titled.add(unit);
    });
  }
  // The same IDF as `weighTerms`: a term no section carries weighs half the maximum.
  const weight = sections.size === 0 ? Math.log(1 + n) / 2 : Math.log(1 + n / sections.size);
  return { weight, sections, titled };
}

interface Candidate {
  readonly document: SearchableDocument;
  /** The section is `document.sections[at]`, read only for the few candidates answered. */
  readonly at: number;
  readonly heading: string;
  readonly score: number;
  readonly coverage: number;
}

const round = (value: number): number => Math.round(value * 1000) / 1000;

/** Ranked section-level matches for `query` over the index `getIndex` answers (built only when a term needs it). */
export function searchIndex(
  getIndex: () => SectionIndex,
  query: string,
  options: SearchOptions,
): SearchResult {
  const limit = options.limit ?? 6;
  const bodyLimit = options.bodyLimit ?? 2400;
  const wholeLimit = options.wholeDocumentLimit ?? 24000;
  const minCoverage = options.minCoverage ?? 0.5;
  const terms = extractTerms(query);
  const empty: SearchResult = { terms, matches: [], wholeDocument: false, matchedHeadings: [] };
  if (terms.length === 0) return empty;

  const index = getIndex();
  const n = Math.max(index.live, 1);
  const hits = terms.map((term) => findTerm(term, index, n));
  const totalWeight = hits.reduce((sum, term) => sum + term.weight, 0);
  const reached = new Set<number>();
  for (const term of hits) {
    for (const unit of term.sections.keys()) reached.add(unit);
    for (const unit of term.titled) reached.add(unit);
  }

  const candidates: Candidate[] = [];
  for (const position of reached) {
    let matchedWeight = 0;
    let score = 0;
    for (const term of hits) {
      const hit = term.sections.get(position);
      const inTitle = term.titled.has(position);
      if (hit === undefined && !inTitle) continue;
      matchedWeight += term.weight;
      score +=
        term.weight *
        ((hit !== undefined && (hit & 1) === 1 ? FIELD_WEIGHT.heading : 0) +
          (inTitle ? FIELD_WEIGHT.title : 0) +
          FIELD_WEIGHT.body * Math.min(Math.log2(1 + (hit === undefined ? 0 : Math.floor(hit / 2))), 3));
    }
    const coverage = totalWeight > 0 ? matchedWeight / totalWeight : 0;
    if (coverage < minCoverage || matchedWeight === 0) continue;
    const unit = index.units[position]!;
    const dilution = unit.bodyLength > 400 ? 1 + Math.log(unit.bodyLength / 400) : 1;
    candidates.push({
      document: unit.document,
      at: unit.at,
      heading: unit.heading,
      score: score / dilution,
      coverage,
    });
  }

  candidates.sort(
    (a, b) =>
      b.coverage - a.coverage ||
      b.score - a.score ||
      compare(a.document.id, b.document.id) ||
      compare(a.heading, b.heading),
  );

  const seen = new Set<string>();
  const chosen: (Candidate & { readonly body: string })[] = [];
  for (const candidate of candidates) {
    const body = candidate.document.sections[candidate.at]!.body;
    const key = body.replace(/\s+/g, ' ').trim();
    if (seen.has(key)) continue;
    seen.add(key);
    chosen.push({ ...candidate, body });
    if (chosen.length >= limit) break;
  }
  if (chosen.length === 0) return empty;

  const first = chosen[0]!;
  if (chosen.every((candidate) => candidate.document === first.document)) {
    const { text, truncated } = truncateBody(first.document.body, wholeLimit);
    return {
      terms,
      wholeDocument: true,
      matchedHeadings: chosen.map((candidate) => candidate.heading),
      matches: [
        {
          documentId: first.document.id,
          title: first.document.title,
          uri: first.document.uri,
          heading: '',
          body: text,
          score: round(first.score),
          coverage: round(first.coverage),
          truncated,
        },
      ],
    };
  }

  return {
    terms,
    wholeDocument: false,
    matchedHeadings: [],
    matches: chosen.map((candidate) => {
      const { text, truncated } = truncateBody(candidate.body, bodyLimit);
      return {
        documentId: candidate.document.id,
        title: candidate.document.title,
        uri: candidate.document.uri,
        heading: candidate.heading,
        body: text,
        score: round(candidate.score),
        coverage: round(candidate.coverage),
        truncated,
      };
    }),
  };
}
