/**
 * Bytes to served content: the digest, the MIME type, and whether a read answers text or a blob. Memoized by
 * the identity of the bytes in the builder's memo, so a rebuild that reuses a file's `Uint8Array` never hashes
 * or decodes it twice.
 */
import { createHash } from 'node:crypto';
import { type Memo, memoTable, NO_MEMO } from './memo.js';

const DIGESTS = memoTable<Uint8Array, string>('content.digests');
const TEXTS = memoTable<Uint8Array, string | null>('content.texts');
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** `sha256:<64 lowercase hex>` of `bytes`. */
export function buildDigest(bytes: Uint8Array, memo: Memo = NO_MEMO): string {
  const digests = memo.table(DIGESTS);
  let digest = digests.get(bytes);
  if (digest === undefined) {
    digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    digests.set(bytes, digest);
  }
  return digest;
}

/** The text of `bytes` when they are valid UTF-8 (a BOM is kept, so re-encoding gives the same bytes). */
export function decodeUtf8(bytes: Uint8Array, memo: Memo = NO_MEMO): string | undefined {
  const texts = memo.table(TEXTS);
  let text = texts.get(bytes);
  if (text === undefined) {
    try {
      text = strictDecoder.decode(bytes);
    } catch {
      text = null;
    }
    texts.set(bytes, text);
  }
  return text ?? undefined;
}

/** UTF-8 bytes of `text`; `decodeUtf8` of the result answers `text` without decoding again. */
export function encodeUtf8(text: string, memo: Memo = NO_MEMO): Uint8Array {
  const bytes = encoder.encode(text);
  memo.table(TEXTS).set(bytes, text);
  return bytes;
}

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
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return 'application/octet-stream';
  return MIME_TYPES[name.slice(dot + 1).toLowerCase()] ?? 'application/octet-stream';
}

/** Whether a file of this MIME type is served as text when its bytes are valid UTF-8. */
export function isTextual(mimeType: string): boolean {
  return mimeType.startsWith('text/') || TEXTUAL.has(mimeType);
}

/** ISO 8601 of a modification time, or undefined when unknown. */
export function formatTime(mtimeMs: number | undefined): string | undefined {
  return mtimeMs === undefined || !Number.isFinite(mtimeMs) || mtimeMs <= 0
    ? undefined
    : new Date(Math.round(mtimeMs)).toISOString();
}
