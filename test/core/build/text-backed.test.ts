/**
 * The catalog values whose text is read when asked behave as the plain objects they stand for: the same keys in
 * the same order, each an own enumerable property, so they spread, compare and serialize alike; and the
 * accessors are shared by every object (one getter, not one per object).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  buildJoinedDescriptionResource,
  buildManifestEntry,
  buildTextBackedContent,
  buildTextBackedDocument,
  readPackedDigest,
} from '../../../src/core/build/text-backed.js';
import { FileText, packDigest } from '../../../src/core/content.js';
import type { ServedContent } from '../../../src/core/types.js';

const encoder = new TextEncoder();
const TEXT = '---\ntitle: T\n---\n# Title\n\nIntro.\n\n## Usage\n\nRun it.\n';
const BODY_START = TEXT.indexOf('# Title');
const DIGEST_A = `sha256:${'0a'.repeat(32)}`;
const DIGEST_B = `sha256:${'1b'.repeat(32)}`;

/** Served text content at `uri` handed no digest (it makes its own when asked). */
function buildUnhashedContent(uri: string, bytes: Uint8Array): ServedContent {
  const size = { size: bytes.byteLength };
  return buildTextBackedContent(
    { uri, mimeType: 'text/markdown', bytes },
    new FileText(bytes),
    undefined,
    size,
    'a.md',
    1,
  );
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
  it('a document entry: its fields, then body and sections read from the text', () => {
    const make = (id: string) =>
      buildTextBackedDocument(
        {
          id,
          uri: `x://document/${id}`,
          path: `knowledge/documents/${id}.md`,
          title: 'Title',
          scope: 'team',
          description: 'D.',
          whenToUse: 'W.',
          fields: {},
        },
        new FileText(encoder.encode(TEXT)),
        BODY_START,
        [
          {
            heading: 'Usage',
            headingAt: TEXT.indexOf('## Usage'),
            line: 8,
            from: TEXT.indexOf('Run it.'),
            to: TEXT.length - 1,
          },
        ],
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
    expect(accessorsOf(a, ['body', 'sections'])).toEqual(accessorsOf(b, ['body', 'sections']));
  });

  it('served content: head, then text, then tail, in that order', () => {
    const make = (uri: string, digest: string, tail: object) =>
      buildTextBackedContent(
        { uri, mimeType: 'text/markdown', bytes: encoder.encode(TEXT) },
        new FileText(encoder.encode(TEXT)),
        packDigest(digest),
        tail as { size: number },
        'knowledge/documents/a.md',
        1,
      );
    const a = make('x://a', DIGEST_A, { size: 3, lastModified: '2026-12-01T00:00:00.000Z' });
    const b = make('x://b', DIGEST_B, { size: 4 });
    expect(Object.keys(a)).toEqual(['uri', 'mimeType', 'bytes', 'text', 'digest', 'size', 'lastModified']);
    expect(Object.keys(b)).toEqual(['uri', 'mimeType', 'bytes', 'text', 'digest', 'size']);
    expect(a.text).toBe(TEXT);
    expect({ ...a }).toEqual({
      uri: 'x://a',
      mimeType: 'text/markdown',
      bytes: encoder.encode(TEXT),
      text: TEXT,
      digest: DIGEST_A,
      size: 3,
      lastModified: '2026-12-01T00:00:00.000Z',
    });
    expect(accessorsOf(a, ['text', 'digest'])).toEqual(accessorsOf(b, ['text', 'digest']));
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

  it('a listed resource: head, then the joined description, then tail', () => {
    const join = (parts: readonly (string | undefined)[]) => parts.filter(Boolean).join(' ');
    const make = (uri: string) =>
      buildJoinedDescriptionResource(
        { uri, name: 'n', title: 't' },
        ['One.', undefined, 'Three.'],
        join,
        { mimeType: 'text/markdown', size: 9 },
        { priority: 0.5 },
      );
    const a = make('x://a');
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
    expect(a.annotations).toEqual({ priority: 0.5 });
    expect(accessorsOf(a, ['description', 'annotations'])).toEqual(
      accessorsOf(make('x://b'), ['description', 'annotations']),
    );
  });
});
