/**
 * A config file as bytes and as text at once, so edits are planned on text and applied to bytes. The text is
 * the UTF-8 decoding of the bytes (a leading BOM left out), with one U+FFFD per byte that is not part of a valid
 * sequence; every text position maps back to the byte it came from. An edit replaces one text range with new
 * text, and only the bytes of that range change: a Latin-1 comment, a stray invalid byte or a BOM elsewhere in
 * the file stay exactly as they were. Pure.
 */
import { createHash } from 'node:crypto';

export interface ConfigText {
  readonly bytes: Uint8Array;
  readonly text: string;
  /** The byte offset of text position `index` (0 ≤ index ≤ text.length). */
  byteOffset(index: number): number;
}

/** One replacement, in text positions: `text.slice(start, end)` becomes `insert`. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly insert: string;
}

const BOM = [0xef, 0xbb, 0xbf];

/** Decodes `bytes`, keeping the map from text positions to byte offsets. */
export function decodeConfig(bytes: Uint8Array): ConfigText {
  const start = BOM.every((b, i) => bytes[i] === b) ? 3 : 0;
  const units: number[] = [];
  const offsets: number[] = [];
  let i = start;
  while (i < bytes.length) {
    const length = readSequence(bytes, i);
    if (length === 0) {
      offsets.push(i);
      units.push(0xfffd);
      i++;
      continue;
    }
    const point = decodePoint(bytes, i, length);
    if (point > 0xffff) {
      const high = 0xd800 + ((point - 0x10000) >> 10);
      const low = 0xdc00 + ((point - 0x10000) & 0x3ff);
      offsets.push(i, i);
      units.push(high, low);
    } else {
      offsets.push(i);
      units.push(point);
    }
    i += length;
  }
  offsets.push(bytes.length);
  let text = '';
  for (let at = 0; at < units.length; at += 8192) {
    text += String.fromCharCode(...units.slice(at, at + 8192));
  }
  return { bytes, text, byteOffset: (index) => offsets[index]! };
}

/**
 * The length of the valid UTF-8 sequence at `i`, or 0 when the byte there starts none (a continuation byte, an
 * overlong form, a surrogate, a code point above U+10FFFF, a truncated sequence).
 */
function readSequence(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  const length = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
  if (length === 0 || i + length > bytes.length) return 0;
  const second = bytes[i + 1]!;
  const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
  const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
  if (second < low || second > high) return 0;
  for (let k = 2; k < length; k++) {
    const next = bytes[i + k]!;
    if (next < 0x80 || next > 0xbf) return 0;
  }
  return length;
}

function decodePoint(bytes: Uint8Array, i: number, length: number): number {
  const b = bytes[i]!;
  if (length === 1) return b;
  let point = b & (length === 2 ? 0x1f : length === 3 ? 0x0f : 0x07);
  for (let k = 1; k < length; k++) point = (point << 6) | (bytes[i + k]! & 0x3f);
  return point;
}

/**
 * Applies non-overlapping edits (in text positions of `config`) to its bytes and answers the new bytes. Every
 * byte outside the edited ranges is copied as it was.
 */
export function applyEdits(config: ConfigText, edits: readonly TextEdit[]): Uint8Array {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const edit of sorted) {
    const from = config.byteOffset(edit.start);
    const to = config.byteOffset(edit.end);
    if (from < at) throw new Error('overlapping config edits');
    parts.push(config.bytes.subarray(at, from), Buffer.from(edit.insert, 'utf8'));
    at = to;
  }
  parts.push(config.bytes.subarray(at));
  return new Uint8Array(Buffer.concat(parts));
}

/** `sha256:<hex>` of some bytes: how the record remembers what it wrote. */
export function digestBytes(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** JSON with object keys sorted at every level (big integers as text): equal values give equal strings. */
export function formatCanonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'bigint') return `${item}n`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    return Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

/** The line end a file uses (CRLF when it has any), for everything written into it. */
export function detectLineEnd(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}
