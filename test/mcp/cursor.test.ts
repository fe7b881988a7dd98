import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, paginate } from '../../src/mcp/cursor.js';

describe('cursors', () => {
  it('round-trip an offset for their own list and any generation issued so far', () => {
    const cursor = encodeCursor('resources', 50, 3);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, 'resources', 3)).toBe(50);
    expect(decodeCursor(cursor, 'resources', 9)).toBe(50);
  });

  it('refuse with -32602 what this server did not issue', () => {
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const [cursor, generation] of [
      [encodeCursor('skills', 2, 1), 1],
      [encodeCursor('resources', 2, 5), 4],
      [forged({ k: 'r', o: 0, g: 1 }), 1],
      [forged({ k: 'r', o: '2', g: 1 }), 1],
      [forged(null), 1],
      ['***', 1],
      ['', 1],
      [12, 1],
      ['A'.repeat(500), 1],
    ] as const) {
      let code: unknown;
      try {
        decodeCursor(cursor, 'resources', generation);
      } catch (error) {
        code = (error as { code?: unknown }).code;
      }
      expect(code, String(cursor)).toBe(-32602);
    }
  });

  it('paginate pages in order and stops with the last page', () => {
    const items = ['a', 'b', 'c', 'd', 'e'];
    const next = (offset: number) => `at-${offset}`;
    expect(paginate(items, 0, 2, next)).toEqual({ page: ['a', 'b'], nextCursor: 'at-2' });
    expect(paginate(items, 4, 2, next)).toEqual({ page: ['e'] });
    expect(paginate(items, 3, 2, next)).toEqual({ page: ['d', 'e'] });
    expect(paginate(items, 9, 2, next)).toEqual({ page: [] });
  });
});
