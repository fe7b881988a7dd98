/**
 * Lexical, section-level search over the knowledge documents: what `document_lookup` answers a query with.
 *
 * Purely lexical on purpose: deterministic, explainable, and fast enough to run per request over a whole catalog.
 * In three rooms: the words (`search/terms.ts`), the index structure (`search/section-index.ts` over
 * `search/posting-table.ts`) and its incremental patching (`search/patch.ts`), and the ranking
 * (`search/rank.ts`). `createDocumentSearch` (`search/document-search.ts`) owns the indexes between queries.
 */
export {
  createDocumentSearch,
  type DocumentSearch,
  type DocumentSearchOptions,
  searchDocuments,
} from './search/document-search.js';
export { type SearchOptions, type SearchResult, type SectionMatch, truncateBody } from './search/rank.js';
export type { SearchableDocument } from './search/section-index.js';
export { extractTerms, splitWords, termMatchesWord, weighTerms } from './search/terms.js';
