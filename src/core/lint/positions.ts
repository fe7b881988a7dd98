/**
 * Where inside a front matter value something is: the rules report the `<` of a description or the metadata
 * key they mean, not only the line of the key.
 */
import type { Position } from '../front-matter.js';

/**
 * The position of the first match of `pattern` (not global) in the value of top-level `key` of the front
 * matter of `text`: on the key's line after the key, then on the lines up to the next top-level key or the
 * end of the front matter (`bodyLine`, the first line after it). The key's own position when nothing matches.
 */
export function locateInValue(
  text: string,
  keys: ReadonlyMap<string, Position>,
  key: string,
  bodyLine: number,
  pattern: RegExp,
): Position | undefined {
  const at = keys.get(key);
  if (at === undefined) return undefined;
  let last = bodyLine - 2; // the closing delimiter is bodyLine - 1
  for (const other of keys.values()) if (other.line > at.line && other.line - 1 < last) last = other.line - 1;
  let start = 0;
  for (let line = 1; line < at.line; line++) {
    const next = text.indexOf('\n', start);
    if (next === -1) return at;
    start = next + 1;
  }
  for (let line = at.line; line <= last; line++) {
    const next = text.indexOf('\n', start);
    const content = text.slice(start, next === -1 ? text.length : next);
    const from = line === at.line ? at.column - 1 + key.length + 1 : 0;
    const match = pattern.exec(content.slice(from));
    if (match) return { line, column: from + match.index + 1 };
    if (next === -1) break;
    start = next + 1;
  }
  return at;
}
