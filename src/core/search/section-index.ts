/**
 * The structure of the search index over one document list: every section as a unit, the postings of its
 * heading and body words and of its document's title words, and the sorted vocabularies the prefix lookups run
 * on. Built here (`beginIndex`, whole or in steps); `patch.ts` changes one in place by whole documents, with the
 * same `addDocument` and `removeDocument`.
 */
import type { DocumentSection } from '../types.js';
import { PostingTable, WordSet } from './posting-table.js';
import { splitWords } from './terms.js';

/** The fields of a document the search reads. `DocumentEntry` satisfies it. */
export interface SearchableDocument {
  readonly id: string;
  readonly title: string;
  readonly uri: string;
  readonly body: string;
  readonly sections: readonly DocumentSection[];
}

/**
 * An inverted index over one document list: which sections hold a word, looked up by prefix. Patchable: when
 * the list changes by a few entries (a catalog rebuild after a save keeps every other entry object), the
 * sections of the entries that left die in place (`unitDocuments[i] === undefined`, skipped by every reader) and the
 * entries that arrived are appended, so the index answers exactly as a fresh build over the new list would.
 */
export interface SectionIndex {
  /**
   * Every section ever indexed since the last full build (a unit) is `document.sections[at]`, in four columns by
   * unit, not an object each (64 bytes a unit as objects, 32 as columns; on L's 91,531 units the index's heap
   * 11.6 → 9.2 MB): its document (`undefined` where the document has left the list), `at`, its heading and its
   * body's word count. The section itself is not kept: a document entry reads its sections from its file's text
   * when asked, and a kept body would hold that whole text.
   */
  readonly unitDocuments: (SearchableDocument | undefined)[];
  readonly unitAt: number[];
  readonly unitHeadings: string[];
  readonly unitBodyLengths: number[];
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
  /** Where the distinct words of one section are collected; shared by the indexes of one owner. */
  readonly scratch: WordSet;
}

/**
 * Collects the distinct words of `section` in `table`: each with its body occurrences in `scratch.count` and
 * `scratch.flag` set when its heading holds it. Answers them (valid until the next collection) and the number of
 * body words.
 */
function sectionWords(
  table: PostingTable,
  scratch: WordSet,
  section: DocumentSection,
): { touched: readonly number[]; bodyLength: number } {
  const touched = scratch.begin();
  const body = splitWords(section.body);
  // `touch` first: it may replace the scratch arrays, which `scratch.count[…]` then reads.
  for (const word of body) {
    const id = scratch.touch(table.intern(word));
    scratch.count[id]!++;
  }
  for (const word of splitWords(section.heading)) {
    const id = scratch.touch(table.intern(word));
    scratch.flag[id] = 1;
  }
  return { touched, bodyLength: body.length };
}

/** Collects the distinct words of `title` in `table`. */
function titleWords(table: PostingTable, scratch: WordSet, title: string): number[] {
  const touched = scratch.begin();
  for (const word of splitWords(title)) scratch.touch(table.intern(word));
  return touched;
}

/**
 * Appends `document`'s sections as new units; words that enter the index are added to `newWords`. Answers the
 * characters it indexed (title, headings and bodies), what `IndexBuild.step` counts its work in.
 */
export function addDocument(
  index: SectionIndex,
  document: SearchableDocument,
  newWords?: Set<string>,
  newTitleWords?: Set<string>,
): number {
  if (index.unitsOf.has(document)) index.patchable = false;
  else index.unitsOf.set(document, index.unitDocuments.length);
  const { postings, titlePostings, scratch } = index;
  // Read once: an entry's sections are read from its text at each ask.
  const sections = document.sections;
  const title = sections.length > 0 ? titleWords(titlePostings, scratch, document.title).slice() : [];
  let indexed = document.title.length + 1;
  for (let at = 0; at < sections.length; at++) {
    const section = sections[at]!;
    indexed += section.heading.length + section.body.length;
    const unit = index.unitDocuments.length;
    const { touched, bodyLength } = sectionWords(postings, scratch, section);
    index.unitDocuments.push(document);
    index.unitAt.push(at);
    index.unitHeadings.push(section.heading);
    index.unitBodyLengths.push(bodyLength);
    index.live++;
    const { count, flag } = scratch;
    for (const id of touched) {
      if (postings.add(id, unit, count[id]! * 2 + flag[id]!)) newWords?.add(postings.words[id]!);
    }
    for (const id of title) {
      if (titlePostings.add(id, unit, 0)) newTitleWords?.add(titlePostings.words[id]!);
    }
  }
  return indexed;
}

/** Kills `document`'s units; words left with no live section leave the index and are added to `goneWords`. */
export function removeDocument(
  index: SectionIndex,
  document: SearchableDocument,
  goneWords: Set<string>,
  goneTitleWords: Set<string>,
): void {
  const first = index.unitsOf.get(document)!;
  index.unitsOf.delete(document);
  const { postings, titlePostings, scratch } = index;
  const sections = document.sections;
  const count = sections.length;
  for (let at = 0; at < count; at++) {
    index.unitDocuments[first + at] = undefined;
    for (const id of sectionWords(postings, scratch, sections[at]!).touched) {
      if (--postings.live[id]! === 0) goneWords.add(postings.words[id]!);
    }
  }
  if (count > 0) {
    for (const id of titleWords(titlePostings, scratch, document.title)) {
      titlePostings.live[id]! -= count;
      if (titlePostings.live[id] === 0) goneTitleWords.add(titlePostings.words[id]!);
    }
  }
  index.live -= count;
  index.dead += count;
}

/**
 * A full build in steps, so that whoever schedules it can yield between them: `step` does about `budget` units
 * of work (a unit is about one character of section text indexed; the layout of the postings counts four pair
 * visits a unit) and answers whether the index is complete; `finish` does whatever is left and answers the index.
 * The index is the one `buildIndex` builds over the same list however the work is sliced: the documents are
 * added in list order, whole, and the layout visits the pairs in the same order. The list must not change while
 * it is built (a catalog's never does).
 */
export interface IndexBuild {
  readonly documents: readonly SearchableDocument[];
  step(budget: number): boolean;
  finish(): SectionIndex;
}

/** Pair visits of the postings' layout per unit of `IndexBuild.step` (measured: ~6 ns a visit, ~25 ns a character). */
const VISITS_PER_UNIT = 4;

/** Starts a full build over `documents`, collecting words in `scratch` (shared by the indexes of one owner). */
export function beginIndex(
  documents: readonly SearchableDocument[],
  scratch: WordSet = new WordSet(),
): IndexBuild {
  const index: SectionIndex = {
    unitDocuments: [],
    unitAt: [],
    unitHeadings: [],
    unitBodyLengths: [],
    postings: new PostingTable(),
    titlePostings: new PostingTable(0),
    vocabulary: [],
    titleVocabulary: [],
    unitsOf: new Map(),
    live: 0,
    dead: 0,
    patchable: true,
    scratch,
  };
  /** The next document to add; past the list, the postings are laid out, then the vocabularies sorted. */
  let next = 0;
  let complete = false;
  const step = (budget: number): boolean => {
    let used = 0;
    while (!complete && used < budget) {
      if (next < documents.length) {
        const document = documents[next++]!;
        used += addDocument(index, document);
      } else if (!index.postings.finished) {
        used += index.postings.finishSlice((budget - used) * VISITS_PER_UNIT) / VISITS_PER_UNIT;
      } else if (!index.titlePostings.finished) {
        used += index.titlePostings.finishSlice((budget - used) * VISITS_PER_UNIT) / VISITS_PER_UNIT;
      } else {
        index.vocabulary = index.postings.vocabulary();
        index.titleVocabulary = index.titlePostings.vocabulary();
        // A sort: about a dozen units a word (measured on L: 17,000 words in ~5 ms).
        used += 12 * (index.vocabulary.length + index.titleVocabulary.length);
        complete = true;
      }
    }
    return complete;
  };
  return {
    documents,
    step,
    finish() {
      step(Number.POSITIVE_INFINITY);
      return index;
    },
  };
}

/** The first position of a sorted vocabulary whose word is not below `word`. */
export function lowerBound(vocabulary: readonly string[], word: string): number {
  let low = 0;
  let high = vocabulary.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (vocabulary[middle]! < word) low = middle + 1;
    else high = middle;
  }
  return low;
}
