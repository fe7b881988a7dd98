/**
 * A build's last good files read through its contents (`LastGood`) against their former definition: a plain map
 * of every last good file, a document's set at its path beside the others. Random documents served over their
 * own file or over another object of the same file, skill files, the index, and files kept apart.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keepsLastGoodApart, LastGood } from '../../../src/core/build/last-good.js';
import { buildContentsForm, buildTextBackedContent } from '../../../src/core/build/text-backed-content.js';
import { PersistentMap } from '../../../src/core/persistent-map.js';
import type { ServedContent, SourceFile } from '../../../src/core/types.js';

const encoder = new TextEncoder();
const PREFIX = 'x://guides/';

type Kind = 'document' | 'document-other-object' | 'skill-file' | 'prompt';

describe('LastGood against a plain map of the last good files', () => {
  it('answers every file the former map held, and nothing else', () => {
    const kinds = fc.constantFrom<Kind>(
      'document',
      'document',
      'document-other-object',
      'skill-file',
      'prompt',
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(30), kinds), { maxLength: 60 }), (items) => {
        const contents = PersistentMap.empty<ServedContent>(buildContentsForm(PREFIX)).edit();
        const others = PersistentMap.empty<SourceFile>().edit();
        const former = new Map<string, SourceFile>();
        contents.set('x://index', { uri: 'x://index' } as ServedContent);
        items.forEach(([n, kind], i) => {
          const bytes = encoder.encode(`text ${n} ${i}`);
          if (kind === 'skill-file' || kind === 'prompt') {
            const path = kind === 'prompt' ? `prompts/p-${n}.md` : `skills/s/references/r-${n}.md`;
            const file = { path, bytes, mtimeMs: i };
            if (kind === 'skill-file') {
              const uri = `x://skill/s/references/r-${n}.md`;
              contents.set(
                uri,
                buildTextBackedContent(
                  { uri, mimeType: 'text/markdown' },
                  undefined,
                  `references/r-${n}.md`,
                  file,
                ),
              );
            }
            others.set(path, file);
            former.set(path, file);
            return;
          }
          const path = `knowledge/documents/team/d-${n}.md`;
          const uri = `${PREFIX}team/d-${n}`;
          const file = { path, bytes, mtimeMs: i };
          // Served over another object of the same file (a content kept from an earlier build).
          const served = kind === 'document' ? file : { ...file };
          const content = buildTextBackedContent(
            { uri, mimeType: 'text/markdown' },
            undefined,
            path,
            served,
            PREFIX,
          );
          contents.set(uri, content);
          // As the build does: the file is kept apart only when the content does not serve it.
          others.delete(path);
          if (keepsLastGoodApart(content, file)) others.set(path, file);
          former.set(path, file);
        });
        const lastGood = new LastGood(contents.done(), others.done(), PREFIX);
        expect(lastGood.size).toBe(former.size);
        for (const [path, file] of former) {
          expect(lastGood.has(path)).toBe(true);
          expect(lastGood.get(path)).toBe(file);
        }
        expect(new Map(lastGood)).toEqual(former);
        expect([...lastGood.keys()].sort()).toEqual([...former.keys()].sort());
        expect(lastGood.get('knowledge/documents/team/never.md')).toBeUndefined();
        expect(lastGood.get('x://index')).toBeUndefined();
        expect(lastGood.has('skills/s/references/never.md')).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
