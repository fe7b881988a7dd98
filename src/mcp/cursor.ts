/**
 * Opaque pagination cursors: base64url of `{k, o, a}` — the list kind, the offset of the next entry, and the
 * anchor: the URI of the last entry the previous page returned.
 *
 * A cursor names a place in the content, never in a process: it holds no generation number, session or secret,
 * so a cursor one replica issued works on every replica serving the same checkout (`serve --http` behind a load
 * balancer), and on this process after any number of rebuilds. Decoding it: when the entry before offset `o` is
 * still the anchor, the walk continues exactly at `o`. When the list changed under the walk (a save added or
 * removed an entry before it), the walk continues after the anchor wherever it now is, so nothing is skipped or
 * repeated; when the anchor itself is gone, at offset `o`. Refusing would turn every edit made while a host pages
 * into a failed walk, and the host also receives `notifications/resources/list_changed` and re-lists. A cursor
 * that does not decode, or names another list, is `-32602`.
 */
import { invalidParams } from './errors.js';
import { MAX_SUBSCRIPTION_URI_LENGTH } from './limits.js';

/** Which list a cursor walks, so a `resources/list` cursor is refused by `skills/list`. */
export type CursorKind = 'resources' | 'skills';

const KIND_TAG: Record<CursorKind, string> = { resources: 'r', skills: 's' };
/** base64url of the JSON around the longest anchor a served URI can be. */
const MAX_CURSOR_LENGTH = Math.ceil(((MAX_SUBSCRIPTION_URI_LENGTH * 6 + 100) * 4) / 3);

/** The cursor of the page that starts at `offset` of `items` (`offset` ≥ 1). */
export function encodeCursor(
  kind: CursorKind,
  items: readonly { readonly uri: string }[],
  offset: number,
): string {
  const anchor = items[offset - 1]!.uri;
  return Buffer.from(JSON.stringify({ k: KIND_TAG[kind], o: offset, a: anchor }), 'utf8').toString(
    'base64url',
  );
}

/** The offset a cursor points at in `items`; throws `-32602` for anything that is not a cursor of this list. */
export function decodeCursor(
  cursor: unknown,
  kind: CursorKind,
  items: readonly { readonly uri: string }[],
): number {
  if (
    typeof cursor !== 'string' ||
    cursor.length === 0 ||
    cursor.length > MAX_CURSOR_LENGTH ||
    !/^[A-Za-z0-9_-]+$/.test(cursor)
  ) {
    throw invalidParams('Invalid cursor', { cursor });
  }
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidParams('Invalid cursor', { cursor });
  }
  if (decoded === null || typeof decoded !== 'object') throw invalidParams('Invalid cursor', { cursor });
  const { k, o, a } = decoded as Record<string, unknown>;
  if (
    k !== KIND_TAG[kind] ||
    !Number.isSafeInteger(o) ||
    (o as number) <= 0 ||
    typeof a !== 'string' ||
    a.length === 0
  ) {
    throw invalidParams('Invalid cursor', { cursor });
  }
  const offset = o as number;
  if (items[offset - 1]?.uri === a) return offset;
  const moved = items.findIndex((item) => item.uri === a);
  return moved === -1 ? offset : moved + 1;
}

/** One page of `items` from `offset`, with the cursor of the next page when there is one. */
export function paginate<T extends { readonly uri: string }>(
  kind: CursorKind,
  items: readonly T[],
  offset: number,
  pageSize: number,
): { page: readonly T[]; nextCursor?: string } {
  const end = offset + pageSize;
  const page = items.slice(offset, end);
  return end < items.length ? { page, nextCursor: encodeCursor(kind, items, end) } : { page };
}
