/**
 * Opaque pagination cursors: base64url of `{k, o, g}` — the list kind, the offset of the next entry and the
 * generation that issued it.
 *
 * A cursor from an older generation stays valid and means "continue at offset `o` of the current list"
 * (restart-safe). Why not refuse it: when the rebuild changed nothing a host lists, the list and its order are
 * identical, so the offset is exact; when it did change something, the host also receives
 * `notifications/resources/list_changed` and re-lists anyway. Refusing would turn every edit made while a host
 * pages into a failed walk. A cursor that does not decode, names another list, or names a generation that was
 * never issued is `-32602`.
 */
import { invalidParams } from './errors.js';

/** Which list a cursor walks, so a `resources/list` cursor is refused by `skills/list`. */
export type CursorKind = 'resources' | 'skills';

const KIND_TAG: Record<CursorKind, string> = { resources: 'r', skills: 's' };

export function encodeCursor(kind: CursorKind, offset: number, generation: number): string {
  return Buffer.from(JSON.stringify({ k: KIND_TAG[kind], o: offset, g: generation }), 'utf8').toString(
    'base64url',
  );
}

/** The offset a cursor points at; throws `-32602` for anything this server did not issue. */
export function decodeCursor(cursor: unknown, kind: CursorKind, currentGeneration: number): number {
  if (
    typeof cursor !== 'string' ||
    cursor.length === 0 ||
    cursor.length > 200 ||
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
  const { k, o, g } = decoded as Record<string, unknown>;
  const valid =
    k === KIND_TAG[kind] &&
    Number.isSafeInteger(o) &&
    (o as number) > 0 &&
    Number.isSafeInteger(g) &&
    (g as number) >= 1 &&
    (g as number) <= currentGeneration;
  if (!valid) throw invalidParams('Invalid cursor', { cursor });
  return o as number;
}

/** One page of `items` from `offset`, with the cursor of the next page when there is one. */
export function paginate<T>(
  items: readonly T[],
  offset: number,
  pageSize: number,
  next: (offset: number) => string,
): { page: readonly T[]; nextCursor?: string } {
  const end = offset + pageSize;
  const page = items.slice(offset, end);
  return end < items.length ? { page, nextCursor: next(end) } : { page };
}
