/**
 * Lexical, section-level search over the knowledge documents: what `document_lookup` answers a query with.
 *
 * Purely lexical on purpose: deterministic, explainable, and fast enough to run per request over a whole catalog.
 * A query's terms are weighted by how rare they are among sections (IDF), a term counts more in a heading than in
 * the document title and more there than in the body, and a section must carry at least half of the query's weight
 * (`coverage`) to be an answer, so a section that mentions one common word never outranks the one that is about
 * the question. An inverted index (word → sections, looked up by prefix) is built once per document list and
 * kept beside it, so a query costs the postings of its terms, not a pass over every word of every document; the
 * next list (a catalog rebuild after a save: the same entry objects but a few) gets the same index patched, at
 * the cost of the entries that changed.
 */
import { compare } from './diagnostics.js';
import type { DocumentSection } from './types.js';

/** Words too common to say anything about what a section is about. */
const STOPWORDS = new Set(
  (
    'a an and are as at be by can do does for from how i if in into is it its me my of on or our should so that ' +
    'the their them then there these this to use used using was what when where which who why will with you your'
  ).split(' '),
);

/** The fields of a document the search reads. `DocumentEntry` satisfies it. */
export interface SearchableDocument {
  readonly id: string;
  readonly title: string;
  readonly uri: string;
  readonly body: string;
  readonly sections: readonly DocumentSection[];
}

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

/** Lowercased words of `text`: runs of letters and digits. */
export function splitWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * A crude stem, so a query word also finds its other forms by prefix: plurals (`skills` → `skill`, `stories` →
 * `stor`), `-ing` and `-ed` (`renaming`, `renamed` → `renam`), and a final `e` (`rename` → `renam`, `write` →
 * `writ`, which then matches `writing` and `written`). Words under five characters stay as written.
 */
function stem(word: string): string {
  if (word.length < 5 || /\d/.test(word)) return word;
  if (word.endsWith('ies')) return word.slice(0, -3);
  if (word.length >= 7 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length >= 6 && word.endsWith('ed') && !word.endsWith('eed')) return word.slice(0, -2);
  if (word.endsWith('s') && !/(ss|us|is)$/.test(word)) return stem(word.slice(0, -1));
  if (word.endsWith('e')) return word.slice(0, -1);
  return word;
}

/**
 * The search terms of a query or task: lowercase words of two or more characters, stopwords removed, crudely
 * stemmed, each once, in the order written.
 */
export function extractTerms(query: string): string[] {
  const terms: string[] = [];
  for (const word of splitWords(query)) {
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    const term = stem(word);
    if (!terms.includes(term)) terms.push(term);
  }
  return terms;
}

/** A term of four or more characters matches as a word prefix; a shorter one only as a whole word. */
export function termMatchesWord(term: string, word: string): boolean {
  return term.length >= 4 ? word.startsWith(term) : word === term;
}

/**
 * Inverse document frequency of each term over `units` (each entry one searchable unit's words). A term no unit
 * carries weighs half the maximum, so it still lowers the coverage of every unit.
 */
export function weighTerms(
  terms: readonly string[],
  units: readonly (readonly string[])[],
): Map<string, number> {
  const n = Math.max(units.length, 1);
  const weights = new Map<string, number>();
  for (const term of terms) {
    let df = 0;
    for (const words of units) if (words.some((word) => termMatchesWord(term, word))) df++;
    weights.set(term, df === 0 ? Math.log(1 + n) / 2 : Math.log(1 + n / df));
  }
  return weights;
}

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

/** One section of the index. */
interface SectionUnit {
  readonly document: SearchableDocument;
  readonly section: DocumentSection;
  readonly bodyLength: number;
}

/**
 * Where one word occurs: parallel arrays, one slot per section holding it in its heading or body, in section
 * order. Slots of dead sections stay until the next full build; `live` counts the others, and a word whose last
 * live section dies leaves the index (and its vocabulary) at once, so it answers exactly like an absent word.
 */
interface Posting {
  readonly units: number[];
  readonly bodyCounts: number[];
  readonly inHeading: boolean[];
  live: number;
}

/** The sections of the documents whose title holds one word; `live` as in `Posting`. */
interface TitlePosting {
  readonly units: number[];
  live: number;
}

/**
 * An inverted index over one document list: which sections hold a word, looked up by prefix. Patchable: when
 * the list changes by a few entries (a catalog rebuild after a save keeps every other entry object), the
 * sections of the entries that left die in place (`units[i] === undefined`, skipped by every reader) and the
 * entries that arrived are appended, so the index answers exactly as a fresh build over the new list would.
 */
interface SectionIndex {
  /** Every section ever indexed since the last full build; `undefined` where its document has left the list. */
  readonly units: (SectionUnit | undefined)[];
  /** Heading or body word → the sections holding it (what the IDF counts). */
  readonly postings: Map<string, Posting>;
  /** Title word → the sections of the documents whose title holds it. */
  readonly titlePostings: Map<string, TitlePosting>;
  /** The keys of `postings` and `titlePostings`, sorted, for prefix ranges. */
  vocabulary: string[];
  titleVocabulary: string[];
  /** Each indexed document → its first unit; its sections are the next `sections.length` units, in order. */
  readonly unitsOf: Map<SearchableDocument, number>;
  /** Live sections: the `n` of the IDF. */
  live: number;
  /** Dead sections (tombstones) since the last full build. */
  dead: number;
  /** False when the list held one entry object twice (then `unitsOf` cannot say which units are whose). */
  patchable: boolean;
}

/**
 * A patch is taken instead of a full build while dead plus newly added sections stay under this share of the
 * live ones. @internal Tunable by tests.
 */
let rebuildRatio = 0.25;

// A catalog's document list is immutable and lives for one generation, so its index is kept beside it and
// every query of that generation reuses it. The next generation's list shares most entry objects with the
// previous one, so the last index used (`liveIndex`) is patched into the new list's index rather than rebuilt:
// it moves to the new key, and the old list, if searched again, is patched back or rebuilt.
const sectionIndexes = new WeakMap<readonly SearchableDocument[], SectionIndex>();
let liveIndex: { documents: readonly SearchableDocument[]; index: SectionIndex } | undefined;

/** The distinct words of a section, each with its body occurrences, and the words of its heading. */
function sectionWords(section: DocumentSection): {
  counts: Map<string, number>;
  heading: Set<string>;
  bodyLength: number;
} {
  const body = splitWords(section.body);
  const counts = new Map<string, number>();
  for (const word of body) counts.set(word, (counts.get(word) ?? 0) + 1);
  const heading = new Set(splitWords(section.heading));
  for (const word of heading) if (!counts.has(word)) counts.set(word, 0);
  return { counts, heading, bodyLength: body.length };
}

/** Appends `document`'s sections as new units; words that enter the index are added to `newWords`. */
function addDocument(
  index: SectionIndex,
  document: SearchableDocument,
  newWords?: Set<string>,
  newTitleWords?: Set<string>,
): void {
  if (index.unitsOf.has(document)) index.patchable = false;
  else index.unitsOf.set(document, index.units.length);
  const title = new Set(splitWords(document.title));
  for (const section of document.sections) {
    const unit = index.units.length;
    const { counts, heading, bodyLength } = sectionWords(section);
    index.units.push({ document, section, bodyLength });
    index.live++;
    for (const [word, count] of counts) {
      let posting = index.postings.get(word);
      if (!posting) {
        posting = { units: [], bodyCounts: [], inHeading: [], live: 0 };
        index.postings.set(word, posting);
        newWords?.add(word);
      }
      posting.units.push(unit);
      posting.bodyCounts.push(count);
      posting.inHeading.push(heading.has(word));
      posting.live++;
    }
    for (const word of title) {
      let posting = index.titlePostings.get(word);
      if (!posting) {
        posting = { units: [], live: 0 };
        index.titlePostings.set(word, posting);
        newTitleWords?.add(word);
      }
      posting.units.push(unit);
      posting.live++;
    }
  }
}

/** Kills `document`'s units; words left with no live section leave the index and are added to `goneWords`. */
function removeDocument(
  index: SectionIndex,
  document: SearchableDocument,
  goneWords: Set<string>,
  goneTitleWords: Set<string>,
): void {
  const first = index.unitsOf.get(document)!;
  index.unitsOf.delete(document);
  const count = document.sections.length;
  for (let at = 0; at < count; at++) {
    index.units[first + at] = undefined;
    for (const word of sectionWords(document.sections[at]!).counts.keys()) {
      const posting = index.postings.get(word)!;
      if (--posting.live === 0) {
        index.postings.delete(word);
        goneWords.add(word);
      }
    }
  }
  if (count > 0) {
    for (const word of new Set(splitWords(document.title))) {
      const posting = index.titlePostings.get(word)!;
      posting.live -= count;
      if (posting.live === 0) {
        index.titlePostings.delete(word);
        goneTitleWords.add(word);
      }
    }
  }
  index.live -= count;
  index.dead += count;
}

/** A full build over `documents`, kept nowhere. */
function buildIndex(documents: readonly SearchableDocument[]): SectionIndex {
  const index: SectionIndex = {
    units: [],
    postings: new Map(),
    titlePostings: new Map(),
    vocabulary: [],
    titleVocabulary: [],
    unitsOf: new Map(),
    live: 0,
    dead: 0,
    patchable: true,
  };
  for (const document of documents) addDocument(index, document);
  index.vocabulary = [...index.postings.keys()].sort();
  index.titleVocabulary = [...index.titlePostings.keys()].sort();
  return index;
}

/** The first position of a sorted vocabulary whose word is not below `word`. */
function lowerBound(vocabulary: readonly string[], word: string): number {
  let low = 0;
  let high = vocabulary.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (vocabulary[middle]! < word) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** `vocabulary` brought in line with `keys` for the words in `changed` (each one added or removed). */
function updateVocabulary(
  vocabulary: string[],
  keys: ReadonlyMap<string, unknown>,
  changed: Set<string>,
): string[] {
  // Each splice moves the tail of the array; past a few hundred words one sort is cheaper.
  if (changed.size > 256) return [...keys.keys()].sort();
  for (const word of changed) {
    const at = lowerBound(vocabulary, word);
    const listed = vocabulary[at] === word;
    if (keys.has(word) && !listed) vocabulary.splice(at, 0, word);
    else if (!keys.has(word) && listed) vocabulary.splice(at, 1);
  }
  return vocabulary;
}

/**
 * Patches `index` (built over some other list) in place into the index of `documents`, or answers false when
 * that would not be cheaper than a full build or could answer differently from one: the ranking breaks ties on
 * document id and heading, and only sections of one document (consecutive and in order in any index) may tie
 * on both, so the new list must hold each entry, and each document id, once.
 */
function patchIndex(index: SectionIndex, documents: readonly SearchableDocument[]): boolean {
  if (!index.patchable) return false;
  const entries = new Set(documents);
  if (entries.size !== documents.length) return false;
  const ids = new Set<string>();
  for (const document of documents) ids.add(document.id);
  if (ids.size !== documents.length) return false;
  const removed: SearchableDocument[] = [];
  let removedUnits = 0;
  for (const document of index.unitsOf.keys()) {
    if (entries.has(document)) continue;
    removed.push(document);
    removedUnits += document.sections.length;
  }
  const added: SearchableDocument[] = [];
  let addedUnits = 0;
  for (const document of documents) {
    if (index.unitsOf.has(document)) continue;
    added.push(document);
    addedUnits += document.sections.length;
  }
  const liveAfter = index.live - removedUnits + addedUnits;
  if (index.dead + removedUnits + addedUnits > rebuildRatio * liveAfter) return false;
  const changed = new Set<string>();
  const changedTitles = new Set<string>();
  for (const document of removed) removeDocument(index, document, changed, changedTitles);
  for (const document of added) addDocument(index, document, changed, changedTitles);
  index.vocabulary = updateVocabulary(index.vocabulary, index.postings, changed);
  index.titleVocabulary = updateVocabulary(index.titleVocabulary, index.titlePostings, changedTitles);
  return true;
}

function indexSections(documents: readonly SearchableDocument[]): SectionIndex {
  const cached = sectionIndexes.get(documents);
  if (cached) {
    liveIndex = { documents, index: cached };
    return cached;
  }
  if (liveIndex && patchIndex(liveIndex.index, documents)) {
    // The old list's index is now this one: the old list, if searched again, gets its own.
    sectionIndexes.delete(liveIndex.documents);
  } else {
    liveIndex = { documents, index: buildIndex(documents) };
  }
  liveIndex.documents = documents;
  sectionIndexes.set(documents, liveIndex.index);
  return liveIndex.index;
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
  /** Section → [body occurrences, in heading]. */
  readonly sections: Map<number, { body: number; heading: boolean }>;
  readonly titled: Set<number>;
}

function findTerm(term: string, index: SectionIndex, n: number): TermHits {
  const units = index.units;
  const sections = new Map<number, { body: number; heading: boolean }>();
  for (const word of matchingWords(term, index.vocabulary)) {
    const posting = index.postings.get(word)!;
    for (let at = 0; at < posting.units.length; at++) {
      const unit = posting.units[at]!;
      if (units[unit] === undefined) continue;
      const hit = sections.get(unit);
      if (hit) {
        hit.body += posting.bodyCounts[at]!;
        hit.heading ||= posting.inHeading[at]!;
      } else {
        sections.set(unit, { body: posting.bodyCounts[at]!, heading: posting.inHeading[at]! });
      }
    }
  }
  const titled = new Set<number>();
  for (const word of matchingWords(term, index.titleVocabulary)) {
    for (const unit of index.titlePostings.get(word)!.units) if (units[unit] !== undefined) titled.add(unit);
  }
  // The same IDF as `weighTerms`: a term no section carries weighs half the maximum.
  const weight = sections.size === 0 ? Math.log(1 + n) / 2 : Math.log(1 + n / sections.size);
  return { weight, sections, titled };
}

interface Candidate {
  readonly document: SearchableDocument;
  readonly section: DocumentSection;
  readonly score: number;
  readonly coverage: number;
}

const round = (value: number): number => Math.round(value * 1000) / 1000;

/**
 * Ranked section-level matches for `query` over `documents`. Deterministic: ties break on document id, then
 * heading. Sections with identical bodies (whitespace aside) are answered once. When every match comes from
 * one document, that document is answered whole instead (its sections would be read together anyway).
 */
export function searchDocuments(
  documents: readonly SearchableDocument[],
  query: string,
  options: SearchOptions = {},
): SearchResult {
  return searchIndex(() => indexSections(documents), query, options);
}

function searchIndex(getIndex: () => SectionIndex, query: string, options: SearchOptions): SearchResult {
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
      if (!hit && !inTitle) continue;
      matchedWeight += term.weight;
      score +=
        term.weight *
        ((hit?.heading ? FIELD_WEIGHT.heading : 0) +
          (inTitle ? FIELD_WEIGHT.title : 0) +
          FIELD_WEIGHT.body * Math.min(Math.log2(1 + (hit?.body ?? 0)), 3));
    }
    const coverage = totalWeight > 0 ? matchedWeight / totalWeight : 0;
    if (coverage < minCoverage || matchedWeight === 0) continue;
    const unit = index.units[position]!;
    const dilution = unit.bodyLength > 400 ? 1 + Math.log(unit.bodyLength / 400) : 1;
    candidates.push({ document: unit.document, section: unit.section, score: score / dilution, coverage });
  }

  candidates.sort(
    (a, b) =>
      b.coverage - a.coverage ||
      b.score - a.score ||
      compare(a.document.id, b.document.id) ||
      compare(a.section.heading, b.section.heading),
  );

  const seen = new Set<string>();
  const chosen: Candidate[] = [];
  for (const candidate of candidates) {
    const key = candidate.section.body.replace(/\s+/g, ' ').trim();
    if (seen.has(key)) continue;
    seen.add(key);
    chosen.push(candidate);
    if (chosen.length >= limit) break;
  }
  if (chosen.length === 0) return empty;

  const first = chosen[0]!;
  if (chosen.every((candidate) => candidate.document === first.document)) {
    const { text, truncated } = truncateBody(first.document.body, wholeLimit);
    return {
      terms,
      wholeDocument: true,
      matchedHeadings: chosen.map((candidate) => candidate.section.heading),
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
      const { text, truncated } = truncateBody(candidate.section.body, bodyLimit);
      return {
        documentId: candidate.document.id,
        title: candidate.document.title,
        uri: candidate.document.uri,
        heading: candidate.section.heading,
        body: text,
        score: round(candidate.score),
        coverage: round(candidate.coverage),
        truncated,
      };
    }),
  };
}

/** @internal For tests and benchmarks only — not part of the module's contract. */
export const searchInternals = {
  /** `searchDocuments` over an index built from scratch for this call, leaving the kept indexes alone. */
  searchFresh(
    documents: readonly SearchableDocument[],
    query: string,
    options: SearchOptions = {},
  ): SearchResult {
    return searchIndex(() => buildIndex(documents), query, options);
  },
  /** Sets the share of dead plus added sections past which a changed list is rebuilt, not patched. */
  setRebuildRatio(ratio: number): void {
    rebuildRatio = ratio;
  },
  /** Forgets the live index, so the next search of a list not yet searched builds from scratch. */
  reset(): void {
    liveIndex = undefined;
  },
  /** The live index's size: sections live and dead (since its last full build), and words indexed. */
  stats(): { live: number; dead: number; words: number; titleWords: number } | undefined {
    if (!liveIndex) return undefined;
    const { index } = liveIndex;
    return {
      live: index.live,
      dead: index.dead,
      words: index.vocabulary.length,
      titleWords: index.titleVocabulary.length,
    };
  },
};
