/**
 * The Markdown scanners run in time linear in their input and answer what the patterns they replaced answered.
 *
 * - Oracles: on short random lines over the characters that matter, each scanner equals a plain definition
 *   (the regular expression it replaced, or a quadratic transcription of the CommonMark rule).
 * - Linearity: on pathological lines of 1 MB and 2 MB (`[](` repeated, backtick runs, `](` chains, unclosed
 *   brackets, deep nesting), a work meter counts the characters the scanners examine. The tests assert that the
 *   count stays within a small multiple of the input and doubles, not quadruples, when the input doubles. No
 *   time is measured; that every case also completes well inside vitest's timeout is the liveness half.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeAscii } from '../../src/core/content.js';
import {
  buildMarkdownFacts,
  findUnclosedFence,
  scanMarkdownFacts,
} from '../../src/core/lint/markdown-rules.js';
import {
  findSections,
  findTitles,
  type MarkdownLine,
  markdownInternals,
  readLines,
  readSections,
  selectLines,
  splitSections,
} from '../../src/core/markdown.js';
import { readKeptLines, scanBody } from '../../src/core/markdown-body.js';
import {
  findLinkMark,
  findLinks,
  findSchemeUris,
  holdsLinkMark,
  markdownLinkInternals,
  type ScanMeter,
} from '../../src/core/markdown-links.js';

const { readHeadingText } = markdownInternals;
const { maskCodeSpans, scanInlineLinks } = markdownLinkInternals;

/** The pattern the inline-link scanner replaced; `d` gives the destination's own offsets. */
const INLINE_LINK =
  /!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/dg;

function regexLinks(text: string): [number, number][] {
  return [...text.matchAll(INLINE_LINK)].map((m) => [m.indices![1]![0], m.indices![1]![1]]);
}

function scannedLinks(text: string, meter?: ScanMeter): [number, number][] {
  const out: [number, number][] = [];
  scanInlineLinks(text, (from, to) => out.push([from, to]), meter);
  return out;
}

/** CommonMark code spans within one line, by the letter of the rule: quadratic, obviously right. */
function oracleMask(text: string): string {
  const chars = [...text];
  const runs: { start: number; length: number }[] = [];
  for (let i = 0; i < text.length; ) {
    if (text[i] !== '`') {
      i++;
      continue;
    }
    let j = i;
    while (text[j] === '`') j++;
    runs.push({ start: i, length: j - i });
    i = j;
  }
  const masked = text.split('');
  for (let r = 0; r < runs.length; r++) {
    const open = runs[r]!;
    const close = runs.findIndex((c, k) => k > r && c.length === open.length);
    if (close === -1) continue;
    const end = runs[close]!.start + runs[close]!.length;
    for (let k = open.start; k < end; k++) masked[k] = ' ';
    r = close;
  }
  return chars.length === 0 ? text : masked.join('');
}

const line = (text: string): MarkdownLine[] => [{ text, line: 1, fenced: false }];

describe('inline links', () => {
  const unit = fc.constantFrom(...'[]()!<>"\' \\ax\t\u00a0\r'.split(''), '](', '[a](', '\\]', '`');
  it('equal the matches of the pattern they replaced, destination offsets included', () => {
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), (text) => {
        expect(scannedLinks(text)).toEqual(regexLinks(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('read targets and columns through findLinks, code spans masked', () => {
    const links = findLinks(line('See [a](a) and `[b](b)` then ![c](<c d> "t") [e](e#x).'));
    expect(links.map((l) => [l.target, l.column])).toEqual([
      ['a', 9],
      ['c d', 35],
      ['e#x', 50],
    ]);
  });
});

describe('code spans', () => {
  it('are masked as CommonMark closes them, runs of equal length only', () => {
    const unit = fc.constantFrom('`', '``', '```', 'a', ' ', '[', ']', '(', ')');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 30 }), (text) => {
        expect(maskCodeSpans(text)).toBe(oracleMask(text));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('headings', () => {
  it('read as /^#{n} +(.+?)\\s*#*\\s*$/ reads them', () => {
    const unit = fc.constantFrom('#', ' ', 'a', '\t', '\r', '\u00a0', '\u2028', 'b #');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 16 }), fc.constantFrom(1, 2), (text, level) => {
        const pattern = level === 1 ? /^# +(.+?)\s*#*\s*$/ : /^## +(.+?)\s*#*\s*$/;
        expect(readHeadingText(text, level)).toBe(pattern.exec(text)?.[1]);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('scheme URIs', () => {
  it('drop trailing punctuation and one trailing slash, as before', () => {
    const unit = fc.constantFrom('a', '.', ',', ';', ':', '!', '?', '/', 'x://');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 20 }), (tail) => {
        const text = `see x://${tail}`;
        const expected = [...text.matchAll(/(?<![A-Za-z0-9+.-])x:\/\/[A-Za-z0-9._~/%+-]*/g)]
          .filter((m) => !['{', '<'].includes(text[(m.index ?? 0) + m[0].length] ?? ''))
          .map((m) => m[0].replace(/[.,;:!?]+$/, '').replace(/\/$/, ''));
        expect(findSchemeUris(line(text), 'x').map((u) => u.uri)).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('scheme URIs anywhere in a line', () => {
  it('equal the matches of the pattern the scanner replaced, columns included', () => {
    const unit = fc.constantFrom(
      'x://',
      'ax://',
      '+x://',
      'a',
      'Z',
      '9',
      '.',
      '-',
      '_',
      '~',
      '%',
      '/',
      ' ',
      '{',
      '<',
      '\u00e9',
      ':',
    );
    const pattern = /(?<![A-Za-z0-9+.-])x:\/\/[A-Za-z0-9._~/%+-]*/g;
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 24 }), (text) => {
        const expected = [...text.matchAll(pattern)]
          .filter((m) => !['{', '<'].includes(text[(m.index ?? 0) + m[0].length] ?? ''))
          .map((m) => [m[0].replace(/[.,;:!?]+$/, '').replace(/\/$/, ''), (m.index ?? 0) + 1]);
        expect(findSchemeUris(line(text), 'x').map((u) => [u.uri, u.column])).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });
});

/** `scanBody(body, first, offset)` against the line-object definitions it replaced (`readLines` and the rest). */
function expectScanBodyAsDefined(body: string, first: number, offset: number): void {
  const lines = readLines(body, first);
  const scan = scanBody(body, first, offset);
  expect(scan.titles).toEqual(findTitles(lines));
  expect(scan.sections).toEqual(findSections(body, lines, offset));
  expect(scan.lastFenced).toBe(lines[lines.length - 1]!.fenced);
  expect(findUnclosedFence(scan.lines())).toBe(findUnclosedFence(lines));
  const marks = (text: string) => text.includes('](') || text.includes(']:');
  expect(scan.select((from) => findLinkMark(body, from), holdsLinkMark)).toEqual(
    lines.filter((l) => marks(l.text)),
  );
  expect(
    scan.select(
      (from) => body.indexOf('://', from),
      (text) => text.includes('://'),
    ),
  ).toEqual(lines.filter((l) => l.text.includes('://')));
  // Kept as ranges into the file's bytes (the body ends it, `offset` bytes in), read back the same: what a
  // parse keeps of an ASCII file (of another, its offsets into the text are not offsets into the bytes).
  const kept = scan.selectKept((from) => body.indexOf('://', from));
  if (body.includes('\r')) expect(kept).toBeUndefined();
  else if (/^[\x00-\x7f]*$/.test(body))
    expect(readKeptLines(new TextEncoder().encode(`${'-'.repeat(offset)}${body}`), kept!)).toEqual(
      lines.filter((l) => l.text.includes('://')),
    );
  // Sections read back from their ranges are the sections a split gives.
  expect(readSections(`${'-'.repeat(offset)}${body}`, scan.sections)).toEqual(splitSections(body, lines));
}

describe('kept lines read back from bytes', () => {
  it('equal decodeAscii of each range, for a view anywhere inside a larger buffer', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 200 }).map((b) => b.map((x) => x & 0x7f)),
        fc.nat(16),
        fc.array(fc.tuple(fc.integer({ min: -9, max: 9 }), fc.nat(), fc.nat()), { maxLength: 8 }),
        (ascii, pad, ranges) => {
          // The file's bytes as a view at `pad` into a larger buffer, as a slab holds them.
          const buffer = new Uint8Array(pad + ascii.length + 7).fill(0xe9);
          buffer.set(ascii, pad);
          const bytes = buffer.subarray(pad, pad + ascii.length);
          const kept = ranges.flatMap(([line, a, b]) => {
            const from = a % (ascii.length + 1);
            const to = from + (b % (ascii.length - from + 1));
            return [line === 0 ? 1 : line, from, to];
          });
          const expected = [];
          for (let i = 0; i < kept.length; i += 3) {
            expected.push({
              text: decodeAscii(bytes, kept[i + 1]!, kept[i + 2]!),
              line: Math.abs(kept[i]!),
              fenced: kept[i]! < 0,
            });
          }
          expect(readKeptLines(bytes, kept)).toEqual(expected);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

/** `readLines` as it was written before its one-pass form: split, a regex replace and the fence pattern per line. */
function oracleLines(body: string, firstLine = 1): MarkdownLine[] {
  const FENCE = /^ {0,3}(`{3,}|~{3,})/;
  const out: MarkdownLine[] = [];
  let fence: string | undefined;
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const text = (lines[i] ?? '').replace(/\r$/, '');
    const match = FENCE.exec(text);
    if (fence === undefined && match) {
      fence = match[1]!;
      out.push({ text, line: firstLine + i, fenced: true });
      continue;
    }
    if (fence !== undefined) {
      if (match && match[1]![0] === fence[0] && match[1]!.length >= fence.length && text.trim() === match[1])
        fence = undefined;
      out.push({ text, line: firstLine + i, fenced: true });
      continue;
    }
    out.push({ text, line: firstLine + i, fenced: false });
  }
  return out;
}

/** Sections by the letter of the rule: each body the lines after its heading, `# ` lines dropped, joined, trimmed. */
function oracleSections(body: string): { heading: string; body: string }[] {
  const out: { heading: string; body: string }[] = [];
  let heading = '';
  let buffer: string[] = [];
  const flush = () => {
    const text = buffer.join('\n').trim();
    if (heading !== '' || text !== '') out.push({ heading, body: text });
  };
  for (const l of oracleLines(body)) {
    if (!l.fenced && /^# +/.test(l.text)) continue;
    const match = l.fenced ? undefined : /^## +(.+?)\s*#*\s*$/.exec(l.text)?.[1];
    if (match !== undefined) {
      flush();
      heading = match;
      buffer = [];
    } else buffer.push(l.text);
  }
  flush();
  return out;
}

describe('lines and sections', () => {
  const unit = fc.constantFrom(
    '\n',
    '\r',
    '\r\n',
    ' ',
    '   ',
    '```',
    '~~~',
    '`',
    '~',
    '# ',
    '## ',
    '#',
    'a',
    'b c',
  );
  it('readLines equals the split-and-replace definition, fences included', () => {
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), fc.integer({ min: 1, max: 5 }), (body, first) => {
        expect(readLines(body, first)).toEqual(oracleLines(body, first));
      }),
      { numRuns: 5000 },
    );
  });

  it('selectLines picks the lines a per-line test picks, from hits in the body', () => {
    const marks = fc.constantFrom('\n', '\r\n', '\r', ' ', 'a', ']', '](', ']:', '(', ':', '://', '/', '```');
    fc.assert(
      fc.property(fc.string({ unit: marks, maxLength: 40 }), (body) => {
        const lines = readLines(body, 3);
        expect(selectLines(body, lines, (from) => findLinkMark(body, from), holdsLinkMark)).toEqual(
          lines.filter((l) => l.text.includes('](') || l.text.includes(']:')),
        );
        expect(
          selectLines(
            body,
            lines,
            (from) => body.indexOf('://', from),
            (text) => text.includes('://'),
          ),
        ).toEqual(lines.filter((l) => l.text.includes('://')));
        expect(buildMarkdownFacts(body, lines).linkLines).toEqual(
          lines.filter((l) => l.text.includes('](') || l.text.includes(']:') || l.text.includes('://')),
        );
      }),
      { numRuns: 5000 },
    );
  });

  /** The pieces of a line the line scanners tell apart: breaks, indents, fence runs, link and URI marks. */
  const LINE_UNITS = ['\n', '\r\n', ' ', '   ', '```', '~~~', '`', 'a', ']', '](', ']:', '://'];

  it('scanMarkdownFacts answers what buildMarkdownFacts answers over readLines', () => {
    // Four spaces (no fence) and a longer fence run, which a shorter one cannot close.
    const units = fc.constantFrom(...LINE_UNITS, '    ', '````');
    fc.assert(
      fc.property(fc.string({ unit: units, maxLength: 48 }), (text) => {
        const facts = scanMarkdownFacts(text);
        expect(facts).toEqual(buildMarkdownFacts(text, readLines(text)));
        expect('unclosedFence' in facts).toBe(findUnclosedFence(readLines(text)) !== undefined);
      }),
      { numRuns: 5000 },
    );
  });

  it('scanBody answers what readLines, findTitles, findSections and selectLines answer', () => {
    const units = fc.constantFrom(...LINE_UNITS, '# ', '## ', '#');
    fc.assert(
      fc.property(
        fc.string({ unit: units, maxLength: 48 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 9 }),
        expectScanBodyAsDefined,
      ),
      { numRuns: 5000 },
    );
  });

  it('scanBody answers the same over headings of every level, tabs, a BOM, non-ASCII text and long bodies', () => {
    // What a line starts with picks its branch (a fence, a `# ` title, a `##` heading, neither): every start.
    const units = fc.constantFrom(
      ...LINE_UNITS,
      '# ',
      '## ',
      '### ',
      '#',
      '##',
      '#a',
      ' #',
      '\t',
      '\t```',
      '  ~~~',
      '    ```',
      '````',
      '\ufeff',
      '\u00e9',
      '\u{1f600}',
      '\u00a0',
      '\r',
      'b #',
    );
    fc.assert(
      fc.property(
        fc.string({ unit: units, maxLength: 160 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 9 }),
        expectScanBodyAsDefined,
      ),
      { numRuns: 5000 },
    );
  });

  it('splitSections equals sections by the letter of the rule, slices or copies', () => {
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), (body) => {
        expect(
          splitSections(body, readLines(body)).map((s) => ({ heading: s.heading, body: s.body })),
        ).toEqual(oracleSections(body));
      }),
      { numRuns: 5000 },
    );
  });
});

/** Pathological lines of about `size` characters, each with the number of links it holds. */
function pathological(size: number): { name: string; text: string; links: number }[] {
  const repeat = (unit: string) => unit.repeat(Math.ceil(size / unit.length));
  const runs = (() => {
    // Backtick runs of every length 1, 2, 3, …: no two alike, so nothing closes.
    let out = '';
    for (let k = 1; out.length < size; k++) out += `${'`'.repeat(k)}a`;
    return out;
  })();
  return [
    { name: '[]( repeated', text: repeat('[]('), links: 0 },
    { name: '[](x) repeated', text: repeat('[](x)'), links: Math.ceil(size / 5) },
    { name: '[a](< repeated', text: repeat('[a](<'), links: 0 },
    { name: '[](x " repeated', text: repeat('[](x "'), links: 0 },
    { name: ']( chain', text: repeat(']('), links: 0 },
    { name: 'unclosed brackets', text: repeat('['), links: 0 },
    { name: 'deep nesting', text: `${'['.repeat(size / 2)}](x)${']'.repeat(size / 2)}`, links: 1 },
    { name: 'nested parentheses', text: `[a](${'('.repeat(size)}`, links: 0 },
    { name: 'backslashes', text: `[${'\\'.repeat(size)}](x)`, links: 1 },
    { name: 'one backtick run', text: repeat('`'), links: 0 },
    { name: 'backtick runs of growing length', text: `${runs}[a](b)`, links: 1 },
    { name: 'spaces before a title', text: `[a](b${' '.repeat(size)}"t"`, links: 0 },
  ];
}

describe('on pathological lines of 1 MB and 2 MB', () => {
  const MB = 1 << 20;
  const small = pathological(MB);
  const large = pathological(2 * MB);

  it.each(small.map((c, i) => [c.name, i] as const))('%s: linear work, the right answer', (_, i) => {
    const work = (text: string) => {
      const meter: ScanMeter = { steps: 0 };
      const found = scannedLinks(maskCodeSpans(text, meter), meter);
      return { found, steps: meter.steps };
    };
    const one = work(small[i]!.text);
    const two = work(large[i]!.text);
    expect(one.found).toHaveLength(small[i]!.links);
    expect(two.found).toHaveLength(large[i]!.links);
    expect(one.steps).toBeLessThanOrEqual(8 * small[i]!.text.length);
    expect(two.steps).toBeLessThanOrEqual(2.2 * one.steps + 16);
    // The public entry point answers the same.
    expect(findLinks(line(small[i]!.text))).toHaveLength(small[i]!.links);
  });

  it('headings, fences and sections read a 1 MB line once', () => {
    const text = `# a${' '.repeat(MB)}b`;
    expect(findTitles(line(text))).toEqual([{ text: text.slice(2), line: 1 }]);
    const body = `## h${' \t'.repeat(MB / 2)}x\n${'`'.repeat(MB)}\n${'~'.repeat(MB)}`;
    expect(splitSections(body, readLines(body)).map((s) => s.heading)).toEqual([
      body.split('\n')[0]!.slice(3),
    ]);
  });

  it('scheme URIs on a 1 MB line of dots and of repeated schemes', () => {
    const dots = `x://a${'.'.repeat(MB)}`;
    expect(findSchemeUris(line(dots), 'x').map((u) => u.uri)).toEqual(['x://a']);
    const repeated = 'x://'.repeat(MB / 4);
    const expected = [...repeated.matchAll(/(?<![A-Za-z0-9+.-])x:\/\/[A-Za-z0-9._~/%+-]*/g)].length;
    expect(findSchemeUris(line(repeated), 'x')).toHaveLength(expected);
  });
});
