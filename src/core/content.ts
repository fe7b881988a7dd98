/**
 * Bytes to served content: the digest, the MIME type, and whether a read answers text or a blob. A builder's
 * phases share one `FileText` per bytes while they read a unit (`readFileText`), so a text is decoded once per
 * unit, not once per phase; what outlives the unit (a parse, served content) keeps offsets into the bytes, not
 * the text. A digest is kept by the served content the builder memoizes (`serve`); the digest
 * table only hands over digests made elsewhere (another thread's per-file facts) until `serve` takes them.
 */
import { hash } from 'node:crypto';
import { type Memo, memoCell, memoTable, NO_MEMO } from './memo.js';

const DIGESTS = memoTable<Uint8Array, string>('content.digests');
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const asciiDecoder = new TextDecoder('latin1');
const encoder = new TextEncoder();

/**
 * `sha256:<64 lowercase hex>` of `bytes`, one flat string (a digest is kept for the life of its content), set in
 * `memo`'s digest table for whoever takes it (`takeDigest`).
 */
export function buildDigest(bytes: Uint8Array, memo: Memo = NO_MEMO): string {
  const digests = memo.table(DIGESTS);
  let digest = digests.get(bytes);
  if (digest === undefined) {
    digest = hashBytes(bytes);
    digests.set(bytes, digest);
  }
  return digest;
}

/**
 * The digest of `bytes`: one handed over in `memo` (and taken out of it: the caller keeps it from now on, so the
 * table does not hold an entry per file for the life of the builder), else made now.
 */
export function takeDigest(bytes: Uint8Array, memo: Memo = NO_MEMO): string {
  const digests = memo.table(DIGESTS);
  const digest = digests.get(bytes);
  if (digest === undefined) return hashBytes(bytes);
  digests.delete(bytes);
  return digest;
}

/** One call, no `Hash` object: `createHash().update().digest()` costs ~0.6 µs more a file (100,000 on XL). */
function hashBytes(bytes: Uint8Array): string {
  return flatten(`sha256:${hash('sha256', bytes, 'hex')}`);
}

/**
 * `takeDigest` packed (`packDigest`): one handed over in `memo`, packed, else the hash's 32 bytes as they come.
 */
export function takePackedDigest(bytes: Uint8Array, memo: Memo = NO_MEMO): string {
  return takeHandedPackedDigest(bytes, memo) ?? hashPacked(bytes);
}

/**
 * A digest of `bytes` handed over in `memo` (another thread's per-file facts), packed and taken out of it; else
 * undefined, and nothing is hashed: served text content makes its digest when first asked (`check` never asks).
 */
export function takeHandedPackedDigest(bytes: Uint8Array, memo: Memo = NO_MEMO): string | undefined {
  const digests = memo.table(DIGESTS);
  const digest = digests.get(bytes);
  if (digest === undefined) return undefined;
  digests.delete(bytes);
  return packDigest(digest);
}

/** The SHA-256 of `bytes` packed (`packDigest`): its 32 bytes as they come, one character each. */
export function hashPacked(bytes: Uint8Array): string {
  return hash('sha256', bytes, 'binary');
}

/**
 * A digest (`sha256:<64 lowercase hex>`) as the 32 bytes it spells, one character each: a string of 48 bytes
 * held instead of 88 (on XL, ~4 MB). `unpackDigest` answers the digest again.
 */
export function packDigest(digest: string): string {
  const codes = new Array<number>(32);
  for (let i = 0; i < 32; i++) codes[i] = Number.parseInt(digest.slice(7 + 2 * i, 9 + 2 * i), 16);
  return String.fromCharCode(...codes);
}

/**
 * The digest `packed` (from `packDigest` or `takePackedDigest`) spells, one flat string (a manifest keeps it: a
 * concatenation of 33 parts would hold 33 cells).
 */
export function unpackDigest(packed: string): string {
  const hex = new Array<string>(packed.length);
  for (let i = 0; i < packed.length; i++) hex[i] = HEX[packed.charCodeAt(i)]!;
  return flatten(`sha256:${hex.join('')}`);
}

const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * The text of one file's bytes, decoded when asked and kept only while something else holds it: the bytes are
 * the one representation a store keeps of a file (what reads, digests and sizes are of), so the text is not a
 * second copy for the life of the catalog. A decoded text stays reachable through a `WeakRef` until the
 * collector takes it, at the earliest after the current job: every phase of one build that reads a file's text
 * decodes it once, and a read later decodes it again (an 8 KB document: ~15 µs).
 *
 * A builder's texts (`readFileText` with a memo) are held by its `TextHold` instead, strongly, until the engine
 * releases them (`releaseHeldTexts`, after each unit it reads): a build is one job, and a `WeakRef` kept every
 * text read during it alive to its end (on L, ~20 MB of skill texts that every scavenge copied, then promoted).
 * The `FileText`s themselves live for one build (`releaseFileTexts`): kept for the builder's life, one a file was
 * ~7 MB on XL for a UTF-8 verdict that nothing asks again of an unchanged file (its results are kept).
 */
export class FileText {
  readonly bytes: Uint8Array;
  /** Undefined until decoded once; false when the bytes are not UTF-8 (that verdict is kept: it is small). */
  #utf8: boolean | undefined;
  #held: WeakRef<{ readonly text: string }> | { readonly text: string } | undefined;
  readonly #holder: TextHold | undefined;

  constructor(bytes: Uint8Array, text?: string, hold?: TextHold) {
    this.bytes = bytes;
    this.#holder = hold;
    if (text !== undefined) this.#hold(text);
  }

  /** The text of the bytes when they are valid UTF-8 (a BOM is kept, so re-encoding gives the same bytes). */
  read(): string | undefined {
    if (this.#utf8 === false) return undefined;
    const held = this.#heldText();
    if (held !== undefined) return held;
    let text: string;
    try {
      text = strictDecoder.decode(this.bytes);
    } catch {
      this.#utf8 = false;
      return undefined;
    }
    this.#hold(text);
    return text;
  }

  /**
   * The same text, for a reader that comes once (a document's parse, a read, a search that indexes or answers):
   * the held text when a phase still holds it, else decoded anew and not held, so reading every file's text one
   * after another keeps one at a time alive (and lets each die young), not all of them until the job ends.
   * Undefined when the bytes are not UTF-8; the verdict is kept either way.
   */
  decode(): string | undefined {
    if (this.#utf8 === false) return undefined;
    const held = this.#heldText();
    if (held !== undefined) return held;
    try {
      const text = strictDecoder.decode(this.bytes);
      this.#utf8 = true;
      return text;
    } catch {
      this.#utf8 = false;
      return undefined;
    }
  }

  /** Whether the bytes are valid UTF-8: decoded (and not held) only when no read has said yet. */
  isUtf8(): boolean {
    return this.#utf8 ?? this.decode() !== undefined;
  }

  #hold(text: string): void {
    this.#utf8 = true;
    if (this.#holder === undefined) this.#held = new WeakRef({ text });
    else {
      this.#held = { text };
      this.#holder.texts.push(this);
    }
  }

  #heldText(): string | undefined {
    const held = this.#held;
    return held === undefined ? undefined : held instanceof WeakRef ? held.deref()?.text : held.text;
  }

  /** Lets go of the text held for `TextHold` (the verdict stays). */
  static release(text: FileText): void {
    text.#held = undefined;
  }
}

/** The texts a builder's `FileText`s hold, and the `FileText`s it made, until `releaseHeldTexts`. */
interface TextHold {
  readonly texts: FileText[];
  /** One per bytes: every phase reading a unit's file shares one. */
  readonly made: Map<Uint8Array, FileText>;
}

const HOLD = memoCell<TextHold>('content.hold');

function textHoldOf(memo: Memo): TextHold | undefined {
  let hold = memo.get(HOLD);
  if (hold === undefined) {
    memo.set(HOLD, { texts: [], made: new Map() });
    // `NO_MEMO` keeps nothing: its texts fall back to a `WeakRef`.
    hold = memo.get(HOLD);
  }
  return hold;
}

/**
 * Lets go of every text the builder's `FileText`s hold (read since the last release): the next read of one
 * decodes it again. The engine calls it once a unit's phases are done with its files' texts.
 */
export function releaseHeldTexts(memo: Memo): void {
  const hold = memo.get(HOLD);
  if (hold === undefined || hold.texts.length === 0) return;
  for (const text of hold.texts) FileText.release(text);
  hold.texts.length = 0;
}

/** Lets go of the held texts and of every `FileText` made: the engine calls it when a build ends. */
export function releaseFileTexts(memo: Memo): void {
  releaseHeldTexts(memo);
  memo.get(HOLD)?.made.clear();
}

/** The builder's `FileText` of `bytes` until `releaseFileTexts` (one per bytes: every phase shares its text). */
export function readFileText(bytes: Uint8Array, memo: Memo = NO_MEMO): FileText {
  const hold = textHoldOf(memo);
  if (hold === undefined) return new FileText(bytes);
  let text = hold.made.get(bytes);
  if (text === undefined) {
    text = new FileText(bytes, undefined, hold);
    hold.made.set(bytes, text);
  }
  return text;
}

/** The text of `bytes`, known to be valid UTF-8 (a BOM is kept, as `FileText` keeps it). */
export function decodeValidUtf8(bytes: Uint8Array): string {
  return strictDecoder.decode(bytes);
}

/**
 * The text of `bytes[from, to)`, which must be ASCII (there a byte is a character, and UTF-8 and Latin-1 read
 * the same): a few bytes of a file read without decoding all of it.
 */
export function decodeAscii(bytes: Uint8Array, from: number, to: number): string {
  return asciiDecoder.decode(bytes.subarray(from, to));
}

/** Whether `text`, the UTF-8 decoding of `bytes`, is ASCII: then each character is one byte, at the same offset. */
export function isAsciiText(text: string, bytes: Uint8Array): boolean {
  return text.length === bytes.byteLength;
}

/** The text of `bytes` when they are valid UTF-8 (a BOM is kept, so re-encoding gives the same bytes). */
export function decodeUtf8(bytes: Uint8Array, memo: Memo = NO_MEMO): string | undefined {
  return readFileText(bytes, memo).read();
}

/** UTF-8 bytes of `text`; `decodeUtf8` of them through `memo` reuses `text` while held, until `releaseFileTexts`. */
export function encodeUtf8(text: string, memo: Memo = NO_MEMO): Uint8Array {
  const bytes = encoder.encode(text);
  textHoldOf(memo)?.made.set(bytes, new FileText(bytes, text));
  return bytes;
}

/**
 * A copy of `text` that keeps no larger string alive. V8 answers a slice (of 13 characters or more) as a view
 * of its parent, so a title sliced from a document would hold the whole decoded document; what outlives a
 * parse is copied with this.
 *
 * The copy is one flat string: a concatenation, flattened by the regular expression that reads it (V8 copies
 * both halves into a new string and the collector then drops the concatenation cell). Slicing a longer string
 * (` ${text}`.slice(1)) would be a view again, of a new parent one character longer: 32 bytes of view on top
 * of every copy (~17 MB on XL's 100,000 documents), and slower.
 */
export function detachText(text: string): string {
  return text.length < 13 ? text : flatten(text[0] + text.slice(1));
}

/** `value` (parsed front matter, JSON-like) with every string copied: see `detachText`. */
export function detachValue(value: unknown): unknown {
  if (typeof value === 'string') return detachText(value);
  if (Array.isArray(value)) return value.map(detachValue);
  if (value === null || typeof value !== 'object') return value;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const out = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, detachValue(item)]));
  return prototype === null ? Object.assign(Object.create(null), out) : out;
}

/**
 * `text` as one flat string when it is a concatenation (V8 keeps `a + b` as a cell over both until something
 * reads it whole): a regular expression's `test` flattens its subject first, which is all it is here for.
 */
function flatten(text: string): string {
  FLATTEN.test(text);
  return text;
}

/** Matches nothing a caller needs. */
const FLATTEN = /^$/;

const MIME_TYPES: Record<string, string> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  toml: 'application/toml',
  xml: 'application/xml',
  html: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  js: 'text/javascript',
  mjs: 'text/javascript',
  cjs: 'text/javascript',
  ts: 'text/x-typescript',
  py: 'text/x-python',
  rb: 'text/x-ruby',
  sh: 'text/x-shellscript',
  bash: 'text/x-shellscript',
  sql: 'application/sql',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  zip: 'application/zip',
};

const TEXTUAL: ReadonlySet<string> = new Set([
  'application/json',
  'application/yaml',
  'application/toml',
  'application/xml',
  'application/sql',
  'image/svg+xml',
]);

/** The MIME type a file is served with, from its extension; unknown extensions are octet streams. */
export function buildMimeType(path: string): string {
  // Most files are Markdown: answered without slicing the name and its extension (a name that is only `.md` has
  // no extension, and falls through).
  if (path.endsWith('.md') && path.length > 3 && path.charCodeAt(path.length - 4) !== 0x2f)
    return 'text/markdown';
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return 'application/octet-stream';
  return MIME_TYPES[name.slice(dot + 1).toLowerCase()] ?? 'application/octet-stream';
}

/** Whether a file of this MIME type is served as text when its bytes are valid UTF-8. */
export function isTextual(mimeType: string): boolean {
  return mimeType.startsWith('text/') || TEXTUAL.has(mimeType);
}

/** The first millisecond of year 10000: up to it, an ISO 8601 time has a four-digit year. */
const YEAR_10000_MS = 253_402_300_800_000;
const MS_PER_DAY = 86_400_000;

/**
 * ISO 8601 of a modification time (`Date#toISOString`'s string), or undefined when unknown. Worked out by hand
 * for four-digit years, as one flat string: a third of `toISOString`'s cost, which every served file pays once
 * (100,000 on XL).
 */
export function formatTime(mtimeMs: number | undefined): string | undefined {
  if (mtimeMs === undefined || !Number.isFinite(mtimeMs) || mtimeMs <= 0) return undefined;
  const ms = Math.round(mtimeMs);
  if (ms >= YEAR_10000_MS) return new Date(ms).toISOString();
  // The civil date of a day count (H. Hinnant's days → civil algorithm, for days ≥ 0: eras of 400 years).
  const days = Math.floor(ms / MS_PER_DAY);
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const leapDays =
    Math.floor(dayOfEra / 1460) - Math.floor(dayOfEra / 36_524) + Math.floor(dayOfEra / 146_096);
  const yearOfEra = Math.floor((dayOfEra - leapDays) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  let rest = ms - days * MS_PER_DAY;
  const hour = Math.floor(rest / 3_600_000);
  rest -= hour * 3_600_000;
  const minute = Math.floor(rest / 60_000);
  rest -= minute * 60_000;
  const second = Math.floor(rest / 1000);
  const milli = rest - second * 1000;
  // biome-ignore format: the 24 characters in the rows of the string they spell
  return String.fromCharCode(
    digit(year, 1000), digit(year, 100), digit(year, 10), digit(year, 1), 0x2d,
    digit(month, 10), digit(month, 1), 0x2d, digit(day, 10), digit(day, 1), 0x54,
    digit(hour, 10), digit(hour, 1), 0x3a, digit(minute, 10), digit(minute, 1), 0x3a,
    digit(second, 10), digit(second, 1), 0x2e, digit(milli, 100), digit(milli, 10), digit(milli, 1), 0x5a,
  );
}

/** The char code of the decimal digit of `n` at `place` (1, 10, 100, 1000). */
function digit(n: number, place: number): number {
  return 0x30 + (Math.floor(n / place) % 10);
}
