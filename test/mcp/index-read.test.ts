/**
 * The index holds no bytes between reads: a build keeps its size and digest, a read builds the text again from
 * the catalog's lists. Over real HTTP and an SDK client, on the bundled content edited on disk as a watcher would
 * hand it over: every read returns exactly the bytes whose size `resources/list` listed and whose SHA-256 the
 * catalog holds, before any edit, after an edit that leaves the index alone and after one that changes it.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogStore, createCatalogStore } from '../../src/fs/catalog-store.js';
import type { HttpServerHandle } from '../../src/mcp/serve-http.js';
import { connectHttp, listAllResources, type McpConnection, startHttp } from '../helpers/mcp-client.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';

const DOCUMENT = 'knowledge/documents/any/hosts/codex.md';

describe('the index read over a real client', () => {
  let project: TempProject;
  let store: CatalogStore;
  let server: HttpServerHandle;
  let host: McpConnection;

  beforeAll(async () => {
    project = copyFixture('', { bundled: true, prefix: 'companion-mcp-index-' });
    store = createCatalogStore({ root: project.root });
    server = await startHttp(store);
    host = await connectHttp(server.url, 'index-reader');
  });

  afterAll(async () => {
    await host?.close();
    await server?.close();
    project?.cleanup();
  });

  /** The index as read, its listed size, and the digest the catalog holds for it. */
  async function readIndex(): Promise<{ bytes: Buffer; listedSize: number | undefined; digest: string }> {
    const { catalog } = store.current();
    const { resources } = await listAllResources(host);
    const listed = resources.find((resource) => resource.uri === catalog.indexUri);
    const read = await host.client.readResource({ uri: catalog.indexUri });
    const [content] = read.contents;
    if (content === undefined || !('text' in content)) throw new Error('the index read returned no text');
    return {
      bytes: Buffer.from(content.text, 'utf8'),
      listedSize: listed?.size,
      digest: catalog.contents.get(catalog.indexUri)!.digest,
    };
  }

  function expectExact(read: { bytes: Buffer; listedSize: number | undefined; digest: string }): void {
    expect(read.bytes.byteLength).toBe(read.listedSize);
    expect(`sha256:${createHash('sha256').update(read.bytes).digest('hex')}`).toBe(read.digest);
    expect(() => JSON.parse(read.bytes.toString('utf8'))).not.toThrow();
  }

  function edit(change: (text: string) => string): ReturnType<CatalogStore['applyChanges']> {
    const path = project.path(DOCUMENT);
    writeFileSync(path, change(readFileSync(path, 'utf8')));
    return store.applyChanges([DOCUMENT]);
  }

  it('returns the listed bytes before and after edits that keep and that change the index', async () => {
    const first = await readIndex();
    expectExact(first);
    expect(first.bytes.toString('utf8')).toContain('"title": "Connecting Codex"');

    // A body edit: the document's entry in the index is the same, so the index's text is too.
    const kept = edit((text) => `${text}\nOne more paragraph, which the index does not show.\n`);
    expect(kept?.updatedUris).toBeDefined();
    expect(kept!.updatedUris).not.toContain(store.current().catalog.indexUri);
    const afterBody = await readIndex();
    expectExact(afterBody);
    expect(afterBody.digest).toBe(first.digest);
    expect(afterBody.bytes.equals(first.bytes)).toBe(true);

    // A title edit: the index names the document by its title, so it changes, and a read says so.
    const changed = edit((text) => text.replace('# Connecting Codex', '# Connecting OpenAI Codex'));
    expect(changed!.updatedUris).toContain(store.current().catalog.indexUri);
    const afterTitle = await readIndex();
    expectExact(afterTitle);
    expect(afterTitle.digest).not.toBe(first.digest);
    expect(afterTitle.bytes.toString('utf8')).toContain('"title": "Connecting OpenAI Codex"');
  });
});
