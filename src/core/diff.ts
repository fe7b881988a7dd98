/**
 * What a rebuild changed, as a host sees it. Pure: two catalogs in, a `CatalogDiff` out.
 */
import { compare } from './diagnostics.js';
import { PersistentMap } from './persistent-map.js';
import type {
  Catalog,
  CatalogDiff,
  ListedResource,
  ManifestEntry,
  PromptEntry,
  ResourceTemplateEntry,
  SkillEntry,
} from './types.js';

/**
 * Compares two catalogs the way a connected host would notice.
 *
 * - `listChanged` is true when `resources/list` or `resources/templates/list` would answer differently: another
 *   order or set of URIs, or any listed field (name, title, description, mimeType, size, priority,
 *   lastModified) of any entry.
 * - `updatedUris` holds, sorted and once each, every URI in either `contents` map whose digest differs or that
 *   appeared or vanished (the index is in `contents`, so its JSON is covered), plus the `SKILL.md` URI of each
 *   skill in both catalogs whose manifest changed, so a host subscribed to it re-fetches the manifest.
 * - `promptsListChanged` is true when `prompts/list` would answer differently (see `sameListedPrompt`). A body
 *   that changed alone is no list change: hosts fetch a prompt's messages when the user runs it.
 *
 * Both are empty/false when nothing a host can see changed, e.g. after saving identical bytes.
 */
export function diffCatalogs(previous: Catalog, next: Catalog): CatalogDiff {
  const listChanged =
    !sameList(previous.resources, next.resources, sameListedResource) ||
    !sameList(previous.templates, next.templates, sameTemplate);

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

  const promptsListChanged = !sameList(previous.prompts, next.prompts, sameListedPrompt);
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

function sameListedResource(a: ListedResource, b: ListedResource): boolean {
  return (
    a.uri === b.uri &&
    a.name === b.name &&
    a.title === b.title &&
    a.description === b.description &&
    a.mimeType === b.mimeType &&
    a.size === b.size &&
    a.annotations.priority === b.annotations.priority &&
    a.annotations.lastModified === b.annotations.lastModified
  );
}

/** Same `prompts/list` entry: name, title, description and every argument's name, title, description, required. */
function sameListedPrompt(a: PromptEntry, b: PromptEntry): boolean {
  if (a.listed === b.listed) return true;
  const x = a.listed;
  const y = b.listed;
  return (
    x.name === y.name &&
    x.title === y.title &&
    x.description === y.description &&
    sameList(
      x.arguments ?? [],
      y.arguments ?? [],
      (p, q) =>
        p.name === q.name &&
        p.title === q.title &&
        p.description === q.description &&
        p.required === q.required,
    )
  );
}

function sameTemplate(a: ResourceTemplateEntry, b: ResourceTemplateEntry): boolean {
  return (
    a.uriTemplate === b.uriTemplate &&
    a.name === b.name &&
    a.title === b.title &&
    a.description === b.description &&
    a.mimeType === b.mimeType &&
    a.annotations.priority === b.annotations.priority
  );
}

function sameManifestEntry(a: ManifestEntry, b: ManifestEntry): boolean {
  return a.uri === b.uri && a.digest === b.digest && a.size === b.size;
}
