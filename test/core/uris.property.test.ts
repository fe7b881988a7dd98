/**
 * The path and MIME-type judgements every file of a build passes through, against their former definitions.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { buildMimeType } from '../../src/core/content.js';
import { isSafePath, isSafeSegment } from '../../src/core/uris.js';

/** Paths from characters that matter to both: safe ones, the separator, dots, and some that are not safe. */
const pathArb = fc.oneof(
  fc.string({
    unit: fc.constantFrom('a', 'Z', '0', '_', '-', '.', '/', ' ', '%', 'ü', '~', '\\'),
    maxLength: 24,
  }),
  fc.tuple(fc.nat(140), fc.nat(3)).map(([n, k]) => `${'a/'.repeat(k)}${'x'.repeat(n)}.md`),
  fc.constantFrom('', '/', 'a//b', '.a', 'a/.b', 'a/b.', 'team/guide.md', '.md', 'a/.md', 'x.MD', 'a.md/'),
);

describe('isSafePath', () => {
  it('judges every path as splitting it into segments did', () => {
    const former = (path: string) => path.length > 0 && path.split('/').every(isSafeSegment);
    fc.assert(
      fc.property(pathArb, (path) => isSafePath(path) === former(path)),
      { numRuns: 20_000 },
    );
  });
});

describe('buildMimeType', () => {
  it('answers for every path what the extension table did', () => {
    // The entries of the module's table the generated extensions can reach (the others fall back alike).
    const MIME_TYPES: Record<string, string> = {
      md: 'text/markdown',
      markdown: 'text/markdown',
      txt: 'text/plain',
      json: 'application/json',
      png: 'image/png',
    };
    const former = (path: string) => {
      const name = path.slice(path.lastIndexOf('/') + 1);
      const dot = name.lastIndexOf('.');
      if (dot <= 0) return 'application/octet-stream';
      return MIME_TYPES[name.slice(dot + 1).toLowerCase()] ?? 'application/octet-stream';
    };
    const mimeArb = fc.oneof(
      pathArb,
      fc
        .tuple(
          pathArb,
          fc.constantFrom('.md', '.MD', '.Md', '.markdown', '.txt', '.json', '.png', '.bin', ''),
        )
        .map(([p, e]) => `${p}${e}`),
    );
    fc.assert(
      fc.property(mimeArb, (path) => buildMimeType(path) === former(path)),
      { numRuns: 20_000 },
    );
  });
});
