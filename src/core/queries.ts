/**
 * What answering tool calls over a catalog keeps between calls: the document search's indexes and the words of
 * each skill and document list the task guide matches. Owned by whoever answers the calls — an MCP door, shared
 * by every server it creates — and dropped with it; the catalog's lists are immutable, so what is kept for one
 * stays right, and each answer is the one `searchDocuments` and `buildTaskGuide` give for the same input.
 */
import { createDocumentSearch, type DocumentSearch } from './search/document-search.js';
import { createTaskGuide, type TaskGuideBuilder } from './task-guide.js';

export interface CatalogQueries {
  readonly searchDocuments: DocumentSearch['search'];
  readonly buildTaskGuide: TaskGuideBuilder;
}

export function createCatalogQueries(): CatalogQueries {
  return { searchDocuments: createDocumentSearch().search, buildTaskGuide: createTaskGuide() };
}
