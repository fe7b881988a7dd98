/**
 * The listed fields are defined once (`src/core/listed-fields.ts`): the wire writes them and the diff notices them.
 * A field added to an entry type without a line in its spec does not compile; every field the builder really puts
 * on an entry is in the spec; and every listed field, changed alone, is a list change and shows on the wire.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/core/catalog.js';
import { diffCatalogs } from '../../src/core/diff.js';
import {
  LISTED_PROMPT_FIELDS,
  LISTED_RESOURCE_FIELDS,
  LISTED_TEMPLATE_FIELDS,
  type ListedFieldSpec,
  pickListed,
} from '../../src/core/listed-fields.js';
import type { ListedPrompt } from '../../src/core/prompt-types.js';
import type { Catalog, ListedResource, ResourceTemplateEntry } from '../../src/core/types.js';
import { buildSnapshot, REPO_ROOT, readFixture } from '../helpers/snapshot.js';

describe('the listed-field specs', () => {
  it('do not compile when an entry type gains a field they do not list', () => {
    // Each line below is a field added to an entry type: the spec of the real type no longer fits it.
    // @ts-expect-error `badge` is on the entry but not in the spec
    const resource: ListedFieldSpec<ListedResource & { badge: string }> = LISTED_RESOURCE_FIELDS.spec;
    // @ts-expect-error an annotation the spec does not list
    const annotation: ListedFieldSpec<ListedResource & { annotations: { audience?: string[] } }> =
      LISTED_RESOURCE_FIELDS.spec;
    // @ts-expect-error a template field
    const template: ListedFieldSpec<ResourceTemplateEntry & { icon?: string }> = LISTED_TEMPLATE_FIELDS.spec;
    // @ts-expect-error a field of a prompt argument
    const prompt: ListedFieldSpec<ListedPrompt & { arguments?: { kind: string }[] }, true> =
      LISTED_PROMPT_FIELDS.spec;
    expect([resource, annotation, template, prompt]).toHaveLength(4);
  });

  // The bundled content: documents, skills with their files, and prompts with arguments.
  const files = Object.fromEntries(
    ['knowledge', 'skills', 'prompts'].flatMap((dir) =>
      Object.entries(readFixture(join(REPO_ROOT, dir))).map(([path, text]) => [`${dir}/${path}`, text]),
    ),
  );
  const { catalog } = buildCatalog(buildSnapshot(files));

  it('name every field the builder puts on an entry', () => {
    const keysOf = (spec: object, value: object, at: string): string[] =>
      Object.entries(value).flatMap(([key, field]) => {
        const sub = (spec as Record<string, unknown>)[key];
        if (sub === undefined) return [`${at}${key}`];
        if (typeof sub !== 'object' || field === null || typeof field !== 'object') return [];
        const items: object[] = Array.isArray(field) ? field : [field];
        return items.flatMap((item) => keysOf(sub!, item, `${at}${key}.`));
      });
    expect(catalog.resources.length).toBeGreaterThan(2);
    expect(catalog.templates.length).toBeGreaterThan(0);
    expect(catalog.prompts.length).toBeGreaterThan(0);
    const unlisted = [
      ...catalog.resources.flatMap((entry) => keysOf(LISTED_RESOURCE_FIELDS.spec, entry, 'resource.')),
      ...catalog.templates.flatMap((entry) => keysOf(LISTED_TEMPLATE_FIELDS.spec, entry, 'template.')),
      ...catalog.prompts.flatMap((entry) => keysOf(LISTED_PROMPT_FIELDS.spec, entry.listed, 'prompt.')),
    ];
    expect(unlisted).toEqual([]);
  });

  /** Every listed path of a spec, `annotations.priority` for a nested one; arrays by their items. */
  const pathsOf = (spec: object, at = ''): string[] =>
    Object.entries(spec).flatMap(([key, listed]) =>
      listed === false ? [] : listed === true ? [`${at}${key}`] : pathsOf(listed, `${at}${key}.`),
    );

  /** `entry` with the field at `path` given another value (inside the first item of an array). */
  const changed = <T extends object>(entry: T, path: string): T => {
    const [key, ...rest] = path.split('.');
    const value = (entry as Record<string, unknown>)[key!];
    if (rest.length === 0) {
      const next = typeof value === 'number' ? value + 1 : typeof value === 'boolean' ? !value : `${value}!`;
      return { ...entry, [key!]: next };
    }
    const inner = Array.isArray(value)
      ? [changed(value[0] as object, rest.join('.')), ...value.slice(1)]
      : changed(value as object, rest.join('.'));
    return { ...entry, [key!]: inner };
  };

  const withEntry = (patch: Partial<Catalog>): Catalog => ({ ...catalog, ...patch });

  it('announce a change of any listed resource or template field as list_changed, and put it on the wire', () => {
    const resource = catalog.resources.find((entry) => entry.annotations.lastModified !== undefined)!;
    for (const path of pathsOf(LISTED_RESOURCE_FIELDS.spec)) {
      const next = changed(resource, path);
      const resources = catalog.resources.map((entry) => (entry === resource ? next : entry));
      expect(diffCatalogs(catalog, withEntry({ resources })).listChanged, path).toBe(true);
      expect(pickListed(next, LISTED_RESOURCE_FIELDS), path).not.toEqual(
        pickListed(resource, LISTED_RESOURCE_FIELDS),
      );
    }
    const template = catalog.templates.find((entry) => entry.mimeType !== undefined)!;
    for (const path of pathsOf(LISTED_TEMPLATE_FIELDS.spec)) {
      const templates = catalog.templates.map((entry) => (entry === template ? changed(entry, path) : entry));
      expect(diffCatalogs(catalog, withEntry({ templates })).listChanged, path).toBe(true);
    }
    // An equal copy of every entry is no change.
    const copies = catalog.resources.map((entry) => ({ ...entry, annotations: { ...entry.annotations } }));
    expect(diffCatalogs(catalog, withEntry({ resources: copies })).listChanged).toBe(false);
  });

  it('announce a change of any listed prompt field as the prompts’ list_changed', () => {
    const prompt = catalog.prompts.find((entry) => (entry.listed.arguments?.length ?? 0) > 0)!;
    expect(prompt).toBeDefined();
    for (const path of pathsOf(LISTED_PROMPT_FIELDS.spec)) {
      // A field the entry leaves out (an argument without a title) is given one.
      const listed = changed(prompt.listed, path);
      const prompts = catalog.prompts.map((entry) => (entry === prompt ? { ...entry, listed } : entry));
      const diff = diffCatalogs(catalog, withEntry({ prompts }));
      expect(diff.promptsListChanged, path).toBe(true);
      expect(diff.listChanged, path).toBe(false);
    }
  });
});
