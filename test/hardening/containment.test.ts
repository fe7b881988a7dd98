/**
 * Containment under hostile requests, over four doors: one probe table, run against `companion serve --watch`
 * over stdio (the built CLI) and against an in-process watched store over Streamable HTTP, both serving the same
 * root, each door in both protocol eras (2025-11-25 and 2026-07-28). A SECRET marker lives outside the root; symlinks inside the root point at it (a document, a
 * skill file, a skill directory, a skill's SKILL.md, before start; base.md, a document and the scope file
 * swapped in after start with the target's size and mtime equal to the file they replace). Every probe asserts a
 * refusal (an error, or an empty completion) and that its whole serialized response holds neither the marker
 * nor an internal reason (`escape`, `symlink`, an errno, an absolute temp path) — the one thing a refusal may
 * echo is what the client itself sent.
 */
import { randomUUID } from 'node:crypto';
import {
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
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
  type McpConnection,
  rawRequest,
  startHttp,
} from '../helpers/mcp-client.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';

const SECRET_ID = randomUUID();
const MARKER = `TOP SECRET ${SECRET_ID}`;
/** Internal reasons a refusal must never name. */
const INTERNAL = ['escape', 'symlink', 'ENOENT', 'EACCES', 'ELOOP', 'realpath', '/proc/'];
const SKILL_TEMPLATE = 'companion://skill/{skillId}/{+path}';
const DOCUMENT_TEMPLATE = 'companion://guides/{+documentId}';

let outer: string;
let project: TempProject;
let store: CatalogStore;
let watcher: Watcher;
let server: HttpServerHandle;
/** The four doors: stdio and HTTP, each in both eras. */
let doors: { name: string; connection: McpConnection }[] = [];

/** What a probe does; `refusal` says which answer counts as refusing. */
interface Probe {
  readonly name: string;
  readonly method:
    | 'resources/read'
    | 'skills/get'
    | 'completion/complete'
    | 'tools/call'
    | 'resources/directory/read';
  readonly params: () => Record<string, unknown>;
  /** `error`: a JSON-RPC error. `empty`: a completion with no values. `tool-error`: a result with isError. */
  readonly refusal: 'error' | 'empty' | 'tool-error';
  /**
   * The URI is too long for an HTTP header: a 2026-07-28 client mirrors it into `Mcp-Name`, so over HTTP the
   * request is refused before any JSON is read (431, -32600) instead of -32602.
   */
  readonly oversizeHeader?: true;
}

const read = (name: string, uri: () => string): Probe => ({
  name,
  method: 'resources/read',
  params: () => ({ uri: uri() }),
  refusal: 'error',
});
const complete = (name: string, argument: string, value: string, skillId?: string): Probe => ({
  name,
  method: 'completion/complete',
  params: () => ({
    ref: { type: 'ref/resource', uri: argument === 'documentId' ? DOCUMENT_TEMPLATE : SKILL_TEMPLATE },
    argument: { name: argument, value },
    ...(skillId === undefined ? {} : { context: { arguments: { skillId } } }),
  }),
  refusal: 'empty',
});
const getSkill = (name: string, uri: string): Probe => ({
  name,
  method: 'skills/get',
  params: () => ({ uri }),
  refusal: 'error',
});

const readDirectory = (name: string, uri: string): Probe => ({
  name,
  method: 'resources/directory/read',
  params: () => ({ uri }),
  refusal: 'error',
});

const secretPath = () => join(outer, 'SECRET.txt');

/** The shared table: every probe runs over stdio and over HTTP. */
const PROBES: readonly Probe[] = [
  read('traversal id', () => 'companion://guides/../../SECRET.txt'),
  read('traversal below a served document', () => 'companion://guides/any/hosts/../../../../SECRET.txt'),
  read(
    'traversal in a skill file path',
    () => 'companion://skill/write-a-skill/references/../../../SECRET.txt',
  ),
  read('%2e%2e percent-encoded dots', () => 'companion://guides/%2e%2e/%2e%2e/SECRET.txt'),
  read('%2F encoded slashes', () => 'companion://guides/..%2F..%2F..%2FSECRET.txt'),
  read('double-encoded %252e%252e', () => 'companion://guides/%252e%252e/%252e%252e/SECRET.txt'),
  read('overlong UTF-8 %c0%ae', () => 'companion://guides/%c0%ae%c0%ae/%c0%ae%c0%ae/SECRET.txt'),
  read(
    'overlong UTF-8 %e0%80%ae and %c0%af',
    () => 'companion://skill/write-a-skill/%e0%80%ae%e0%80%ae%c0%afSKILL.md',
  ),
  read('absolute path as URI', () => secretPath()),
  read('file:// URI of the secret', () => `file://${secretPath()}`),
  read('absolute path inside the scheme', () => `companion://guides/${secretPath()}`),
  read('backslash traversal', () => 'companion://skill/write-a-skill\\..\\..\\SECRET.txt'),
  read('backslash separator', () => 'companion://skill/write-a-skill/references\\base.md'),
  read('NUL inside an id', () => 'companion://guides/any/hosts/codex\u0000.md'),
  read('NUL then traversal', () => 'companion://guides/any\u0000/../../SECRET.txt'),
  {
    ...read('100 KB URI', () => `companion://guides/${'../'.repeat(34_000)}SECRET.txt`),
    oversizeHeader: true,
  },
  read('symlinked document (planted before start)', () => 'companion://guides/any/leak'),
  read('symlinked skill file', () => 'companion://skill/write-a-skill/references/leak.md'),
  read('symlinked skill directory', () => 'companion://skill/evil-skill/SKILL.md'),
  read('skill whose SKILL.md is a symlink', () => 'companion://skill/linked-skill/SKILL.md'),
  read('base.md of a symlinked skill directory', () => 'companion://skill/evil-skill/references/base.md'),
  read('fullwidth look-alike skill name', () => 'companion://skill/ｗrite-a-skill/SKILL.md'),
  read('fullwidth look-alike path segment ｓkill', () => 'companion://ｓkill/write-a-skill/SKILL.md'),
  read('Cyrillic а in a skill name', () => 'companion://skill/write-\u0430-skill/SKILL.md'),
  read('Cyrillic о in a document id', () => 'companion://guides/any/h\u043Ests/codex'),
  read('draft skill', () => 'companion://skill/draft-notes/SKILL.md'),
  read('draft skill file', () => 'companion://skill/draft-notes/references/plan.md'),
  complete('completion of unserved skill ids (evil)', 'skillId', 'evil'),
  complete('completion of unserved skill ids (linked)', 'skillId', 'linked'),
  complete('completion of draft skill ids', 'skillId', 'dra'),
  complete('completion of a draft skill’s files', 'path', '', 'draft-notes'),
  complete('completion of a symlinked skill’s files', 'path', '', 'evil-skill'),
  complete('completion of traversal skill ids', 'path', '', '../..'),
  complete('completion of a planted document', 'documentId', 'any/leak'),
  complete('completion with a traversal prefix', 'path', '../', 'write-a-skill'),
  getSkill('skills/get on the index', 'companion://guides'),
  getSkill('skills/get on a document', 'companion://guides/any/hosts/codex'),
  getSkill('skills/get on a skill file', 'companion://skill/write-a-skill/references/base.md'),
  getSkill('skills/get on a skill directory URI', 'companion://skill/write-a-skill'),
  getSkill('skills/get on a draft', 'companion://skill/draft-notes/SKILL.md'),
  getSkill('skills/get on a symlinked skill', 'companion://skill/evil-skill/SKILL.md'),
  readDirectory('directory read of a symlinked skill', 'companion://skill/evil-skill'),
  readDirectory('directory read of a skill whose SKILL.md is a link', 'companion://skill/linked-skill'),
  readDirectory('directory read of a draft', 'companion://skill/draft-notes'),
  readDirectory('directory read with traversal', 'companion://skill/write-a-skill/references/../../..'),
  readDirectory('directory read of %2e%2e', 'companion://skill/write-a-skill/%2e%2e'),
  readDirectory('directory read of an absolute path', `companion://skill/write-a-skill/${tmpdir()}`),
  {
    name: 'skill_load on a symlinked skill',
    method: 'tools/call',
    params: () => ({ name: 'skill_load', arguments: { name: 'evil-skill' } }),
    refusal: 'tool-error',
  },
  {
    name: 'document_lookup of a planted document',
    method: 'tools/call',
    params: () => ({ name: 'document_lookup', arguments: { documentId: 'any/leak' } }),
    refusal: 'tool-error',
  },
];

/** Sends `probe` and returns the serialized answer (result or error). */
async function send(connection: McpConnection, probe: Probe, door: string): Promise<string> {
  const params = probe.params();
  const promise = rawRequest(connection, probe.method, params);
  if (probe.refusal === 'error') {
    const error = await expectRpcError(promise);
    if (probe.oversizeHeader && door === 'http modern') {
      expect({ code: error.code, httpStatus: error.httpStatus }, probe.name).toEqual({
        code: -32600,
        httpStatus: 431,
      });
    } else {
      expect(error.code, probe.name).toBe(-32602);
    }
    return JSON.stringify(error);
  }
  const result = await promise;
  if (probe.refusal === 'empty') {
    expect((result.completion as { values: unknown[] }).values, probe.name).toEqual([]);
  } else {
    expect(result.isError, probe.name).toBe(true);
  }
  return JSON.stringify(result);
}

/**
 * The answer leaks nothing: no marker, no internal reason, no absolute temp path — after taking out what the
 * client sent (a refusal echoes the URI it refused, and some probes send the secret's path themselves).
 */
function expectClean(answer: string, sent: Record<string, unknown>, what: string): void {
  let rest = answer;
  for (const value of collectStrings(sent)) {
    for (const form of [JSON.stringify(value).slice(1, -1), value]) {
      if (form.length > 0) rest = rest.split(form).join('<sent>');
    }
  }
  expect(rest, what).not.toContain(SECRET_ID);
  expect(rest, what).not.toContain(outer);
  expect(rest, what).not.toContain(tmpdir());
  for (const word of INTERNAL) expect(rest.includes(word), `${what}: mentions ${word}`).toBe(false);
}

function collectStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(collectStrings);
  return [];
}

/** Replaces `relative` with a symlink to an outside file of the same size and mtime, atomically. */
function swapForLookalikeLink(relative: string, name: string): void {
  const original = project.path(relative);
  const stats = statSync(original);
  const size = stats.size;
  const padded = `${MARKER}\n`.padEnd(size, 'x').slice(0, size);
  expect(Buffer.byteLength(padded)).toBe(size);
  const target = join(outer, name);
  writeFileSync(target, padded);
  utimesSync(target, stats.atime, stats.mtime);
  const temporary = `${original}.swap`;
  symlinkSync(target, temporary);
  renameSync(temporary, original);
  expect(lstatSync(original).isSymbolicLink()).toBe(true);
}

/**
 * Replaces directory `relative` with a symlink to an outside copy whose every file keeps its name, size and mtime
 * but holds the marker: the original is moved out of the root first (a directory cannot be renamed over).
 */
function swapDirectoryForLookalikeLink(relative: string, name: string): void {
  const original = project.path(relative);
  const copy = join(outer, name);
  cpSync(original, copy, { recursive: true });
  for (const entry of readdirSync(copy, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const stats = statSync(file);
    writeFileSync(file, `${MARKER}\n`.padEnd(stats.size, 'x').slice(0, stats.size));
    utimesSync(file, stats.atime, stats.mtime);
  }
  renameSync(original, join(outer, `${name}-moved-away`));
  symlinkSync(copy, original);
}

beforeAll(async () => {
  outer = mkdtempSync(join(tmpdir(), 'companion-hardening-secret-'));
  writeFileSync(secretPath(), `${MARKER}\n`);
  mkdirSync(join(outer, 'evil-skill'));
  writeFileSync(
    join(outer, 'evil-skill', 'SKILL.md'),
    `---\nname: evil-skill\ndescription: Looks like a skill. Use when probing.\n---\n\n# Evil\n\n${MARKER}\n`,
  );
  writeFileSync(
    join(outer, 'linked-SKILL.md'),
    `---\nname: linked-skill\ndescription: Looks like a skill. Use when probing.\n---\n\n# Linked\n\n${MARKER}\n`,
  );
  project = copyFixture('mcp-extra', { bundled: true, prefix: 'companion-hardening-containment-' });
  project.symlink(secretPath(), 'knowledge/documents/any/leak.md');
  project.symlink(secretPath(), 'skills/write-a-skill/references/leak.md');
  project.symlink(join(outer, 'evil-skill'), 'skills/evil-skill');
  project.symlink(join(outer, 'linked-SKILL.md'), 'skills/linked-skill/SKILL.md');

  store = createCatalogStore({ root: project.root });
  watcher = createWatcher(store);
  await watcher.ready;
  server = await startHttp(store);
  doors = await Promise.all(
    (['legacy', 'modern'] as const).flatMap((era) => [
      connectHttp(server.url, `hardening-http-${era}`, era).then((connection) => ({
        name: `http ${era}`,
        connection,
      })),
      connectStdio({
        root: project.root,
        args: ['--watch'],
        name: `hardening-stdio-${era}`,
        negotiation: era,
      }).then((connection) => ({ name: `stdio ${era}`, connection })),
    ]),
  );
});

afterAll(async () => {
  await Promise.all(doors.map(({ connection }) => connection.close()));
  await server?.close();
  await watcher?.close();
  project?.cleanup();
  if (outer) rmSync(outer, { recursive: true, force: true });
});

describe('containment probes', () => {
  it(`has at least 25 probes (${PROBES.length})`, () => {
    expect(PROBES.length).toBeGreaterThanOrEqual(25);
  });

  it('covers four doors: stdio and HTTP, each in both eras', () => {
    expect(doors.map(({ name }) => name).sort()).toEqual([
      'http legacy',
      'http modern',
      'stdio legacy',
      'stdio modern',
    ]);
    for (const { name, connection } of doors) expect(name.endsWith(connection.era), name).toBe(true);
  });

  for (const door of ['stdio legacy', 'stdio modern', 'http legacy', 'http modern']) {
    it(`every probe is refused over ${door} and leaks nothing`, async () => {
      const connection = doors.find(({ name }) => name === door)!.connection;
      for (const probe of PROBES) {
        const before = connection.wire.length;
        const answer = await send(connection, probe, door);
        expectClean(answer, probe.params(), `${door}: ${probe.name}`);
        // Everything that arrived meanwhile (a notification included), not just the answer.
        for (const message of connection.wire.slice(before)) {
          expectClean(message, probe.params(), `${door}: ${probe.name} (wire)`);
        }
      }
      // The server still serves what it should after the barrage.
      const index = await connection.client.readResource({ uri: 'companion://guides' });
      expect(JSON.stringify(index)).not.toContain(SECRET_ID);
      expect(JSON.stringify(index)).toContain('write-a-skill');
    });
  }

  it('the planted links are diagnosed, never served, and in no listing', async () => {
    const kinds = store.snapshot().problems.map((problem) => `${problem.path}:${problem.kind}`);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'knowledge/documents/any/leak.md:symlink-escape',
        'skills/write-a-skill/references/leak.md:symlink-escape',
        'skills/evil-skill:symlink-escape',
        'skills/linked-skill/SKILL.md:symlink-escape',
      ]),
    );
    for (const { connection } of doors) {
      const listing = JSON.stringify([
        await connection.client.listResources(),
        await rawRequest(connection, 'skills/list', {}),
        await rawRequest(connection, 'resources/directory/read', { uri: 'companion://skill/write-a-skill' }),
        await rawRequest(connection, 'resources/directory/read', {
          uri: 'companion://skill/write-a-skill/references',
        }),
      ]);
      for (const name of ['leak', 'evil-skill', 'linked-skill', 'draft-notes', SECRET_ID]) {
        expect(listing).not.toContain(name);
      }
    }
  });

  it('a document, base.md, the scope file, a skill directory and a references directory swapped for outside links of the same size and mtime are refused once re-read', {
    timeout: 30_000,
  }, async () => {
    const documentUri = 'companion://guides/any/hosts/codex';
    const baseUri = 'companion://skill/write-a-skill/references/base.md';
    const swappedUris = [
      documentUri,
      baseUri,
      'companion://skill/connect-a-host/SKILL.md',
      'companion://skill/write-a-document/references/checklist.md',
    ];
    for (const { connection } of doors) {
      for (const uri of swappedUris) await connection.client.readResource({ uri });
    }
    swapForLookalikeLink('knowledge/documents/any/hosts/codex.md', 'codex.md');
    swapForLookalikeLink('skills/base.md', 'base.md');
    swapForLookalikeLink('knowledge/server-scope.json', 'server-scope.json');
    swapDirectoryForLookalikeLink('skills/connect-a-host', 'connect-a-host');
    swapDirectoryForLookalikeLink('skills/write-a-document/references', 'write-a-document-references');

    // Every watcher re-reads; the loader must refuse the links. Poll each door until the reads fail.
    for (const { connection } of doors) {
      const refused = async (uri: string) =>
        connection.client.readResource({ uri }).then(
          () => false,
          () => true,
        );
      const deadline = Date.now() + 15_000;
      const allRefused = async () => {
        for (const uri of swappedUris) if (!(await refused(uri))) return false;
        return true;
      };
      while (!(await allRefused())) {
        if (Date.now() > deadline)
          throw new Error(`${connection.stderr()} the swapped links are still served`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const answers = JSON.stringify([
        await connection.client.listResources(),
        await rawRequest(connection, 'skills/list', {}),
        await connection.client
          .readResource({ uri: 'companion://guides' })
          .catch((error: unknown) => String(error)),
        await connection.client.callTool({ name: 'document_lookup', arguments: { query: 'SECRET' } }),
      ]);
      expect(answers).not.toContain(SECRET_ID);
      for (const message of connection.wire) expect(message).not.toContain(SECRET_ID);
    }
    const kinds = store.snapshot().problems.map((problem) => `${problem.path}:${problem.kind}`);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'knowledge/documents/any/hosts/codex.md:symlink-escape',
        'skills/base.md:symlink-escape',
        'knowledge/server-scope.json:symlink-escape',
        'skills/connect-a-host:symlink-escape',
        'skills/write-a-document/references:symlink-escape',
      ]),
    );
    // The outside copies were really the same size and mtime as the files they replaced.
    expect(readFileSync(join(outer, 'codex.md'), 'utf8')).toContain(SECRET_ID);
  });
});
