/**
 * The index's served content holds its size and digest, not its bytes: each read builds the text again from the
 * catalog's lists, and what a read returns is exactly what the size and digest say, in every generation of an
 * incremental builder, including one whose index did not change (the facts kept, the lists new).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCatalogBuilder } from '../../../src/core/catalog.js';
import type { BuildResult, ServedContent } from '../../../src/core/types.js';
import { buildSnapshot, readFixture } from '../../helpers/snapshot.js';

const valid = readFixture('valid');
const FIRST = 'knowledge/documents/any/guides/first.md';

function indexOf(result: BuildResult): ServedContent {
  const { catalog } = result;
  return catalog.contents.get(catalog.indexUri)!;
}

/** What a read returns matches what the listing and the diff were told. */
function expectExact(content: ServedContent): void {
  const bytes = content.bytes;
  expect(bytes.byteLength).toBe(content.size);
  expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`).toBe(content.digest);
  expect(content.text).toBe(new TextDecoder().decode(bytes));
}

describe('the index content', () => {
  it('builds its bytes at each read and holds none of them', () => {
    const index = indexOf(createCatalogBuilder().build(buildSnapshot(valid)));
    expectExact(index);
    const first = index.bytes;
    const second = index.bytes;
    expect(second).not.toBe(first);
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    expect(JSON.parse(index.text!).documents.map((d: { id: string }) => d.id)).toContain('any/guides/first');
  });

  it('reads the kept digest after a generation whose index did not change', () => {
    const builder = createCatalogBuilder();
    const before = indexOf(builder.build(buildSnapshot(valid)));
    const edited = { ...valid, [FIRST]: `${valid[FIRST]}\nA paragraph the index does not show.\n` };
    const after = indexOf(builder.update(buildSnapshot(edited), [FIRST]));
    // A new content over the new lists (the old ones are not kept alive), with the facts measured before.
    expect(after).not.toBe(before);
    expect(after.digest).toBe(before.digest);
    expect(after.size).toBe(before.size);
    expectExact(after);
  });

  it.each([
    ['now', {}],
    ['at the first ask (once)', { once: true }],
  ])('lists the size a read returns, measured %s, in the listing as in its JSON', (_, options) => {
    const { catalog } = createCatalogBuilder(options).build(buildSnapshot(valid));
    const listed = catalog.resources.find((r) => r.uri === catalog.indexUri)!;
    const index = indexOf({ catalog, diagnostics: [] });
    const size = index.bytes.byteLength;
    expect(listed.size).toBe(size);
    expect(JSON.parse(JSON.stringify(listed))).toEqual({ ...listed, size });
    expect(Object.keys(listed)).toEqual([
      'uri',
      'name',
      'title',
      'description',
      'mimeType',
      'size',
      'annotations',
    ]);
    expectExact(index);
  });

  it('measures again when the index changed, and reads what it measured', () => {
    const builder = createCatalogBuilder();
    const before = indexOf(builder.build(buildSnapshot(valid)));
    const edited = {
      ...valid,
      [FIRST]: valid[FIRST]!.replace('# First guide', '# The first guide, renamed'),
    };
    const after = indexOf(builder.update(buildSnapshot(edited), [FIRST]));
    expect(after.digest).not.toBe(before.digest);
    expectExact(after);
    expect(after.text).toContain('"title": "The first guide, renamed"');
    // The content of the generation before still reads its own bytes: its lists are that generation's.
    expectExact(before);
  });
});
