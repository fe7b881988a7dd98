/**
 * One seam for the config-format tests: plan an edit from text (or from raw bytes) and read the result back.
 */
import { decodeConfig } from '../../src/install/config-bytes.js';
import type { EditResult, EntrySpec } from '../../src/install/config-entry.js';

/** The bytes of `text` as a config file (undefined: no file). */
export function configOf(content: string | Uint8Array | undefined) {
  if (content === undefined) return undefined;
  return decodeConfig(typeof content === 'string' ? new Uint8Array(Buffer.from(content, 'utf8')) : content);
}

/** The new text of a planned edit; throws with the reason when it was refused. */
export function textOf(result: EditResult): string {
  if (!result.ok) throw new Error(result.reason);
  return Buffer.from(result.bytes).toString('utf8');
}

/** The reason of a refused edit; throws when it was not refused. */
export function reasonOf(result: EditResult): string {
  if (result.ok) throw new Error(`expected a refusal, got:\n${Buffer.from(result.bytes).toString('utf8')}`);
  return result.reason;
}

export function specOf(
  serversKey: string,
  ownedFields: readonly string[],
  shownPath: string,
  key = 'fixture',
): EntrySpec {
  return { serversKey, key, ownedFields, shownPath };
}

/** A Goose config.yaml as people have one: comments, a built-in extension, a stdio one of their own. */
export const GOOSE_CONFIG = `# Goose configuration
GOOSE_PROVIDER: anthropic   # the provider
GOOSE_MODEL: claude-4.5-sonnet

extensions:
  developer:
    bundled: true
    enabled: true
    name: developer
    timeout: 300
    type: builtin
  # my memory server
  memory:
    enabled: false
    type: stdio
    name: memory
    cmd: uvx
    args:
    - mcp-memory
    envs:
      TOKEN: "x"
GOOSE_MODE: smart_approve
`;
