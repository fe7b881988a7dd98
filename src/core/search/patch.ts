/**
 * Incremental patching: an index built over one document list, changed in place into the index of the next
 * list, when that costs less than a full build and answers exactly as one would.
 */
import type { PostingTable } from './posting-table.js';
import {
  addDocument,
  lowerBound,
  removeDocument,
  type SearchableDocument,
  type SectionIndex,
} from './section-index.js';

/**
 * A patch is taken instead of a full build while dead plus newly added sections stay under this share of the
 * live ones.
 */
export const DEFAULT_REBUILD_RATIO = 0.25;

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
 * that would not be cheaper than a full build — dead plus added sections past `rebuildRatio` of the live ones —
 * or could answer differently from one: the ranking breaks ties on document id and heading, and only sections
 * of one document (consecutive and in order in any index) may tie on both, so the new list must hold each
 * entry, and each document id, once.
 */
export function patchIndex(
  index: SectionIndex,
  documents: readonly SearchableDocument[],
  rebuildRatio: number,
): boolean {
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
