import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, paginate } from '../../src/mcp/cursor.js';

const items = (...names: string[]) => names.map((name) => ({ uri: `test://${name}` }));
const LIST = items('a', 'b', 'c', 'd', 'e');

function codeOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return (error as { code?: unknown }).code;
  }
  return undefined;
}

describe('cursors', () => {
  it('round-trip an offset for their own list', () => {
    const cursor = encodeCursor('resources', LIST, 2);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, 'resources', LIST)).toBe(2);
  });

  it('hold nothing but the content: the same list gives the same cursor in any process, at any time', () => {
    expect(encodeCursor('resources', items('a', 'b', 'c', 'd', 'e'), 2)).toBe(
      encodeCursor('resources', LIST, 2),
    );
    // The same place of a different list is a different cursor.
    expect(encodeCursor('resources', items('a', 'x', 'c'), 2)).not.toBe(encodeCursor('resources', LIST, 2));
  });

  it('continue after the anchor when the list changed under the walk, or at the offset when it is gone', () => {
    const cursor = encodeCursor('resources', LIST, 2); // the next page starts after b
    expect(decodeCursor(cursor, 'resources', items('0', 'a', 'b', 'c', 'd'))).toBe(3);
    expect(decodeCursor(cursor, 'resources', items('b', 'c', 'd'))).toBe(1);
    expect(decodeCursor(cursor, 'resources', items('a', 'c', 'd', 'e'))).toBe(2);
    expect(decodeCursor(cursor, 'resources', items('a'))).toBe(2);
  });

  it('refuse with -32602 what is not a cursor of this list', () => {
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const cursor of [
      encodeCursor('skills', LIST, 2),
      forged({ k: 'r', o: 0, a: 'test://a' }),
      forged({ k: 'r', o: '2', a: 'test://b' }),
      forged({ k: 'r', o: 2 }),
      forged({ k: 'r', o: 2, a: '' }),
      forged({ k: 'r', o: 2, g: 1 }),
      forged(null),
      '***',
      '',
      12,
      'A'.repeat(100_000),
    ]) {
      expect(
        codeOf(() => decodeCursor(cursor, 'resources', LIST)),
        String(cursor).slice(0, 40),
      ).toBe(-32602);
    }
  });

  it('paginate pages in order and stops with the last page', () => {
    const names = (page: readonly { uri: string }[]) => page.map((item) => item.uri.slice('test://'.length));
    const first = paginate('resources', LIST, 0, 2);
    expect(names(first.page)).toEqual(['a', 'b']);
    expect(decodeCursor(first.nextCursor, 'resources', LIST)).toBe(2);
    expect(paginate('resources', LIST, 4, 2)).toEqual({ page: [LIST[4]] });
    expect(names(paginate('resources', LIST, 3, 2).page)).toEqual(['d', 'e']);
    expect(paginate('resources', LIST, 3, 2).nextCursor).toBeUndefined();
    expect(paginate('resources', LIST, 9, 2)).toEqual({ page: [] });
  });
});
