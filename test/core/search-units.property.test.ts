/**
 * The index's units as four columns (`unitDocuments`, `unitAt`, `unitHeadings`, `unitBodyLengths`) against their
 * former definition, one object per unit — `{ document, at, heading: section.heading, bodyLength }`, in the order
 * documents were added, `undefined` once its document was removed — through builds and removals.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDocument,
  beginIndex,
  removeDocument,
  type SearchableDocument,
  type SectionIndex,
} from '../../src/core/search/section-index.js';
import { splitWords } from '../../src/core/search/terms.js';

const text = fc
  .array(fc.constantFrom('render', 'cache', 'skills', 'ünïcode', 'go', 'the', 'x'), { maxLength: 6 })
  .map((words) => words.join(' '));

const documents = fc.array(
  fc.record({
    title: text,
    sections: fc.array(fc.record({ heading: text, body: text }), { maxLength: 4 }),
  }),
  { minLength: 1, maxLength: 12 },
);

interface FormerUnit {
  readonly document: SearchableDocument;
  readonly at: number;
  readonly heading: string;
  readonly bodyLength: number;
}

const columns = (index: SectionIndex): (FormerUnit | undefined)[] =>
  index.unitDocuments.map((document, unit) =>
    document === undefined
      ? undefined
      : {
          document,
          at: index.unitAt[unit]!,
          heading: index.unitHeadings[unit]!,
          bodyLength: index.unitBodyLengths[unit]!,
        },
  );

describe('SectionIndex units', () => {
  it('hold per unit what the former unit object held, through builds, removals and additions', () => {
    fc.assert(
      fc.property(documents, documents, fc.array(fc.nat(), { maxLength: 6 }), (first, later, removals) => {
        const made = (list: typeof first, prefix: string): SearchableDocument[] =>
          list.map(({ title, sections }, i) => ({
            id: `${prefix}${i}`,
            title,
            uri: `companion://guides/${prefix}${i}`,
            body: sections.map(({ body }) => body).join('\n\n'),
            sections: sections.map(({ heading, body }, line) => ({ heading, body, line })),
          }));
        const initial = made(first, 'a');
        const index = beginIndex(initial).finish();
        const former: (FormerUnit | undefined)[] = [];
        const formerAdd = (document: SearchableDocument): void => {
          for (const [at, section] of document.sections.entries()) {
            former.push({
              document,
              at,
              heading: section.heading,
              bodyLength: splitWords(section.body).length,
            });
          }
        };
        for (const document of initial) formerAdd(document);
        expect(columns(index)).toEqual(former);
        const removed = new Set(removals.map((r) => initial[r % initial.length]!));
        for (const document of removed) {
          removeDocument(index, document, new Set(), new Set());
          for (let unit = 0; unit < former.length; unit++) {
            if (former[unit]?.document === document) former[unit] = undefined;
          }
        }
        for (const document of made(later, 'b')) {
          addDocument(index, document);
          formerAdd(document);
        }
        expect(columns(index)).toEqual(former);
        expect(index.live).toBe(former.filter((unit) => unit !== undefined).length);
      }),
      { numRuns: 200 },
    );
  });
});
