/**
 * The dashboard's coverage view, against its former definition (a set of served ids, a set of named ids, then the
 * served ones not named): the same topics with the same served flags, the same uncovered items, the same count;
 * each topic's ids are the catalog topic's own array, not a copy.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compare } from '../../src/core/diagnostics.js';
import type { Catalog } from '../../src/core/types.js';
import { buildCoverageView } from '../../src/ui/dev-state.js';
import { makeCatalog } from './view-states.js';

function formerDocumentsView(catalog: Catalog) {
  const documentIds = new Set(catalog.documents.map((document) => document.id));
  const namedDocuments = new Set<string>();
  const topics = catalog.coverage.topics.map((topic) => {
    for (const id of topic.documents) namedDocuments.add(id);
    return topic.documents.map((id) => ({ id, served: documentIds.has(id) }));
  });
  const uncovered = [...documentIds]
    .filter((id) => !namedDocuments.has(id))
    .sort(compare)
    .map((id) => ({ kind: 'document' as const, id }));
  return { topics, uncovered, documents: documentIds.size };
}

describe('buildCoverageView', () => {
  it('sees the documents its former definition saw', () => {
    const idArb = fc.oneof(
      fc.constantFrom('any/a', 'any/b', 'any/a-b', 'team/x', 'Z/y', 'any/ä'),
      fc.nat(30).map((n) => `team/doc-${n}`),
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(idArb, { maxLength: 40 }),
        fc.array(fc.array(idArb, { maxLength: 12 }), { maxLength: 5 }),
        (documents, named) => {
          const catalog = makeCatalog({ documents, topics: named.map((ids) => ({ documents: ids })) });
          const view = buildCoverageView(catalog);
          const former = formerDocumentsView(catalog);
          // The former view had an `{ id, served }` per id a topic names; this one has the ids and those missing.
          const items = view.topics.map(({ documents }) =>
            documents.ids.map((id) => ({ id, served: !documents.missing.has(id) })),
          );
          expect(items).toEqual(former.topics);
          catalog.coverage.topics.forEach((topic, i) => {
            expect(view.topics[i]!.documents.ids).toBe(topic.documents);
          });
          expect(view.uncovered.filter((item) => item.kind === 'document')).toEqual(former.uncovered);
          expect(view.documents).toBe(former.documents);
        },
      ),
      { numRuns: 500 },
    );
  });
});
