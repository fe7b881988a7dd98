/**
 * The front matter fast path answers exactly what the `yaml` path answers, for every input it accepts: the same
 * data (key order, types, -0 and NaN included), key positions, ambiguities, body and body line. Inputs are
 * generated inside the subset and just outside it (number-, boolean- and null-like plain scalars, colons,
 * hashes, quotes, escapes, spaces, unicode, comments, sequences, tabs, odd indentation, duplicates).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frontMatterInternals, parseFrontMatter } from '../../src/core/front-matter.js';
import { canonicalFrontMatter as canonical } from '../helpers/front-matter.js';

const stats = { total: 0, fast: 0 };

/** Asserts both paths agree on `text`; returns whether the fast path took it. */
function assertSame(text: string): boolean {
  const reference = canonical(frontMatterInternals.yaml(text));
  const fast = frontMatterInternals.fast(text);
  if (fast !== undefined) expect(canonical(fast)).toEqual(reference);
  expect(canonical(parseFrontMatter(text))).toEqual(reference);
  stats.total++;
  if (fast !== undefined) stats.fast++;
  return fast !== undefined;
}

const KEYS = [
  'name',
  'description',
  'whenToUse',
  'license',
  'compatibility',
  'metadata',
  'version',
  'owner',
  'companion-status',
  'a.b',
  '_x',
  'x_1',
  'constructor',
  'toString',
  'hasOwnProperty',
  'y',
  'on',
  'No',
  'true',
  'False',
  'null',
  'NULL',
  '__proto__',
  'x-',
];
const key = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...KEYS) },
  { weight: 6, arbitrary: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,10}$/) },
  { weight: 1, arbitrary: fc.constantFrom('1', '-a', 'a b', 'é', '.x', '"q"', "'q'", '~', 'a:b', '0x1') },
);

const CHARS = Array.from(
  'abcxyzABC019 :#\'"-.,[]{}!&*%@`|>?~\\/_+=()é中\u00a0\u3000😀\u0301ßİ' +
    '\t\r\u2028\u0085\ufeff\u0000\u007f\ud800\udc00',
);
const COMMON = Array.from('abcdefghij klmnop019-.,:/()');
const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: fc.constantFrom(...COMMON), maxLength: 24 }) },
  { weight: 3, arbitrary: fc.string({ unit: fc.constantFrom(...CHARS), maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  { weight: 4, arbitrary: fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ,.()/é中'"-]{0,30}$/) },
);
const scalarLike = fc.oneof(
  fc.integer().map(String),
  fc.double().map(String),
  fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String),
  fc.constantFrom(
    '0o17',
    '0o8',
    '0O17',
    '0x1F',
    '0x1f',
    '0X1F',
    '0xg',
    '0x',
    '0o',
    '1e3',
    '1E-3',
    '-1e+3',
    '1e',
    '.5',
    '5.',
    '.',
    '+',
    '-',
    '+12',
    '-0',
    '+0',
    '-0.0',
    '007',
    '0755',
    '08',
    '1_000',
    '1,000',
    '1:30',
    '-1:30:00.5',
    '190:20:30',
    '.inf',
    '-.Inf',
    '+.INF',
    '.nan',
    '.NaN',
    '.NAN',
    '-.nan',
    'NaN',
    'inf',
    'Infinity',
    '2024-01-15',
    '2024-1-5T10:00',
    '2024-01-15 10:00',
    '2024-01-15x',
    'yes',
    'Yes',
    'YES',
    'No',
    'n',
    'y',
    'ON',
    'off',
    'Off',
    'true',
    'True',
    'TRUE',
    'tRUE',
    'false',
    'FALSE',
    'null',
    'Null',
    'NULL',
    'nULL',
    '~',
    '~~',
    '12345678901234567890',
    '0.1000',
    '1.10',
  ),
);
const plainSource = fc.oneof({ weight: 3, arbitrary: text }, { weight: 2, arbitrary: scalarLike });

const DQ_PIECES = [
  '\\n',
  '\\t',
  '\\"',
  '\\\\',
  '\\/',
  '\\0',
  '\\a',
  '\\b',
  '\\e',
  '\\f',
  '\\r',
  '\\v',
  '\\N',
  '\\_',
  '\\L',
  '\\P',
  '\\ ',
  '\\x41',
  '\\xe9',
  '\\u00e9',
  '\\u2028',
  '\\ud83d',
  '\\ude00',
  '\\U0001F600',
  '\\U00110000',
  '\\x4',
  '\\xZZ',
  '\\uD83D\\uDE00',
  '\\q',
  '\\',
  '"',
  "'",
  ' ',
  '#',
  ': ',
];
const doubleQuoted = fc.oneof(
  text.map((s) => JSON.stringify(s)),
  fc
    .array(fc.oneof(text, fc.constantFrom(...DQ_PIECES)), { maxLength: 6 })
    .map((parts) => `"${parts.join('')}"`),
);
const singleQuoted = fc.oneof(
  text.map((s) => `'${s.replaceAll("'", "''")}'`),
  text.map((s) => `'${s}'`),
);
const trailing = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('', ' ', '   ') },
  { weight: 1, arbitrary: fc.constantFrom(' # note', '#x', ' x', '\t') },
);
const value = fc.oneof(
  { weight: 6, arbitrary: plainSource },
  { weight: 2, arbitrary: fc.tuple(plainSource, trailing).map(([v, t]) => v + t) },
  { weight: 4, arbitrary: fc.tuple(doubleQuoted, trailing).map(([q, t]) => q + t) },
  { weight: 3, arbitrary: fc.tuple(singleQuoted, trailing).map(([q, t]) => q + t) },
  { weight: 2, arbitrary: fc.constant('') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '|',
      '>-',
      '[a, b]',
      '{a: 1}',
      '&a x',
      '*a',
      '!!str 1',
      '!x y',
      '- a',
      '? x',
      'a: b',
    ),
  },
);
const separator = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(': ', ':  ') },
  { weight: 1, arbitrary: fc.constantFrom(':', ' : ', ':\t') },
);

interface Entry {
  readonly key: string;
  readonly sep: string;
  readonly value: string;
  readonly nested?: {
    readonly indent: number;
    readonly entries: readonly (readonly [string, string, string, number])[];
  };
}

const shift = fc.oneof(
  { weight: 12, arbitrary: fc.constant(0) },
  { weight: 1, arbitrary: fc.constantFrom(1, -1) },
);
const nestedEntry = fc.tuple(key, separator, value, shift);
const entry: fc.Arbitrary<Entry> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ key, sep: separator, value }) },
  {
    weight: 2,
    arbitrary: fc.record({
      key,
      sep: fc.constantFrom(':', ':', ':  '),
      value: fc.constant(''),
      nested: fc.record({
        indent: fc.integer({ min: 1, max: 4 }),
        entries: fc.array(nestedEntry, { minLength: 0, maxLength: 4 }),
      }),
    }),
  },
);
const extraLine = fc.constantFrom(
  '',
  '  ',
  '# comment',
  '  # indented comment',
  '- item',
  '  deeper: x',
  '\tkey: v',
  'key: |',
  '  block text',
  'list:',
  '  - a',
  'anchor: &a x',
  'alias: *a',
  '? x',
  '%YAML 1.2',
  '--- x',
  'description: again',
  '...x',
  ' ',
);

function render(
  entries: readonly Entry[],
  extras: readonly (readonly [number, string])[],
  eol: string,
): string {
  const lines: string[] = [];
  for (const e of entries) {
    lines.push(`${e.key}${e.sep}${e.value}`);
    if (e.nested) {
      for (const [k, sep, v, shift] of e.nested.entries) {
        lines.push(`${' '.repeat(Math.max(0, e.nested.indent + shift))}${k}${sep}${v}`);
      }
    }
  }
  for (const [at, line] of extras) lines.splice(at % (lines.length + 1), 0, line);
  return lines.join(eol);
}

const frontMatter = fc.tuple(
  fc.array(entry, { maxLength: 5 }),
  fc.oneof(
    { weight: 3, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.array(fc.tuple(fc.nat(), extraLine), { minLength: 1, maxLength: 2 }) },
  ),
  fc.constantFrom('\n', '\n', '\n', '\r\n'),
);
const document = fc
  .tuple(
    frontMatter,
    fc.constantFrom('---', '---', '---', '--- ', '---\t'),
    fc.constantFrom('---', '---', '---', '...', '--- '),
    fc.constantFrom('', '# Title\n\nBody text.\n', '# T\r\n', 'no newline'),
    fc.boolean(),
  )
  .map(([[entries, extras, eol], open, close, body, bom]) => {
    const fm = render(entries, extras, eol);
    return `${bom ? '\ufeff' : ''}${open}${eol}${fm}${fm === '' ? '' : eol}${close}${eol}${body}`;
  });

describe('front matter fast path', () => {
  it('answers as the yaml path does, in and near its subset', () => {
    stats.total = 0;
    stats.fast = 0;
    fc.assert(
      fc.property(document, (doc) => {
        assertSame(doc);
      }),
      { numRuns: 4000 },
    );
    // The property is not vacuous: a good share of the inputs took the fast path.
    expect(stats.fast / stats.total).toBeGreaterThan(0.25);
  });

  it('takes every front matter strictly inside the subset', () => {
    const simpleKey = fc
      .stringMatching(/^[a-z][a-zA-Z0-9-]{0,10}$/)
      .filter((k) => !/^(?:null|true|false)$/.test(k));
    const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ,.()/é-]{0,30}[A-Za-z0-9.)]$/);
    const simpleValue = fc.oneof(
      word.filter((w) => !/^(?:[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(w)),
      word.map((w) => JSON.stringify(w)),
      word.map((w) => `'${w.replaceAll("'", "''")}'`),
      fc.integer().map(String),
      fc.constantFrom('true', 'false', 'null', '~', '1.5', '0x10', '0o7', '.inf', '2024-01-01', 'yes'),
    );
    const flat = fc
      .tuple(
        fc.uniqueArray(fc.tuple(simpleKey, simpleValue), { selector: ([k]) => k, maxLength: 6 }),
        fc.option(
          fc.tuple(
            fc.integer({ min: 1, max: 4 }),
            fc.uniqueArray(fc.tuple(simpleKey, simpleValue), { selector: ([k]) => k, maxLength: 4 }),
          ),
        ),
      )
      .map(([top, nested]) => {
        const lines = top.map(([k, v]) => `${k}: ${v}`);
        if (nested && !top.some(([k]) => k === 'metadata')) {
          lines.push('metadata:', ...nested[1].map(([k, v]) => `${' '.repeat(nested[0])}${k}: ${v}`));
        }
        return `---\n${lines.join('\n')}\n---\n# Title\n`;
      });
    fc.assert(
      fc.property(flat, (doc) => {
        expect(assertSame(doc)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
