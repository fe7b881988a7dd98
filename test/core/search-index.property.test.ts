/**
 * A document search (`createDocumentSearch`) patches its index when the document list changes by a few entries
 * (a catalog rebuild keeps every unchanged entry object). Whatever the sequence of edits, a patched index must
 * answer exactly as `searchDocuments`, which builds an index from scratch for each call — also when a warm-up
 * (`warm`) left a build half done, of this list or an older one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createDocumentSearch,
  type DocumentSearch,
  type SearchableDocument,
  type SearchOptions,
  searchDocuments,
} from '../../src/core/search.js';

// Small, so queries hit often: prefix families (`render…`, `rename…`), short words matched whole (`cli`, `go`),
// stems (`skills` → `skill`), and words that are prefixes of others (`cache`, `cached`).
const WORDS = [
  'render',
  'renders',
  'rendering',
  'renamed',
  'rename',
  'cli',
  'client',
  'go',
  'mcp',
  'skill',
  'skills',
  'cache',
  'cached',
  'token',
  'budget',
  'listing',
  'zeta',
  'ünïcode',
];

const word = fc.constantFrom(...WORDS);
const words = (max: number) => fc.array(word, { maxLength: max }).map((list) => list.join(' '));

interface Content {
  readonly title: string;
  readonly sections: readonly { heading: string; body: string }[];
}

const content: fc.Arbitrary<Content> = fc.record({
  title: words(3),
  sections: fc.array(fc.record({ heading: words(2), body: words(8) }), { maxLength: 4 }),
});

function makeDocument(id: string, { title, sections }: Content): SearchableDocument {
  return {
    id,
    title,
    uri: `companion://guides/${id}`,
    body: sections.map(({ heading, body }) => (heading ? `## ${heading}\n\n${body}` : body)).join('\n\n'),
    sections: sections.map(({ heading, body }, index) => ({ heading, body, line: index * 4 + 1 })),
  };
}

type Edit =
  | { kind: 'replace'; at: number; content: Content }
  | { kind: 'add'; at: number; content: Content }
  | { kind: 'remove'; at: number }
  | { kind: 'duplicateId'; at: number; content: Content }
  | { kind: 'copy' }
  | { kind: 'searchPrevious' }
  | { kind: 'warm'; budget: number; calls: number; previous: boolean };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), content }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('add' as const), at: fc.nat(), content }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('duplicateId' as const), at: fc.nat(), content }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('copy' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('searchPrevious' as const) }) },
  {
    // A background warm-up left anywhere: part of a build, a whole one, a patch, or a build of an older list.
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('warm' as const),
      budget: fc.integer({ min: 1, max: 400 }),
      calls: fc.integer({ min: 1, max: 4 }),
      previous: fc.boolean(),
    }),
  },
);

const FIXED_QUERIES = [
  'render',
  'rend',
  'renaming',
  'cli',
  'go client',
  'mcp skills budget',
  'cache token listing',
  'zeta',
  'ünïcode render',
  'nothing matches this',
];
const OPTIONS: SearchOptions[] = [{}, { limit: 2, minCoverage: 0.2 }, { minCoverage: 0 }];

/** Queries aimed at `documents`: each one's title, each section's heading and body, and their words alone. */
function queriesFor(documents: readonly SearchableDocument[]): string[] {
  const queries = new Set<string>();
  for (const document of documents) {
    queries.add(document.title);
    for (const section of document.sections) {
      queries.add(`${section.heading} ${section.body}`);
      for (const single of section.body.split(' ').slice(0, 2)) queries.add(single);
    }
  }
  queries.delete('');
  return [...queries];
}

let patched = 0;
let warmed = 0;

function assertSameAsFresh(
  search: DocumentSearch,
  documents: readonly SearchableDocument[],
  queries: readonly string[],
): void {
  for (const query of queries) {
    for (const options of OPTIONS) {
      const answer = search.search(documents, query, options);
      expect(answer, `query ${JSON.stringify(query)} ${JSON.stringify(options)}`).toEqual(
        searchDocuments(documents, query, options),
      );
    }
  }
  const stats = search.stats();
  if (stats && stats.dead > 0) patched++;
}

describe('a document search over a changing document list', () => {
  it('answers after any sequence of edits exactly as a fresh build does', () => {
    patched = 0;
    warmed = 0;
    fc.assert(
      fc.property(
        fc.array(content, { maxLength: 8 }),
        fc.array(edit, { minLength: 1, maxLength: 12 }),
        fc.constantFrom(0.25, 1, Number.POSITIVE_INFINITY),
        (initial, edits, ratio) => {
          const search = createDocumentSearch({ rebuildRatio: ratio });
          let next = 0;
          let documents: SearchableDocument[] = initial.map((c) => makeDocument(`doc-${next++}`, c));
          let previous = documents;
          assertSameAsFresh(search, documents, FIXED_QUERIES);
          for (const step of edits) {
            const touched: SearchableDocument[] = [];
            const array = [...documents];
            switch (step.kind) {
              case 'replace': {
                if (array.length === 0) break;
                const at = step.at % array.length;
                touched.push(array[at]!);
                array[at] = makeDocument(array[at]!.id, step.content);
                touched.push(array[at]!);
                break;
              }
              case 'add': {
                const added = makeDocument(`doc-${next++}`, step.content);
                array.splice(step.at % (array.length + 1), 0, added);
                touched.push(added);
                break;
              }
              case 'remove': {
                if (array.length === 0) break;
                touched.push(...array.splice(step.at % array.length, 1));
                break;
              }
              case 'duplicateId': {
                // Not something the catalog builder produces; the index must still answer like a fresh build.
                if (array.length === 0) break;
                const added = makeDocument(array[step.at % array.length]!.id, step.content);
                array.splice(step.at % (array.length + 1), 0, added);
                touched.push(added);
                break;
              }
              case 'copy':
                break;
              case 'searchPrevious':
                assertSameAsFresh(search, previous, FIXED_QUERIES);
                continue;
              case 'warm':
                for (let call = 0; call < step.calls; call++) {
                  search.warm(step.previous ? previous : documents, step.budget);
                }
                warmed++;
                continue;
            }
            previous = documents;
            documents = array;
            assertSameAsFresh(search, documents, [...FIXED_QUERIES, ...queriesFor(touched)]);
          }
        },
      ),
      { numRuns: 300 },
    );
    // The property is only worth something if the patch path ran.
    expect(patched).toBeGreaterThan(50);
    expect(warmed).toBeGreaterThan(50);
  });

  it('patches rather than rebuilds when one entry of a large list changes', () => {
    const documents = Array.from({ length: 200 }, (_, index) =>
      makeDocument(`doc-${index}`, {
        title: `${WORDS[index % WORDS.length]} guide`,
        sections: [
          { heading: WORDS[(index + 1) % WORDS.length]!, body: `${WORDS[(index + 2) % WORDS.length]} body` },
          { heading: '', body: `unique${index}x ${WORDS[(index + 3) % WORDS.length]}` },
        ],
      }),
    );
    const search = createDocumentSearch();
    search.search(documents, 'render');
    expect(search.stats()).toMatchObject({ live: 400, dead: 0 });

    const edited = [...documents];
    edited[7] = makeDocument('doc-7', {
      title: 'brand new',
      sections: [{ heading: 'fresh', body: 'unique7x zeta' }],
    });
    for (const query of ['unique7x', 'guide', 'brand fresh', 'render', 'unique8x', 'go']) {
      expect(search.search(edited, query)).toEqual(searchDocuments(edited, query));
    }
    expect(search.stats()).toMatchObject({ live: 399, dead: 2 });

    // A word only the removed version held is gone, exactly as if never indexed.
    const removed = edited.filter((_, index) => index !== 9);
    expect(search.search(removed, 'unique9x')).toEqual(searchDocuments(removed, 'unique9x'));
    expect(search.search(removed, 'unique9x').matches).toEqual([]);
    expect(search.stats()).toMatchObject({ live: 397, dead: 4 });

    // The first list is still answered correctly after its index moved on.
    expect(search.search(documents, 'unique7x zeta')).toEqual(searchDocuments(documents, 'unique7x zeta'));
  });
});
