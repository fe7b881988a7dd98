/**
 * Markdown that breaks: fences, fragments, link paths, line endings.
 */
import { describe, expect, it } from 'vitest';
import {
  buildAnchors,
  classifyLinkPath,
  findUnclosedFence,
  lintLineEndings,
  lintLinks,
  slugify,
} from '../../../src/core/lint/markdown-rules.js';
import { readLines } from '../../../src/core/markdown.js';
import { findLinks } from '../../../src/core/markdown-links.js';

const codesOf = (ds: readonly { code: string }[]) => ds.map((d) => d.code);

describe('findUnclosedFence', () => {
  it.each([
    ['text\n```js\ncode\n```\nmore', undefined],
    ['```\ncode', 1],
    ['a\n\n~~~\ncode\n```\n', 3],
    ['````\n```\nstill code\n````', undefined],
    ['```\n````', undefined],
    ['  ```\nx\n  ```', undefined],
    ['~~~\n~~', 1],
    ['```\n```\n```', 3],
  ])('%j → %s', (body, line) => {
    expect(findUnclosedFence(readLines(body))).toBe(line);
  });
});

describe('slugify and anchors', () => {
  it.each([
    ['Set up a host', 'set-up-a-host'],
    ['The `check` command', 'the-check-command'],
    ['What [links](https://x.y) do', 'what-links-do'],
    ['C# and .NET!', 'c-and-net'],
    ['Café crème', 'café-crème'],
    ['snake_case names', 'snake_case-names'],
    ['  spaced  out ', '--spaced--out-'],
  ])('%j → %s', (heading, slug) => {
    expect(slugify(heading)).toBe(slug);
  });

  it('numbers repeated headings, reads setext headings and explicit anchors, skips code', () => {
    const lines = readLines(
      '# Intro\n\n## Steps\n\n## Steps\n\nSetext\n======\n\n```\n# not a heading\n```\n\n<a name="custom"></a>\n## Tail {#tail-id}\n',
    );
    expect([...buildAnchors(lines)].sort()).toEqual(
      ['custom', 'intro', 'setext', 'steps', 'steps-1', 'tail-id', 'tail-tail-id'].sort(),
    );
  });
});

describe('classifyLinkPath', () => {
  it.each([
    ['references/a.md', undefined],
    ['../SKILL.md#x', undefined],
    ['https://example.com/a\\b', undefined],
    ['references\\a.md', 'backslash'],
    ['foo\\_bar.md', undefined],
    ['/home/me/a.md', 'absolute'],
    ['//cdn.example/x', undefined],
    ['file:///tmp/a.md', 'absolute'],
    ['C:\\Users\\me\\a.md', 'absolute'],
    ['~/notes.md', 'absolute'],
    ['mailto:a@b.c', undefined],
  ])('%j → %s', (target, kind) => {
    expect(classifyLinkPath(target)).toBe(kind);
  });
});

describe('lintLinks', () => {
  const body =
    '# Title\n\nSee [a](#title), [b](#Title), [c](#missing), [d](other.md#part), [e](#caf%C3%A9)\n\n## Café\n';
  const lines = readLines(body);
  const anchors = buildAnchors(lines);

  it('judges same-file fragments, case-insensitively and percent-decoded, and asks for others', () => {
    const asked: string[] = [];
    const found = lintLinks('f.md', findLinks(lines), (part) => {
      asked.push(part);
      return part === '' ? anchors : part === 'other.md' ? new Set(['part']) : undefined;
    });
    expect(found.map((d) => [d.code, d.line, d.column])).toEqual([['CMP504', 3, 35]]);
    expect(found[0]!.message).toContain('#missing');
    expect(asked).toContain('other.md');
  });

  it('reports backslashes and absolute paths once, with a corrected path in the hint', () => {
    const found = lintLinks('f.md', findLinks(readLines('[x](a\\b.md) [y](/etc/passwd)')), () => undefined);
    expect(codesOf(found)).toEqual(['CMP505', 'CMP506']);
    expect(found[0]!.hint).toContain('"a/b.md"');
  });
});

describe('lintLineEndings', () => {
  it('finds CRLF and trailing whitespace in front matter lines only', () => {
    const text = '--- \r\ndescription: x\t\r\nok: y\r\n---\r\nbody line   \r\n';
    const found = lintLineEndings('f.md', text, 4);
    expect(found.map((d) => [d.code, d.line, d.column])).toEqual([
      ['CMP507', 1, 1],
      ['CMP508', 1, 4],
      ['CMP508', 2, 15],
    ]);
  });

  it('is quiet on clean LF text', () => {
    expect(lintLineEndings('f.md', '---\na: b\n---\n# T\n', 3)).toEqual([]);
  });
});
