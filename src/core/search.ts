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

/** The `values` slot that says the value is in `wide`. */
const WIDE = 0xffff;
/** Sizes, in Int32 slots, of the first and the largest chunk of `pending`. */
const FIRST_CHUNK = 3 * 256;
const LARGEST_CHUNK = 3 * 65536;

/** `array` with room for at least `size` elements (doubling), its contents kept. */
function ensure(array: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  if (size <= array.length) return array;
  let capacity = Math.max(array.length, 16);
  while (capacity < size) capacity *= 2;
  const grown = new Int32Array(capacity);
  grown.set(array);
  return grown;
}

/**
 * Scratch for collecting the distinct words of one section (or title) without a `Map`, indexed by word id
 * (of whichever table is collecting: a set is used up before the next `begin`): `stamp` says whether the word
 * is in the current set, `count` and `flag` are what the set holds for it.
 */
const scratch = {
  stamp: new Int32Array(0),
  count: new Int32Array(0),
  flag: new Int32Array(0),
  now: 0,
  touched: [] as number[],
};

/** Starts a new set of distinct words (`touch`); answers its ids, valid until the next `begin`. */
function begin(): number[] {
  scratch.now++;
  scratch.touched.length = 0;
  return scratch.touched;
}

/** Adds the word `id` to the current set, once; answers its id. */
function touch(id: number): number {
  if (scratch.stamp[id] !== scratch.now) {
    scratch.stamp[id] = scratch.now;
    scratch.count[id] = 0;
    scratch.flag[id] = 0;
    scratch.touched.push(id);
  }
  return id;
}

/**
 * Where each word occurs, compactly: words are interned to integer ids once, and each word's postings are
 * (section, value) pairs in section order, where the value packs the section's body occurrences with a heading
 * flag (`count * 2 + inHeading`; 0 for title postings), in two bytes unless it is large (see `wide`). A full
 * build collects every pair in unit order (in chunks, `pending`) and then lays them out word by word (a
 * counting sort) in flat typed arrays, `start[id]…start[id + 1]`; a patch appends the pairs of the sections it
 * adds to a per-word linked list after them (`head`/`next`), so a word's postings stay in section order. No
 * per-word or per-pair object: a few typed arrays, the word `Map`, and the words themselves.
 *
 * Slots of dead sections stay until the next full build; `live` counts the others, and a word whose last live
 * section dies leaves the index (and its vocabulary) at once, so it answers exactly like an absent word: a word
 * is in the index while its `live` count is above zero.
 */
class PostingTable {
  /** Word → id; ids are never reused or dropped until the next full build. */
  readonly ids = new Map<string, number>();
  readonly words: string[] = [];
  /** Per word id: live sections holding it. */
  live = new Int32Array(0);

  /** True until `finish`: pairs go to `pending`, in unit order. */
  private building = true;
  /** (word id, unit, value) triples in chunks of doubling size: growing copies nothing. */
  private pending: Int32Array[] = [];
  /** Slots of `pending`'s last chunk in use. */
  private pendingFill = 0;
  /** Pairs in `pending`. */
  private pendingLength = 0;

  /** The laid-out postings of the words that had an id at `finish`. */
  private baseWords = 0;
  private start = new Int32Array(1);
  private units = new Int32Array(0);
  /** Values of 0xffff and above read `WIDE` here and sit in `wide`, by position: two bytes a pair, not four. */
  private values = new Uint16Array(0);
  private wide: Map<number, number> | undefined;

  /**
   * Pairs added since `finish`: per word id, a list through `next`. Links are positions plus one, so 0 (and a
   * word past the end of `head`) means none.
   */
  private head = new Int32Array(0);
  private tail = new Int32Array(0);
  private extraUnits = new Int32Array(0);
  private extraValues = new Int32Array(0);
  private next = new Int32Array(0);
  private extraLength = 0;

  /** The id of `word`, given one if it has none. */
  intern(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.words.length;
      this.ids.set(word, id);
      this.words.push(word);
      if (id >= this.live.length) this.live = ensure(this.live, id + 1);
      if (id >= scratch.stamp.length) {
        scratch.stamp = ensure(scratch.stamp, id + 1);
        scratch.count = ensure(scratch.count, id + 1);
        scratch.flag = ensure(scratch.flag, id + 1);
      }
    }
    return id;
  }

  /** True when `word` is in the index (some live section holds it). */
  has(word: string): boolean {
    const id = this.ids.get(word);
    return id !== undefined && this.live[id]! > 0;
  }

  /** The words in the index, sorted. */
  vocabulary(): string[] {
    const words: string[] = [];
    for (let id = 0; id < this.words.length; id++) if (this.live[id]! > 0) words.push(this.words[id]!);
    return words.sort();
  }

  /** Records that section `unit` holds word `id`, with `value`; answers whether the word entered the index. */
  add(id: number, unit: number, value: number): boolean {
    if (this.building) {
      this.pendingLength++;
      let chunk = this.pending[this.pending.length - 1];
      if (chunk === undefined || this.pendingFill === chunk.length) {
        // Doubling chunks: a small index allocates little, a large one copies nothing.
        chunk = new Int32Array(chunk === undefined ? FIRST_CHUNK : Math.min(chunk.length * 2, LARGEST_CHUNK));
        this.pending.push(chunk);
        this.pendingFill = 0;
      }
      const offset = this.pendingFill;
      this.pendingFill += 3;
      chunk[offset] = id;
      chunk[offset + 1] = unit;
      chunk[offset + 2] = value;
    } else {
      const at = this.extraLength++;
      if (at >= this.next.length) {
        this.extraUnits = ensure(this.extraUnits, at + 1);
        this.extraValues = ensure(this.extraValues, at + 1);
        this.next = ensure(this.next, at + 1);
      }
      this.extraUnits[at] = unit;
      this.extraValues[at] = value;
      this.next[at] = 0;
      if (id >= this.head.length) {
        this.head = ensure(this.head, id + 1);
        this.tail = ensure(this.tail, id + 1);
      }
      const last = this.tail[id]!;
      if (last === 0) this.head[id] = at + 1;
      else this.next[last - 1] = at + 1;
      this.tail[id] = at + 1;
    }
    return this.live[id]!++ === 0;
  }

  /** Lays the pairs collected so far out word by word; later ones are appended to per-word lists. */
  finish(): void {
    const wordCount = this.words.length;
    const length = this.pendingLength;
    const start = new Int32Array(wordCount + 1);
    const pending = this.pending;
    for (let c = 0; c < pending.length; c++) {
      const chunk = pending[c]!;
      const end = c === pending.length - 1 ? this.pendingFill : chunk.length;
      for (let at = 0; at < end; at += 3) start[chunk[at]! + 1]!++;
    }
    for (let id = 0; id < wordCount; id++) start[id + 1]! += start[id]!;
    const cursor = start.slice(0, wordCount);
    const units = new Int32Array(length);
    const values = new Uint16Array(length);
    let wide: Map<number, number> | undefined;
    for (let c = 0; c < pending.length; c++) {
      const chunk = pending[c]!;
      const end = c === pending.length - 1 ? this.pendingFill : chunk.length;
      for (let at = 0; at < end; at += 3) {
        const to = cursor[chunk[at]!]!++;
        units[to] = chunk[at + 1]!;
        const value = chunk[at + 2]!;
        if (value >= WIDE) {
          values[to] = WIDE;
          wide ??= new Map();
          wide.set(to, value);
        } else {
          values[to] = value;
        }
      }
    }
    this.baseWords = wordCount;
    this.start = start;
    this.units = units;
    this.values = values;
    this.wide = wide;
    this.pending = [];
    this.pendingFill = 0;
    this.pendingLength = 0;
    this.building = false;
  }

  /** Calls `visit` with each (unit, value) pair of `word`, in unit order, dead sections included. */
  forEach(word: string, visit: (unit: number, value: number) => void): void {
    const id = this.ids.get(word);
    if (id === undefined) return;
    if (id < this.baseWords) {
      const units = this.units;
      const values = this.values;
      for (let at = this.start[id]!, end = this.start[id + 1]!; at < end; at++) {
        const value = values[at]!;
        visit(units[at]!, value === WIDE ? this.wide!.get(at)! : value);
      }
    }
    if (id < this.head.length) {
      for (let link = this.head[id]!; link !== 0; link = this.next[link - 1]!) {
        visit(this.extraUnits[link - 1]!, this.extraValues[link - 1]!);
      }
    }
  }
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
  readonly postings: PostingTable;
  /** Title word → the sections of the documents whose title holds it. */
  readonly titlePostings: PostingTable;
  /** The words in `postings` and `titlePostings`, sorted, for prefix ranges. */
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

/**
 * Collects the distinct words of `section` in `table` (`begin`/`touch`): each with its body occurrences in
 * `count` and `flag` set when its heading holds it. Answers them (valid until the next `begin`) and the number
 * of body words.
 */
function sectionWords(
  table: PostingTable,
  section: DocumentSection,
): { touched: readonly number[]; bodyLength: number } {
  const touched = begin();
  const body = splitWords(section.body);
  // The id first: interning a new word may replace the scratch arrays (`scratch.count[…]` reads them first).
  for (const word of body) {
    const id = touch(table.intern(word));
    scratch.count[id]!++;
  }
  for (const word of splitWords(section.heading)) {
    const id = touch(table.intern(word));
    scratch.flag[id] = 1;
  }
  return { touched, bodyLength: body.length };
}

/** Collects the distinct words of `title` in `table`. */
function titleWords(table: PostingTable, title: string): number[] {
  const touched = begin();
  for (const word of splitWords(title)) touch(table.intern(word));
  return touched;
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
  const { postings, titlePostings } = index;
  const title = document.sections.length > 0 ? titleWords(titlePostings, document.title).slice() : [];
  for (const section of document.sections) {
    const unit = index.units.length;
    const { touched, bodyLength } = sectionWords(postings, section);
    index.units.push({ document, section, bodyLength });
    index.live++;
    const { count, flag } = scratch;
    for (const id of touched) {
      if (postings.add(id, unit, count[id]! * 2 + flag[id]!)) newWords?.add(postings.words[id]!);
    }
    for (const id of title) {
      if (titlePostings.add(id, unit, 0)) newTitleWords?.add(titlePostings.words[id]!);
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
  const { postings, titlePostings } = index;
  const count = document.sections.length;
  for (let at = 0; at < count; at++) {
    index.units[first + at] = undefined;
    for (const id of sectionWords(postings, document.sections[at]!).touched) {
      if (--postings.live[id]! === 0) goneWords.add(postings.words[id]!);
    }
  }
  if (count > 0) {
    for (const id of titleWords(titlePostings, document.title)) {
      titlePostings.live[id]! -= count;
      if (titlePostings.live[id] === 0) goneTitleWords.add(titlePostings.words[id]!);
    }
  }
  index.live -= count;
  index.dead += count;
}

/** A full build over `documents`, kept nowhere. */
function buildIndex(documents: readonly SearchableDocument[]): SectionIndex {
  const index: SectionIndex = {
    units: [],
    postings: new PostingTable(),
    titlePostings: new PostingTable(),
    vocabulary: [],
    titleVocabulary: [],
    unitsOf: new Map(),
    live: 0,
    dead: 0,
    patchable: true,
  };
  for (const document of documents) addDocument(index, document);
  index.postings.finish();
  index.titlePostings.finish();
  index.vocabulary = index.postings.vocabulary();
  index.titleVocabulary = index.titlePostings.vocabulary();
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

/** `vocabulary` brought in line with `table` for the words in `changed` (each one added or removed). */
function updateVocabulary(vocabulary: string[], table: PostingTable, changed: Set<string>): string[] {
  // Each splice moves the tail of the array; past a few hundred words one sort is cheaper.
  if (changed.size > 256) return table.vocabulary();
  for (const word of changed) {
    const at = lowerBound(vocabulary, word);
    const listed = vocabulary[at] === word;
    const indexed = table.has(word);
    if (indexed && !listed) vocabulary.splice(at, 0, word);
    else if (!indexed && listed) vocabulary.splice(at, 1);
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
