/**
 * Catalog values whose text is read from their file's bytes when asked: a document's entry (`body`,
 * `sections`), a skill's entry (`body`) and a file's served content (`text`, and its `digest`, held packed);
 * and a document's listed resource, whose `description` is joined from the sentences it is made of and whose
 * `annotations` are made when asked (XL's 100,000 joined descriptions held ~21 MB; a list page is serialized
 * once per generation). A document's entry and a text's content also carry what the builder's memo would
 * otherwise keep beside them (what they were derived with, served for). The bytes are what a store keeps of a file; the decoded
 * text is not held beside them for the life of the catalog: each ask decodes it (`FileText.decode`), unless a
 * build phase holds it at that moment. Each is an own enumerable accessor, so these values compare, spread and
 * serialize as plain data do, and one getter is shared by every object (V8 keeps one shape for all of them, not
 * one per object).
 */
import { type FileText, hashPacked, packDigest, unpackDigest } from '../content.js';
import { readSections, type SectionList } from '../markdown.js';
import type {
  DocumentEntry,
  DocumentSection,
  ListedResource,
  ManifestEntry,
  ServedContent,
  SkillEntry,
} from '../types.js';

/**
 * An own enumerable accessor answering `read(this)`, for `Object.defineProperty`: one descriptor, and so one
 * getter, shared by every object it is defined on. One `defineProperty` per accessor, because `defineProperties`
 * reads its descriptor map anew for every object, about three times the cost (~0.5 µs an object, 100,000
 * documents on XL).
 */
function sharedGetter<T>(read: (value: T) => unknown): PropertyDescriptor {
  return {
    enumerable: true,
    get(this: T) {
      return read(this);
    },
  };
}

class TextBackedDocument {
  readonly #text: FileText;
  readonly #bodyStart: number;
  readonly #sections: SectionList;
  /** What was derived with this entry (`attachDerived`): a memo keeps the entry alone and finds them here. */
  #content: ServedContent | undefined;
  #resource: ListedResource | undefined;

  constructor(
    fields: Omit<DocumentEntry, 'body' | 'sections'>,
    text: FileText,
    bodyStart: number,
    sections: SectionList,
  ) {
    this.#text = text;
    this.#bodyStart = bodyStart;
    this.#sections = sections;
    Object.assign(this, fields);
    Object.defineProperty(this, 'body', DOCUMENT_BODY);
    Object.defineProperty(this, 'sections', DOCUMENT_SECTIONS);
  }

  static attach(entry: TextBackedDocument, content: ServedContent, resource: ListedResource): void {
    entry.#content = content;
    entry.#resource = resource;
  }

  static derived(entry: TextBackedDocument): DerivedWith {
    return { content: entry.#content!, resource: entry.#resource! };
  }

  static body(entry: TextBackedDocument): string {
    return (entry.#text.decode() as string).slice(entry.#bodyStart);
  }

  static sections(entry: TextBackedDocument): DocumentSection[] {
    return readSections(entry.#text.decode() as string, entry.#sections);
  }
}

const DOCUMENT_BODY = sharedGetter(TextBackedDocument.body);

const DOCUMENT_SECTIONS = sharedGetter(TextBackedDocument.sections);

/** What a document's entry was derived with: its served content and listed resource. */
export interface DerivedWith {
  readonly content: ServedContent;
  readonly resource: ListedResource;
}

/** Records on `entry` (from `buildTextBackedDocument`) the content and resource derived with it. */
export function attachDerived(entry: DocumentEntry, content: ServedContent, resource: ListedResource): void {
  TextBackedDocument.attach(entry as unknown as TextBackedDocument, content, resource);
}

/** What `attachDerived` recorded on `entry`. */
export function readDerived(entry: DocumentEntry): DerivedWith {
  return TextBackedDocument.derived(entry as unknown as TextBackedDocument);
}

/**
 * A document's entry: `fields`, then `body` (the file's text from `bodyStart`) and `sections` (read from their
 * ranges into that text), each read anew when asked.
 */
export function buildTextBackedDocument(
  fields: Omit<DocumentEntry, 'body' | 'sections'>,
  text: FileText,
  bodyStart: number,
  sections: SectionList,
): DocumentEntry {
  return new TextBackedDocument(fields, text, bodyStart, sections) as unknown as DocumentEntry;
}

class TextBackedSkill {
  readonly #text: FileText;
  readonly #bodyStart: number;

  constructor(
    head: Omit<SkillEntry, 'body' | 'files' | 'manifest'>,
    text: FileText,
    bodyStart: number,
    tail: Pick<SkillEntry, 'files' | 'manifest'>,
  ) {
    this.#text = text;
    this.#bodyStart = bodyStart;
    Object.assign(this, head);
    Object.defineProperty(this, 'body', SKILL_BODY);
    Object.assign(this, tail);
  }

  static body(entry: TextBackedSkill): string {
    return (entry.#text.decode() as string).slice(entry.#bodyStart);
  }
}

const SKILL_BODY = sharedGetter(TextBackedSkill.body);

/**
 * A skill's entry: `head`, then `body` (SKILL.md's text from `bodyStart`, read anew when asked), then `tail`,
 * in that key order.
 */
export function buildTextBackedSkill(
  head: Omit<SkillEntry, 'body' | 'files' | 'manifest'>,
  text: FileText,
  bodyStart: number,
  tail: Pick<SkillEntry, 'files' | 'manifest'>,
): SkillEntry {
  return new TextBackedSkill(head, text, bodyStart, tail) as unknown as SkillEntry;
}

class TextBackedContent {
  readonly #text: FileText;
  /**
   * The digest, packed (`packDigest`): `digest` unpacks it when asked, and hashes the bytes on the first ask
   * when it was not handed one. Made lazily because a cold build serves every document and `check` reads no
   * digest (on L, 10,000 hashes were ~0.1 s of its CPU); a host's read or a manifest asks for it.
   */
  #digest: string | undefined;
  /** The path and time it was served for (`readServedFor`), so a memo keeps the content alone. */
  readonly #path: string;
  readonly #mtimeMs: number;

  constructor(
    head: Pick<ServedContent, 'uri' | 'mimeType' | 'bytes'>,
    text: FileText,
    digest: string | undefined,
    tail: object,
    path: string,
    mtimeMs: number,
  ) {
    this.#text = text;
    this.#digest = digest;
    this.#path = path;
    this.#mtimeMs = mtimeMs;
    Object.assign(this, head);
    Object.defineProperty(this, 'text', CONTENT_TEXT);
    Object.defineProperty(this, 'digest', CONTENT_DIGEST);
    Object.assign(this, tail);
  }

  static text(content: TextBackedContent): string {
    return content.#text.decode() as string;
  }

  static digest(content: TextBackedContent): string {
    content.#digest ??= hashPacked((content as unknown as ServedContent).bytes);
    return unpackDigest(content.#digest);
  }

  /** `content`'s packed digest as held; undefined when it is not text-backed or made no digest yet. */
  static heldDigest(content: object): { readonly packed: string | undefined } | undefined {
    return #digest in content ? { packed: content.#digest } : undefined;
  }

  static servedFor(content: object): { readonly path: string; readonly mtimeMs: number } | undefined {
    return #path in content ? { path: content.#path, mtimeMs: content.#mtimeMs } : undefined;
  }
}

const CONTENT_TEXT = sharedGetter(TextBackedContent.text);

const CONTENT_DIGEST = sharedGetter(TextBackedContent.digest);

/**
 * Served content whose `text` is `text` read when asked (the bytes must be valid UTF-8) and whose `digest` is
 * `digest` (packed: `packDigest`) unpacked when asked, or, undefined, the SHA-256 of `head.bytes` made on the
 * first ask: `head`, then `text`, `digest`, then `tail`, in that key order; it keeps the `path` and `mtimeMs`
 * it was served for (`readServedFor`).
 */
export function buildTextBackedContent(
  head: Pick<ServedContent, 'uri' | 'mimeType' | 'bytes'>,
  text: FileText,
  digest: string | undefined,
  tail: Omit<ServedContent, 'uri' | 'mimeType' | 'bytes' | 'text' | 'digest'>,
  path: string,
  mtimeMs: number,
): ServedContent {
  return new TextBackedContent(head, text, digest, tail, path, mtimeMs) as unknown as ServedContent;
}

class ContentManifestEntry {
  readonly #content: ServedContent;

  constructor(uri: string, content: ServedContent) {
    this.#content = content;
    Object.assign(this, { uri });
    Object.defineProperty(this, 'digest', MANIFEST_DIGEST);
    Object.assign(this, { size: content.size });
  }

  static digest(entry: ContentManifestEntry): string {
    return entry.#content.digest;
  }
}

const MANIFEST_DIGEST = sharedGetter(ContentManifestEntry.digest);

/**
 * A skill's manifest entry for a file served as `content` at `uri`: `uri`, `digest` (`content.digest`, read when
 * asked: a cold build makes no digest that no manifest, read or diff asks for) and `size`, in that key order.
 */
export function buildManifestEntry(uri: string, content: ServedContent): ManifestEntry {
  return new ContentManifestEntry(uri, content) as unknown as ManifestEntry;
}

/**
 * `content`'s digest packed (`packDigest`), without unpacking it when it is held packed, nor making it when
 * text-backed content has not made it yet (undefined: the content it is handed to makes it when asked).
 */
export function readPackedDigest(content: ServedContent): string | undefined {
  const held = TextBackedContent.heldDigest(content);
  return held === undefined ? packDigest(content.digest) : held.packed;
}

/** The path and time content from `buildTextBackedContent` was served for; undefined for other content. */
export function readServedFor(
  content: ServedContent,
): { readonly path: string; readonly mtimeMs: number } | undefined {
  return TextBackedContent.servedFor(content);
}

/** What a description is joined from: three strings, kept as fields (an array of them is 72 bytes more). */
type Parts = readonly [string | undefined, string | undefined, string | undefined];

class JoinedDescriptionResource {
  readonly #first: string | undefined;
  readonly #second: string | undefined;
  readonly #third: string | undefined;
  readonly #join: (parts: Parts) => string;
  /** What `annotations` are made of when asked (an object and a boxed number each: ~5 MB on XL). */
  readonly #priority: number;
  readonly #lastModified: string | undefined;

  constructor(
    head: Pick<ListedResource, 'uri' | 'name' | 'title'>,
    [first, second, third]: Parts,
    join: (parts: Parts) => string,
    tail: Omit<ListedResource, 'uri' | 'name' | 'title' | 'description' | 'annotations'>,
    { priority, lastModified }: ListedResource['annotations'],
  ) {
    this.#first = first;
    this.#second = second;
    this.#third = third;
    this.#join = join;
    this.#priority = priority;
    this.#lastModified = lastModified;
    Object.assign(this, head);
    Object.defineProperty(this, 'description', RESOURCE_DESCRIPTION);
    Object.assign(this, tail);
    Object.defineProperty(this, 'annotations', RESOURCE_ANNOTATIONS);
  }

  static annotations(resource: JoinedDescriptionResource): ListedResource['annotations'] {
    const priority = resource.#priority;
    const lastModified = resource.#lastModified;
    // Literals, one shape each (see `buildAnnotations` in entries.ts).
    return lastModified === undefined ? { priority } : { priority, lastModified };
  }

  static parts(resource: JoinedDescriptionResource): Parts {
    return [resource.#first, resource.#second, resource.#third];
  }

  static description(resource: JoinedDescriptionResource): string {
    return resource.#join([resource.#first, resource.#second, resource.#third]);
  }
}

const RESOURCE_ANNOTATIONS = sharedGetter(JoinedDescriptionResource.annotations);

const RESOURCE_DESCRIPTION = sharedGetter(JoinedDescriptionResource.description);

/**
 * A listed resource whose `description` is `join(parts)`, worked out when asked: `head`, then `description`,
 * then `tail`, then `annotations` (made from `annotations` when asked), in that key order. `parts` are strings
 * the catalog holds anyway (a document's description and when-to-use, its scope's sentence); `join` must be
 * pure.
 */
export function buildJoinedDescriptionResource(
  head: Pick<ListedResource, 'uri' | 'name' | 'title'>,
  parts: Parts,
  join: (parts: Parts) => string,
  tail: Omit<ListedResource, 'uri' | 'name' | 'title' | 'description' | 'annotations'>,
  annotations: ListedResource['annotations'],
): ListedResource {
  return new JoinedDescriptionResource(head, parts, join, tail, annotations) as unknown as ListedResource;
}

/** The parts a resource from `buildJoinedDescriptionResource` joins its description from. */
export function readDescriptionParts(resource: ListedResource): Parts {
  return JoinedDescriptionResource.parts(resource as unknown as JoinedDescriptionResource);
}
