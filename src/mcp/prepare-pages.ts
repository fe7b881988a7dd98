/**
 * The pages of `skills/list` serialized ahead, while the door waits for its first host (issue 18: `companion dev`
 * start → a full `skills/list` answered). A Skills host walks every page of `skills/list` the moment it connects,
 * and the first walk of a generation is the one that pays for each page: its entries spelled, the manifests'
 * digests made (the served files are hashed when a digest is first asked), the JSON serialized — on L, 1,000
 * skills in 10 pages, about half of what the daemon did between listening and the last page. Made here instead,
 * in the moments after the door listens, while the host is still starting, the host's requests find them in the
 * door's list pages (`list-pages.ts`) and are answered from bytes already made.
 *
 * One page per turn of the event loop (`setImmediate`): a request that arrives meanwhile is answered between two
 * pages, and builds any page it asks for that is not made yet itself (the cache is the same either way, so the
 * answer is byte for byte what it would have been).
 */
import type { CatalogSource } from '../core/types.js';
import type { ListPages } from './list-pages.js';
import { listSkillsPage } from './skills-extension.js';

/**
 * Makes every page of `skills/list` of `source`'s current generation, `pageSize` entries each (what the door's
 * servers answer with), into `pages`, one per turn of the event loop. Stops after the last page, as soon as the
 * source has moved on to another generation (that one's pages are made when asked), or when the function it
 * answers is called (idempotent).
 */
export function prepareSkillPages(source: CatalogSource, pages: ListPages, pageSize: number): () => void {
  const generation = source.current();
  const count = generation.catalog.skills.length;
  let offset = 0;
  let scheduled: NodeJS.Immediate | undefined;
  const step = (): void => {
    scheduled = undefined;
    if (source.current() !== generation) return;
    const at = offset;
    pages.page(generation, 'skills', at, pageSize, () => listSkillsPage(generation.catalog, at, pageSize));
    offset += pageSize;
    if (offset < count) scheduled = setImmediate(step);
  };
  scheduled = setImmediate(step);
  return () => {
    if (scheduled !== undefined) clearImmediate(scheduled);
    scheduled = undefined;
  };
}
