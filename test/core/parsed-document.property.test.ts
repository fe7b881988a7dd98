/**
 * A parsed document keeps its title, description and when-to-use as ranges into its file's bytes where it can:
 * against the former definition (the strings themselves, as plain data), for texts that are and are not spelled
 * verbatim in the file, ASCII or not (a file that is not ASCII keeps copies, as every file did); and packed, cloned as a thread does, and unpacked over a copy of the bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packDocumentRead, readDocument, unpackDocumentRead } from '../../src/core/documents.js';
import { buildParsedDocument } from '../../src/core/parsed-document.js';

const encoder = new TextEncoder();
const wordArb = fc.string({
  unit: fc.constantFrom('a', 'B', ' ', '.', '"', '\\', 'é', '中', ':', '#'),
  maxLength: 12,
});

/** The plain object a parse made before: the same keys, in the same order, every value a string of its own. */
function former(
  head: object,
  title: string,
  description: string,
  whenToUse: string | undefined,
  tail: object,
) {
  return { ...head, title, description, ...(whenToUse === undefined ? {} : { whenToUse }), ...tail };
}

describe('buildParsedDocument', () => {
  it('answers the texts it was given, as the plain object did, and again after crossing packed', () => {
    fc.assert(
      fc.property(
        fc.array(wordArb, { minLength: 1, maxLength: 6 }),
        wordArb,
        wordArb,
        fc.option(wordArb, { nil: undefined }),
        fc.boolean(),
        (parts, title, description, whenToUse, spell) => {
          // Half the time the texts are spelled in the file, in some order among other words.
          const text = (spell ? [...parts, title, description, whenToUse ?? ''] : parts).join('\n');
          const bytes = encoder.encode(text);
          const ascii = text.length === bytes.byteLength;
          const head = { id: 'team/a', path: 'knowledge/documents/team/a.md', scope: 'team' };
          const tail = { extraKeys: new Map(), bodyStart: 0, uriLines: [], sections: [] };
          const d = buildParsedDocument(
            head,
            ascii ? bytes : undefined,
            text,
            title,
            description,
            whenToUse,
            tail,
          );
          const plain = former(head, title, description, whenToUse, tail);
          expect(Object.keys(d)).toEqual(Object.keys(plain));
          expect({ ...d }).toEqual(plain);
          const crossed = unpackDocumentRead(structuredClone(packDocumentRead(d)), bytes.slice());
          expect({ ...(crossed as object) }).toEqual(plain);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('keeps a text spelled far into the file or longer than 64 KiB as the same string (a copy)', () => {
    const head = { id: 'team/a', path: 'knowledge/documents/team/a.md', scope: 'team' };
    const tail = { extraKeys: new Map(), bodyStart: 0, uriLines: [], sections: [] };
    const long = 'L'.repeat(70_000);
    for (const [before, title, description, whenToUse] of [
      ['', 'Near.', 'Also near.', undefined],
      ['x'.repeat(32_767), 'Just in.', 'Beside.', 'When.'],
      ['x'.repeat(32_768), 'Just out.', 'Beside.', undefined],
      ['x'.repeat(100_000), 'Far.', long, 'Far too.'],
      ['', 'T', 'y'.repeat(65_535), 'z'.repeat(65_536)],
    ] as const) {
      const text = `${before}\n${title}\n${description}\n${whenToUse ?? ''}\n`;
      const bytes = encoder.encode(text);
      const d = buildParsedDocument(head, bytes, text, title, description, whenToUse, tail);
      const plain = former(head, title, description, whenToUse, tail);
      expect({ ...d }).toEqual(plain);
      const crossed = unpackDocumentRead(structuredClone(packDocumentRead(d)), bytes.slice());
      expect({ ...(crossed as object) }).toEqual(plain);
    }
  });
});

describe('readDocument', () => {
  const quotedArb = wordArb.filter((w) => w.trim() !== '').map((w) => JSON.stringify(w.trim()));
  it('reads the texts a file spells, quoted with escapes or not, and keeps them across a thread', () => {
    fc.assert(
      fc.property(
        quotedArb,
        fc.option(quotedArb, { nil: undefined }),
        wordArb,
        (description, when, title) => {
          const text = `---\ndescription: ${description}\n${when === undefined ? '' : `whenToUse: ${when}\n`}---\n# ${title.trim() || 'T'}\n\nBody.\n`;
          const bytes = encoder.encode(text);
          const file = { path: 'knowledge/documents/team/a.md', bytes, mtimeMs: 1 };
          const read = readDocument(file);
          const d = read.document!;
          expect(d.description).toBe((JSON.parse(description) as string).trim());
          if (when === undefined) expect('whenToUse' in d).toBe(false);
          else expect(d.whenToUse).toBe((JSON.parse(when) as string).trim() || undefined);
          // The former definition: copies, which a file that is not ASCII still keeps (one more line, at the end).
          const copies = readDocument({ ...file, bytes: encoder.encode(`${text}ü\n`) }).document!;
          expect([d.title, d.description, d.whenToUse]).toEqual([
            copies.title,
            copies.description,
            copies.whenToUse,
          ]);
          const crossed = unpackDocumentRead(
            structuredClone(packDocumentRead(read)),
            bytes.slice(),
          ) as typeof read;
          expect(crossed.keys).toBe(crossed.document);
          expect(JSON.stringify(crossed)).toBe(JSON.stringify(read));
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
