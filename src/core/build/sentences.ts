/**
 * Descriptions joined from sentences: a document's resource joins its description, when-to-use and scope sentence;
 * a skill's resource its sentence, description and scope sentence.
 */
import { isWhitespace } from '../markdown.js';

/**
 * The non-blank parts, each trimmed with its whitespace runs collapsed to one space, joined by spaces (with
 * `join`: the result is kept, and a flat string is smaller than a concatenation).
 */
export function joinSentences(parts: readonly (string | undefined)[]): string {
  const kept: string[] = [];
  for (const p of parts) {
    if (p === undefined) continue;
    const part = collapseWhitespace(p.trim());
    if (part !== '') kept.push(part);
  }
  return kept.length === 1 ? kept[0]! : kept.join(' ');
}

/**
 * What `text.replace(/\s+/g, ' ')` answers, without running the pattern on text that has nothing to collapse
 * (most descriptions: single spaces only).
 */
function collapseWhitespace(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 ? isWhitespace(text.charCodeAt(i + 1)) : isWhitespace(c)) return text.replace(/\s+/g, ' ');
  }
  return text;
}
