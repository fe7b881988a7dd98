/**
 * Containment probes over real HTTP. A SECRET marker sits outside the content root (in the project's parent
 * directory); symlinks inside the root point at it, before start and swapped in after. Every probe asserts an
 * error (or an empty completion) AND that the marker appears nowhere in any message the client received.
 */
import { randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogStore, createCatalogStore } from '../../src/fs/catalog-store.js';
import type { HttpServerHandle } from '../../src/mcp/serve-http.js';
import {
  connectHttp,
  expectRpcError,
  type McpConnection,
  rawRequest,
  repoRoot,
  startHttp,
} from '../helpers/mcp-client.js';
import { NOT_FOUND_PROBES } from './surface-suite.js';

/** In no response, ever. Probes search for WORD (only in the secret file), which a refusal may echo back. */
const SECRET_ID = randomUUID();
const WORD = 'zanzibarquux';
const MARKER = `root:x:0:0 TOP SECRET ${WORD} ${SECRET_ID}`;
const SWAPPED_DOCUMENT = 'knowledge/documents/any/hosts/codex.md';
const SWAPPED_DOCUMENT_URI = 'companion://guides/any/hosts/codex';
const SWAPPED_REFERENCE = 'skills/write-a-skill/references/checklist.md';
const SWAPPED_REFERENCE_URI = 'companion://skill/write-a-skill/references/checklist.md';

let outer: string;
let root: string;
let staticStore: CatalogStore;
let watchedStore: CatalogStore;
let staticServer: HttpServerHandle;
let watchedServer: HttpServerHandle;
let fixed: McpConnection;
let live: McpConnection;

const path = (relative: string) => join(root, ...relative.split('/'));

/** Replaces a file with a symlink to the secret, atomically (a rename over it, as an editor saves). */
function swapForSecretLink(relative: string): void {
  const temporary = `${path(relative)}.swap`;
  symlinkSync(join(outer, 'SECRET.txt'), temporary);
  renameSync(temporary, path(relative));
}

beforeAll(async () => {
  outer = mkdtempSync(join(tmpdir(), 'companion-mcp-secret-'));
  writeFileSync(join(outer, 'SECRET.txt'), `${MARKER}\n`);
  root = join(outer, 'project');
  for (const directory of ['knowledge', 'skills']) {
    cpSync(join(repoRoot, directory), join(root, directory), { recursive: true });
  }
  // Planted before start: a symlinked document (relative link up and out) and a symlinked skill file (absolute).
  symlinkSync('../../../../SECRET.txt', path('knowledge/documents/any/leak.md'));
  symlinkSync(join(outer, 'SECRET.txt'), path('skills/write-a-skill/references/leak.md'));
  symlinkSync(join(outer, 'SECRET.txt'), path('skills/leak-skill'));
  // A whole skill directory outside the root, linked in: valid front matter, the marker in its body.
  mkdirSync(join(outer, 'evil-skill'));
  writeFileSync(
    join(outer, 'evil-skill', 'SKILL.md'),
    `---\nname: evil-skill\ndescription: Looks like a skill. Use when probing.\n---\n\n# Evil\n\n${MARKER}\n`,
  );
  symlinkSync('../../evil-skill', path('skills/evil-skill'));

  staticStore = createCatalogStore({ root });
  watchedStore = createCatalogStore({ root });
  staticServer = await startHttp(staticStore);
  watchedServer = await startHttp(watchedStore);
  fixed = await connectHttp(staticServer.url, 'static');
  live = await connectHttp(watchedServer.url, 'watched');
});

afterAll(async () => {
  await fixed?.close();
  await live?.close();
  await staticServer?.close();
  await watchedServer?.close();
  if (outer) rmSync(outer, { recursive: true, force: true });
});

/** The marker is in no message either client has received so far. */
function expectNoLeak(): void {
  for (const connection of [fixed, live]) {
    for (const message of connection.wire) expect(message).not.toContain(SECRET_ID);
  }
}

describe('containment', () => {
  it('the escaping links are diagnosed at load and served nowhere', async () => {
    const problems = staticStore.snapshot().problems.map((problem) => `${problem.path}:${problem.kind}`);
    expect(problems).toContain('knowledge/documents/any/leak.md:symlink-escape');
    expect(problems).toContain('skills/write-a-skill/references/leak.md:symlink-escape');
    expect(problems).toContain('skills/evil-skill:symlink-escape');
    for (const connection of [fixed, live]) {
      const list = JSON.stringify(await connection.client.listResources());
      expect(list).not.toContain('leak');
      const index = await connection.client.readResource({ uri: 'companion://guides' });
      expect(JSON.stringify(index)).not.toContain('leak');
      const skill = await rawRequest(connection, 'skills/get', {
        uri: 'companion://skill/write-a-skill/SKILL.md',
      });
      expect(JSON.stringify(skill)).not.toContain('leak');
    }
    expectNoLeak();
  });

  it('traversal, encoded, absolute, backslash, NUL and overlong URIs read as not found', async () => {
    const probes = [
      ...NOT_FOUND_PROBES,
      'companion://guides/any/leak',
      'companion://guides/any/leak.md',
      'companion://skill/write-a-skill/references/leak.md',
      'companion://skill/leak-skill/SKILL.md',
      'companion://skill/evil-skill/SKILL.md',
      'companion://skill/evil-skill/references/base.md',
      `companion://guides/${join(outer, 'SECRET.txt')}`,
      `companion://guides/../../../..${join(outer, 'SECRET.txt')}`,
      `file://${join(outer, 'SECRET.txt')}`,
      join(outer, 'SECRET.txt'),
      'companion://guides/..%2F..%2F..%2FSECRET.txt',
      'companion://guides/%2e%2e%5c%2e%2e%5cSECRET.txt',
    ];
    for (const connection of [fixed, live]) {
      for (const uri of probes) {
        const error = await expectRpcError(connection.client.readResource({ uri }));
        expect(error.code, uri).toBe(-32602);
        expect(error.message).toBe(`Resource not found: ${uri}`);
      }
    }
    expectNoLeak();
  });

  it('tools refuse traversal ids and names, and a search never finds the secret', async () => {
    for (const connection of [fixed, live]) {
      const { client } = connection;
      for (const documentId of [
        'any/leak',
        '../../SECRET',
        '../../../SECRET.txt',
        join(outer, 'SECRET.txt'),
      ]) {
        const result = await client.callTool({ name: 'document_lookup', arguments: { documentId } });
        expect(result.isError, documentId).toBe(true);
      }
      for (const name of ['leak-skill', 'evil-skill', '../..', '../../SECRET.txt', 'write-a-skill/../..']) {
        const result = await client.callTool({ name: 'skill_load', arguments: { name } });
        expect(result.isError, name).toBe(true);
      }
      const search = await client.callTool({ name: 'document_lookup', arguments: { query: WORD } });
      expect(search.isError).toBe(true);
      const guide = await client.callTool({
        name: 'task_guide',
        arguments: { task: `read the ${WORD} leak` },
      });
      expect(JSON.stringify(guide)).not.toContain('leak.md');
    }
    expectNoLeak();
  });

  it('completion never offers an escaping file, another directory or a traversal', async () => {
    const skillTemplate = { type: 'ref/resource' as const, uri: 'companion://skill/{skillId}/{+path}' };
    const documentTemplate = { type: 'ref/resource' as const, uri: 'companion://guides/{+documentId}' };
    for (const connection of [fixed, live]) {
      const { client } = connection;
      const documents = await client.complete({
        ref: documentTemplate,
        argument: { name: 'documentId', value: '' },
      });
      expect(documents.completion.values).not.toContain('any/leak');
      for (const value of ['l', 'e']) {
        const skills = await client.complete({ ref: skillTemplate, argument: { name: 'skillId', value } });
        expect(skills.completion.values).toEqual([]);
      }
      const files = await client.complete({
        ref: skillTemplate,
        argument: { name: 'path', value: '' },
        context: { arguments: { skillId: 'write-a-skill' } },
      });
      expect(files.completion.values).not.toContain('references/leak.md');
      for (const [skillId, value] of [
        ['..', ''],
        ['write-a-skill', '../'],
        ['write-a-skill', '/'],
        ['leak-skill', ''],
        ['write-a-skill/../..', ''],
      ] as const) {
        const probe = await client.complete({
          ref: skillTemplate,
          argument: { name: 'path', value },
          context: { arguments: { skillId } },
        });
        expect(probe.completion.values, `${skillId} ${value}`).toEqual([]);
      }
    }
    expectNoLeak();
  });

  it('a file swapped for an escaping link after start: the unwatched server keeps its bytes, the watched one refuses it', async () => {
    const servedBefore = await fixed.client.readResource({ uri: SWAPPED_DOCUMENT_URI });
    const referenceBefore = await fixed.client.readResource({ uri: SWAPPED_REFERENCE_URI });
    swapForSecretLink(SWAPPED_DOCUMENT);
    swapForSecretLink(SWAPPED_REFERENCE);

    // serve without --watch: the generation read at startup, byte for byte.
    expect(await fixed.client.readResource({ uri: SWAPPED_DOCUMENT_URI })).toEqual(servedBefore);
    expect(await fixed.client.readResource({ uri: SWAPPED_REFERENCE_URI })).toEqual(referenceBefore);
    const whole = await fixed.client.callTool({
      name: 'document_lookup',
      arguments: { documentId: 'any/hosts/codex' },
    });
    expect(whole.isError).toBeFalsy();

    // A watched store re-reads what changed; the loader refuses the escaping links, so nothing is served.
    const change = watchedStore.applyChanges([SWAPPED_DOCUMENT, SWAPPED_REFERENCE]);
    expect(change).toBeDefined();
    for (const uri of [SWAPPED_DOCUMENT_URI, SWAPPED_REFERENCE_URI]) {
      const error = await expectRpcError(live.client.readResource({ uri }));
      expect(error.code).toBe(-32602);
      expect(error.data).toEqual({ uri });
    }
    const refused = await live.client.callTool({
      name: 'document_lookup',
      arguments: { documentId: 'any/hosts/codex' },
    });
    expect(refused.isError).toBe(true);
    const manifest = await rawRequest(live, 'skills/get', {
      uri: 'companion://skill/write-a-skill/SKILL.md',
    });
    expect(JSON.stringify(manifest)).not.toContain('references/checklist.md');
    const search = await live.client.callTool({ name: 'document_lookup', arguments: { query: WORD } });
    expect(search.isError).toBe(true);
    expectNoLeak();
  });
});
