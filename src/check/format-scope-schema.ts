/**
 * The bytes of `knowledge/server-scope.schema.json`, written by `companion init` and `scripts/generate.mjs`
 * and compared by the generated-files test, so all three agree to the byte.
 */
import { buildScopeJsonSchema } from '../core/scope-schema.js';

/** The scope file's JSON Schema, pretty-printed with two spaces and newline-terminated. */
export function formatScopeSchema(): string {
  return `${JSON.stringify(buildScopeJsonSchema(), null, 2)}\n`;
}
