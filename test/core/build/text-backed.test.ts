/**
 * The catalog values whose text is read when asked behave as the plain objects they stand for: the same keys in
 * the same order, each an own enumerable property, so they spread, compare and serialize alike; and the
 * accessors are shared by every object (one getter, not one per object). Both modules of them:
 * src/core/build/text-backed.ts (entries, listed resources) and text-backed-content.ts (served content, manifest
 * entries).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  attachResource,
  buildDocumentResource,
  buildTextBackedDocument,
  readDerived,
} from '../../../src/core/build/text-backed.js';
import {
  buildContentsForm,
  buildManifestEntry,
  buildTextBackedContent,
  readPackedDigest,
} from '../../../src/core/build/text-backed-content.js';
import { packDigest } from '../../../src/core/content.js';
import type { ServedContent } from '../../../src/core/types.js';

const encoder = new TextEncoder();
const TEXT = '---\ntitle: T\n---\n# Title\n\nIntro.\n\n## Usage\n\nRun it.\n';
const BODY_START = TEXT.indexOf('# Title');
const DIGEST_A = `sha256:${'0a'.repeat(32)}`;
const DIGEST_B = `sha256:${'1b'.repeat(32)}`;

/** Served text content at `uri` handed no digest (it makes its own when asked). */
function buildUnhashedContent(uri: string, bytes: Uint8Array): ServedContent {
  return buildTextBackedContent({ uri, mimeType: 'text/markdown' }, undefined, 'a.md', {
    path: 'a.md',
    bytes,
    mtimeMs: 1,
  });
}

const sha256 = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** The accessors of `value` by key: each must be own, enumerable and have a getter. */
function accessorsOf(value: object, keys: readonly string[]): (() => unknown)[] {
  return keys.map((key) => {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    expect(descriptor?.enumerable).toBe(true);
    expect(typeof descriptor?.get).toBe('function');
    return descriptor!.get!;
  });
}

describe('text-backed values', () => {
  it("a document entry: its parse's fields, then body and sections read from the text", () => {
    const make = (id: string) =>
      buildTextBackedDocument(
        {
          id,
          path: `knowledge/documents/${id}.md`,
          scope: 'team',
          title: 'Title',
          description: 'D.',
          whenToUse: 'W.',
          bodyStart: BODY_START,
          sections: [
            {
              heading: 'Usage',
              headingAt: TEXT.indexOf('## Usage'),
              line: 8,
              from: TEXT.indexOf('Run it.'),
              to: TEXT.length - 1,
            },
          ],
        },
        {},
        buildUnhashedContent(`x://document/${id}`, encoder.encode(TEXT)),
      );
    const a = make('team/a');
    const b = make('team/b');
    expect(Object.keys(a)).toEqual([
      'id',
      'uri',
      'path',
      'title',
      'scope',
      'description',
      'whenToUse',
      'fields',
      'body',
      'sections',
    ]);
    expect(a.body).toBe(TEXT.slice(BODY_START));
    expect(a.sections).toEqual([{ heading: 'Usage', line: 8, body: 'Run it.' }]);
    const plain = { ...a };
    expect(Object.keys(plain)).toEqual(Object.keys(a));
    expect(JSON.stringify(a)).toBe(JSON.stringify(plain));
    expect(a.title).toBe('Title');
    expect(a.description).toBe('D.');
    expect(a.whenToUse).toBe('W.');
    expect([a.id, a.path, a.scope]).toEqual(['team/a', 'knowledge/documents/team/a.md', 'team']);
    expect(a.uri).toBe('x://document/team/a');
    const keys = ['id', 'uri', 'path', 'title', 'scope', 'description', 'whenToUse', 'body', 'sections'];
    expect(accessorsOf(a, keys)).toEqual(accessorsOf(b, keys));
  });

  it('served content: head, then text, digest, size and lastModified, in that order', () => {
    const make = (uri: string, digest: string, text: string, mtimeMs: number) => {
      const bytes = encoder.encode(text);
      return buildTextBackedContent(
        { uri, mimeType: 'text/markdown' },
        packDigest(digest),
        'knowledge/documents/a.md',
        { path: 'knowledge/documents/a.md', bytes, mtimeMs },
      );
    };
    const a = make('x://a', DIGEST_A, TEXT, Date.parse('2026-12-01T00:00:00.000Z'));
    // No time a host can be told: no lastModified, as formatTime answers.
    const b = make('x://b', DIGEST_B, 'abcd', 0);
    expect(Object.keys(a)).toEqual(['uri', 'mimeType', 'bytes', 'text', 'digest', 'size', 'lastModified']);
    expect(Object.keys(b)).toEqual(['uri', 'mimeType', 'bytes', 'text', 'digest', 'size']);
    expect(a.text).toBe(TEXT);
    expect({ ...a }).toEqual({
      uri: 'x://a',
      mimeType: 'text/markdown',
      bytes: encoder.encode(TEXT),
      text: TEXT,
      digest: DIGEST_A,
      size: encoder.encode(TEXT).byteLength,
      lastModified: '2026-12-01T00:00:00.000Z',
    });
    expect(b.size).toBe(4);
    const keys = ['bytes', 'text', 'digest', 'size'];
    expect(accessorsOf(a, keys)).toEqual(accessorsOf(b, keys));
    expect(accessorsOf(a, ['lastModified'])).toEqual(
      accessorsOf(make('x://c', DIGEST_B, 'abcd', 1), ['lastModified']),
    );
  });

  it("a manifest entry: uri, then the content's digest read when asked, then size", () => {
    const bytes = encoder.encode(TEXT);
    const content = buildUnhashedContent('x://s/SKILL.md', bytes);
    const a = buildManifestEntry('x://s/SKILL.md', content);
    const b = buildManifestEntry('x://s/references/r.md', content);
    expect(Object.keys(a)).toEqual(['uri', 'digest', 'size']);
    expect(readPackedDigest(content)).toBeUndefined();
    const digest = sha256(bytes);
    expect({ ...a }).toEqual({ uri: 'x://s/SKILL.md', digest, size: bytes.byteLength });
    expect(JSON.parse(JSON.stringify(b))).toEqual({
      uri: 'x://s/references/r.md',
      digest,
      size: bytes.byteLength,
    });
    expect(accessorsOf(a, ['digest'])).toEqual(accessorsOf(b, ['digest']));
  });

  it('served content handed no digest makes the SHA-256 of its bytes when first asked, and keeps it', () => {
    for (const text of [TEXT, '', 'ünïcode — text\n', 'x'.repeat(20_000)]) {
      const bytes = encoder.encode(text);
      const content = buildUnhashedContent('x://c', bytes);
      // Nothing made yet: what a rebuild hands over to the next content for the same bytes is "not made".
      expect(readPackedDigest(content)).toBeUndefined();
      const digest = sha256(bytes);
      expect(content.digest).toBe(digest);
      expect(readPackedDigest(content)).toBe(packDigest(digest));
      expect({ ...content }.digest).toBe(digest);
    }
  });

  it('a listed resource: every field read from its entry and its scope, the description joined', () => {
    const bytes = encoder.encode('123456789');
    const make = (id: string) => {
      const content = buildTextBackedContent(
        { uri: `x://${id}`, mimeType: 'text/markdown' },
        packDigest(DIGEST_A),
        `knowledge/documents/${id}.md`,
        { path: `knowledge/documents/${id}.md`, bytes, mtimeMs: Date.parse('2026-12-01T00:00:00.000Z') },
      );
      const described = {
        id,
        path: `knowledge/documents/${id}.md`,
        scope: 's',
        title: 't',
        description: ' One.  ',
        bodyStart: 0,
        sections: [],
      };
      const entry = buildTextBackedDocument(described, {}, content);
      const resource = buildDocumentResource(entry, { sentence: 'Three.', priority: 0.5 });
      attachResource(entry, resource);
      expect(readDerived(entry)).toEqual({ content, resource });
      expect(readDerived(entry).resource).toBe(resource);
      return resource;
    };
    const a = make('n');
    expect(Object.keys(a)).toEqual([
      'uri',
      'name',
      'title',
      'description',
      'mimeType',
      'size',
      'annotations',
    ]);
    expect(a.description).toBe('One. Three.');
    expect(JSON.stringify(a)).toBe(JSON.stringify({ ...a }));
    expect(JSON.parse(JSON.stringify(a)).description).toBe('One. Three.');
    expect(a.annotations).toEqual({ priority: 0.5, lastModified: '2026-12-01T00:00:00.000Z' });
    expect({ ...a }).toEqual({
      uri: 'x://n',
      name: 'n',
      title: 't',
      description: 'One. Three.',
      mimeType: 'text/markdown',
      size: 9,
      annotations: { priority: 0.5, lastModified: '2026-12-01T00:00:00.000Z' },
    });
    const keys = ['uri', 'name', 'title', 'description', 'mimeType', 'size', 'annotations'];
    expect(accessorsOf(a, keys)).toEqual(accessorsOf(make('m'), keys));
  });

  it("contents' key form is one-to-one, and only a document's URI is kept as a file's path", () => {
    const prefix = 'fixture://guides/';
    const form = buildContentsForm(prefix);
    const keys = [
      'fixture://guides/any/a',
      'fixture://guides',
      'fixture://skill/s/SKILL.md',
      'knowledge/documents/any/a.md',
      '\u0000knowledge/documents/any/a.md',
      '\u0000',
      '',
      'fixture://guides/../x',
    ];
    const kept = keys.map((key) => form.kept(key));
    expect(new Set(kept).size).toBe(keys.length);
    for (const [i, key] of keys.entries()) expect(form.key(kept[i]!)).toBe(key);
    expect(kept[0]).toBe('knowledge/documents/any/a.md');
    // Only what starts with the documents' prefix is kept as a path; a path a client sends is kept escaped.
    const asPaths = keys.filter((_, i) => kept[i]!.startsWith('knowledge/documents/'));
    expect(asPaths).toEqual(['fixture://guides/any/a', 'fixture://guides/../x']);
  });
});
