/**
 * Rules on any served text: credentials (CMP600). Memoized on the bytes in the builder's memo, so an unchanged
 * file is scanned once however many rebuilds pass over it.
 */
import { decodeUtf8 } from '../content.js';
import { codes, type Diagnostic, diagnose, NO_DIAGNOSTICS } from '../diagnostics.js';
import { type Memo, memoTable, NO_MEMO } from '../memo.js';
import { findSecrets } from './secrets.js';

const FOUND = memoTable<Uint8Array, { readonly file: string; readonly found: readonly Diagnostic[] }>(
  'lint.secrets',
);

/** CMP600 for every credential in the text of `bytes` (nothing when they are not UTF-8). */
export function lintSecrets(file: string, bytes: Uint8Array, memo: Memo = NO_MEMO): readonly Diagnostic[] {
  const table = memo.table(FOUND);
  const cached = table.get(bytes);
  if (cached?.file === file) return cached.found;
  const text = decodeUtf8(bytes, memo);
  const all = text === undefined ? NO_DIAGNOSTICS : lintSecretsInText(file, text);
  const found = all.length === 0 ? NO_DIAGNOSTICS : all;
  table.set(bytes, { file, found });
  return found;
}

/** CMP600 for every credential in `text`. */
export function lintSecretsInText(file: string, text: string): Diagnostic[] {
  return findSecrets(text).map((s) =>
    diagnose(codes.secret, { kind: s.kind, masked: s.masked }, { file, line: s.line, column: s.column }),
  );
}
