/**
 * The files of this repository that are generated from code, with the bytes they must hold. One list, read by
 * `scripts/generate.mjs` (to write or `--check` them) and by the test that keeps the committed copies equal.
 */
import { codes } from '../core/diagnostics.js';
import { SCOPE_SCHEMA_FILE } from '../core/scope-schema.js';
import { CODE_REFERENCE_PATH, formatCodeReference } from './format-code-reference.js';
import { formatScopeSchema } from './format-scope-schema.js';

export interface GeneratedFile {
  /** Posix path relative to the repository root. */
  readonly path: string;
  readonly content: string;
}

/** Every generated file: the scope file's JSON Schema and the diagnostic-code reference document. */
export function buildGeneratedFiles(): GeneratedFile[] {
  return [
    { path: `knowledge/${SCOPE_SCHEMA_FILE}`, content: formatScopeSchema() },
    { path: CODE_REFERENCE_PATH, content: formatCodeReference(codes) },
  ];
}
