/**
 * A document's served content, entry and listed resource, each one object that reads its fields through the
 * others (the entry through the parse and the content, the resource through the entry and a shared scope, the
 * content through the file it serves), against their former definitions: the plain objects the build made
 * before, every field a value of its own. And a parse keeps the entry derived from it as a weak table keyed by
 * the parse did, without carrying it in its value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildAnnotations } from '../../../src/core/build/entries.js';
import { joinSentences } from '../../../src/core/build/sentences.js';
import {
  attachResource,
  buildDocumentResource,
  buildTextBackedDocument,
  readDerived,
} from '../../../src/core/build/text-backed.js';
import {
  buildContentsForm,
  buildTextBackedContent,
  readServedFor,
} from '../../../src/core/build/text-backed-content.js';
import { formatTime, packDigest } from '../../../src/core/content.js';
import { packDocumentRead, readDocument, unpackDocumentRead } from '../../../src/core/documents.js';
import { readSections } from '../../../src/core/markdown.js';
import { attachDerivedEntry, readDerivedEntry } from '../../../src/core/parsed-document.js';

const encoder = new TextEncoder();
const wordArb = fc.string({
  unit: fc.constantFrom('a', 'B', ' ', '.', 'é', '中', '-'),
  minLength: 1,
  maxLength: 10,
});
const DIGEST = `sha256:${'3c'.repeat(32)}`;

/** A document file with front matter, a title and `sections` second-level sections. */
function documentText(title: string, description: string, whenToUse: string | undefined, sections: string[]) {
  const front = [`title: "${title}"`, `description: "${description}"`];
  if (whenToUse !== undefined) front.push(`when_to_use: "${whenToUse}"`);
  const body = sections.map((s, i) => `## Part ${i} ${s}\n\n${s} text.\n`).join('\n');
  return `---\n${front.join('\n')}\n---\n# ${title}\n\nIntro.\n\n${body}`;
}

describe('a document served, listed and entered', () => {
  it('equals the plain content, entry and resource the build made before', () => {
    fc.assert(
      fc.property(
        wordArb,
        wordArb,
        fc.option(wordArb, { nil: undefined }),
        fc.array(wordArb, { maxLength: 3 }),
        fc.option(wordArb, { nil: undefined }),
        fc.constantFrom(0.5, 0.8),
        fc.constantFrom(0, 1, Date.parse('2026-12-01T10:20:30.456Z'), 1_764_584_430_456.7),
        (title, description, whenToUse, parts, sentence, priority, mtimeMs) => {
          const text = documentText(title.trim() || 'T', description.trim() || 'D', whenToUse, parts);
          const bytes = encoder.encode(text);
          const path = 'knowledge/documents/team/a.md';
          const file = { path, bytes, mtimeMs };
          const d = readDocument(file).document!;
          expect(d).toBeDefined();
          const uri = 'x://document/team/a';
          const fields = { audience: 'dev' };

          const content = buildTextBackedContent(
            { uri, mimeType: 'text/markdown' },
            packDigest(DIGEST),
            path,
            file,
          );
          const entry = buildTextBackedDocument(d, fields, content);
          const resource = buildDocumentResource(entry, { sentence, priority });
          attachResource(entry, resource);

          // The former definitions, field by field (src/core/build/entries.ts before this change).
          const lastModified = formatTime(mtimeMs);
          const formerContent = {
            uri,
            mimeType: 'text/markdown',
            bytes,
            text,
            digest: DIGEST,
            size: bytes.byteLength,
            ...(lastModified === undefined ? {} : { lastModified }),
          };
          const formerEntry = {
            id: d.id,
            uri,
            path: d.path,
            title: d.title,
            scope: d.scope,
            description: d.description,
            ...(d.whenToUse === undefined ? {} : { whenToUse: d.whenToUse }),
            fields,
            body: text.slice(d.bodyStart),
            sections: readSections(text, d.sections),
          };
          const formerResource = {
            uri,
            name: d.id,
            title: d.title,
            description: joinSentences([d.description, d.whenToUse, sentence]),
            mimeType: 'text/markdown',
            size: bytes.byteLength,
            annotations: buildAnnotations(priority, lastModified),
          };
          for (const [made, plain] of [
            [content, formerContent],
            [entry, formerEntry],
            [resource, formerResource],
          ] as const) {
            expect(Object.keys(made)).toEqual(Object.keys(plain));
            expect({ ...made }).toEqual(plain);
            expect(JSON.stringify(made)).toBe(JSON.stringify(plain));
          }
          expect(content.bytes).toBe(bytes);
          expect(readServedFor(content)).toEqual({ path, mtimeMs });
          // Served for a path that is not its file's (a skill's file, at its path inside the skill): the same
          // value, and the path it was served for, as the content held a path of its own for before.
          const elsewhere = buildTextBackedContent(
            { uri, mimeType: 'text/markdown' },
            packDigest(DIGEST),
            'references/a.md',
            file,
          );
          expect(Object.keys(elsewhere)).toEqual(Object.keys(formerContent));
          expect(JSON.stringify(elsewhere)).toBe(JSON.stringify(formerContent));
          expect(readServedFor(elsewhere)).toEqual({ path: 'references/a.md', mtimeMs });
          // A document's content given its scheme's prefix reads its URI through its path: the same value, and
          // the contents form keeps it under its file's own path string.
          const prefix = 'x://document/';
          const documentContent = buildTextBackedContent(
            { uri, mimeType: 'text/markdown' },
            packDigest(DIGEST),
            path,
            file,
            prefix,
          );
          expect(Object.keys(documentContent)).toEqual(Object.keys(formerContent));
          expect({ ...documentContent }).toEqual(formerContent);
          expect(JSON.stringify(documentContent)).toBe(JSON.stringify(formerContent));
          expect(readServedFor(documentContent)).toEqual({ path, mtimeMs });
          const form = buildContentsForm(prefix);
          expect(form.kept(uri)).toBe(path);
          expect(form.keptFor(uri, documentContent)).toBe(file.path);
          expect(form.key(path)).toBe(uri);
          // A URI under another prefix is kept as it is.
          expect(form.keptFor('x://skill/a/SKILL.md', elsewhere)).toBe('x://skill/a/SKILL.md');
          // A prefix that is not the URI's: content with a URI of its own, as before.
          const other = buildTextBackedContent(
            { uri, mimeType: 'text/markdown' },
            undefined,
            path,
            file,
            'y://document/',
          );
          expect(JSON.stringify(other)).toBe(JSON.stringify({ ...formerContent, digest: other.digest }));
          expect(other.uri).toBe(uri);
          const derived = readDerived(entry);
          expect(derived.content).toBe(content);
          expect(derived.resource).toBe(resource);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a parse keeps the entry derived from it, and neither its value nor its packed form carries it', () => {
    const bytes = encoder.encode(documentText('Title', 'A description.', 'When.', ['one']));
    const file = { path: 'knowledge/documents/team/a.md', bytes, mtimeMs: 1 };
    const d = readDocument(file).document!;
    const before = { ...d };
    const packed = JSON.stringify(packDocumentRead(d));
    expect(readDerivedEntry(d)).toBeUndefined();
    const entry = { made: 1 };
    attachDerivedEntry(d, entry);
    expect(readDerivedEntry(d)).toBe(entry);
    expect({ ...d }).toEqual(before);
    expect(Object.keys(d)).toEqual(Object.keys(before));
    expect(JSON.stringify(packDocumentRead(d))).toBe(packed);
    // Another parse of the same bytes (another builder's, or one crossed from a thread) knows nothing of it.
    expect(readDerivedEntry(readDocument({ ...file, bytes: bytes.slice() }).document!)).toBeUndefined();
    const crossed = unpackDocumentRead(structuredClone(packDocumentRead(d)), bytes.slice()) as typeof d;
    expect({ ...crossed }).toEqual(before);
    expect(readDerivedEntry(crossed)).toBeUndefined();
    // A parse made elsewhere (plain data) records nothing and answers nothing.
    const plain = { ...d };
    attachDerivedEntry(plain, entry);
    expect(readDerivedEntry(plain)).toBeUndefined();
  });
});
