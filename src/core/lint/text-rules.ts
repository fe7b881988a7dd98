/**
 * Rules on any served text: credentials (CMP600). Memoized on the bytes, so an unchanged file is scanned once
 * however many rebuilds pass over it.
 */
import { decodeUtf8 } from '../content.js';
import { codes, type Diagnostic, diagnose } from '../diagnostics.js';
import { findSecrets } from './secrets.js';

const memo = new WeakMap<Uint8Array, { readonly file: string; readonly found: readonly Diagnostic[] }>();

/** CMP600 for every credential in the text of `bytes` (nothing when they are not UTF-8). */
export function lintSecrets(file: string, bytes: Uint8Array): readonly Diagnostic[] {
  const cached = memo.get(bytes);
  if (cached?.file === file) return cached.found;
  const text = decodeUtf8(bytes);
  const found = text === undefined ? [] : lintSecretsInText(file, text);
  memo.set(bytes, { file, found });
  return found;
}

/** CMP600 for every credential in `text`. */
export function lintSecretsInText(file: string, text: string): Diagnostic[] {
  return findSecrets(text).map((s) =>
    diagnose(codes.secret, { kind: s.kind, masked: s.masked }, { file, line: s.line, column: s.column }),
  );
}
