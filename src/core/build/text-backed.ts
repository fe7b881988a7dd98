/**
 * Catalog values whose text is read from their file's bytes when asked: a document's entry (`body`,
 * `sections`) and a skill's entry (`body`); and a document's listed resource, whose `description` is joined from
 * the sentences it is made of and whose `annotations` are made when asked (XL's 100,000 joined descriptions held
 * ~21 MB; a list page is serialized once per generation). A file's served content and a manifest entry are in
 * text-backed-content.ts. The three of a document read through each other rather than each holding its own copy
 * of a field: the entry holds the parse and the served content (its `uri`, `body` and `sections` come from the
 * content), the resource holds the entry and one record per scope (`ResourceScope`: the sentence and priority), and
 * the entry also carries the resource derived with it, which the parse keeps for the next build. The bytes are what a store keeps of a file; the decoded text is not held beside
 * them for the life of the catalog: each ask decodes it (`FileText.decode`), unless a build phase holds it at that
 * moment. Each is an own enumerable accessor, so these values compare, spread and serialize as plain data do, and
 * one getter is shared by every object (V8 keeps one shape for all of them, not one per object).
 */
import type { FileText } from '../content.js';
import { readSections, type SectionList } from '../markdown.js';
import { sharedGetter } from '../shared-getter.js';
import type { DocumentEntry, DocumentSection, ListedResource, ServedContent, SkillEntry } from '../types.js';
import { joinSentences } from './sentences.js';

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
  readonly #described: Described;
  /** The served content: `uri` is its, and `body` and `sections` are read from its `text`. */
  readonly #content: ServedContent;
  /** The listed resource derived with this entry (`attachResource`): a parse keeps the entry alone. */
  #resource: ListedResource | undefined;

  constructor(described: Described, fields: DocumentEntry['fields'], content: ServedContent) {
    this.#described = described;
    this.#content = content;
    const own = this as { fields?: DocumentEntry['fields'] };
    Object.defineProperty(this, 'id', DOCUMENT_ID);
    Object.defineProperty(this, 'uri', DOCUMENT_URI);
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

  static is(value: object): value is TextBackedDocument {
    return #described in value;
  }

  static content(entry: TextBackedDocument): ServedContent {
    return entry.#content;
  }

  static attach(entry: TextBackedDocument, resource: ListedResource): void {
    entry.#resource = resource;
  }

  static derived(entry: TextBackedDocument): DerivedWith {
    return { content: entry.#content, resource: entry.#resource! };
  }

  static resource(entry: TextBackedDocument): ListedResource {
    return entry.#resource!;
  }

  static body(entry: TextBackedDocument): string {
    return entry.#content.text!.slice(entry.#described.bodyStart);
  }

  static sections(entry: TextBackedDocument): DocumentSection[] {
    return readSections(entry.#content.text!, entry.#described.sections);
  }
}

// One function each, not one made per key: a keyed read shared by six keys would be a megamorphic load.
const DOCUMENT_ID = sharedGetter((entry: TextBackedDocument) => TextBackedDocument.described(entry).id);

const DOCUMENT_URI = sharedGetter((entry: TextBackedDocument) => TextBackedDocument.content(entry).uri);

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

/** Records on `entry` (from `buildTextBackedDocument`) the resource derived with it (`buildDocumentResource`). */
export function attachResource(entry: DocumentEntry, resource: ListedResource): void {
  TextBackedDocument.attach(entry as unknown as TextBackedDocument, resource);
}

/** The content `entry` (from `buildTextBackedDocument`) was built over. */
export function readDerivedContent(entry: DocumentEntry): ServedContent {
  return TextBackedDocument.content(entry as unknown as TextBackedDocument);
}

/** What `entry` (from `buildTextBackedDocument`) was built over: its parse. */
export function readDescribed(entry: DocumentEntry): Described {
  return TextBackedDocument.described(entry as unknown as TextBackedDocument);
}

/** Whether `value` is an entry from `buildTextBackedDocument`. */
export function isTextBackedDocument(value: object): value is DocumentEntry {
  return TextBackedDocument.is(value);
}

/** The resource `attachResource` recorded on `entry`. */
export function readDerivedResource(entry: DocumentEntry): ListedResource {
  return TextBackedDocument.resource(entry as unknown as TextBackedDocument);
}

/** The content `entry` was built over and the resource `attachResource` recorded on it. */
export function readDerived(entry: DocumentEntry): DerivedWith {
  return TextBackedDocument.derived(entry as unknown as TextBackedDocument);
}

/**
 * A document's entry: `id`, `uri` (`content`'s), `path`, `title`, `scope`, `description`, `whenToUse` (when
 * `described` has one), `fields`, `body` (`content.text` from `bodyStart`) and `sections` (read from their ranges
 * into that text), in that key order. All but `fields` are read when asked; the body and sections anew each time
 * (text-backed content decodes its bytes at each ask).
 */
export function buildTextBackedDocument(
  described: Described,
  fields: DocumentEntry['fields'],
  content: ServedContent,
): DocumentEntry {
  return new TextBackedDocument(described, fields, content) as unknown as DocumentEntry;
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

/** What a document's listed resource says of its scope: the sentence its description ends with, its priority. */
export interface ResourceScope {
  readonly sentence: string | undefined;
  readonly priority: number;
}

class DocumentResource {
  /** The entry (from `buildTextBackedDocument`): the parse and the served content are read through it. */
  readonly #entry: TextBackedDocument;
  /** Shared by every document of one scope (two fields a document, not a sentence and a boxed number each). */
  readonly #scope: ResourceScope;

  constructor(entry: TextBackedDocument, scope: ResourceScope) {
    this.#entry = entry;
    this.#scope = scope;
    Object.defineProperty(this, 'uri', RESOURCE_URI);
    Object.defineProperty(this, 'name', RESOURCE_NAME);
    Object.defineProperty(this, 'title', RESOURCE_TITLE);
    Object.defineProperty(this, 'description', RESOURCE_DESCRIPTION);
    Object.defineProperty(this, 'mimeType', RESOURCE_MIME_TYPE);
    Object.defineProperty(this, 'size', RESOURCE_SIZE);
    Object.defineProperty(this, 'annotations', RESOURCE_ANNOTATIONS);
  }

  static annotations(resource: DocumentResource): ListedResource['annotations'] {
    const priority = resource.#scope.priority;
    const lastModified = DocumentResource.content(resource).lastModified;
    // Literals, one shape each (see `buildAnnotations` in entries.ts).
    return lastModified === undefined ? { priority } : { priority, lastModified };
  }

  static scope(resource: DocumentResource): ResourceScope {
    return resource.#scope;
  }

  static described(resource: DocumentResource): Described {
    return TextBackedDocument.described(resource.#entry);
  }

  static content(resource: DocumentResource): ServedContent {
    return TextBackedDocument.content(resource.#entry);
  }

  static description(resource: DocumentResource): string {
    const described = DocumentResource.described(resource);
    return joinSentences([described.description, described.whenToUse, resource.#scope.sentence]);
  }
}

const RESOURCE_URI = sharedGetter((r: DocumentResource) => DocumentResource.content(r).uri);

const RESOURCE_NAME = sharedGetter((r: DocumentResource) => DocumentResource.described(r).id);

const RESOURCE_TITLE = sharedGetter((r: DocumentResource) => DocumentResource.described(r).title);

const RESOURCE_DESCRIPTION = sharedGetter(DocumentResource.description);

const RESOURCE_MIME_TYPE = sharedGetter((r: DocumentResource) => DocumentResource.content(r).mimeType);

const RESOURCE_SIZE = sharedGetter((r: DocumentResource) => DocumentResource.content(r).size);

const RESOURCE_ANNOTATIONS = sharedGetter(DocumentResource.annotations);

/**
 * A document's listed resource, every field read when asked from `entry` (from `buildTextBackedDocument`) and
 * `scope`: `uri` (the content's), `name` (the id), `title`, `description` (`joinSentences([description,
 * whenToUse, scope.sentence])`), `mimeType`, `size`, then `annotations` (`scope.priority` and the content's
 * `lastModified`), in that key order.
 */
export function buildDocumentResource(entry: DocumentEntry, scope: ResourceScope): ListedResource {
  return new DocumentResource(entry as unknown as TextBackedDocument, scope) as unknown as ListedResource;
}

/** The scope a resource from `buildDocumentResource` was built with. */
export function readResourceScope(resource: ListedResource): ResourceScope {
  return DocumentResource.scope(resource as unknown as DocumentResource);
}
