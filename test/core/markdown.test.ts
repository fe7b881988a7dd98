/**
 * Sections are slices of the body where the body allows it: the answer equals joining the section's lines,
 * for any mix of titles, headings, fences and line endings.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findSections, readLines, readSections, splitSections } from '../../src/core/markdown.js';

/** The plain definition: a section's body is its lines joined, titles left out. */
function joinedSections(body: string) {
  const out: { heading: string; body: string; line: number }[] = [];
  const lines = readLines(body);
  let heading = '';
  let start = lines[0]?.line ?? 1;
  let buffer: string[] = [];
  const flush = () => {
    const text = buffer.join('\n').trim();
    if (heading !== '' || text !== '') out.push({ heading, body: text, line: start });
  };
  for (const l of lines) {
    if (!l.fenced && /^# +/.test(l.text)) continue;
    const match = l.fenced ? null : /^## +(.+?)\s*#*\s*$/.exec(l.text);
    if (match) {
      flush();
      heading = match[1]!;
      start = l.line;
      buffer = [];
    } else buffer.push(l.text);
  }
  flush();
  return out;
}

describe('splitSections', () => {
  it('equals joining each section’s lines, titles in the middle and CRLF included', () => {
    const line = fc.constantFrom(
      '# Title',
      '## Heading',
      '## Other ##',
      '```',
      '~~~',
      'text',
      '',
      '  ',
      'a\r',
      '# Late',
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.constantFrom('\n', '\r\n'), (lines, eol) => {
        const body = lines.join(eol);
        expect(splitSections(body, readLines(body))).toEqual(joinedSections(body));
      }),
      { numRuns: 500 },
    );
  });

  it('drops a title in the middle of a section and keeps the text around it', () => {
    const body = '## A\none\n# T\ntwo\n## B\nthree';
    expect(splitSections(body, readLines(body))).toEqual([
      { heading: 'A', body: 'one\ntwo', line: 1 },
      { heading: 'B', body: 'three', line: 5 },
    ]);
  });
});

describe('keepSections', () => {
  it('keeps sections as one string of code units while every number fits in one, else as numbers', () => {
    const body = '# T\n\nIntro.\n\n## A\n\nOne.\n\n## B\n\nTwo.\n';
    for (const pad of [0, 0xffff - body.length, 0xffff, 70_000]) {
      const text = `${'x'.repeat(pad)}${body}`;
      const sections = findSections(body, readLines(body, 1), pad);
      expect(typeof sections).toBe(pad < 0xffff ? 'string' : 'object');
      expect(readSections(text, sections)).toEqual([
        { heading: '', line: 1, body: 'Intro.' },
        { heading: 'A', line: 5, body: 'One.' },
        { heading: 'B', line: 9, body: 'Two.' },
      ]);
    }
  });
});
