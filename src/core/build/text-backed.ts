/**
 * Catalog values whose text is read from their file's bytes when asked: a document's entry (`body`,
 * `sections`) and a file's served content (`text`); and a document's listed resource, whose `description` is
 * joined from the sentences it is made of when asked (XL's 100,000 joined descriptions held ~21 MB; a list
 * page is serialized once per generation). The bytes are what a store keeps of a file; the decoded
 * text is not held beside them for the life of the catalog: each ask decodes it (`FileText.decode`), unless a
 * build phase holds it at that moment. Each is an own enumerable accessor, so these values compare, spread and
 * serialize as plain data do, and one getter is shared by every object (V8 keeps one shape for all of them, not
 * one per object).
 */
import type { FileText } from '../content.js';
import { readSection, type SectionRange } from '../markdown.js';
import type { DocumentEntry, DocumentSection, ListedResource, ServedContent } from '../types.js';

class TextBackedDocument {
  readonly #text: FileText;
  readonly #bodyStart: number;
  readonly #sections: readonly SectionRange[];

  constructor(
    fields: Omit<DocumentEntry, 'body' | 'sections'>,
    text: FileText,
    bodyStart: number,
    sections: readonly SectionRange[],
  ) {
    this.#text = text;
    this.#bodyStart = bodyStart;
    this.#sections = sections;
    Object.assign(this, fields);
    Object.defineProperty(this, 'body', DOCUMENT_BODY);
    Object.defineProperty(this, 'sections', DOCUMENT_SECTIONS);
  }

  static body(entry: TextBackedDocument): string {
    return (entry.#text.decode() as string).slice(entry.#bodyStart);
  }

  static sections(entry: TextBackedDocument): DocumentSection[] {
    const text = entry.#text.decode() as string;
    return entry.#sections.map((range) => readSection(text, range));
  }
}

// One `defineProperty` per accessor: `defineProperties` reads its descriptor map anew for every object, about
// three times the cost (~0.5 µs an object, 100,000 documents on XL).
const DOCUMENT_BODY: PropertyDescriptor = {
  enumerable: true,
  get(this: TextBackedDocument) {
    return TextBackedDocument.body(this);
  },
};

const DOCUMENT_SECTIONS: PropertyDescriptor = {
  enumerable: true,
  get(this: TextBackedDocument) {
    return TextBackedDocument.sections(this);
  },
};

/**
 * A document's entry: `fields`, then `body` (the file's text from `bodyStart`) and `sections` (read from their
 * ranges into that text), each read anew when asked.
 */
export function buildTextBackedDocument(
  fields: Omit<DocumentEntry, 'body' | 'sections'>,
  text: FileText,
  bodyStart: number,
  sections: readonly SectionRange[],
): DocumentEntry {
  return new TextBackedDocument(fields, text, bodyStart, sections) as unknown as DocumentEntry;
}

class TextBackedContent {
  readonly #text: FileText;

  constructor(head: Pick<ServedContent, 'uri' | 'mimeType' | 'bytes'>, text: FileText, tail: object) {
    this.#text = text;
    Object.assign(this, head);
    Object.defineProperty(this, 'text', CONTENT_TEXT);
    Object.assign(this, tail);
  }

  static text(content: TextBackedContent): string {
    return content.#text.decode() as string;
  }
}

const CONTENT_TEXT: PropertyDescriptor = {
  enumerable: true,
  get(this: TextBackedContent) {
    return TextBackedContent.text(this);
  },
};

/**
 * Served content whose `text` is `text` read when asked (the bytes must be valid UTF-8): `head`, then `text`,
 * then `tail`, in that key order.
 */
export function buildTextBackedContent(
  head: Pick<ServedContent, 'uri' | 'mimeType' | 'bytes'>,
  text: FileText,
  tail: Omit<ServedContent, 'uri' | 'mimeType' | 'bytes' | 'text'>,
): ServedContent {
  return new TextBackedContent(head, text, tail) as unknown as ServedContent;
}

/** What a description is joined from: three strings, kept as fields (an array of them is 72 bytes more). */
type Parts = readonly [string | undefined, string | undefined, string | undefined];

class JoinedDescriptionResource {
  readonly #first: string | undefined;
  readonly #second: string | undefined;
  readonly #third: string | undefined;
  readonly #join: (parts: Parts) => string;

  constructor(
    head: Pick<ListedResource, 'uri' | 'name' | 'title'>,
    [first, second, third]: Parts,
    join: (parts: Parts) => string,
    tail: Omit<ListedResource, 'uri' | 'name' | 'title' | 'description'>,
  ) {
    this.#first = first;
    this.#second = second;
    this.#third = third;
    this.#join = join;
    Object.assign(this, head);
    Object.defineProperty(this, 'description', RESOURCE_DESCRIPTION);
    Object.assign(this, tail);
  }

  static description(resource: JoinedDescriptionResource): string {
    return resource.#join([resource.#first, resource.#second, resource.#third]);
  }
}

const RESOURCE_DESCRIPTION: PropertyDescriptor = {
  enumerable: true,
  get(this: JoinedDescriptionResource) {
    return JoinedDescriptionResource.description(this);
  },
};

/**
 * A listed resource whose `description` is `join(parts)`, worked out when asked: `head`, then `description`,
 * then `tail`, in that key order. `parts` are strings the catalog holds anyway (a document's description and
 * when-to-use, its scope's sentence); `join` must be pure.
 */
export function buildJoinedDescriptionResource(
  head: Pick<ListedResource, 'uri' | 'name' | 'title'>,
  parts: Parts,
  join: (parts: Parts) => string,
  tail: Omit<ListedResource, 'uri' | 'name' | 'title' | 'description'>,
): ListedResource {
  return new JoinedDescriptionResource(head, parts, join, tail) as unknown as ListedResource;
}
