/**
 * A parsed document whose title, description and when-to-use are read from its file's bytes when asked, not held
 * as strings of their own: on XL, 100,000 documents' three strings held ~27 MB of heap, while the bytes they are
 * spelled in are held anyway (the store keeps every file's bytes). A value is kept as a range when the file is
 * ASCII (a character is a byte there) and the value is spelled verbatim somewhere in the text (any occurrence
 * spells the same string: an unquoted or plainly quoted YAML value, a `# ` title); else as a copy of its own.
 * Each is an own enumerable accessor in the key order a plain object would have, so the value spreads, compares
 * and serializes as the plain object it stands for.
 */
import { decodeAscii, detachText } from './content.js';
import type { ParsedDocument } from './documents.js';
import { sharedGetter } from './shared-getter.js';

/** What `buildParsedDocument` keeps as plain data before the three texts. */
type Head = Pick<ParsedDocument, 'id' | 'path' | 'scope'>;
/** What it keeps as plain data after them. */
type Tail = Pick<ParsedDocument, 'extraKeys' | 'bodyStart' | 'uriLines' | 'sections'>;

/** No range: the value is the string held in the start field. */
const COPY = -1;

/**
 * The three texts as kept: for each, its start in the bytes and its end, or the string itself and `COPY`
 * (`whenToUse` absent: undefined and `COPY`).
 */
type Texts = readonly [string | number, number, string | number, number, string | number | undefined, number];

/**
 * A text as kept: its range in the bytes as one small integer (start × 2^16 + length: a V8 small integer, so no
 * boxed number and one field, not two), or the string itself (absent: undefined).
 */
type Kept = string | number | undefined;

const SPAN = 0x1_0000;
/** A range starts below this to be kept as one small integer (2^31 − 1 is the largest). */
const MAX_START = 0x8000;

function keep(bytes: Uint8Array | undefined, start: string | number | undefined, end: number): Kept {
  if (end === COPY) return start as string | undefined;
  const from = start as number;
  // A range too far into the file or too long for one small integer (rare: a front matter's values come first)
  // is kept as a copy, which every document's was before.
  return from < MAX_START && end - from < SPAN ? from * SPAN + (end - from) : decodeAscii(bytes!, from, end);
}

function readKept(bytes: Uint8Array | undefined, kept: Kept): string | undefined {
  if (typeof kept !== 'number') return kept;
  const from = kept >>> 16;
  return decodeAscii(bytes!, from, from + (kept & 0xffff));
}

/** The tuple half `Texts` has for `kept`. */
function spanOf(kept: Kept): readonly [string | number | undefined, number] {
  if (typeof kept !== 'number') return [kept, COPY];
  const from = kept >>> 16;
  return [from, from + (kept & 0xffff)];
}

class RangedDocument {
  readonly #bytes: Uint8Array | undefined;
  readonly #title: Kept;
  readonly #description: Kept;
  readonly #whenToUse: Kept;
  /** What a builder derived from this parse (`attachDerivedEntry`): kept here, not in a weak table beside it. */
  #entry: object | undefined;

  constructor(head: Head, bytes: Uint8Array | undefined, texts: Texts, tail: Tail) {
    this.#bytes = bytes;
    this.#title = keep(bytes, texts[0], texts[1]);
    this.#description = keep(bytes, texts[2], texts[3]);
    this.#whenToUse = keep(bytes, texts[4], texts[5]);
    Object.assign(this, head);
    Object.defineProperty(this, 'title', TITLE);
    Object.defineProperty(this, 'description', DESCRIPTION);
    if (this.#whenToUse !== undefined) Object.defineProperty(this, 'whenToUse', WHEN_TO_USE);
    Object.assign(this, tail);
  }

  static is(value: object): value is RangedDocument {
    return #bytes in value;
  }

  static entry(d: object): object | undefined {
    return #entry in d ? d.#entry : undefined;
  }

  static attach(d: object, entry: object): void {
    if (#entry in d) d.#entry = entry;
  }

  static texts(d: RangedDocument): Texts {
    return [...spanOf(d.#title), ...spanOf(d.#description), ...spanOf(d.#whenToUse)] as unknown as Texts;
  }

  static title(d: RangedDocument): string {
    return readKept(d.#bytes, d.#title)!;
  }

  static description(d: RangedDocument): string {
    return readKept(d.#bytes, d.#description)!;
  }

  static whenToUse(d: RangedDocument): string | undefined {
    return readKept(d.#bytes, d.#whenToUse);
  }
}

const TITLE = sharedGetter(RangedDocument.title);

const DESCRIPTION = sharedGetter(RangedDocument.description);

const WHEN_TO_USE = sharedGetter(RangedDocument.whenToUse);

const ABSENT: readonly [undefined, number] = [undefined, COPY];

/** Where `value` is spelled in `text` (`bytes` given: ASCII), as [start, end], else [a copy, `COPY`]. */
function keepText(
  bytes: Uint8Array | undefined,
  text: string,
  value: string,
): readonly [string | number, number] {
  const at = bytes === undefined ? -1 : text.indexOf(value);
  return at === -1 ? [detachText(value), COPY] : [at, at + value.length];
}

/**
 * A parsed document: `head`, then `title`, `description` and (when given) `whenToUse`, then `tail`, in that key
 * order. `bytes` are the file's bytes when `text`, their decoding, is ASCII (then the texts may be kept as ranges
 * into them), else undefined (copies).
 */
export function buildParsedDocument(
  head: Head,
  bytes: Uint8Array | undefined,
  text: string,
  title: string,
  description: string,
  whenToUse: string | undefined,
  tail: Tail,
): ParsedDocument {
  const texts: Texts = [
    ...keepText(bytes, text, title),
    ...keepText(bytes, text, description),
    ...(whenToUse === undefined ? ABSENT : keepText(bytes, text, whenToUse)),
  ];
  return new RangedDocument(head, bytes, texts, tail) as unknown as ParsedDocument;
}

/**
 * A parsed document as plain data (to cross threads: a structured clone keeps no private fields), which
 * `unpackParsedDocument` makes a parsed document of again over a copy of the same bytes.
 */
export interface PackedDocument extends Head, Tail {
  readonly texts: Texts;
}

/** Whether `value` is a parsed document from `buildParsedDocument`. */
export function isParsedDocument(value: object): value is ParsedDocument {
  return RangedDocument.is(value);
}

/**
 * Records on `document` (from `buildParsedDocument`) the entry a builder derived from it, for the next build that
 * meets the same parse to find (`readDerivedEntry`): the builder's memo keeps the parse, and the parse this one
 * value, so it lives and dies with the parse, as a weak table keyed by the parse would keep it (on XL a weak entry
 * each, 100,000 of them, held ~4 MB; a field is 8 bytes). Never part of the parse's value: not a key, not packed.
 * A parse from elsewhere (not from `buildParsedDocument`) records nothing.
 */
export function attachDerivedEntry(document: ParsedDocument, entry: object): void {
  RangedDocument.attach(document, entry);
}

/** What `attachDerivedEntry` last recorded on `document`, if anything. */
export function readDerivedEntry(document: ParsedDocument): object | undefined {
  return RangedDocument.entry(document);
}

/** `document` (from `buildParsedDocument`) as plain data. */
export function packParsedDocument(document: ParsedDocument): PackedDocument {
  const { id, path, scope, extraKeys, bodyStart, uriLines, sections } = document;
  const texts = RangedDocument.texts(document as unknown as RangedDocument);
  return { id, path, scope, texts, extraKeys, bodyStart, uriLines, sections };
}

/** The parsed document `packed` stands for, over `bytes` (equal to the bytes it was parsed from). */
export function unpackParsedDocument(packed: PackedDocument, bytes: Uint8Array): ParsedDocument {
  const { id, path, scope, texts, extraKeys, bodyStart, uriLines, sections } = packed;
  const ranged = texts[1] !== COPY || texts[3] !== COPY || texts[5] !== COPY;
  return new RangedDocument({ id, path, scope }, ranged ? bytes : undefined, texts, {
    extraKeys,
    bodyStart,
    uriLines,
    sections,
  }) as unknown as ParsedDocument;
}
