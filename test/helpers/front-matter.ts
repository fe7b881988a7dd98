/**
 * A comparable picture of a `parseFrontMatter` result for the front matter tests: it also captures key order,
 * number identity (-0, NaN) and prototypes, which `toEqual` alone would not tell apart.
 */
import type { FrontMatter } from '../../src/core/front-matter.js';

export function canonicalFrontMatter(fm: FrontMatter | undefined): unknown {
  if (fm === undefined || fm.kind !== 'ok') return fm;
  return {
    ...fm,
    data: shape(fm.data),
    keys: [...fm.keys],
    ambiguities: fm.ambiguities.map((a) => ({ ...a })),
  };
}

function shape(value: unknown): unknown {
  if (typeof value === 'number') return { number: Object.is(value, -0) ? '-0' : String(value) };
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return { array: value.map(shape) };
  return {
    plainObject: Object.getPrototypeOf(value) === Object.prototype,
    entries: Object.entries(value).map(([k, v]) => [k, shape(v)]),
  };
}
