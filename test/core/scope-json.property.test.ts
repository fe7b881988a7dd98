/**
 * The scope file's strict-JSON path answers what jsonc-parser's tree answers: the same values (objects without a
 * prototype, `__proto__` an own key, the last of duplicate keys), and it declines what `JSON.parse` refuses, so
 * the tree reports the syntax error as before.
 */
import fc from 'fast-check';
import { getNodeValue, type ParseError, parseTree } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { scopeInternals } from '../../src/core/scope.js';

const { parseStrictJson } = scopeInternals;
const OPTIONS = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

function treeValue(text: string): { errors: number; value: unknown } {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, OPTIONS);
  return { errors: errors.length, value: tree === undefined ? undefined : getNodeValue(tree) };
}

describe('parseStrictJson', () => {
  it('equals getNodeValue(parseTree(text)) on JSON texts, prototypes included', () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 4 }), (text) => {
        const strict = parseStrictJson(text);
        const tree = treeValue(text);
        expect(strict).toBeDefined();
        expect(tree.errors).toBe(0);
        expect(strict!.value).toStrictEqual(tree.value);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads keys jsonc-parser reads specially the same way', () => {
    for (const text of [
      '{"__proto__": {"a": 1}, "b": [{"__proto__": 2}]}',
      '{"a": 1, "b": 2, "a": 3}',
      '{"1": 0, "a": 1, "0": 2}',
    ]) {
      const strict = parseStrictJson(text)!.value as Record<string, unknown>;
      expect(strict).toStrictEqual(treeValue(text).value);
      expect(Object.keys(strict)).toEqual(Object.keys(treeValue(text).value as object));
      expect(Object.getPrototypeOf(strict)).toBe(null);
    }
  });

  it('declines whatever JSON.parse refuses, and jsonc-parser reports those with these options', () => {
    const unit = fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      '"a"',
      '1',
      ' ',
      '/* c */',
      '\u00a0',
      '\ufeff',
      'tru',
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 12 }), (text) => {
        const strict = parseStrictJson(text);
        const tree = treeValue(text);
        if (strict !== undefined) {
          expect(tree.errors).toBe(0);
          expect(strict.value).toStrictEqual(tree.value);
        }
      }),
      { numRuns: 5000 },
    );
  });
});
