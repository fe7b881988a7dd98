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

const BINARY_PATH = 'skills/write-a-skill/assets/pixel.png';
const BINARY_URI = 'companion://skill/write-a-skill/assets/pixel.png';

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
});

describe('bytes in slabs, as the store serves them', () => {
  it('serves a binary file that shares its slab with its neighbours as exactly its own bytes, with their SHA-256 and size', async () => {
    const p = copyFixture('mcp-extra', { bundled: true });
    projects.push(p);
    const store = createCatalogStore({ root: p.root });
    const onDisk = fs.readFileSync(p.path(BINARY_PATH));
    const held = store.snapshot().files.get(BINARY_PATH)!.bytes;
    // The case under test: the asset is a view inside a slab that holds other files' bytes on both sides.
    const neighbours = [...store.snapshot().files.values()].filter(
      (file) => file.path !== BINARY_PATH && file.bytes.buffer === held.buffer,
    );
    expect(neighbours.some((file) => file.bytes.byteOffset < held.byteOffset)).toBe(true);
    expect(neighbours.some((file) => file.bytes.byteOffset > held.byteOffset)).toBe(true);

    const connection = await connectInMemory(store);
    try {
      const result = await connection.client.readResource({ uri: BINARY_URI });
      const content = result.contents[0] as { blob?: string };
      expect(Buffer.from(content.blob!, 'base64').equals(onDisk)).toBe(true);
    } finally {
      await connection.close();
    }
    const manifest = store.current().catalog.skills.find((skill) => skill.id === 'write-a-skill')!.manifest;
    const entry = manifest.find((file) => file.uri === BINARY_URI)!;
    expect(entry.size).toBe(onDisk.byteLength);
    expect(entry.digest).toBe(`sha256:${createHash('sha256').update(onDisk).digest('hex')}`);
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
