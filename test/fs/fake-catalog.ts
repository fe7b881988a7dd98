/**
 * A stand-in for `buildCatalog` that store and watcher tests can reason about: every file is one listed
 * resource `test://file/<path>` (size and lastModified from the file), every problem one error diagnostic.
 */
import { createHash } from 'node:crypto';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import type { BuildResult, Catalog, ServedContent, Snapshot } from '../../src/core/types.js';

export function buildDigest(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

export function fakeBuildCatalog(snapshot: Snapshot): BuildResult {
  const contents = new Map<string, ServedContent>();
  for (const file of snapshot.files.values()) {
    const uri = `test://file/${file.path}`;
    contents.set(uri, {
      uri,
      mimeType: 'text/plain',
      bytes: file.bytes,
      digest: buildDigest(file.bytes),
      size: file.bytes.byteLength,
      lastModified: new Date(file.mtimeMs).toISOString(),
    });
  }
  const catalog: Catalog = {
    server: { name: 'test', title: 'Test', version: '0.0.0', scheme: 'test' },
    instructions: '',
    coverage: { purpose: '', scopes: [], topics: [], routing: [], notCovered: [] },
    tools: [],
    indexUri: 'test://index',
    resources: [...contents.values()].map((c) => ({
      uri: c.uri,
      name: c.uri,
      title: c.uri,
      description: '',
      mimeType: c.mimeType,
      size: c.size,
      annotations: {
        priority: 0.5,
        ...(c.lastModified === undefined ? {} : { lastModified: c.lastModified }),
      },
    })),
    templates: [],
    prompts: [],
    contents,
    documents: [],
    skills: [],
  };
  const diagnostics: Diagnostic[] = snapshot.problems.map((problem) => ({
    code: 'CMP000',
    severity: 'error',
    file: problem.path,
    message: problem.kind,
    hint: '',
  }));
  return { catalog, diagnostics };
}

/** path → digest of every file in a snapshot: what "the store equals the disk" compares. */
export function digestsOf(snapshot: Snapshot): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, file] of snapshot.files) out[path] = buildDigest(file.bytes);
  for (const problem of snapshot.problems) out[problem.path] = `problem:${problem.kind}`;
  return out;
}
