/**
 * The pages of `resources/list` and `skills/list`, serialized once per generation and reused until the next one.
 *
 * A host walks every page of both lists when it connects and again after each `list_changed`; on a large catalog
 * that is 23 pages of 500 resources (about 260 KB of JSON each) and 10 of 100 skills, and serializing them was most
 * of what a list request cost. A page's entries are the same in both protocol eras — what the revision adds
 * (`ttlMs`, `cacheScope`, `resultType`, the server's identity in `_meta`) sits beside the array, and the SDK adds
 * it per request — so one cached array serves both eras; the handler splices it into the SDK's serialization
 * (`response-splice.ts`).
 *
 * Owned by a door (the HTTP server, a stdio connection): every server it creates shares it. Bounded: at most
 * `maxBytes` of JSON, the pages past it are serialized per request as before. Dropped with the generation: the
 * first change the source publishes empties it, and a page is never served for a generation other than the one it
 * was made from.
 */
import type { CatalogSource, Generation } from '../core/types.js';

/** One serialized page: the JSON text of its entries array, and the cursor of the page after it. */
export interface ListPage {
  readonly json: Buffer;
  readonly nextCursor?: string;
}

/** What a page is built from when it is not cached: its wire entries and the next page's cursor. */
export interface ListPageSource {
  readonly items: readonly unknown[];
  readonly nextCursor?: string;
}

export interface ListPages {
  /**
   * The page of `list` starting at `offset`, `pageSize` entries, of `generation`: from the cache, or built with
   * `build` and serialized (and kept while the budget allows).
   */
  page(
    generation: Generation,
    list: 'resources' | 'skills',
    offset: number,
    pageSize: number,
    build: () => ListPageSource,
  ): ListPage;
  /** Bytes of JSON held now. */
  bytes(): number;
  /** Stops listening to the source and drops every page. */
  close(): void;
}

/** 64 MiB: every page of both lists of a 100,000-document catalog is about 40 MB. */
export const DEFAULT_LIST_PAGES_MAX_BYTES = 64 * 1024 * 1024;

export function createListPages(
  source: CatalogSource,
  options: { readonly maxBytes?: number } = {},
): ListPages {
  const maxBytes = options.maxBytes ?? DEFAULT_LIST_PAGES_MAX_BYTES;
  let generation: Generation | undefined;
  let pages = new Map<string, ListPage>();
  let held = 0;
  const drop = (): void => {
    generation = undefined;
    pages = new Map();
    held = 0;
  };
  const unsubscribe = source.subscribe(drop);
  return {
    page(current, list, offset, pageSize, build) {
      if (current !== generation) {
        drop();
        generation = current;
      }
      const key = `${list}:${offset}:${pageSize}`;
      const cached = pages.get(key);
      if (cached !== undefined) return cached;
      const { items, nextCursor } = build();
      const json = Buffer.from(JSON.stringify(items), 'utf8');
      const made: ListPage = nextCursor === undefined ? { json } : { json, nextCursor };
      if (held + json.byteLength <= maxBytes) {
        pages.set(key, made);
        held += json.byteLength;
      }
      return made;
    },
    bytes: () => held,
    close() {
      unsubscribe();
      drop();
    },
  };
}
