/**
 * Containment inside the root: what an author's repository holds besides its content — `.env`, `.git/config`
 * (where CI checkouts keep a token), a private notes directory, another skill's files — never reaches a host,
 * through any door, even when a link or a hard link inside the content points at it. Every planted target is
 * written so that it *would* be served if the loader followed the link (a valid document, a valid skill), and
 * holds a marker; the suite then knocks on every door over stdio (the built CLI) and HTTP (an in-process
 * watched store), each in both protocol eras: resources/list and read, templates, completion, the three tools,
 * skills/list, skills/get and directory reads; then `companion install` (what lands in a host's skills
 * directory) and `companion check` (which names each link, with its root-relative target, under a permanent
 * code).
 */
import { randomUUID } from 'node:crypto';
import { linkSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogStore, createCatalogStore } from '../../src/fs/catalog-store.js';
import { createWatcher, type Watcher } from '../../src/fs/watcher.js';
import type { HttpServerHandle } from '../../src/mcp/serve-http.js';
import {
  connectHttp,
  connectStdio,
  expectRpcError,
  listAllResources,
  type McpConnection,
  rawRequest,
  startHttp,
} from '../helpers/mcp-client.js';
import { runCli } from '../helpers/run-cli.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';
import { listFiles } from '../install/helpers.js';

const MARKER = `zebracorn-${randomUUID()}`;
const SECRET_WORDS = 'zebracorn token credential';

/** A valid knowledge document holding the marker: served at once if a link to it were followed. */
const markedDocument = (what: string) =>
  `---\ndescription: ${what} ${SECRET_WORDS}.\n---\n\n# ${what}\n\nTOKEN=${MARKER} ${SECRET_WORDS}\n`;

/** Every planted path, the URI a host would read it by, and what `check` must say about it. */
const PLANTED = [
  {
    path: 'knowledge/documents/any/env.md',
    uri: 'companion://guides/any/env',
    code: 'CMP010',
    target: '.env',
  },
  {
    path: 'knowledge/documents/any/git-config.md',
    uri: 'companion://guides/any/git-config',
    code: 'CMP010',
    target: '.git/config',
  },
  {
    path: 'knowledge/documents/any/private.md',
    uri: 'companion://guides/any/private',
    code: 'CMP009',
    target: 'notes/private.md',
  },
  {
    path: 'knowledge/documents/any/hard.md',
    uri: 'companion://guides/any/hard',
    code: 'CMP011',
    target: undefined,
  },
  {
    path: 'skills/write-a-skill/references/env.md',
    uri: 'companion://skill/write-a-skill/references/env.md',
    code: 'CMP010',
    target: '.env',
  },
  {
    path: 'skills/write-a-skill/references/other-skill.md',
    uri: 'companion://skill/write-a-skill/references/other-skill.md',
    code: 'CMP009',
    target: 'skills/connect-a-host/SKILL.md',
  },
  {
    path: 'skills/write-a-skill/references/hard-env.md',
    uri: 'companion://skill/write-a-skill/references/hard-env.md',
    code: 'CMP011',
    target: undefined,
  },
  {
    path: 'skills/private-skill',
    uri: 'companion://skill/private-skill/SKILL.md',
    code: 'CMP009',
    target: 'private-skill',
  },
] as const;

const PLANTED_NAMES = ['env', 'git-config', 'private', 'hard', 'other-skill', 'hard-env', 'private-skill'];

let outer: string;
let project: TempProject;
let store: CatalogStore;
let watcher: Watcher;
let server: HttpServerHandle;
let http: McpConnection;
let stdio: McpConnection;
let httpModern: McpConnection;
let stdioModern: McpConnection;

beforeAll(async () => {
  outer = mkdtempSync(join(tmpdir(), 'companion-hardening-areas-outer-'));
  project = copyFixture('mcp-extra', { bundled: true, prefix: 'companion-hardening-areas-' });
  project.write('.env', markedDocument('Env'));
  project.write('.git/config', markedDocument('Git config'));
  project.write('notes/private.md', markedDocument('Private notes'));
  project.write(
    'private-skill/SKILL.md',
    `---\nname: private-skill\ndescription: Private. Use when probing ${SECRET_WORDS}.\n---\n\n# Private\n\n${MARKER}\n`,
  );
  project.symlink('../../../.env', 'knowledge/documents/any/env.md');
  project.symlink('../../../.git/config', 'knowledge/documents/any/git-config.md');
  project.symlink('../../../notes/private.md', 'knowledge/documents/any/private.md');
  project.symlink('../../../.env', 'skills/write-a-skill/references/env.md');
  project.symlink('../../connect-a-host/SKILL.md', 'skills/write-a-skill/references/other-skill.md');
  project.symlink('../private-skill', 'skills/private-skill');
  // Hard links: one to a file outside the root, one to the root's own .env.
  writeFileSync(join(outer, 'secret.md'), markedDocument('Outside'));
  linkSync(join(outer, 'secret.md'), project.path('knowledge/documents/any/hard.md'));
  linkSync(project.path('.env'), project.path('skills/write-a-skill/references/hard-env.md'));

  store = createCatalogStore({ root: project.root });
  watcher = createWatcher(store);
  await watcher.ready;
  server = await startHttp(store);
  http = await connectHttp(server.url, 'areas-http');
  stdio = await connectStdio({ root: project.root, args: ['--watch'], name: 'areas-stdio' });
  // The same doors in the 2026-07-28 era.
  httpModern = await connectHttp(server.url, 'areas-http-modern', 'modern');
  stdioModern = await connectStdio({
    root: project.root,
    args: ['--watch'],
    name: 'areas-stdio-modern',
    negotiation: 'modern',
  });
});

afterAll(async () => {
  await http?.close();
  await stdio?.close();
  await httpModern?.close();
  await stdioModern?.close();
  await server?.close();
  await watcher?.close();
  project?.cleanup();
  if (outer) rmSync(outer, { recursive: true, force: true });
});

describe('containment inside the root: links, hidden targets and hard links', () => {
  for (const transport of ['stdio', 'http', 'stdio modern', 'http modern'] as const) {
    it(`no door serves a planted target over ${transport}`, async () => {
      const connection = { stdio, http, 'stdio modern': stdioModern, 'http modern': httpModern }[transport];
      const answers: unknown[] = [];

      const { resources } = await listAllResources(connection);
      const templates = await connection.client.listResourceTemplates();
      answers.push(resources, templates);
      for (const name of PLANTED_NAMES) {
        expect(
          resources.some((r) => r.uri.includes(`/${name}`)),
          `${transport}: ${name} listed`,
        ).toBe(false);
      }

      for (const { uri } of PLANTED) {
        const error = await expectRpcError(connection.client.readResource({ uri }));
        expect(error.code, `${transport}: read ${uri}`).toBe(-32602);
        answers.push(error);
      }

      const documentIds = await rawRequest(connection, 'completion/complete', {
        ref: { type: 'ref/resource', uri: 'companion://guides/{+documentId}' },
        argument: { name: 'documentId', value: 'any/' },
      });
      const skillIds = await rawRequest(connection, 'completion/complete', {
        ref: { type: 'ref/resource', uri: 'companion://skill/{skillId}/{+path}' },
        argument: { name: 'skillId', value: 'priv' },
      });
      const skillPaths = await rawRequest(connection, 'completion/complete', {
        ref: { type: 'ref/resource', uri: 'companion://skill/{skillId}/{+path}' },
        argument: { name: 'path', value: 'references/' },
        context: { arguments: { skillId: 'write-a-skill' } },
      });
      answers.push(documentIds, skillIds, skillPaths);
      // The doors are open: completion answers served names, just none of the planted ones.
      expect((documentIds.completion as { values: string[] }).values).toContain('any/hosts/codex');
      expect((skillIds.completion as { values: string[] }).values).toEqual([]);
      const paths = (skillPaths.completion as { values: string[] }).values;
      expect(paths).toContain('references/base.md');
      for (const name of ['references/env.md', 'references/other-skill.md', 'references/hard-env.md']) {
        expect(paths).not.toContain(name);
      }

      const search = await connection.client.callTool({
        name: 'document_lookup',
        arguments: { query: SECRET_WORDS },
      });
      answers.push(search);
      for (const id of ['any/env', 'any/git-config', 'any/private', 'any/hard']) {
        const byId = await connection.client.callTool({
          name: 'document_lookup',
          arguments: { documentId: id },
        });
        expect(byId.isError, `${transport}: document_lookup ${id}`).toBe(true);
        answers.push(byId);
      }
      const privateSkill = await connection.client.callTool({
        name: 'skill_load',
        arguments: { name: 'private-skill' },
      });
      expect(privateSkill.isError).toBe(true);
      const served = await connection.client.callTool({
        name: 'skill_load',
        arguments: { name: 'write-a-skill' },
      });
      expect(served.isError).toBeFalsy();
      const guide = await connection.client.callTool({
        name: 'task_guide',
        arguments: { task: `probe the ${SECRET_WORDS}` },
      });
      answers.push(privateSkill, served, guide);

      const skillsList = await rawRequest(connection, 'skills/list', {});
      const skillGet = await rawRequest(connection, 'skills/get', {
        uri: 'companion://skill/write-a-skill/SKILL.md',
      });
      answers.push(skillsList, skillGet);
      const manifest = JSON.stringify(skillGet);
      expect(manifest).toContain('references/base.md');
      for (const name of ['references/env.md', 'references/other-skill.md', 'references/hard-env.md']) {
        expect(manifest).not.toContain(name);
      }
      expect(JSON.stringify(skillsList)).not.toContain('private-skill');
      const directory = await rawRequest(connection, 'resources/directory/read', {
        uri: 'companion://skill/write-a-skill/references',
      });
      answers.push(directory);
      const children = JSON.stringify(directory);
      expect(children).toContain('references/base.md');
      for (const name of ['references/env.md', 'references/other-skill.md', 'references/hard-env.md']) {
        expect(children).not.toContain(name);
      }
      const hiddenSkill = await expectRpcError(
        rawRequest(connection, 'resources/directory/read', { uri: 'companion://skill/private-skill' }),
      );
      expect(hiddenSkill.code).toBe(-32602);
      answers.push(await connection.client.readResource({ uri: 'companion://guides' }));

      const everything = JSON.stringify(answers);
      expect(everything).not.toContain(MARKER);
      expect(everything).not.toContain(outer);
      for (const message of connection.wire) expect(message).not.toContain(MARKER);
    });
  }

  it('a served document swapped for an in-root link to .env stops being served at once, on both transports', {
    timeout: 30_000,
  }, async () => {
    const uri = 'companion://guides/any/hosts/cursor';
    for (const connection of [stdio, http]) await connection.client.readResource({ uri });
    const path = project.path('knowledge/documents/any/hosts/cursor.md');
    symlinkSync('../../../../.env', `${path}.swap`);
    renameSync(`${path}.swap`, path);
    for (const connection of [stdio, http]) {
      const deadline = Date.now() + 15_000;
      while (
        await connection.client.readResource({ uri }).then(
          () => true,
          () => false,
        )
      ) {
        if (Date.now() > deadline)
          throw new Error(`${connection.stderr()} the swapped document is still served`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const answers = JSON.stringify([
        await listAllResources(connection),
        await connection.client.callTool({ name: 'document_lookup', arguments: { query: SECRET_WORDS } }),
      ]);
      expect(answers).not.toContain(MARKER);
      expect(answers).not.toContain('any/hosts/cursor"');
    }
    expect(store.snapshot().problems).toContainEqual({
      path: 'knowledge/documents/any/hosts/cursor.md',
      kind: 'link-to-hidden',
      detail: '.env',
    });
  });

  it('the loader reports every planted entry as a problem, never as a file', () => {
    const snapshot = store.snapshot();
    for (const { path } of PLANTED) {
      expect(snapshot.files.has(path), path).toBe(false);
      expect(
        snapshot.problems.some((p) => p.path === path),
        path,
      ).toBe(true);
    }
    for (const file of snapshot.files.values()) {
      expect(Buffer.from(file.bytes).toString('utf8')).not.toContain(MARKER);
    }
  });

  it('companion check names each one under its code, with the root-relative target', async () => {
    const result = await runCli(['check', '--root', project.root, '--format', 'json']);
    expect(result.code).toBe(1);
    const { diagnostics } = JSON.parse(result.stdout) as {
      diagnostics: { code: string; file: string; message: string; hint: string }[];
    };
    for (const { path, code, target } of PLANTED) {
      const found = diagnostics.find((d) => d.file === path && d.code === code);
      expect(found, `${code} at ${path}`).toBeDefined();
      if (target !== undefined) expect(found!.message).toContain(`symlink to ${target},`);
      expect(found!.hint).not.toBe('');
    }
    expect(result.stdout).not.toContain(MARKER);
    expect(result.stdout).not.toContain(outer);
  });

  it('companion install publishes none of it into a host’s skills directory', async () => {
    const home = mkdtempSync(join(tmpdir(), 'companion-hardening-areas-home-'));
    const target = mkdtempSync(join(tmpdir(), 'companion-hardening-areas-project-'));
    try {
      const result = await runCli(
        ['install', '--root', project.root, '--client', 'claude-code', '--project', target],
        { env: { HOME: home } },
      );
      expect(result.stdout).toContain('Published');
      const files = listFiles(join(target, '.claude', 'skills'));
      expect(files).toContain('write-a-skill/references/base.md');
      for (const name of ['references/env.md', 'references/other-skill.md', 'references/hard-env.md']) {
        expect(files).not.toContain(`write-a-skill/${name}`);
      }
      expect(files.some((file) => file.startsWith('private-skill/'))).toBe(false);
      for (const file of files) {
        expect(readFileSync(join(target, '.claude', 'skills', file), 'utf8')).not.toContain(MARKER);
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(target, { recursive: true, force: true });
    }
  });
});
