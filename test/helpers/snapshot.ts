/**
 * In-memory snapshots for the pure core: no temp directories, no loader. `readFixture` reads a fixture
 * directory into plain `{ path: text }` records that tests can change before building.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { FileProblem, Snapshot, SourceFile } from '../../src/core/types.js';

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
export const REPO_ROOT = join(import.meta.dirname, '..', '..');

/** A fixed modification time, so catalogs built in tests are deterministic. */
export const MTIME = Date.UTC(2026, 10, 1, 12, 0, 0);

export function buildSnapshot(
  files: Record<string, string | Uint8Array>,
  problems: FileProblem[] = [],
  mtimeMs = MTIME,
): Snapshot {
  const map = new Map<string, SourceFile>();
  for (const [path, content] of Object.entries(files)) {
    map.set(path, {
      path,
      bytes: typeof content === 'string' ? new TextEncoder().encode(content) : content,
      mtimeMs,
    });
  }
  return { files: map, problems };
}

/** Every file below `dir` as `{ posixPath: text }`. */
export function readFixture(dir: string): Record<string, string> {
  const root = dir.startsWith('/') ? dir : join(FIXTURES, dir);
  const out: Record<string, string> = {};
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out[relative(root, full).split(sep).join('/')] = readFileSync(full, 'utf8');
    }
  };
  walk(root);
  return out;
}

/** A scope file's parsed JSON, which tests edit freely. */
// biome-ignore lint/suspicious/noExplicitAny: free-form JSON, edited in place by tests
export type ScopeJson = Record<string, any>;

/** `text` (a scope file) parsed, changed by `edit` and printed again with two-space indentation. */
export function editScope(text: string, edit: (scope: ScopeJson) => void): string {
  const scope = JSON.parse(text) as ScopeJson;
  edit(scope);
  return JSON.stringify(scope, null, 2);
}
