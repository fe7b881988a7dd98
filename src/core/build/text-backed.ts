/**
 * Catalog values whose text is read from their file's bytes when asked: a document's entry (`body`,
 * `sections`) and a skill's entry (`body`); and a document's listed resource, whose `description` is joined from
 * the sentences it is made of and whose `annotations` are made when asked (XL's 100,000 joined descriptions held
 * ~21 MB; a list page is serialized once per generation). A file's served content and a manifest entry are in
 * text-backed-content.ts. A document's entry also carries what the builder's memo would otherwise keep beside it
 * (what it was derived with). The bytes are what a store keeps of a file; the decoded text is not held beside
 * them for the life of the catalog: each ask decodes it (`FileText.decode`), unless a build phase holds it at that
 * moment. Each is an own enumerable accessor, so these values compare, spread and serialize as plain data do, and
 * one getter is shared by every object (V8 keeps one shape for all of them, not one per object).
 */
import type { FileText } from '../content.js';
import { readSections, type SectionList } from '../markdown.js';
import { sharedGetter } from '../shared-getter.js';
import type { DocumentEntry, DocumentSection, ListedResource, ServedContent, SkillEntry } from '../types.js';

/**
 * What a document's entry and listed resource read their id, path, scope, texts, body and sections from when
 * asked (a parsed document, whose texts are ranges into its file's bytes): not copied onto each of them.
 */
export interface Described {
  readonly id: string;
  readonly path: string;
  readonly scope: string;
  readonly title: string;
  readonly description: string;
  readonly whenToUse?: string;
  readonly bodyStart: number;
  readonly sections: SectionList;
}

class TextBackedDocument {
  readonly #text: FileText;
  readonly #described: Described;
  /** What was derived with this entry (`attachDerived`): a memo keeps the entry alone and finds them here. */
  #content: ServedContent | undefined;
  #resource: ListedResource | undefined;

  constructor(uri: string, described: Described, fields: DocumentEntry['fields'], text: FileText) {
    this.#text = text;
    this.#described = described;
    const own = this as { uri?: string; fields?: DocumentEntry['fields'] };
    Object.defineProperty(this, 'id', DOCUMENT_ID);
    own.uri = uri;
    Object.defineProperty(this, 'path', DOCUMENT_PATH);
    Object.defineProperty(this, 'title', DOCUMENT_TITLE);
    Object.defineProperty(this, 'scope', DOCUMENT_SCOPE);
    Object.defineProperty(this, 'description', DOCUMENT_DESCRIPTION);
    if (described.whenToUse !== undefined) Object.defineProperty(this, 'whenToUse', DOCUMENT_WHEN_TO_USE);
    own.fields = fields;
    Object.defineProperty(this, 'body', DOCUMENT_BODY);
    Object.defineProperty(this, 'sections', DOCUMENT_SECTIONS);
  }

  static described(entry: TextBackedDocument): Described {
    return entry.#described;
  }

  static attach(entry: TextBackedDocument, content: ServedContent, resource: ListedResource): void {
    entry.#content = content;
    entry.#resource = resource;
  }

  static derived(entry: TextBackedDocument): DerivedWith {
    return { content: entry.#content!, resource: entry.#resource! };
  }

  static body(entry: TextBackedDocument): string {
    return (entry.#text.decode() as string).slice(entry.#described.bodyStart);
  }

  static sections(entry: TextBackedDocument): DocumentSection[] {
    return readSections(entry.#text.decode() as string, entry.#described.sections);
  }
}

// One function each, not one made per key: a keyed read shared by six keys would be a megamorphic load.
const DOCUMENT_ID = sharedGetter((entry: TextBackedDocument) => TextBackedDocument.described(entry).id);

const DOCUMENT_PATH = sharedGetter((entry: TextBackedDocument) => TextBackedDocument.described(entry).path);

const DOCUMENT_TITLE = sharedGetter((entry: TextBackedDocument) => TextBackedDocument.described(entry).title);

const DOCUMENT_SCOPE = sharedGetter((entry: TextBackedDocument) => TextBackedDocument.described(entry).scope);

const DOCUMENT_DESCRIPTION = sharedGetter(
  (entry: TextBackedDocument) => TextBackedDocument.described(entry).description,
);

const DOCUMENT_WHEN_TO_USE = sharedGetter(
  (entry: TextBackedDocument) => TextBackedDocument.described(entry).whenToUse,
);

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
 * A document's entry: `id`, `uri`, `path`, `title`, `scope`, `description`, `whenToUse` (when `described` has
 * one), `fields`, `body` (the file's text from `bodyStart`) and `sections` (read from their ranges into that
 * text), in that key order. All but `uri` and `fields` are `described`'s, read when asked; the body and sections
 * are read anew each time.
 */
export function buildTextBackedDocument(
  uri: string,
  described: Described,
  fields: DocumentEntry['fields'],
  text: FileText,
): DocumentEntry {
  return new TextBackedDocument(uri, described, fields, text) as unknown as DocumentEntry;
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

/** What a description is joined from: a document's description and when-to-use, and its scope's sentence. */
type Parts = readonly [string | undefined, string | undefined, string | undefined];

class JoinedDescriptionResource {
  readonly #described: Pick<Described, 'id' | 'title' | 'description' | 'whenToUse'>;
  readonly #sentence: string | undefined;
  readonly #join: (parts: Parts) => string;
  /** What `annotations` are made of when asked (an object and a boxed number each: ~5 MB on XL). */
  readonly #priority: number;
  /** The served content whose URI, MIME type, size and `lastModified` the resource carries. */
  readonly #content: Listed;

  constructor(
    described: Pick<Described, 'id' | 'title' | 'description' | 'whenToUse'>,
    sentence: string | undefined,
    join: (parts: Parts) => string,
    content: Listed,
    priority: number,
  ) {
    this.#described = described;
    this.#sentence = sentence;
    this.#join = join;
    this.#priority = priority;
    this.#content = content;
    Object.defineProperty(this, 'uri', RESOURCE_URI);
    Object.defineProperty(this, 'name', RESOURCE_NAME);
    Object.defineProperty(this, 'title', RESOURCE_TITLE);
    Object.defineProperty(this, 'description', RESOURCE_DESCRIPTION);
    Object.defineProperty(this, 'mimeType', RESOURCE_MIME_TYPE);
    Object.defineProperty(this, 'size', RESOURCE_SIZE);
    Object.defineProperty(this, 'annotations', RESOURCE_ANNOTATIONS);
  }

  static annotations(resource: JoinedDescriptionResource): ListedResource['annotations'] {
    const priority = resource.#priority;
    const lastModified = resource.#content.lastModified;
    // Literals, one shape each (see `buildAnnotations` in entries.ts).
    return lastModified === undefined ? { priority } : { priority, lastModified };
  }

  static sentence(resource: JoinedDescriptionResource): string | undefined {
    return resource.#sentence;
  }

  static described(resource: JoinedDescriptionResource): Pick<Described, 'id' | 'title'> {
    return resource.#described;
  }

  static content(resource: JoinedDescriptionResource): Listed {
    return resource.#content;
  }

  static description(resource: JoinedDescriptionResource): string {
    const described = resource.#described;
    return resource.#join([described.description, described.whenToUse, resource.#sentence]);
  }
}

/** What a listed resource carries of its served content. */
type Listed = Pick<ServedContent, 'uri' | 'mimeType' | 'size' | 'lastModified'>;

const RESOURCE_URI = sharedGetter((r: JoinedDescriptionResource) => JoinedDescriptionResource.content(r).uri);

const RESOURCE_NAME = sharedGetter(
  (r: JoinedDescriptionResource) => JoinedDescriptionResource.described(r).id,
);

const RESOURCE_TITLE = sharedGetter(
  (r: JoinedDescriptionResource) => JoinedDescriptionResource.described(r).title,
);

const RESOURCE_DESCRIPTION = sharedGetter(JoinedDescriptionResource.description);

const RESOURCE_MIME_TYPE = sharedGetter(
  (r: JoinedDescriptionResource) => JoinedDescriptionResource.content(r).mimeType,
);

const RESOURCE_SIZE = sharedGetter(
  (r: JoinedDescriptionResource) => JoinedDescriptionResource.content(r).size,
);

const RESOURCE_ANNOTATIONS = sharedGetter(JoinedDescriptionResource.annotations);

/**
 * A document's listed resource, every field read when asked: `uri` (the content's), `name` (the id), `title`,
 * `description` (`join([described.description, described.whenToUse, sentence])`), `mimeType`, `size`, then
 * `annotations` (`priority` and the content's `lastModified`), in that key order. `sentence` is a string the
 * catalog holds anyway (the scope's); `join` must be pure.
 */
export function buildJoinedDescriptionResource(
  described: Pick<Described, 'id' | 'title' | 'description' | 'whenToUse'>,
  sentence: string | undefined,
  join: (parts: Parts) => string,
  content: Listed,
  priority: number,
): ListedResource {
  return new JoinedDescriptionResource(
    described,
    sentence,
    join,
    content,
    priority,
  ) as unknown as ListedResource;
}

/** The scope sentence a resource from `buildJoinedDescriptionResource` ends its description with. */
export function readDescriptionSentence(resource: ListedResource): string | undefined {
  return JoinedDescriptionResource.sentence(resource as unknown as JoinedDescriptionResource);
}
