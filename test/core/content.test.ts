/**
 * One representation per file (#18.3): a file's text is a view of its bytes, decoded when asked; what a build
 * keeps of a document are offsets into that text, and its entry and served content read the text back exactly.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/core/catalog.js';
import {
  buildDigest,
  decodeUtf8,
  decodeValidUtf8,
  detachText,
  encodeUtf8,
  FileText,
  formatTime,
  packDigest,
  readFileText,
  releaseFileTexts,
  releaseHeldTexts,
  takePackedDigest,
  unpackDigest,
} from '../../src/core/content.js';
import { createMemo } from '../../src/core/memo.js';
import { buildSnapshot, readFixture } from '../helpers/snapshot.js';

const encoder = new TextEncoder();

describe('packed digests', () => {
  it('spell the digest they pack, whether packed from it, hashed packed or handed over in a memo', () => {
    for (const text of ['', 'a', '# Title\n\nBody — ünïcode\n', 'x'.repeat(10_000)]) {
      const bytes = encoder.encode(text);
      const digest = buildDigest(bytes);
      expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(packDigest(digest)).toHaveLength(32);
      expect(unpackDigest(packDigest(digest))).toBe(digest);
      expect(unpackDigest(takePackedDigest(bytes))).toBe(digest);
      const memo = createMemo();
      buildDigest(bytes, memo);
      expect(takePackedDigest(bytes, memo)).toBe(packDigest(digest));
    }
  });
});

describe('FileText', () => {
  it('reads, decodes and judges the same text, a BOM kept', () => {
    const bytes = encoder.encode('\uFEFF# Title\n\nBody — ünïcode\n');
    const text = new FileText(bytes);
    expect(text.isUtf8()).toBe(true);
    expect(text.decode()).toBe('\uFEFF# Title\n\nBody — ünïcode\n');
    expect(text.read()).toBe(text.decode());
  });

  it('answers undefined for bytes that are not UTF-8, every time', () => {
    const text = new FileText(new Uint8Array([0x23, 0x20, 0xff, 0xfe]));
    expect(text.isUtf8()).toBe(false);
    expect(text.read()).toBeUndefined();
    expect(text.decode()).toBeUndefined();
  });

  it('is one object per bytes in a memo, and what encodeUtf8 made reads back as its text', () => {
    const memo = createMemo();
    const bytes = encodeUtf8('made by a fix', memo);
    expect(readFileText(bytes, memo)).toBe(readFileText(bytes, memo));
    expect(decodeUtf8(bytes, memo)).toBe('made by a fix');
    expect(decodeUtf8(encoder.encode('no memo'))).toBe('no memo');
  });

  it('is shared through a build, its text let go after each unit, and made anew once the build ends', () => {
    const memo = createMemo();
    const bytes = encoder.encode('# A unit’s text\n');
    const broken = new Uint8Array([0x23, 0xff]);
    const first = readFileText(bytes, memo);
    expect(first.read()).toBe('# A unit’s text\n');
    expect(readFileText(bytes, memo)).toBe(first);
    expect(readFileText(broken, memo).isUtf8()).toBe(false);
    // After a unit: the same object (its verdict kept), the text decoded again.
    releaseHeldTexts(memo);
    expect(readFileText(bytes, memo)).toBe(first);
    expect(first.decode()).toBe('# A unit’s text\n');
    // After the build: none kept.
    releaseFileTexts(memo);
    const second = readFileText(bytes, memo);
    expect(second).not.toBe(first);
    expect(second.decode()).toBe(first.decode());
    // The verdict is the same when judged again.
    expect(readFileText(broken, memo).isUtf8()).toBe(false);
    expect(decodeValidUtf8(bytes)).toBe(second.decode());
  });

  it('detaches a slice into an equal string', () => {
    const whole = `${'a'.repeat(100)}the part that is kept${'b'.repeat(100)}`;
    const part = whole.slice(100, 121);
    expect(detachText(part)).toBe('the part that is kept');
    expect(detachText('short')).toBe('short');
  });
});

describe('a document entry read from its bytes', () => {
  const files = {
    ...readFixture('valid'),
    'knowledge/documents/any/ranges.md':
      '---\ndescription: Sections read back from ranges.\n---\n# Ranges\n\nLead text.\n\n## First\n\n  one\n\n## Second\n\n# Stray title\n\ntwo\n\n## Third\r\n\r\nthree\r\n',
  };
  const { catalog } = buildCatalog(buildSnapshot(files));
  const entry = catalog.documents.find((d) => d.id === 'any/ranges')!;

  it('answers the body after the front matter and every section, as plain data do', () => {
    expect(entry.body).toBe(
      '# Ranges\n\nLead text.\n\n## First\n\n  one\n\n## Second\n\n# Stray title\n\ntwo\n\n## Third\r\n\r\nthree\r\n',
    );
    expect(entry.sections).toEqual([
      { heading: '', body: 'Lead text.', line: 4 },
      { heading: 'First', body: 'one', line: 8 },
      { heading: 'Second', body: 'two', line: 12 },
      { heading: 'Third', body: 'three', line: 18 },
    ]);
    // Own enumerable values: a spread, JSON and a comparison see them.
    const plain = JSON.parse(JSON.stringify(entry));
    expect(plain.body).toBe(entry.body);
    expect({ ...entry }.sections).toEqual(entry.sections);
  });

  it('serves the same text its bytes decode to', () => {
    const content = catalog.contents.get(entry.uri)!;
    expect(content.text).toBe(new TextDecoder().decode(content.bytes));
    expect(Object.keys(content)).toContain('text');
  });
});

describe("a document's URI lines, kept as ranges into its bytes (ASCII) or as copies", () => {
  const line = (prefix: string) => `${prefix} fixture://guides/any/none/such here.`;
  const files = {
    ...readFixture('valid'),
    'knowledge/documents/any/ascii.md': `---\ndescription: ASCII.\n---\n# ASCII\n\n${line('See')}\n\n\`\`\`\n${line('Code')}\n\`\`\`\n`,
    'knowledge/documents/any/unicode.md': `---\ndescription: Not ASCII.\n---\n# Ünïcode\n\n${line('Sée — ')}\n`,
    'knowledge/documents/any/bom.md': `\uFEFF---\ndescription: A BOM.\n---\n# BOM\n\n${line('See')}\n`,
  };
  const { diagnostics } = buildCatalog(buildSnapshot(files));
  const found = (path: string) =>
    diagnostics
      .filter((d) => d.code === 'CMP502' && d.file === `knowledge/documents/any/${path}`)
      .map((d) => [d.line, d.column]);

  it('finds every URI at its line and column, fenced ones included', () => {
    const column = (prefix: string) => line(prefix).indexOf('fixture://') + 1;
    expect(found('ascii.md')).toEqual([
      [6, column('See')],
      [9, column('Code')],
    ]);
    expect(found('unicode.md')).toEqual([[6, column('Sée — ')]]);
    expect(found('bom.md')).toEqual([[6, column('See')]]);
  });
});

describe('formatTime and the digest, against their former definitions', () => {
  /** What formatTime was: `toISOString` of the rounded time, undefined for an unknown one. */
  const formerTime = (mtimeMs: number | undefined) =>
    mtimeMs === undefined || !Number.isFinite(mtimeMs) || mtimeMs <= 0
      ? undefined
      : new Date(Math.round(mtimeMs)).toISOString();
  const YEAR_10000 = Date.UTC(10000, 0, 1);

  it('formats every time as toISOString does', () => {
    const edges = [
      undefined,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      -1,
      0,
      0.4,
      0.5,
      1,
      999.5,
      Date.UTC(1972, 1, 29, 23, 59, 59, 999),
      Date.UTC(2000, 1, 29),
      Date.UTC(2000, 2, 1),
      Date.UTC(2100, 1, 28, 12),
      Date.UTC(2100, 2, 1),
      Date.UTC(2400, 1, 29),
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      YEAR_10000 - 0.6,
      YEAR_10000,
      YEAR_10000 + 1,
      8.64e15,
    ];
    for (const t of edges) expect(formatTime(t), String(t)).toBe(formerTime(t));
    fc.assert(
      fc.property(fc.double({ min: -1e3, max: 3e14, noNaN: true }), (t) => formatTime(t) === formerTime(t)),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: YEAR_10000 + 1e10 }), (t) => formatTime(t) === formerTime(t)),
      { numRuns: 20_000 },
    );
  });

  it('digests bytes as createHash does, views into a larger buffer included', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(16), (bytes, skip) => {
        const view = bytes.subarray(Math.min(skip, bytes.length));
        const former = `sha256:${createHash('sha256').update(view).digest('hex')}`;
        return buildDigest(view) === former;
      }),
      { numRuns: 2_000 },
    );
  });
});
