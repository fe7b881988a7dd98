/**
 * Warming the search index ahead of the first question (issue 18.4): the index built in steps, however small,
 * is the index built whole; a search that comes before the warm-up is done answers exactly what it answers
 * after it (and what a fresh build answers); a newer list is patched from the warmed one, or built afresh when
 * it differs too much.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCatalogQueries } from '../../src/core/queries.js';
import { type Candidate, chooseDistinct } from '../../src/core/search/rank.js';
import { beginIndex } from '../../src/core/search/section-index.js';
import { createDocumentSearch, type SearchableDocument, searchDocuments } from '../../src/core/search.js';

const WORDS = ['render', 'rename', 'cli', 'client', 'skill', 'skills', 'cache', 'token', 'zeta', 'ünïcode'];

function makeDocument(id: string, title: string, sections: readonly [string, string][]): SearchableDocument {
  return {
    id,
    title,
    uri: `companion://guides/${id}`,
    body: sections.map(([heading, body]) => (heading ? `## ${heading}\n\n${body}` : body)).join('\n\n'),
    sections: sections.map(([heading, body], index) => ({ heading, body, line: index * 4 + 1 })),
  };
}

/** `count` documents of two sections each, every one with a word of its own. */
function corpus(count: number, prefix = 'doc'): SearchableDocument[] {
  return Array.from({ length: count }, (_, index) =>
    makeDocument(`${prefix}-${index}`, `${WORDS[index % WORDS.length]} guide`, [
      [
        WORDS[(index + 1) % WORDS.length]!,
        `${WORDS[(index + 2) % WORDS.length]} body ${'word '.repeat(index % 7)}`,
      ],
      ['', `unique${index}x ${WORDS[(index + 3) % WORDS.length]}`],
    ]),
  );
}

const QUERIES = [
  'render',
  'unique3x',
  'unique17x zeta',
  'guide body',
  'cli',
  'ünïcode cache',
  'nothing here',
];

describe('a search index built in steps', () => {
  it('is the index built whole, however the work is sliced', () => {
    const word = fc.constantFrom(...WORDS, 'a', 'x'.repeat(40));
    const text = (max: number) => fc.array(word, { maxLength: max }).map((list) => list.join(' '));
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ title: text(3), sections: fc.array(fc.tuple(text(2), text(12)), { maxLength: 4 }) }),
          {
            maxLength: 10,
          },
        ),
        fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 8 }),
        (contents, budgets) => {
          const documents = contents.map((content, index) =>
            makeDocument(`doc-${index}`, content.title, content.sections),
          );
          const whole = beginIndex(documents).finish();
          const build = beginIndex(documents);
          let steps = 0;
          while (!build.step(budgets[steps % budgets.length]!)) steps++;
          expect(build.finish()).toEqual(whole);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('takes many steps for a large list when the budget is small, and one when it is not', () => {
    const documents = corpus(300);
    const build = beginIndex(documents);
    let steps = 1;
    while (!build.step(500)) steps++;
    // 300 documents of ~50–80 units each: a step holds a few documents, the layout of the postings is sliced too.
    expect(steps).toBeGreaterThan(30);
    expect(beginIndex(documents).step(Number.POSITIVE_INFINITY)).toBe(true);
  });
});

describe('warming a document search', () => {
  it('answers a search before the warm-up is done exactly as after it, and as a fresh build', () => {
    const documents = corpus(200);
    const early = createDocumentSearch();
    expect(early.warm(documents, 2_000)).toBe(false);
    expect(early.warm(documents, 2_000)).toBe(false);
    const before = QUERIES.map((query) => early.search(documents, query));
    // The search finished the build: nothing is left to warm.
    expect(early.warm(documents, 1)).toBe(true);

    const warmed = createDocumentSearch();
    let calls = 1;
    while (!warmed.warm(documents, 2_000)) calls++;
    expect(calls).toBeGreaterThan(5);
    const after = QUERIES.map((query) => warmed.search(documents, query));
    expect(before).toEqual(after);
    expect(JSON.stringify(before)).toBe(JSON.stringify(after));
    expect(after).toEqual(QUERIES.map((query) => searchDocuments(documents, query)));
    expect(after.some((answer) => answer.matches.length > 0)).toBe(true);
  });

  it('finishes a build begun for an older list, then patches it into the newer one', () => {
    const first = corpus(200);
    const search = createDocumentSearch();
    expect(search.warm(first, 2_000)).toBe(false);
    // A save while warming: the build of the first list goes on, and answers false when it ends (not this list).
    const second = [...first];
    second[5] = makeDocument('doc-5', 'brand new', [['fresh', 'unique5x zeta']]);
    let done = search.warm(second, 2_000);
    while (!done) {
      const stats = search.stats();
      done = search.warm(second, 2_000);
      if (!done && stats !== undefined)
        throw new Error('a finished build of the older list must be patched next');
    }
    // Patched, not rebuilt: the old version's sections are dead in place.
    expect(search.stats()).toMatchObject({ live: 399, dead: 2 });
    for (const query of [...QUERIES, 'brand fresh', 'unique5x']) {
      expect(search.search(second, query)).toEqual(searchDocuments(second, query));
    }
    // A later save is patched in one call.
    const third = second.filter((_, index) => index !== 9);
    expect(search.warm(third, 1)).toBe(true);
    expect(search.stats()).toMatchObject({ live: 397, dead: 4 });
  });

  it('builds afresh, in steps, a list too different to patch', () => {
    const search = createDocumentSearch();
    const first = corpus(100);
    while (!search.warm(first, 5_000));
    const other = corpus(100, 'other');
    expect(search.warm(other, 100)).toBe(false);
    while (!search.warm(other, 5_000));
    expect(search.stats()).toMatchObject({ live: 200, dead: 0 });
    for (const query of QUERIES) expect(search.search(other, query)).toEqual(searchDocuments(other, query));
  });

  it('is what the catalog queries warm: their lookup answers the same before and after', () => {
    const documents = corpus(120);
    const queries = createCatalogQueries();
    const catalog = { documents };
    expect(queries.warm(catalog, 1_000)).toBe(false);
    const early = queries.searchDocuments(documents, 'unique17x zeta');
    expect(queries.warm(catalog, 1)).toBe(true);
    expect(queries.searchDocuments(documents, 'unique17x zeta')).toEqual(early);
    expect(early).toEqual(searchDocuments(documents, 'unique17x zeta'));
  });
});

describe('choosing the best sections without sorting every candidate', () => {
  // Few distinct keys (large groups of exact ties, where only input order decides) and bodies that repeat.
  const candidate = fc.record({
    id: fc.constantFrom('a', 'b'),
    heading: fc.constantFrom('', 'x'),
    body: fc.oneof(
      fc.constantFrom('one', 'one '),
      fc.integer({ min: 0, max: 40 }).map((n) => `body ${n}`),
    ),
    score: fc.constantFrom(1, 2),
    coverage: fc.constantFrom(0.5, 1),
  });

  it('chooses what a full stable sort and a pass over it choose, ties and duplicates included', () => {
    fc.assert(
      fc.property(fc.array(candidate, { maxLength: 400 }), fc.integer({ min: 1, max: 8 }), (specs, limit) => {
        const candidates: Candidate[] = specs.map((spec) => ({
          document: makeDocument(spec.id, spec.id, [[spec.heading, spec.body]]),
          at: 0,
          heading: spec.heading,
          score: spec.score,
          coverage: spec.coverage,
        }));
        const sorted = [...candidates].sort(
          (a, b) =>
            b.coverage - a.coverage ||
            b.score - a.score ||
            (a.document.id < b.document.id ? -1 : a.document.id > b.document.id ? 1 : 0) ||
            (a.heading < b.heading ? -1 : a.heading > b.heading ? 1 : 0),
        );
        const seen = new Set<string>();
        const expected: Candidate[] = [];
        for (const each of sorted) {
          const key = each.document.sections[each.at]!.body.replace(/\s+/g, ' ').trim();
          if (seen.has(key) || expected.length >= limit) continue;
          seen.add(key);
          expected.push(each);
        }
        // The very objects, in the same order: which of two equal-looking sections is chosen matters.
        const chosen = chooseDistinct(candidates, limit);
        expect(chosen.length).toBe(expected.length);
        for (const [at, each] of chosen.entries()) expect(each).toBe(expected[at]);
      }),
      { numRuns: 500 },
    );
  });
});
