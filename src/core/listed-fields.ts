/**
 * What a host sees of each list entry, defined once: for every field of a `resources/list`,
 * `resources/templates/list` and `prompts/list` entry, whether the list carries it. The MCP door writes exactly
 * the listed fields (`pickListed`), and `diffCatalogs` announces a list change when any of them differs
 * (`sameListed`) — so a field is listed and noticed together, or neither.
 *
 * Each spec is typed by its entry: a field added to `ListedResource`, `ResourceAnnotations`,
 * `ResourceTemplateEntry` or `ListedPrompt` without a line here does not compile (`test/core/listed-fields.test.ts`
 * plants one).
 */
import type { ListedPrompt } from './prompt-types.js';
import type { ListedResource, ResourceTemplateEntry } from './types.js';

/**
 * For each field of `Entry` (optional ones too): `true` when the list carries it, `false` when the entry keeps it
 * off the wire on purpose; a field holding an object, or an array of objects, gets a spec of its own. `Leaf` is
 * `true` for an entry that is the wire form itself, whose every field is listed.
 */
export type ListedFieldSpec<Entry, Leaf extends boolean = boolean> = {
  readonly [Key in keyof Entry]-?: NonNullable<Entry[Key]> extends readonly (infer Item)[]
    ? Item extends object
      ? ListedFieldSpec<Item, Leaf>
      : Leaf
    : NonNullable<Entry[Key]> extends object
      ? ListedFieldSpec<NonNullable<Entry[Key]>, Leaf>
      : Leaf;
};

/** A `resources/list` entry, in wire order: every field, and of the annotations the priority and lastModified. */
export const LISTED_RESOURCE_FIELDS = defineListedFields<ListedResource>({
  uri: true,
  name: true,
  title: true,
  description: true,
  mimeType: true,
  size: true,
  annotations: { priority: true, lastModified: true },
});

/** A `resources/templates/list` entry, in wire order. */
export const LISTED_TEMPLATE_FIELDS = defineListedFields<ResourceTemplateEntry>({
  uriTemplate: true,
  name: true,
  title: true,
  description: true,
  mimeType: true,
  annotations: { priority: true },
});

/**
 * A `prompts/list` entry: `PromptEntry.listed` is the wire form, so every field of it is listed. A body that
 * changed alone is no list change: hosts fetch a prompt's messages when the user runs it.
 */
export const LISTED_PROMPT_FIELDS = defineListedFields<ListedPrompt, true>({
  name: true,
  title: true,
  description: true,
  arguments: { name: true, title: true, description: true, required: true },
});

type Spec = { readonly [key: string]: boolean | Spec };
type Loose = Readonly<Record<string, unknown>>;

/**
 * A spec as the loops below walk it, worked out once when the spec is declared: the listed keys in order, and
 * beside each the fields of its own (undefined for a plain value).
 */
interface Fields {
  readonly keys: readonly string[];
  readonly nested: readonly (Fields | undefined)[];
}

/** A declared set of listed fields: the spec, typed by its entry, and its walk order. */
export interface ListedFields<Entry, Leaf extends boolean = boolean> {
  readonly spec: ListedFieldSpec<Entry, Leaf>;
  readonly fields: Fields;
}

/** Declares the listed fields of `Entry`. */
export function defineListedFields<Entry, Leaf extends boolean = boolean>(
  spec: ListedFieldSpec<Entry, Leaf>,
): ListedFields<Entry, Leaf> {
  return { spec, fields: compile(spec as Spec) };
}

function compile(spec: Spec): Fields {
  const listed = Object.entries(spec).filter(([, value]) => value !== false);
  return {
    keys: listed.map(([key]) => key),
    nested: listed.map(([, value]) => (value === true ? undefined : compile(value as Spec))),
  };
}

/** The wire form of `entry`: its listed fields in the spec's order; a field that is undefined is left out. */
export function pickListed<Entry extends object>(entry: Entry, listed: ListedFields<Entry>): Loose {
  return pick(entry as Loose, listed.fields);
}

function pick(entry: Loose, { keys, nested }: Fields): Loose {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const value = entry[key];
    if (value === undefined) continue;
    const inner = nested[i];
    if (inner === undefined) out[key] = value;
    else if (Array.isArray(value)) out[key] = value.map((item: Loose) => pick(item, inner));
    else out[key] = pick(value as Loose, inner);
  }
  return out;
}

/** Whether a host would see `a` and `b` as the same list entry: every listed field equal (a missing array as empty). */
export function sameListed<Entry extends object>(a: Entry, b: Entry, listed: ListedFields<Entry>): boolean {
  return same(a as Loose, b as Loose, listed.fields);
}

function same(a: Loose, b: Loose, { keys, nested }: Fields): boolean {
  if (a === b) return true;
  for (let i = 0; i < keys.length; i++) {
    const x = a[keys[i]!];
    const y = b[keys[i]!];
    if (x === y) continue;
    const inner = nested[i];
    if (inner === undefined) return false;
    if (Array.isArray(x) || Array.isArray(y)) {
      const xs = (x ?? []) as readonly Loose[];
      const ys = (y ?? []) as readonly Loose[];
      if (xs.length !== ys.length) return false;
      for (let j = 0; j < xs.length; j++) if (!same(xs[j]!, ys[j]!, inner)) return false;
    } else if (x === undefined || y === undefined || !same(x as Loose, y as Loose, inner)) {
      return false;
    }
  }
  return true;
}
