/**
 * The owner of the search indexes: `createDocumentSearch()` keeps the index of each document list it was asked
 * about and patches the last one into the next list's, so a query costs the postings of its terms, not a pass
 * over every word, and the first query after a save costs the entries that changed. An index can also be built
 * ahead of the first query, in steps (`warm`), by whoever can yield between them. Whoever serves a catalog (the
 * MCP door, for `document_lookup`) creates one and drops it with itself; nothing is kept anywhere else.
 * `searchDocuments` is the same answer from an index built for the one call, kept nowhere.
 */
import { DEFAULT_REBUILD_RATIO, patchIndex } from './patch.js';
import { WordSet } from './posting-table.js';
import { type SearchOptions, type SearchResult, searchIndex } from './rank.js';
import { beginIndex, type IndexBuild, type SearchableDocument, type SectionIndex } from './section-index.js';

export interface DocumentSearch {
  /**
   * Ranked section-level matches for `query` over `documents`. Deterministic: ties break on document id, then
   * heading. Sections with identical bodies (whitespace aside) are answered once. When every match comes from
   * one document, that document is answered whole instead (its sections would be read together anyway). Always
   * what `searchDocuments` answers for the same list and query, warmed or not: a build `warm` left unfinished is
   * finished first.
   */
  search(documents: readonly SearchableDocument[], query: string, options?: SearchOptions): SearchResult;
  /**
   * Does about `budget` units of the work the first search over `documents` would do (a unit is about one
   * character of section text indexed) and answers true once nothing is left: the list's index is built, or
   * patched from the last one. Call it again, with the same or a newer list, to go on; a build begun for an
   * older list is finished and then patched into the newer one (or, when the lists differ too much, a build of
   * the newer one begins). A patch is done in one call, whatever the budget.
   */
  warm(documents: readonly SearchableDocument[], budget: number): boolean;
  /** The size of the index searched last: sections live and dead (since its last full build), and words. */
  stats(): { live: number; dead: number; words: number; titleWords: number } | undefined;
}

export interface DocumentSearchOptions {
  /**
   * Patch the last index into the next list's while dead plus added sections stay under this share of the live
   * ones; past it, build afresh. @default 0.25
   */
  readonly rebuildRatio?: number;
}

export function createDocumentSearch(options: DocumentSearchOptions = {}): DocumentSearch {
  const rebuildRatio = options.rebuildRatio ?? DEFAULT_REBUILD_RATIO;
  // A catalog's document list is immutable and lives for one generation, so its index is kept beside it and every
  // query of that generation reuses it. The next generation's list shares most entry objects with the previous
  // one, so the last index used (`current`) is patched into the new list's index rather than rebuilt: it moves to
  // the new key, and the old list, if searched again, is patched back or rebuilt.
  const indexes = new WeakMap<readonly SearchableDocument[], SectionIndex>();
  const scratch = new WordSet();
  let current: { documents: readonly SearchableDocument[]; index: SectionIndex } | undefined;
  /** A full build `warm` began and has not finished. */
  let building: IndexBuild | undefined;

  const install = (documents: readonly SearchableDocument[], index: SectionIndex): SectionIndex => {
    current = { documents, index };
    indexes.set(documents, index);
    return index;
  };
  /** Moves the last index to `documents` when a patch can; false when it cannot. */
  const patchCurrent = (documents: readonly SearchableDocument[]): boolean => {
    if (!current || !patchIndex(current.index, documents, rebuildRatio)) return false;
    // The old list's index is now this one: the old list, if searched again, gets its own.
    indexes.delete(current.documents);
    install(documents, current.index);
    return true;
  };
  const finishBuilding = (): void => {
    if (!building) return;
    const { documents } = building;
    const index = building.finish();
    building = undefined;
    install(documents, index);
  };

  const indexFor = (documents: readonly SearchableDocument[]): SectionIndex => {
    // A build in progress is of this list or of an older one, the best start for a patch.
    finishBuilding();
    const kept = indexes.get(documents);
    if (kept) {
      current = { documents, index: kept };
      return kept;
    }
    if (patchCurrent(documents)) return current!.index;
    return install(documents, beginIndex(documents, scratch).finish());
  };

  return {
    search: (documents, query, searchOptions = {}) =>
      searchIndex(() => indexFor(documents), query, searchOptions),
    warm(documents, budget) {
      if (!building) {
        if (indexes.has(documents) || patchCurrent(documents)) return true;
        building = beginIndex(documents, scratch);
      }
      if (!building.step(budget)) return false;
      finishBuilding();
      return indexes.has(documents);
    },
    stats() {
      if (!current) return undefined;
      const { index } = current;
      return {
        live: index.live,
        dead: index.dead,
        words: index.vocabulary.length,
        titleWords: index.titleVocabulary.length,
      };
    },
  };
}

/** What `DocumentSearch.search` answers, from an index built for this call alone. */
export function searchDocuments(
  documents: readonly SearchableDocument[],
  query: string,
  options: SearchOptions = {},
): SearchResult {
  return searchIndex(() => beginIndex(documents).finish(), query, options);
}
