/**
 * The lint rules of one knowledge document and of the shared base: the Markdown rules, line endings and
 * credentials. Called from where the file's lines are already split, so the file is scanned once per change.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { MarkdownLine } from '../markdown.js';
import type { BodyScan } from '../markdown-body.js';
import { findLinks, scanLinks } from '../markdown-links.js';
import { type Memo, NO_MEMO } from '../memo.js';
import {
  buildAnchors,
  findUnclosedFence,
  lintFence,
  lintLineEndings,
  lintLinks,
  readAnchors,
  readMarkdownFacts,
} from './markdown-rules.js';
import { lintSecrets, lintSecretsInText } from './text-rules.js';

/**
 * Findings in a document: `text` is the whole file, `body` the scan of its body (undefined when it has none),
 * `linkLines` the body's lines that hold `](` or `]:`, `bodyLine` the first line after the front matter. Only
 * fragments into the document itself are judged: a document's relative links do not resolve to served files.
 */
export function lintDocument(
  file: string,
  text: string,
  body: BodyScan | undefined,
  linkLines: readonly MarkdownLine[],
  bodyLine: number,
): Diagnostic[] {
  let anchors: ReadonlySet<string> | undefined;
  return [
    ...lintLineEndings(file, text, bodyLine - 1),
    // Only a body whose last line is fenced can leave a fence open: its lines are split for that rule alone.
    ...lintFence(file, body?.lastFenced ? findUnclosedFence(body.lines()) : undefined),
    ...lintLinks(file, scanLinks(linkLines), (pathPart) => {
      if (pathPart !== '') return undefined;
      anchors ??= buildAnchors(body?.lines() ?? []);
      return anchors;
    }),
    ...lintSecretsInText(file, text),
  ];
}

/** Findings in skills/base.md (served in every skill as references/base.md): Markdown rules and credentials. */
export function lintBase(file: string, bytes: Uint8Array, text: string, memo: Memo = NO_MEMO): Diagnostic[] {
  const facts = readMarkdownFacts(bytes, memo);
  if (facts === undefined) return [];
  return [
    ...lintLineEndings(file, text, 0),
    ...lintFence(file, facts.unclosedFence),
    ...lintLinks(file, findLinks(facts.linkLines, memo), (pathPart) =>
      pathPart === '' ? readAnchors(bytes, memo) : undefined,
    ),
    ...lintSecrets(file, bytes, memo),
  ];
}
