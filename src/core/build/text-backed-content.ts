/**
 * A file's served content whose text is read from its bytes when asked (`text`), whose SHA-256 is made when first
 * asked unless handed one (`digest`, held packed: `check` asks for none) and whose `lastModified` is spelled from
 * its mtime when asked; and a skill's manifest entry, which reads its file's digest from that content when asked.
 * Own enumerable accessors with one getter shared by every object, as in text-backed.ts: these values compare,
 * spread and serialize as plain data do.
 */
import { decodeValidUtf8, formatTime, hashPacked, packDigest, unpackDigest } from '../content.js';
import { DOCUMENTS_DIR } from '../names.js';
import type { KeyForm } from '../persistent-map.js';
import { sharedGetter } from '../shared-getter.js';
import type { ManifestEntry, ServedContent, SourceFile } from '../types.js';

class TextBackedContent {
  /**
   * The digest, packed (`packDigest`): `digest` unpacks it when asked, and hashes the bytes on the first ask
   * when it was not handed one. Made lazily because a cold build serves every document and `check` reads no
   * digest (on L, 10,000 hashes were ~0.1 s of its CPU); a host's read or a manifest asks for it.
   */
  #digest: string | undefined;
  /**
   * The file served: `bytes` are its, its mtime is the time it was served for and what `lastModified` is
   * spelled from when asked (the file is held anyway: a time of its own was a boxed number a file, and the
   * spelled time a string each, ~4 MB on XL), and its path the path it was served for, unless served for another
   * (`ServedElsewhere`: a skill's file, at its path inside the skill). The text is decoded from the bytes at each
   * ask: they were found valid UTF-8 when this was built (a `FileText` held for that was ~7 MB on XL).
   */
  readonly #file: Pick<SourceFile, 'path' | 'bytes' | 'mtimeMs'>;

  /** `head` undefined: a `DocumentContent`, whose URI is read through its path and whose type is Markdown. */
  constructor(
    head: Pick<ServedContent, 'uri' | 'mimeType'> | undefined,
    digest: string | undefined,
    file: Pick<SourceFile, 'path' | 'bytes' | 'mtimeMs'>,
  ) {
    this.#digest = digest;
    this.#file = file;
    if (head !== undefined) Object.assign(this, head);
    else {
      Object.defineProperty(this, 'uri', DOCUMENT_CONTENT_URI);
      Object.defineProperty(this, 'mimeType', DOCUMENT_CONTENT_MIME_TYPE);
    }
    Object.defineProperty(this, 'bytes', CONTENT_BYTES);
    Object.defineProperty(this, 'text', CONTENT_TEXT);
    Object.defineProperty(this, 'digest', CONTENT_DIGEST);
    Object.defineProperty(this, 'size', CONTENT_SIZE);
    if (formatTime(file.mtimeMs) !== undefined)
      Object.defineProperty(this, 'lastModified', CONTENT_LAST_MODIFIED);
  }

  static file(content: object): SourceFile | undefined {
    return #file in content ? (content.#file as SourceFile) : undefined;
  }

  static path(content: TextBackedContent): string {
    return content.#file.path;
  }

  static bytes(content: TextBackedContent): Uint8Array {
    return content.#file.bytes;
  }

  static size(content: TextBackedContent): number {
    return content.#file.bytes.byteLength;
  }

  static lastModified(content: TextBackedContent): string | undefined {
    return formatTime(content.#file.mtimeMs);
  }

  static text(content: TextBackedContent): string {
    return decodeValidUtf8(content.#file.bytes);
  }

  static digest(content: TextBackedContent): string {
    content.#digest ??= hashPacked(content.#file.bytes);
    return unpackDigest(content.#digest);
  }

  /** `content`'s packed digest as held; undefined when it is not text-backed or made no digest yet. */
  static heldDigest(content: object): { readonly packed: string | undefined } | undefined {
    return #digest in content ? { packed: content.#digest } : undefined;
  }

  static servedFor(content: object): { readonly path: string; readonly mtimeMs: number } | undefined {
    if (!(#file in content)) return undefined;
    const { path, mtimeMs } = content.#file;
    return { path: ServedElsewhere.pathOf(content) ?? path, mtimeMs };
  }
}

/** Text-backed content served for a path that is not its file's: the path is a field of its own. */
class ServedElsewhere extends TextBackedContent {
  readonly #path: string;

  constructor(
    head: Pick<ServedContent, 'uri' | 'mimeType'>,
    digest: string | undefined,
    path: string,
    file: Pick<SourceFile, 'path' | 'bytes' | 'mtimeMs'>,
  ) {
    super(head, digest, file);
    this.#path = path;
  }

  static pathOf(content: object): string | undefined {
    return #path in content ? content.#path : undefined;
  }
}

/**
 * A document's content, served at its file's path, whose URI is its scheme's document prefix (`<scheme>://guides/`,
 * one string shared by every document) and the id its path spells, made when asked: the URI is not a string of
 * its own (on XL, 100,000 of them were ~7.7 MB), and the catalog's `contents` keeps it under its path
 * (`buildContentsForm`), which the file holds.
 */
class DocumentContent extends TextBackedContent {
  readonly #prefix: string;

  constructor(
    prefix: string,
    digest: string | undefined,
    file: Pick<SourceFile, 'path' | 'bytes' | 'mtimeMs'>,
  ) {
    super(undefined, digest, file);
    this.#prefix = prefix;
  }

  static uri(content: DocumentContent): string {
    const path = TextBackedContent.path(content);
    return content.#prefix + path.slice(DOCUMENTS_DIR.length, -'.md'.length);
  }
}

const DOCUMENT_CONTENT_URI = sharedGetter(DocumentContent.uri);

const MARKDOWN = 'text/markdown';

/** A document's type (a document is a `.md` file): a getter, not a field a document. */
const DOCUMENT_CONTENT_MIME_TYPE = sharedGetter(() => MARKDOWN);

const CONTENT_BYTES = sharedGetter(TextBackedContent.bytes);

const CONTENT_TEXT = sharedGetter(TextBackedContent.text);

const CONTENT_SIZE = sharedGetter(TextBackedContent.size);

const CONTENT_DIGEST = sharedGetter(TextBackedContent.digest);

const CONTENT_LAST_MODIFIED = sharedGetter(TextBackedContent.lastModified);

/**
 * Served content of `file` whose `bytes` are the file's, whose `text` is their decoding, made when asked (the
 * bytes must be valid UTF-8), whose `digest` is `digest` (packed: `packDigest`) unpacked when asked, or,
 * undefined, the SHA-256 of the bytes made on the first ask, and whose `lastModified` is `formatTime(file.mtimeMs)`
 * spelled when asked (absent when that is undefined): `head`, then `bytes`, `text`, `digest`, `size` (the bytes'
 * length), `lastModified`, in that key order, every one but `head` read through the file when asked. It keeps the
 * `path` and the file's `mtimeMs` it was served for (`readServedFor`). With `documentPrefix` (`<scheme>://guides/`)
 * and a Markdown document's URI under it, served at its file's path, `head` too is read when asked (the URI from
 * the prefix and the path): a `DocumentContent`.
 */
export function buildTextBackedContent(
  head: Pick<ServedContent, 'uri' | 'mimeType'>,
  digest: string | undefined,
  path: string,
  file: Pick<SourceFile, 'path' | 'bytes' | 'mtimeMs'>,
  documentPrefix?: string,
): ServedContent {
  const content =
    path !== file.path
      ? new ServedElsewhere(head, digest, path, file)
      : documentPrefix !== undefined &&
          head.mimeType === MARKDOWN &&
          head.uri === documentUriOf(documentPrefix, path)
        ? new DocumentContent(documentPrefix, digest, file)
        : new TextBackedContent(head, digest, file);
  return content as unknown as ServedContent;
}

/** The URI of the document at `path` under `prefix` (`<scheme>://guides/`); undefined when `path` is no document's. */
function documentUriOf(prefix: string, path: string): string | undefined {
  return path.startsWith(DOCUMENTS_DIR) && path.endsWith('.md')
    ? prefix + path.slice(DOCUMENTS_DIR.length, -'.md'.length)
    : undefined;
}

/** The mark in front of a kept key that is not a document's URI and would otherwise read as a path. */
const KEPT_ESCAPE = '\u0000';

/**
 * How a catalog's `contents` keeps its keys (`KeyForm`): a document's URI (`prefix` and its id) under its file's
 * path (`knowledge/documents/<id>.md`), the string its file and parse hold when the content is one served at
 * that path; every other URI as it is. A key that is not a document's URI but could be taken for a kept path (one
 * a client sends: `knowledge/documents/…`, or one that starts with the escape) is kept behind {@link KEPT_ESCAPE},
 * so the form stays one-to-one and a read never finds a document by its file's path: only its URI answers.
 */
export function buildContentsForm(prefix: string): KeyForm<ServedContent> {
  const kept = (uri: string): string => {
    if (uri.startsWith(prefix)) return `${DOCUMENTS_DIR}${uri.slice(prefix.length)}.md`;
    return uri.startsWith(DOCUMENTS_DIR) || uri.startsWith(KEPT_ESCAPE) ? KEPT_ESCAPE + uri : uri;
  };
  return {
    kept,
    keptFor(uri, content) {
      const form = kept(uri);
      if (form === uri) return uri;
      const path = TextBackedContent.servedFor(content)?.path;
      return path === form ? path : form;
    },
    key: (form) =>
      form.startsWith(KEPT_ESCAPE) ? form.slice(KEPT_ESCAPE.length) : (documentUriOf(prefix, form) ?? form),
  };
}

class ContentManifestEntry {
  /**
   * The content until the digest is first asked, then the digest itself: a page that is not kept as bytes (an
   * in-process transport's) spells every digest again at each walk, and unpacking each one every time made a full
   * `skills/list` walk on L ~2.5× slower (bench/peer.mjs, "in process"). One string per listed file, as before
   * digests were made lazily.
   */
  #digest: ServedContent | string;

  constructor(uri: string, content: ServedContent) {
    this.#digest = content;
    Object.assign(this, { uri });
    Object.defineProperty(this, 'digest', MANIFEST_DIGEST);
    Object.assign(this, { size: content.size });
  }

  static digest(entry: ContentManifestEntry): string {
    const held = entry.#digest;
    if (typeof held === 'string') return held;
    entry.#digest = held.digest;
    return entry.#digest;
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

/** The file content from `buildTextBackedContent` serves (the very object it was built with); else undefined. */
export function readContentFile(content: ServedContent): SourceFile | undefined {
  return TextBackedContent.file(content);
}

/** The path and time content from `buildTextBackedContent` was served for; undefined for other content. */
export function readServedFor(
  content: ServedContent,
): { readonly path: string; readonly mtimeMs: number } | undefined {
  return TextBackedContent.servedFor(content);
}
