/**
 * Per-file facts: the part of a build that reads one file and nothing else — a binary's digest, its directives, a
 * document's parse and lint, and for a skill's files the credential scan and (besides SKILL.md, which is read with
 * its skill) the Markdown facts and links. None of it depends on the scope file, base.md or another file, so it can be derived anywhere
 * (another thread: src/fs/build-pool.ts) and handed to a builder as memo entries for the same bytes
 * (`CatalogBuilder.prefill`). What the builder does with them is what it does with entries it derived itself:
 * a result is the same with facts, without them, or with some of them.
 *
 * Only tables whose values are plain data cross (strings, numbers, arrays, plain objects, `Map`, `Set`), and an
 * entry whose value holds anything else is dropped: a structured clone would change it (a class instance, an
 * object without a prototype), and the builder derives that entry itself.
 */
import { buildDigest, buildMimeType, isTextual } from '../content.js';
import { buildDocumentId, packDocumentRead, readDocument, unpackDocumentRead } from '../documents.js';
import { readDirectivesOf, readMarkdownFacts } from '../lint/index.js';
import { lintSecrets } from '../lint/text-rules.js';
import { findLinks } from '../markdown-links.js';
import { createRecordingMemo, type Memo } from '../memo.js';
import { SKILL_BODY, SKILLS_DIR } from '../names.js';

const DOCUMENT_READS = 'documents.reads';

/** The memo tables whose entries cross threads (values are plain data; keys are the bytes or a value's part). */
const CROSSING: ReadonlySet<string> = new Set([
  'content.digests',
  DOCUMENT_READS,
  'lint.directives',
  'lint.markdown.facts',
  'lint.secrets',
  'markdown.links',
]);

/**
 * One file's facts as they cross: memo entries, the key `null` standing for the file's own bytes (the receiver
 * has its own copy of them) and any other key being an object inside one of the values (a structured clone of
 * the whole array keeps that identity).
 */
export type FileFacts = readonly {
  readonly name: string;
  readonly key: object | null;
  readonly value: unknown;
}[];

/** Derives, into `memo`, every per-file fact of the file at `path` with these bytes (see the module comment). */
export function deriveFileFacts(path: string, bytes: Uint8Array, mtimeMs: number, memo: Memo): void {
  // Only a binary file's digest: the build makes it (`takeDigest`). A text's is made when first asked, if ever
  // (`check` never asks), so hashing it here would be work a build without facts does not do.
  if (!isTextual(buildMimeType(path))) buildDigest(bytes, memo);
  readDirectivesOf(path, bytes, memo);
  if (buildDocumentId(path) !== undefined) {
    readDocument({ path, bytes, mtimeMs }, memo);
  } else if (path.startsWith(SKILLS_DIR)) {
    lintSecrets(path, bytes, memo);
    // A skill's other Markdown files (and base.md); its SKILL.md is read with its skill, which needs base.md.
    if (path.endsWith('.md') && !path.endsWith(`/${SKILL_BODY}`)) {
      const facts = readMarkdownFacts(bytes, memo);
      if (facts) findLinks(facts.linkLines, memo);
    }
  }
}

/** A recorder of `FileFacts`, one file after another (one per thread: its memo starts empty for each file). */
export function createFactsRecorder(): (path: string, bytes: Uint8Array, mtimeMs: number) => FileFacts {
  const memo = createRecordingMemo(CROSSING);
  return (path, bytes, mtimeMs) => {
    deriveFileFacts(path, bytes, mtimeMs, memo);
    const entries = memo.take();
    // Values first: an entry keyed by an object crosses only when a value carries that key (the links of a
    // file's link lines); a key nothing carries would be garbage on arrival. (`carried` may hold parts of a value
    // that was dropped: a key only such a value carries crosses as garbage, harmlessly.)
    const carried = new Set<object>();
    const out: { name: string; key: object | null; value: unknown }[] = [];
    for (const { name, key, value } of entries) {
      if (key !== bytes) continue;
      // A document's parse is a class whose texts are ranges into the bytes: it crosses packed.
      const crossing = name === DOCUMENT_READS ? packDocumentRead(value) : value;
      if (isPlainData(crossing, carried)) out.push({ name, key: null, value: crossing });
    }
    for (const { name, key, value } of entries) {
      if (key !== bytes && carried.has(key) && isPlainData(value, carried)) out.push({ name, key, value });
    }
    return out;
  };
}

/** Seeds `memo` with `facts` derived elsewhere from bytes equal to `bytes`. */
export function seedFileFacts(memo: Memo, bytes: Uint8Array, facts: FileFacts): void {
  for (const { name, key, value } of facts) {
    if (!CROSSING.has(name)) continue;
    memo.seed(name, key ?? bytes, name === DOCUMENT_READS ? unpackDocumentRead(value, bytes) : value);
  }
}

const PLAIN: ReadonlySet<object | null> = new Set([
  Object.prototype,
  Array.prototype,
  Map.prototype,
  Set.prototype,
]);

/** Whether a structured clone of `value` is equal to it in every way the builder can tell. */
function isPlainData(value: unknown, seen: Set<object>): boolean {
  if (value === null || typeof value !== 'object')
    return typeof value !== 'function' && typeof value !== 'symbol';
  if (seen.has(value)) return true;
  seen.add(value);
  if (!PLAIN.has(Object.getPrototypeOf(value))) return false;
  if (value instanceof Map) {
    for (const [k, v] of value) if (!isPlainData(k, seen) || !isPlainData(v, seen)) return false;
    return true;
  }
  if (value instanceof Set) {
    for (const v of value) if (!isPlainData(v, seen)) return false;
    return true;
  }
  for (const v of Object.values(value)) if (!isPlainData(v, seen)) return false;
  return true;
}
