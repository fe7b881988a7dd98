/**
 * What answering tool calls over a catalog keeps between calls: the document search's indexes and the words of
 * each skill and document list the task guide matches. Owned by whoever answers the calls — an MCP door, shared
 * by every server it creates — and dropped with it; the catalog's lists are immutable, so what is kept for one
 * stays right, and each answer is the one `searchDocuments` and `buildTaskGuide` give for the same input.
 */
import { createDocumentSearch, type DocumentSearch } from './search/document-search.js';
import type { SearchableDocument } from './search/section-index.js';
import { createTaskGuide, type TaskGuideBuilder } from './task-guide.js';

export interface CatalogQueries {
  readonly searchDocuments: DocumentSearch['search'];
  readonly buildTaskGuide: TaskGuideBuilder;
  /**
   * Does about `budget` units of what the first `document_lookup` over `catalog` would build (its search
   * index; a unit is about one character of text indexed) and answers true once nothing is left. Pure and
   * resumable: whoever can yield between calls (the door, after ready) schedules it, with the newest catalog
   * each time. A lookup before it is done answers the same, finishing the rest itself.
   */
  warm(catalog: { readonly documents: readonly SearchableDocument[] }, budget: number): boolean;
}

export function createCatalogQueries(): CatalogQueries {
  const search = createDocumentSearch();
  return {
    searchDocuments: search.search,
    buildTaskGuide: createTaskGuide(),
    warm: (catalog, budget) => search.warm(catalog.documents, budget),
  };
}
