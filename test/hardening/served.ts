/**
 * What a host sees, reduced to bytes and digests, for the hardening tests: the bytes a `resources/read` answer
 * carries, the URI → digest map a session's `skills/list` promises, and the same map computed from the disk the
 * way `companion check` reads it. Comparing these is how the suite decides "coherent".
 */
import { createHash } from 'node:crypto';
import { buildCatalog } from '../../src/core/catalog.js';
import type { Catalog } from '../../src/core/types.js';
import { readSnapshot } from '../../src/fs/read-snapshot.js';
import { type McpConnection, rawRequest } from '../helpers/mcp-client.js';

export { connectInMemory } from '../helpers/mcp-client.js';

export function sha256(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** The bytes of the first content of a `resources/read` result (text re-encoded as UTF-8, a blob decoded). */
export function bytesOf(result: { contents: readonly Record<string, unknown>[] }): Uint8Array {
  const content = result.contents[0]!;
  if (typeof content.text === 'string') return Buffer.from(content.text, 'utf8');
  return Buffer.from(String(content.blob), 'base64');
}

interface WireSkill {
  uri: string;
  resources: { uri: string; digest: string; size: number }[];
}

/** Every page of `skills/list`, flattened to URI → digest (bounded number of pages). */
export async function skillDigests(connection: McpConnection): Promise<Map<string, string>> {
  const digests = new Map<string, string>();
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const answer = await rawRequest(connection, 'skills/list', cursor === undefined ? {} : { cursor });
    for (const skill of answer.skills as WireSkill[]) {
      for (const resource of skill.resources) digests.set(resource.uri, resource.digest);
    }
    cursor = answer.nextCursor as string | undefined;
    if (cursor === undefined) return digests;
  }
  throw new Error('skills/list did not end');
}

/** URI → digest of every listed resource and every skill file, from a catalog. */
export function catalogDigests(catalog: Catalog): Map<string, string> {
  const digests = new Map<string, string>();
  for (const resource of catalog.resources)
    digests.set(resource.uri, catalog.contents.get(resource.uri)!.digest);
  for (const skill of catalog.skills) for (const file of skill.manifest) digests.set(file.uri, file.digest);
  return new Map([...digests].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** What `companion check` computes from the disk right now. */
export function diskDigests(root: string): Map<string, string> {
  return catalogDigests(buildCatalog(readSnapshot(root)).catalog);
}
