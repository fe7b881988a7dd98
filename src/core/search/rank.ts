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
  /**
   * Per unit: its body occurrences and whether its heading holds the term, packed `body * 2 + inHeading`, plus
   * one (0: the term is not in its body or heading).
   */
  readonly sections: Int32Array;
  /** Per unit: 1 when its document's title holds the term. */
  readonly titled: Uint8Array;
}

/**
 * Finds `term` in `index`. Every unit it reaches is appended to `reached` once (`marked` says which are), in the
 * order the postings give them: the order the ranking's stable sort keeps for exact ties.
 */
function findTerm(
  term: string,
  index: SectionIndex,
  n: number,
  reached: number[],
  marked: Uint8Array,
): TermHits {
  const units = index.unitDocuments;
  const sections = new Int32Array(units.length);
  const titled = new Uint8Array(units.length);
  let reachedHere = 0;
  const visit = (unit: number, value: number): void => {
    if (units[unit] === undefined) return;
    const hit = sections[unit]! - 1;
    // Body occurrences add up; the heading flag (the low bit) is or-ed.
    if (hit === -1) {
      sections[unit] = value + 1;
      reachedHere++;
      if (marked[unit] === 0) {
        marked[unit] = 1;
        reached.push(unit);
      }
    } else {
      sections[unit] = hit - (hit & 1) + value - (value & 1) + ((hit | value) & 1) + 1;
    }
  };
  for (const word of matchingWords(term, index.vocabulary)) index.postings.forEach(word, visit);
  // Units reached by the title alone join `reached` after the body hits of the same term.
  for (const word of matchingWords(term, index.titleVocabulary)) {
    index.titlePostings.forEach(word, (unit) => {
      if (units[unit] === undefined) return;
      titled[unit] = 1;
      if (marked[unit] === 0) {
        marked[unit] = 1;
        reached.push(unit);
      }
    });
  }
  // The same IDF as `weighTerms`: a term no section carries weighs half the maximum.
  const weight = reachedHere === 0 ? Math.log(1 + n) / 2 : Math.log(1 + n / reachedHere);
  return { weight, sections, titled };
}

/** A section that answers a query, before it is cut and rounded. */
export interface Candidate {
  readonly document: SearchableDocument;
  /** The section is `document.sections[at]`, read only for the few candidates answered. */
  readonly at: number;
  readonly heading: string;
  readonly score: number;
  readonly coverage: number;
}

const round = (value: number): number => Math.round(value * 1000) / 1000;

/** A candidate's section body, read from its document (an entry reads it from its file's text when asked). */
const bodyOf = (candidate: Candidate): string => candidate.document.sections[candidate.at]!.body;

/** The ranking order: coverage, then score, then document id and heading; `index` (input order) last. */
const inOrder = (a: Candidate, b: Candidate): number =>
  b.coverage - a.coverage ||
  b.score - a.score ||
  compare(a.document.id, b.document.id) ||
  compare(a.heading, b.heading);

/**
 * The first `limit` candidates with distinct bodies (whitespace aside) in the order a stable sort by `inOrder`
 * gives. Only the best `want` are sorted (`bestOf`), `want` doubling while duplicates leave too few.
 */
export function chooseDistinct(candidates: readonly Candidate[], limit: number): Candidate[] {
  for (let want = Math.max(limit * 4, 16); ; want *= 2) {
    const best = want >= candidates.length ? [...candidates].sort(inOrder) : bestOf(candidates, want);
    const seen = new Set<string>();
    const chosen: Candidate[] = [];
    for (const candidate of best) {
      const key = bodyOf(candidate).replace(/\s+/g, ' ').trim();
      if (seen.has(key)) continue;
      seen.add(key);
      chosen.push(candidate);
      if (chosen.length >= limit) return chosen;
    }
    if (best.length === candidates.length) return chosen;
  }
}

/**
 * The first `count` of `candidates` as a stable sort by `inOrder` would put them (ties keep their input order),
 * by a bounded heap: the worst of the best so far on top, replaced by anything better.
 */
function bestOf(candidates: readonly Candidate[], count: number): Candidate[] {
  // Position in the input breaks the ties `inOrder` leaves, as a stable sort does.
  const worse = (a: number, b: number): boolean => {
    const order = inOrder(candidates[a]!, candidates[b]!);
    return order > 0 || (order === 0 && a > b);
  };
  const heap: number[] = [];
  const siftDown = (from: number): void => {
    let at = from;
    for (;;) {
      const left = at * 2 + 1;
      const right = left + 1;
      let worst = at;
      if (left < heap.length && worse(heap[left]!, heap[worst]!)) worst = left;
      if (right < heap.length && worse(heap[right]!, heap[worst]!)) worst = right;
      if (worst === at) return;
      [heap[at], heap[worst]] = [heap[worst]!, heap[at]!];
      at = worst;
    }
  };
  for (let position = 0; position < candidates.length; position++) {
    if (heap.length < count) {
      heap.push(position);
      for (let at = heap.length - 1; at > 0; ) {
        const parent = (at - 1) >> 1;
        if (!worse(heap[at]!, heap[parent]!)) break;
        [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
        at = parent;
      }
    } else if (worse(heap[0]!, position)) {
      heap[0] = position;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => inOrder(candidates[a]!, candidates[b]!) || a - b).map((at) => candidates[at]!);
}

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
  const reached: number[] = [];
  const marked = new Uint8Array(index.unitDocuments.length);
  const hits = terms.map((term) => findTerm(term, index, n, reached, marked));
  const totalWeight = hits.reduce((sum, term) => sum + term.weight, 0);

  const candidates: Candidate[] = [];
  for (const position of reached) {
    let matchedWeight = 0;
    let score = 0;
    for (const term of hits) {
      const hit = term.sections[position]! - 1;
      const inTitle = term.titled[position] === 1;
      if (hit === -1 && !inTitle) continue;
      matchedWeight += term.weight;
      score +=
        term.weight *
        ((hit !== -1 && (hit & 1) === 1 ? FIELD_WEIGHT.heading : 0) +
          (inTitle ? FIELD_WEIGHT.title : 0) +
          FIELD_WEIGHT.body * Math.min(Math.log2(1 + (hit === -1 ? 0 : Math.floor(hit / 2))), 3));
    }
    const coverage = totalWeight > 0 ? matchedWeight / totalWeight : 0;
    if (coverage < minCoverage || matchedWeight === 0) continue;
    const bodyLength = index.unitBodyLengths[position]!;
    const dilution = bodyLength > 400 ? 1 + Math.log(bodyLength / 400) : 1;
    candidates.push({
      document: index.unitDocuments[position]!,
      at: index.unitAt[position]!,
      heading: index.unitHeadings[position]!,
      score: score / dilution,
      coverage,
    });
  }

  // The best `limit` sections with distinct bodies, in ranking order. Sorting every candidate (80,000 of them
  // for a common word on a 10,000-document corpus) cost more than the rest of the query: only the best few are
  // put in order, then more only if duplicates used them up — the same sections a full sort would give.
  const chosen = chooseDistinct(candidates, limit);
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
      const { text, truncated } = truncateBody(bodyOf(candidate), bodyLimit);
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
