/**
 * The document units a build keeps (`DocumentUnits`: a derived unit that found nothing is kept as its entry and
 * read back through it) against their former definition, a `Map` of the units as set: for random documents —
 * clean, with findings, broken, held from a last good version, gone — every unit read back has the same file,
 * parse, entry, content and resource (the very objects), the same findings and hold, in the same order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAvailability } from '../../../src/core/build/availability.js';
import { deriveDocument } from '../../../src/core/build/entries.js';
import { readFrame } from '../../../src/core/build/frame.js';
import {
  type DocumentUnit,
  DocumentUnits,
  readDocumentUnit,
  type UnitContext,
} from '../../../src/core/build/units.js';
import { buildDocumentId } from '../../../src/core/documents.js';
import { createMemo } from '../../../src/core/memo.js';
import type { SourceFile } from '../../../src/core/types.js';
import { buildSnapshot, readFixture } from '../../helpers/snapshot.js';

const encoder = new TextEncoder();

type Kind = 'clean' | 'finding' | 'broken' | 'held' | 'gone';

/** The text of a document of `kind` (`held`: broken now, with a clean last good version). */
function textOf(kind: Kind, n: number): string {
  switch (kind) {
    case 'clean':
      return `---\ndescription: Document ${n}.\n---\n# Title ${n}\n\nBody.\n`;
    case 'finding':
      // An unfiled document (no scope directory) is read, found wanting and not served.
      return `---\ndescription: Document ${n}.\nunknownKey: 1\n---\n# Title ${n}\n\nBody.\n`;
    default:
      return `# No front matter ${n}\n`;
  }
}

function expectSameUnit(made: DocumentUnit | undefined, set: DocumentUnit | undefined): void {
  if (set === undefined) {
    expect(made).toBeUndefined();
    return;
  }
  expect(made).toBeDefined();
  expect(made!.file).toBe(set.file);
  expect(made!.document).toBe(set.document);
  expect(made!.entry).toBe(set.entry);
  expect(made!.content).toBe(set.content);
  expect(made!.resource).toBe(set.resource);
  expect(made!.held).toEqual(set.held);
  expect([...made!.readDiagnostics]).toEqual([...set.readDiagnostics]);
}

describe('DocumentUnits against a Map of the units set', () => {
  it('answers every unit as it was set, in the same order, through every edit', () => {
    const kinds = fc.constantFrom<Kind>('clean', 'clean', 'finding', 'broken', 'held', 'gone');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(12), kinds), { minLength: 1, maxLength: 40 }), (edits) => {
        const base = readFixture('valid');
        const snapshot = buildSnapshot(base);
        const memo = createMemo();
        const availability = createAvailability([]);
        const fallback = new Map<string, SourceFile>();
        const frame = readFrame({ snapshot, availability, fallback, options: {}, memo });
        const context: UnitContext = {
          frame,
          availability,
          fallback,
          servesSkill: (skill): skill is NonNullable<typeof skill> => skill !== undefined,
          servedPresence: (presence) => presence === 'published',
          memo,
        };
        const units = new DocumentUnits();
        const oracle = new Map<string, DocumentUnit>();
        edits.forEach(([n, kind], step) => {
          const scope = kind === 'finding' ? '' : 'any/';
          const path = `knowledge/documents/${scope}doc-${n}.md`;
          const id = buildDocumentId(path)!;
          if (kind === 'held') {
            fallback.set(path, { path, bytes: encoder.encode(textOf('clean', n)), mtimeMs: 1 });
          }
          const file =
            kind === 'gone' ? undefined : { path, bytes: encoder.encode(textOf(kind, n)), mtimeMs: 2 + step };
          const unit = readDocumentUnit(id, path, file, context);
          if (unit === undefined) {
            units.delete(path);
            oracle.delete(path);
            return;
          }
          if (unit.document) deriveDocument(memo, unit, unit.document, frame);
          units.set(path, unit);
          oracle.set(path, unit);
        });
        expect(units.size).toBe(oracle.size);
        expect([...units.keys()]).toEqual([...oracle.keys()]);
        for (const [path, set] of oracle) {
          expect(units.has(path)).toBe(true);
          expectSameUnit(units.get(path), set);
          // A derived unit that found nothing is read back through its entry (not the object set); any other
          // is the object set.
          const throughEntry = set.entry !== undefined && set.readDiagnostics.length === 0 && !set.held;
          expect(units.get(path) === set).toBe(!throughEntry);
        }
        const entries = [...units];
        expect(entries.map(([path]) => path)).toEqual([...oracle.keys()]);
        for (const [path, unit] of entries) expectSameUnit(unit, oracle.get(path));
        for (const [i, unit] of [...units.values()].entries()) expectSameUnit(unit, entries[i]![1]);
        expect(units.get('knowledge/documents/any/never.md')).toBeUndefined();
      }),
      { numRuns: 150 },
    );
  });
});
