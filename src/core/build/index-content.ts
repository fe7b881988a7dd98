/**
 * The index's served content, holding no bytes: hosts read the index rarely, and its bytes were held for the
 * catalog's whole life (31.5 MB on XL's 100,000 documents, ~3 MB on L). A build keeps only the size and SHA-256
 * of its text (what `resources/list` and the diff read); a read builds the text again from the catalog's own
 * lists, which `buildIndexText` turns into the same text every time (pure: the same inputs, the same bytes).
 */
import { buildDigest, buildMimeType, encodeUtf8, formatTime } from '../content.js';
import { sharedGetter } from '../shared-getter.js';
import type { ServedContent } from '../types.js';
import { buildIndexText, type IndexInput } from './index-json.js';

/** What a build keeps of the index text it made: its UTF-8 length and `sha256:<hex>` digest. */
export interface IndexFacts {
  readonly size: number;
  readonly digest: string;
}

/**
 * The size and digest of the index text of `input`; the text and its bytes are dropped when they are measured.
 * `'asked'` measures at the first ask of either, holding `input` (the catalog's own lists) until then: for a
 * build no other follows (`BuildOptions.once`: `companion check` never asks, and made the text, its bytes and
 * their SHA-256 for nothing, ~20 ms on L). Otherwise now: dev's next diff reads both digests, and the first
 * edit would pay for the first build's.
 */
export function measureIndex(input: IndexInput, when: 'now' | 'asked' = 'now'): IndexFacts {
  const facts = new MeasuredIndex(input);
  if (when === 'now') facts.measure();
  return facts;
}

class MeasuredIndex implements IndexFacts {
  #input: IndexInput | undefined;
  #size = 0;
  #digest = '';

  constructor(input: IndexInput) {
    this.#input = input;
  }

  get size(): number {
    this.measure();
    return this.#size;
  }

  get digest(): string {
    this.measure();
    return this.#digest;
  }

  /** Measures the text, once; drops the input. */
  measure(): void {
    if (this.#input === undefined) return;
    const bytes = encodeUtf8(buildIndexText(this.#input));
    this.#size = bytes.byteLength;
    this.#digest = buildDigest(bytes);
    this.#input = undefined;
  }
}

class IndexContent {
  readonly #input: IndexInput;
  readonly #facts: IndexFacts;
  readonly #mtimeMs: number;

  constructor(uri: string, input: IndexInput, facts: IndexFacts, mtimeMs: number) {
    this.#input = input;
    this.#facts = facts;
    this.#mtimeMs = mtimeMs;
    Object.assign(this, { uri, mimeType: INDEX_MIME_TYPE });
    Object.defineProperty(this, 'bytes', INDEX_BYTES);
    Object.defineProperty(this, 'text', INDEX_TEXT);
    Object.defineProperty(this, 'digest', INDEX_DIGEST);
    Object.defineProperty(this, 'size', INDEX_SIZE);
    if (formatTime(mtimeMs) !== undefined) Object.defineProperty(this, 'lastModified', INDEX_LAST_MODIFIED);
  }

  static text(content: IndexContent): string {
    return buildIndexText(content.#input);
  }

  static bytes(content: IndexContent): Uint8Array {
    return encodeUtf8(buildIndexText(content.#input));
  }

  static digest(content: IndexContent): string {
    return content.#facts.digest;
  }

  static size(content: IndexContent): number {
    return content.#facts.size;
  }

  static lastModified(content: IndexContent): string | undefined {
    return formatTime(content.#mtimeMs);
  }
}

const INDEX_MIME_TYPE = buildMimeType('index.json');

const INDEX_BYTES = sharedGetter(IndexContent.bytes);

const INDEX_TEXT = sharedGetter(IndexContent.text);

const INDEX_DIGEST = sharedGetter(IndexContent.digest);

const INDEX_SIZE = sharedGetter(IndexContent.size);

const INDEX_LAST_MODIFIED = sharedGetter(IndexContent.lastModified);

/**
 * The index served at `uri`: `uri`, `mimeType`, then `bytes` and `text` built again from `input` at each ask,
 * `digest` and `size` from `facts` (which must be `measureIndex(input)`'s, or those of a text `changes.index`
 * says is the same), and `lastModified` spelled from `mtimeMs` (absent when `formatTime` gives none), in the key
 * order of other text content. Each build makes a new one over its own lists (every build copies them), so
 * an older generation's lists live only as long as its catalog.
 */
export function buildIndexContent(
  uri: string,
  input: IndexInput,
  facts: IndexFacts,
  mtimeMs: number,
): ServedContent {
  return new IndexContent(uri, input, facts, mtimeMs) as unknown as ServedContent;
}
