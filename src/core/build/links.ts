/**
 * Link checks, and the index of who mentions whom that keeps them incremental: a document's scheme URIs, a
 * skill's relative links (to its own files) and URIs, base.md's links in every skill. Each checked group — a
 * document (`d:<path>`), a skill (`s:<id>`), the base (`b`) — keeps its findings and the owners of the URIs it
 * mentions, so when a document or skill appears or vanishes only the groups that mention it are checked again.
 */

import { codes, type Diagnostic, diagnose } from '../diagnostics.js';
import { resolveLink } from '../links.js';
import { classifyLinkPath, readMarkdownFacts } from '../lint/index.js';
import type { MarkdownLine } from '../markdown.js';
import { readKeptLines } from '../markdown-body.js';
import { findLinks, findSchemeUris } from '../markdown-links.js';
import type { Memo } from '../memo.js';
import { BASE_FILE, BASE_PATH, DOCUMENTS_DIR, SKILL_BODY, SKILLS_DIR } from '../names.js';
import type { PersistentMapEditor } from '../persistent-map.js';
import { type ParsedSkill, readSkillLinkLines } from '../skills.js';
import type { FileProblem, ServedContent, SkillEntry } from '../types.js';
import { buildIndexUri } from '../uris.js';
import type { Frame } from './frame.js';
import { documentPresence, skillPresence } from './presence.js';
import type { DocumentUnit, SkillUnit } from './units.js';

/** Where a check's findings are kept: `d:<path>` for a document, `s:<id>` for a skill, `b` for the base. */
export type CheckKey = string;

/** Records `found` under `key`, or forgets `key` when nothing was found (only non-empty ones are kept). */
export function setFindings(
  findings: Map<CheckKey, readonly Diagnostic[]>,
  key: CheckKey,
  found: readonly Diagnostic[] | undefined,
): void {
  if (found === undefined || found.length === 0) findings.delete(key);
  else findings.set(key, found);
}

/** What one link check reads. */
export interface LinkContext {
  readonly frame: Frame;
  readonly documentUnits: ReadonlyMap<string, DocumentUnit>;
  readonly skillUnits: ReadonlyMap<string, SkillUnit>;
  readonly servesSkill: (skill: ParsedSkill | undefined) => skill is ParsedSkill;
  /** The served skills' entries, in id order: base.md's links must hold in each. */
  readonly skills: readonly SkillEntry[];
  /** Whether a URI names something served, and who owns it (see `createUriJudge`). */
  readonly judgeUri: (uri: string) => UriFacts;
  readonly memo: Memo;
}

/** What a link check asks of a scheme URI it found. */
export interface UriFacts {
  readonly served: boolean;
  /** The document or skill whose coming or going changes `served` (`d:<id>`, `s:<id>`), else undefined. */
  readonly owner: string | undefined;
}

export interface LinkChecks {
  /** The findings of every checked group that found any. */
  readonly findings: ReadonlyMap<CheckKey, readonly Diagnostic[]>;
  /** The groups that mention a URI owned by `owner` (`d:<id>` or `s:<id>`). */
  mentioning(owner: string): Iterable<CheckKey>;
  /** Runs the checks of one group again and re-indexes what it mentions. */
  check(key: CheckKey, context: LinkContext): void;
  /** Forgets every group (a build from scratch). */
  clear(): void;
}

/**
 * `indexed` false keeps no index of who mentions whom (`mentioning` answers nothing): for a build no incremental
 * derive follows (`BuildOptions.once`), where nothing asks it.
 */
export function createLinkChecks(indexed = true): LinkChecks {
  const findings = new Map<CheckKey, readonly Diagnostic[]>();
  /** Which checked groups mention a URI owned by a document (`d:<id>`) or a skill (`s:<id>`). */
  const mentionedBy = new Map<string, Set<CheckKey>>();
  /** Each group's entries of `mentionedBy` (the sets, not the owners: a group's owner strings die with its check). */
  const mentionsOf = new Map<CheckKey, readonly Set<CheckKey>[]>();
  return {
    findings,
    mentioning: (owner) => mentionedBy.get(owner) ?? [],
    check(key, context) {
      const { found, owners } = checkGroup(key, context);
      setFindings(findings, key, found);
      if (!indexed) return;
      const before = mentionsOf.get(key);
      if (before !== undefined) for (const set of before) set.delete(key);
      if (owners.size === 0) {
        if (before !== undefined) mentionsOf.delete(key);
      } else {
        // `map` makes the array its exact size (one pushed to would keep slack).
        const sets = [...owners].map((owner) => {
          let set = mentionedBy.get(owner);
          if (set === undefined) {
            set = new Set<CheckKey>();
            mentionedBy.set(owner, set);
          }
          set.add(key);
          return set;
        });
        mentionsOf.set(key, sets);
      }
    },
    clear() {
      findings.clear();
      mentionedBy.clear();
      mentionsOf.clear();
    },
  };
}

/** The owner of a URI whose servedness can change: a document or skill id, else undefined (fixed). */
function ownerOf(uri: string, prefixes: Frame['prefixes']): string | undefined {
  const { document, skill } = prefixes;
  if (uri.startsWith(document)) return `d:${uri.slice(document.length)}`;
  if (uri.startsWith(skill)) return `s:${uri.slice(skill.length).split('/')[0]!}`;
  return undefined;
}

/** What a group that mentions nothing finds. */
const NOTHING: { found: Diagnostic[]; owners: Set<string> } = Object.freeze({
  found: Object.freeze([]) as unknown as Diagnostic[],
  owners: Object.freeze(new Set<string>()) as Set<string>,
});

/** The findings of one group, and the owners of the URIs it mentions. */
function checkGroup(key: CheckKey, context: LinkContext): { found: Diagnostic[]; owners: Set<string> } {
  const isDocument = key.startsWith('d:');
  const documentUnit = isDocument ? context.documentUnits.get(key.slice(2)) : undefined;
  const document = documentUnit?.document;
  // Nothing is made for a document that mentions no URI (most: 88,000 of XL's 100,000).
  if (isDocument && (document === undefined || document.uriLines.length === 0)) return NOTHING;
  const { frame } = context;
  const found: Diagnostic[] = [];
  const owners = new Set<string>();
  const checkUris = (file: string, lines: readonly MarkdownLine[]) => {
    for (const mention of findSchemeUris(lines, frame.scheme)) {
      const { served, owner } = context.judgeUri(mention.uri);
      if (owner !== undefined) owners.add(owner);
      if (served) continue;
      found.push(
        diagnose(
          codes.unknownUri,
          { uri: mention.uri },
          { file, line: mention.line, column: mention.column },
        ),
      );
    }
  };
  // The lines are ranges into the bytes of the file the document was parsed from (the unit's).
  if (document) checkUris(document.path, readKeptLines(documentUnit!.file.bytes, document.uriLines));
  else if (key.startsWith('s:')) {
    const unit = context.skillUnits.get(key.slice(2));
    if (context.servesSkill(unit?.skill) && unit!.entry)
      found.push(...checkSkillLinks(unit!.skill!, unit!.entry, checkUris, context.memo));
  } else {
    const { base } = frame;
    const lines = base ? readLinkLines(base.bytes, context.memo) : undefined;
    if (base && lines !== undefined) {
      checkUris(BASE_FILE, lines);
      found.push(...checkBaseLinks(lines, context.skills, context.memo));
    }
  }
  return { found, owners };
}

/**
 * The facts of each URI the link checks of one derive find, each distinct URI judged once: L's documents mention
 * ~27,000 URIs, ~8,700 of them distinct, and a judgement hashes the URI into the contents and spells its owner.
 * What it reads (the contents, the units, the problems) stays as it is while the links are checked, so a
 * judge lives for one derive's link checks and no longer.
 */
export function createUriJudge(
  contents: PersistentMapEditor<ServedContent>,
  frame: Frame,
  documentUnits: ReadonlyMap<string, DocumentUnit>,
  skillUnits: ReadonlyMap<string, SkillUnit>,
  problems: ReadonlyMap<string, FileProblem>,
): (uri: string) => UriFacts {
  const isServed = createServedCheck(contents, frame, documentUnits, skillUnits, problems);
  const judged = new Map<string, UriFacts>();
  return (uri) => {
    let facts = judged.get(uri);
    if (facts === undefined) {
      facts = { served: isServed(uri), owner: ownerOf(uri, frame.prefixes) };
      judged.set(uri, facts);
    }
    return facts;
  };
}

/**
 * Whether a URI names something served. A URI into a document or skill that exists but failed to build counts
 * as served: its own error says why, and it is not reported twice.
 */
function createServedCheck(
  contents: PersistentMapEditor<ServedContent>,
  frame: Frame,
  documentUnits: ReadonlyMap<string, DocumentUnit>,
  skillUnits: ReadonlyMap<string, SkillUnit>,
  problems: ReadonlyMap<string, FileProblem>,
): (uri: string) => boolean {
  const indexUri = buildIndexUri(frame.scheme);
  const { document, skill } = frame.prefixes;
  return (uri) => {
    if (uri === indexUri || contents.get(uri) !== undefined) return true;
    if (uri.startsWith(document)) {
      const id = uri.slice(document.length);
      return documentPresence(documentUnits, `${DOCUMENTS_DIR}${id}.md`, problems) === 'failed';
    }
    if (uri.startsWith(skill)) {
      return skillPresence(skillUnits, uri.slice(skill.length).split('/')[0]!, problems) === 'failed';
    }
    return false;
  };
}

/**
 * The lines of a Markdown file that a link check reads (those holding `](`, `]:` or `://`; the scans skip every
 * other line), from the one scan of the file the lint rules share; undefined when the bytes are not UTF-8.
 */
function readLinkLines(bytes: Uint8Array, memo: Memo): readonly MarkdownLine[] | undefined {
  return readMarkdownFacts(bytes, memo)?.linkLines;
}

/** Relative links inside a skill resolve to its own files; scheme URIs go to `checkUris`. */
function checkSkillLinks(
  s: ParsedSkill,
  entry: SkillEntry,
  checkUris: (file: string, lines: readonly MarkdownLine[]) => void,
  memo: Memo,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const served = new Set(entry.files.map((f) => f.path));
  const markdown: [string, string, readonly MarkdownLine[]][] = [
    [SKILL_BODY, `${SKILLS_DIR}${s.id}/${SKILL_BODY}`, readSkillLinkLines(s)],
  ];
  for (const f of s.files) {
    if (!f.path.endsWith('.md')) continue;
    const lines = readLinkLines(f.file.bytes, memo);
    if (lines !== undefined) markdown.push([f.path, f.file.path, lines]);
  }
  for (const [path, file, lines] of markdown) {
    checkUris(file, lines);
    for (const link of findLinks(lines, memo)) {
      // Backslashes and absolute local paths have their own findings (CMP505, CMP506).
      if (classifyLinkPath(link.target) !== undefined) continue;
      const resolved = resolveLink(path, link.target);
      if (resolved === null || (resolved !== undefined && served.has(resolved))) continue;
      out.push(
        diagnose(
          codes.brokenLink,
          { kind: 'skill', target: link.target, resolved, skill: s.id },
          { file, line: link.line, column: link.column },
        ),
      );
    }
  }
  return out;
}

/** skills/base.md is served as references/base.md in every published skill: its links must hold in each. */
function checkBaseLinks(
  lines: readonly MarkdownLine[],
  skills: readonly SkillEntry[],
  memo: Memo,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const links = findLinks(lines, memo);
  if (links.length === 0) return out;
  const filesOf = new Map(skills.map((s) => [s.id, new Set(s.files.map((f) => f.path))]));
  for (const link of links) {
    if (classifyLinkPath(link.target) !== undefined) continue;
    const resolved = resolveLink(BASE_PATH, link.target);
    if (resolved === null) continue;
    const missing = skills
      .filter((s) => resolved === undefined || !filesOf.get(s.id)!.has(resolved))
      .map((s) => s.id);
    if (missing.length === 0) continue;
    out.push(
      diagnose(
        codes.brokenLink,
        { kind: 'base', target: link.target, missing, everywhere: missing.length === skills.length },
        { file: BASE_FILE, line: link.line, column: link.column },
      ),
    );
  }
  return out;
}
