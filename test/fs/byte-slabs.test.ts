import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ByteSlabs, SLAB_BYTES, SLAB_FILE_MAX } from '../../src/fs/byte-slabs.js';
import { createCatalogStore } from '../../src/fs/catalog-store.js';
import { connectInMemory } from '../helpers/mcp-client.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';
import { fakeBuildCatalog } from './fake-catalog.js';

let projects: TempProject[] = [];
afterEach(() => {
  for (const created of projects) created.cleanup();
  projects = [];
});

const BINARY_PATH = 'skills/demo/assets/pixel.png';

describe('ByteSlabs', () => {
  it('hands out views of exactly the bytes placed, back to back, and a large or empty file none', () => {
    const slabs = new ByteSlabs();
    const a = slabs.copy('a', Buffer.from('alpha'));
    const b = slabs.copy('b', Buffer.from('bravo!'));
    expect(Buffer.from(a).toString()).toBe('alpha');
    expect(Buffer.from(b).toString()).toBe('bravo!');
    expect(b.buffer).toBe(a.buffer);
    expect(b.byteOffset).toBe(a.byteOffset + a.byteLength);
    expect(slabs.slabs).toEqual([{ buffer: a.buffer, paths: ['a', 'b'], used: 11, live: 11 }]);
    slabs.discard(a);
    expect(slabs.slabs[0]!.live).toBe(6);
    expect(slabs.reserve(SLAB_FILE_MAX + 1)).toBeUndefined();
    expect(slabs.reserve(0)).toBeUndefined();
    const big = slabs.copy('big', new Uint8Array(SLAB_FILE_MAX + 1));
    expect(big.buffer).not.toBe(a.buffer);
    expect(big.buffer.byteLength).toBe(SLAB_FILE_MAX + 1);
  });

  it('shared, places bytes in SharedArrayBuffers another thread can read in place, the same bytes as unshared', () => {
    const shared = new ByteSlabs(undefined, true);
    const plain = new ByteSlabs();
    const a = shared.copy('a', Buffer.from('alpha'));
    const b = shared.copy('b', Buffer.from('bravo!'));
    expect(a.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(b.buffer).toBe(a.buffer);
    expect(plain.copy('a', Buffer.from('alpha')).buffer).toBeInstanceOf(ArrayBuffer);
    expect(new TextDecoder('utf-8', { fatal: true }).decode(b)).toBe('bravo!');
    expect(createHash('sha256').update(a).digest('hex')).toBe(
      createHash('sha256').update('alpha').digest('hex'),
    );
  });

  it('opens a new slab when the next file does not fit, never splitting one', () => {
    const slabs = new ByteSlabs();
    const file = new Uint8Array(SLAB_FILE_MAX).fill(1);
    const count = Math.floor(SLAB_BYTES / SLAB_FILE_MAX) + 1;
    const views = Array.from({ length: count }, (_, i) => slabs.copy(`f${i}`, file));
    expect(slabs.slabs).toHaveLength(2);
    expect(views.at(-1)!.buffer).toBe(slabs.slabs[1]!.buffer);
    expect(views.at(-1)!.byteOffset).toBe(0);
    for (const view of views) expect(view.every((byte) => byte === 1)).toBe(true);
  });
  it('puts a file into the first open slab with room, so a file that does not fit leaves no hole unused', () => {
    const slabs = new ByteSlabs();
    const nearlyFull = SLAB_BYTES - 100;
    let used = 0;
    while (used + SLAB_FILE_MAX <= nearlyFull) {
      slabs.copy(`f${used}`, new Uint8Array(SLAB_FILE_MAX));
      used += SLAB_FILE_MAX;
    }
    slabs.copy('rest', new Uint8Array(nearlyFull - used));
    const big = slabs.copy('big', new Uint8Array(200));
    const small = slabs.copy('small', new Uint8Array(60));
    expect(slabs.slabs).toHaveLength(2);
    expect(big.buffer).toBe(slabs.slabs[1]!.buffer);
    expect(small.buffer).toBe(slabs.slabs[0]!.buffer);
    expect(slabs.slabs[0]!.used).toBe(SLAB_BYTES - 40);
  });

  it('makes slabs of the size asked for, or of one file when that is larger', () => {
    const slabs = new ByteSlabs(10);
    const a = slabs.copy('a', new Uint8Array(6));
    const b = slabs.copy('b', new Uint8Array(4));
    const c = slabs.copy('c', new Uint8Array(12));
    expect(a.buffer.byteLength).toBe(10);
    expect(b.buffer).toBe(a.buffer);
    expect(c.buffer.byteLength).toBe(12);
  });
});

describe('bytes in slabs, as the store serves them', () => {
  it('serves a binary file that shares its slab with its neighbours as exactly its own bytes, with their SHA-256 and size', async () => {
    const p = copyFixture('fs-basic');
    projects.push(p);
    const png = fs.readFileSync(
      new URL('../fixtures/mcp-extra/skills/write-a-skill/assets/pixel.png', import.meta.url),
    );
    // Neighbours on both sides in walk order: assets/a.md, assets/pixel.png, assets/z.md.
    p.write('skills/demo/assets/a.md', 'before the image\n');
    p.write(BINARY_PATH, png);
    p.write('skills/demo/assets/z.md', 'after the image\n');
    const store = createCatalogStore({ root: p.root });
    const files = store.snapshot().files;
    const held = files.get(BINARY_PATH)!.bytes;
    // The case under test: the image is a view inside a slab that holds its neighbours' bytes on both sides.
    for (const neighbour of ['skills/demo/assets/a.md', 'skills/demo/assets/z.md']) {
      expect(files.get(neighbour)!.bytes.buffer).toBe(held.buffer);
    }
    expect(files.get('skills/demo/assets/a.md')!.bytes.byteOffset).toBeLessThan(held.byteOffset);
    expect(files.get('skills/demo/assets/z.md')!.bytes.byteOffset).toBeGreaterThan(held.byteOffset);

    const manifest = store.current().catalog.skills.find((skill) => skill.id === 'demo')!.manifest;
    const entry = manifest.find((file) => file.uri.endsWith('/demo/assets/pixel.png'))!;
    expect(entry.size).toBe(png.byteLength);
    expect(entry.digest).toBe(`sha256:${createHash('sha256').update(png).digest('hex')}`);
    const connection = await connectInMemory(store);
    try {
      const result = await connection.client.readResource({ uri: entry.uri });
      const content = result.contents[0] as { blob?: string; mimeType?: string };
      expect(content.mimeType).toBe('image/png');
      expect(Buffer.from(content.blob!, 'base64').equals(png)).toBe(true);
    } finally {
      await connection.close();
    }
  });

  /** A skill with 40 references of ~1 KB, all in one slab with the rest of the tree. */
  function references(): { p: TempProject; paths: string[] } {
    const p = copyFixture('fs-basic');
    projects.push(p);
    const paths = Array.from(
      { length: 40 },
      (_, i) => `skills/demo/references/r${String(i).padStart(2, '0')}.md`,
    );
    for (const [i, path] of paths.entries()) p.write(path, `# R${i}\n${'x'.repeat(1000)}\n`);
    return { p, paths };
  }

  it('keeps a slab while at least half of its bytes are current, and reports only what was edited', () => {
    const { p, paths } = references();
    const store = createCatalogStore({ root: p.root, buildCatalog: fakeBuildCatalog });
    const before = store.snapshot().files;
    const slab = before.get(paths[0]!)!.bytes.buffer;
    expect(before.get(paths[39]!)!.bytes.buffer).toBe(slab);
    const edited = paths.slice(0, 19);
    for (const path of edited) p.write(path, `# edited ${path}\n`);
    const change = store.applyChanges(edited)!;
    expect(change.changedPaths).toEqual(edited);
    const after = store.snapshot().files;
    for (const [path, file] of after) {
      if (edited.includes(path)) expect(file.bytes.buffer).not.toBe(slab);
      else expect(file).toBe(before.get(path));
    }
  });

  it('moves the survivors of a slab that is mostly dead into a new one, same bytes, not reported as changed', () => {
    const { p, paths } = references();
    const store = createCatalogStore({ root: p.root });
    const before = store.snapshot().files;
    const slab = before.get(paths[0]!)!.bytes.buffer;
    const edited = paths.slice(0, 25);
    for (const path of edited) p.write(path, `# edited ${path}\n`);
    const change = store.applyChanges(edited)!;
    expect(change.changedPaths).toEqual(edited);
    expect(change.files!.map((file) => file.path)).toEqual(edited);
    // Only the edited files changed for a host: the moved ones are the same bytes under the same digests.
    expect(change.updatedUris.filter((uri) => uri.endsWith('.md') && uri.includes('/references/'))).toEqual(
      change.updatedUris.filter((uri) => edited.some((path) => uri.endsWith(path.slice('skills/'.length)))),
    );
    expect(change.updatedUris.some((uri) => uri.endsWith('/r30.md'))).toBe(false);
    expect(change.updatedUris.some((uri) => uri.endsWith('/r00.md'))).toBe(true);
    const after = store.snapshot().files;
    for (const [path, file] of after) {
      expect(file.bytes.buffer).not.toBe(slab);
      expect(Buffer.from(file.bytes).equals(fs.readFileSync(p.path(path)))).toBe(true);
      if (!edited.includes(path)) expect(file.mtimeMs).toBe(before.get(path)!.mtimeMs);
    }
  });
});
