/**
 * What a rebuild changed, as a host sees it. Pure: two catalogs in, a `CatalogDiff` out.
 */
import { compare } from './diagnostics.js';
import {
  LISTED_PROMPT_FIELDS,
  LISTED_RESOURCE_FIELDS,
  LISTED_TEMPLATE_FIELDS,
  sameListed,
} from './listed-fields.js';
import { PersistentMap } from './persistent-map.js';
import type { Catalog, CatalogDiff, ManifestEntry, SkillEntry } from './types.js';

/**
 * Compares two catalogs the way a connected host would notice.
 *
 * - `listChanged` is true when `resources/list` or `resources/templates/list` would answer differently: another
 *   order or set of URIs, or any listed field of any entry (the fields the wire lists, `listed-fields.ts`).
 * - `updatedUris` holds, sorted and once each, every URI in either `contents` map whose digest differs or that
 *   appeared or vanished (the index is in `contents`, so its JSON is covered), plus the `SKILL.md` URI of each
 *   skill in both catalogs whose manifest changed, so a host subscribed to it re-fetches the manifest.
 * - `promptsListChanged` is true when `prompts/list` would answer differently. A body that changed alone is no
 *   list change: hosts fetch a prompt's messages when the user runs it.
 *
 * Both are empty/false when nothing a host can see changed, e.g. after saving identical bytes.
 */
export function diffCatalogs(previous: Catalog, next: Catalog): CatalogDiff {
  const listChanged =
    !sameList(previous.resources, next.resources, (a, b) => sameListed(a, b, LISTED_RESOURCE_FIELDS)) ||
    !sameList(previous.templates, next.templates, (a, b) => sameListed(a, b, LISTED_TEMPLATE_FIELDS));

  const updated = new Set<string>();
  // Two versions of one structure-sharing map: only the entries that are not the same object can differ.
  const candidates =
    next.contents instanceof PersistentMap && previous.contents instanceof PersistentMap
      ? next.contents.changedKeys(previous.contents)
      : new Set([...next.contents.keys(), ...previous.contents.keys()]);
  for (const uri of candidates) {
    const before = previous.contents.get(uri);
    const after = next.contents.get(uri);
    if (before?.digest !== after?.digest) updated.add(uri);
  }

  if (previous.skills !== next.skills) {
    const previousSkills = new Map<string, SkillEntry>(previous.skills.map((skill) => [skill.uri, skill]));
    for (const skill of next.skills) {
      const before = previousSkills.get(skill.uri);
      if (before !== undefined && !sameList(before.manifest, skill.manifest, sameManifestEntry)) {
        updated.add(skill.uri);
      }
    }
  }

  const promptsListChanged = !sameList(previous.prompts, next.prompts, (a, b) =>
    sameListed(a.listed, b.listed, LISTED_PROMPT_FIELDS),
  );
  return { listChanged, updatedUris: [...updated].sort(compare), promptsListChanged };
}

/**
 * Whether two lists hold the same items by `same`, comparing by identity first: a rebuild hands unchanged
 * entries over as the same objects, so most comparisons of a large list cost a pointer check.
 */
export function sameList<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const item = a[i]!;
    if (item !== b[i] && !same(item, b[i]!)) return false;
  }
  return true;
}

function sameManifestEntry(a: ManifestEntry, b: ManifestEntry): boolean {
  return a.uri === b.uri && a.digest === b.digest && a.size === b.size;
}
