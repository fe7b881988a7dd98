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
 * `maxBytes` of JSON per generation, the pages past it are serialized per request as before. Dropped with the
 * generation: the pages are kept in a `WeakMap` keyed by the generation they were made from, so a page is never
 * served for another one, and once the store has moved on and nothing holds the old generation, its pages go with
 * it — the door keeps no reference to a generation, and no subscription to the store.
 */
import type { Generation } from '../core/types.js';

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
   * `build` and serialized (and kept while the generation's budget allows).
   */
  page(
    generation: Generation,
    list: 'resources' | 'skills',
    offset: number,
    pageSize: number,
    build: () => ListPageSource,
  ): ListPage;
  /** Bytes of JSON held for `generation`. */
  bytes(generation: Generation): number;
  /** Drops every page (the door closed). */
  close(): void;
}

/** 64 MiB: every page of both lists of a 100,000-document catalog is about 40 MB. */
export const DEFAULT_LIST_PAGES_MAX_BYTES = 64 * 1024 * 1024;

interface GenerationPages {
  readonly pages: Map<string, ListPage>;
  held: number;
}

export function createListPages(options: { readonly maxBytes?: number } = {}): ListPages {
  const maxBytes = options.maxBytes ?? DEFAULT_LIST_PAGES_MAX_BYTES;
  let byGeneration = new WeakMap<Generation, GenerationPages>();
  return {
    page(generation, list, offset, pageSize, build) {
      let mine = byGeneration.get(generation);
      if (mine === undefined) {
        mine = { pages: new Map(), held: 0 };
        byGeneration.set(generation, mine);
      }
      const key = `${list}:${offset}:${pageSize}`;
      const cached = mine.pages.get(key);
      if (cached !== undefined) return cached;
      const { items, nextCursor } = build();
      const json = Buffer.from(JSON.stringify(items), 'utf8');
      const made: ListPage = nextCursor === undefined ? { json } : { json, nextCursor };
      if (mine.held + json.byteLength <= maxBytes) {
        mine.pages.set(key, made);
        mine.held += json.byteLength;
      }
      return made;
    },
    bytes: (generation) => byGeneration.get(generation)?.held ?? 0,
    close() {
      byGeneration = new WeakMap();
    },
  };
}
