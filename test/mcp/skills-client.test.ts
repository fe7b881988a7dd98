/**
 * The v2 SDK's `SkillsClient` (`@modelcontextprotocol/client` 2.4) as an independent oracle for the Skills
 * extension: against the bundled content, it lists every skill, gets each by URI, and reads every file of every
 * skill, verifying size, digest and (for SKILL.md) the front matter field by field.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/core/catalog.js';
import { createCatalogStore } from '../../src/fs/catalog-store.js';
import { readSnapshot } from '../../src/fs/read-snapshot.js';
import type { HttpServerHandle } from '../../src/mcp/serve-http.js';
import { binPath, repoRoot, startHttp } from '../helpers/mcp-client.js';

const bundled = buildCatalog(readSnapshot(repoRoot)).catalog;

async function verifyEverySkill(client: Client): Promise<number> {
  const skills = new SkillsClient(client);
  expect(skills.supported).toBe(true);
  expect(skills.directoryRead).toBe(false);
  const listing = await skills.list();
  expect(listing.invalid).toEqual([]);
  expect(listing.skills.map((skill) => skill.uri)).toEqual(bundled.skills.map((skill) => skill.uri));
  let files = 0;
  for (const entry of listing.skills) {
    const { skill } = await skills.get(entry.uri);
    expect(skill).toEqual(entry);
    const manifest = entry.resources;
    if (manifest === 'dynamic') throw new Error(`${entry.uri} has no stable manifest`);
    expect(manifest.map((file) => file.uri)).toContain(entry.uri.replace(/SKILL\.md$/, 'references/base.md'));
    for (const file of manifest) {
      const read = await skills.read(entry, file.uri);
      expect(read.verified).toBe(true);
      expect(read.bytes.length).toBe(file.size);
      files++;
    }
    const body = await skills.read(entry);
    expect(body.frontmatter).toEqual(entry.frontmatter);
    expect(body.text).toContain('](references/base.md)');
    const base = await skills.read(entry, 'references/base.md');
    expect(base.verified).toBe(true);
  }
  const unknown = await skills
    .get('companion://skill/nope/SKILL.md')
    .catch((error: { code?: number }) => error);
  expect((unknown as { code?: number }).code).toBe(-32602);
  return files;
}

describe('SkillsClient (v2) verifies every bundled skill', () => {
  it('over stdio against the real CLI', async () => {
    const client = new Client({ name: 'skills-oracle', version: '2.4.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [binPath, 'serve', '--root', repoRoot],
        stderr: 'ignore',
      }),
    );
    try {
      const files = await verifyEverySkill(client);
      expect(files).toBe(bundled.skills.reduce((sum, skill) => sum + skill.manifest.length, 0));
    } finally {
      await client.close();
    }
  });

  describe('over HTTP with dual-era version negotiation', () => {
    let server: HttpServerHandle;
    beforeAll(async () => {
      server = await startHttp(createCatalogStore({ root: repoRoot }), { pageSize: 2 });
    });
    afterAll(async () => {
      await server?.close();
    });

    it('falls back from server/discover to initialize and verifies every skill across pages', async () => {
      const client = new Client(
        { name: 'skills-oracle-auto', version: '2.4.0' },
        { versionNegotiation: { mode: 'auto' } },
      );
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      try {
        expect(client.getServerVersion()?.name).toBe(bundled.server.name);
        await verifyEverySkill(client);
      } finally {
        await client.close();
      }
    });
  });
});
