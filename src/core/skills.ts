/**
 * Skills: `skills/<name>/SKILL.md` with Agent Skills front matter, and any other files in the directory. Rules
 * are those of the Agent Skills specification and of what hosts enforce (SEP-2640 limits, Codex's description
 * cap, YAML 1.1 readers).
 */
import { decodeUtf8, detachText, detachValue, isAsciiText } from './content.js';
import { codes, compare, type Diagnostic, diagnose } from './diagnostics.js';
import { type FrontMatter, type Position, parseFrontMatter } from './front-matter.js';
import {
  MAX_COMPATIBILITY_LENGTH,
  MAX_SKILL_BYTES,
  MAX_SKILL_DESCRIPTION_LENGTH,
  MAX_SKILL_FILES,
  MAX_SKILL_NAME_LENGTH,
} from './limits.js';
import { HOST_FIELDS } from './lint/host-rules.js';
import { holdsLinkLineMark } from './lint/markdown-rules.js';
import { isCredentialPath } from './lint/secrets.js';
import { findTitles, type MarkdownLine, readLines } from './markdown.js';
import { type KeptLines, keepLinesOf, readKeptLines } from './markdown-body.js';
import { type Memo, memoTable, NO_MEMO } from './memo.js';
import { BASE_FILE, BASE_PATH, SKILL_BODY, SKILL_KEYS, SKILL_STRING_KEYS, SKILLS_DIR } from './names.js';
import type { SourceFile } from './types.js';
import { isSafePath, isSafeSegment } from './uris.js';

export { BASE_FILE, BASE_PATH, MAX_SKILL_BYTES, MAX_SKILL_FILES, SKILL_BODY, SKILLS_DIR };
/** The `metadata` entry that keeps a skill unpublished: `metadata.<key>: <value>` (the scope file may name another). */
export interface DraftMarker {
  readonly key: string;
  readonly value: string;
}
/** The draft marker unless the scope file's `skills.draft` names another. */
export const DEFAULT_DRAFT_MARKER: DraftMarker = { key: 'companion-status', value: 'draft' };

const KNOWN_KEYS: ReadonlySet<string> = new Set(SKILL_KEYS);
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** One file of a skill directory other than `SKILL.md`. */
export interface SkillSourceFile {
  /** Path inside the skill directory. */
  readonly path: string;
  readonly file: SourceFile;
}

export interface ParsedSkill {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** File position of each top-level front matter key. */
  readonly keys: ReadonlyMap<string, Position>;
  readonly draft: boolean;
  readonly body: SourceFile;
  /**
   * Where the body starts in SKILL.md's text. The text is not held (a title or a line sliced from it would keep
   * all of it: ~4 MB on L's 1,000 skills); whoever needs it decodes it again from `body.bytes`.
   */
  readonly bodyStart: number;
  /** 1-based file line the body starts on. */
  readonly bodyLine: number;
  /** The body's lines a link or URI check reads (holding `](`, `]:` or `://`), as ranges into the text. */
  readonly linkLines: KeptLines;
  /** Every other file, sorted by path; `references/base.md` is not among them (it is added when serving). */
  readonly files: readonly SkillSourceFile[];
}

export interface SkillRead {
  readonly skill?: ParsedSkill;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Reads one skill directory from the files below it (`files` keyed by the path inside the directory).
 * Returns no skill when it cannot be served: no SKILL.md, unreadable front matter, an invalid name or
 * description, or beyond the SEP-2640 limits. `draft` marks a skill whose `metadata` carries `marker`.
 */
export function readSkill(
  id: string,
  files: ReadonlyMap<string, SourceFile>,
  baseSize: number,
  marker: DraftMarker = DEFAULT_DRAFT_MARKER,
  memo: Memo = NO_MEMO,
): SkillRead {
  const reads = memo.table(READS);
  // Memoized on the identity of every file's bytes: a rebuild re-reads only the skills an edit touched.
  const body = files.get(SKILL_BODY);
  const key = body?.bytes;
  const cached = key ? reads.get(key) : undefined;
  if (
    cached &&
    cached.id === id &&
    cached.baseSize === baseSize &&
    cached.marker.key === marker.key &&
    cached.marker.value === marker.value &&
    sameFiles(cached.files, files)
  ) {
    return cached.result;
  }
  const result = parseSkill(id, files, baseSize, marker, memo);
  if (key) reads.set(key, { id, baseSize, marker, files, result });
  return result;
}

const READS = memoTable<
  Uint8Array,
  {
    readonly id: string;
    readonly baseSize: number;
    readonly marker: DraftMarker;
    readonly files: ReadonlyMap<string, SourceFile>;
    readonly result: SkillRead;
  }
>('skills.reads');

function sameFiles(a: ReadonlyMap<string, SourceFile>, b: ReadonlyMap<string, SourceFile>): boolean {
  if (a.size !== b.size) return false;
  for (const [path, file] of a) {
    const other = b.get(path);
    if (other?.bytes !== file.bytes || other.mtimeMs !== file.mtimeMs) return false;
  }
  return true;
}

/** The lines of `skill`'s body a link or URI check reads, read again from its bytes. */
export function readSkillLinkLines(skill: ParsedSkill): readonly MarkdownLine[] {
  return readKeptLines(skill.body.bytes, skill.linkLines);
}

function parseSkill(
  id: string,
  files: ReadonlyMap<string, SourceFile>,
  baseSize: number,
  marker: DraftMarker,
  memo: Memo,
): SkillRead {
  const dir = `${SKILLS_DIR}${id}`;
  const bodyPath = `${dir}/${SKILL_BODY}`;
  if (!isSafeSegment(id)) {
    return {
      diagnostics: [diagnose(codes.unsafePath, { kind: 'skill', id }, { file: bodyPath })],
    };
  }
  const body = files.get(SKILL_BODY);
  if (!body) {
    const other = [...files.keys()].find((p) => p.toLowerCase() === 'skill.md');
    return {
      diagnostics: [
        diagnose(codes.skillMissingBody, { dir, other }, { file: other ? `${dir}/${other}` : `${dir}/` }),
      ],
    };
  }
  const diagnostics: Diagnostic[] = [];
  const text = decodeUtf8(body.bytes, memo);
  if (text === undefined) {
    return { diagnostics: [diagnose(codes.invalidUtf8, { file: 'skill' }, { file: bodyPath })] };
  }
  const fm = parseFrontMatter(text);
  let servable = true;
  let data: Readonly<Record<string, unknown>> = {};
  let draft = false;
  if (fm.kind === 'missing') {
    diagnostics.push(diagnose(codes.skillFrontMatterMissing, {}, { file: bodyPath, line: 1 }));
    servable = false;
  } else if (fm.kind === 'error') {
    diagnostics.push(
      diagnose(
        codes.skillYaml,
        { reason: fm.message },
        {
          file: bodyPath,
          line: fm.line,
          column: fm.column,
        },
      ),
    );
    servable = false;
  } else {
    data = fm.data;
    const found = diagnostics.length;
    draft = checkFrontMatter(fm, id, bodyPath, marker, diagnostics);
    const unservable: readonly string[] = [codes.skillName.code, codes.skillDescription.code];
    if (diagnostics.slice(found).some((d) => unservable.includes(d.code))) servable = false;
  }
  const description = data.description;

  // The body and the other files are checked even when the front matter failed: their findings stand alone.
  const bodyText = fm.body;
  const bodyLine = fm.kind === 'ok' ? fm.bodyLine : fm.kind === 'error' ? (fm.bodyLine ?? 1) : 1;
  const bodyLines = bodyText === undefined ? [] : readLines(bodyText, bodyLine);
  const titles = findTitles(bodyLines);
  if (bodyText !== undefined && titles.length === 0) {
    diagnostics.push(diagnose(codes.skillTitle, {}, { file: bodyPath, line: bodyLine }));
  }

  const others: SkillSourceFile[] = [];
  let totalBytes = body.bytes.byteLength + baseSize;
  for (const [path, file] of [...files].sort(([a], [b]) => compare(a, b))) {
    if (path === SKILL_BODY) continue;
    if (path === BASE_PATH) {
      diagnostics.push(diagnose(codes.baseShadowed, { dir }, { file: `${dir}/${path}` }));
      continue;
    }
    if (isCredentialPath(path)) {
      // A key store or private key holds nothing but the secret: it is never served.
      diagnostics.push(diagnose(codes.credentialFile, { path }, { file: `${dir}/${path}` }));
      continue;
    }
    if (!isSafePath(path)) {
      diagnostics.push(diagnose(codes.unsafePath, { kind: 'skill-file', path }, { file: `${dir}/${path}` }));
      continue;
    }
    if (path.endsWith('.md') && decodeUtf8(file.bytes, memo) === undefined) {
      diagnostics.push(diagnose(codes.invalidUtf8, { file: 'skill-file' }, { file: `${dir}/${path}` }));
      continue;
    }
    totalBytes += file.bytes.byteLength;
    others.push({ path, file });
  }
  const fileCount = others.length + 2;
  if (fileCount > MAX_SKILL_FILES) {
    diagnostics.push(diagnose(codes.skillTooManyFiles, { files: fileCount }, { file: bodyPath }));
    servable = false;
  }
  if (totalBytes > MAX_SKILL_BYTES) {
    diagnostics.push(diagnose(codes.skillTooLarge, { bytes: totalBytes }, { file: bodyPath }));
    servable = false;
  }
  if (!servable || fm.kind !== 'ok') return { diagnostics };
  return {
    skill: {
      id,
      title: detachText(titles[0]?.text ?? id),
      description: detachText((description as string).trim()),
      frontmatter: detachValue(data) as Readonly<Record<string, unknown>>,
      keys: fm.keys,
      draft,
      body,
      bodyStart: text.length - fm.body.length,
      bodyLine,
      linkLines: keepLinesOf(
        fm.body,
        bodyLines,
        text.length - fm.body.length,
        isAsciiText(text, body.bytes),
        holdsLinkLineMark,
      ),
      files: others,
    },
    diagnostics,
  };
}

/**
 * The Agent Skills rules on a front matter that parsed — name, description, string fields, compatibility,
 * metadata, unknown keys, YAML that parsers read differently — each finding pushed onto `diagnostics`.
 * Answers whether the skill is a draft (its `metadata` carries `marker`).
 */
function checkFrontMatter(
  fm: Extract<FrontMatter, { kind: 'ok' }>,
  id: string,
  bodyPath: string,
  marker: DraftMarker,
  diagnostics: Diagnostic[],
): boolean {
  const at = (key: string): { file: string } & Partial<Position> => ({
    file: bodyPath,
    ...(fm.keys.get(key) ?? { line: 1 }),
  });

  const name = fm.data.name;
  if (typeof name !== 'string' || name === '') {
    diagnostics.push(diagnose(codes.skillName, { kind: 'missing' }, at('name')));
  } else if (name.length > MAX_SKILL_NAME_LENGTH || !NAME.test(name)) {
    diagnostics.push(diagnose(codes.skillName, { kind: 'invalid', name }, at('name')));
  } else if (name !== id) {
    diagnostics.push(diagnose(codes.skillName, { kind: 'mismatch', name, id }, at('name')));
  }

  const description = fm.data.description;
  if (typeof description !== 'string' || description.trim() === '') {
    diagnostics.push(diagnose(codes.skillDescription, {}, at('description')));
  } else if (description.length > MAX_SKILL_DESCRIPTION_LENGTH) {
    diagnostics.push(diagnose(codes.skillDescription, { length: description.length }, at('description')));
  }

  for (const key of SKILL_STRING_KEYS) {
    const value = fm.data[key];
    if (value !== undefined && typeof value !== 'string') {
      diagnostics.push(diagnose(codes.skillField, { kind: 'string', key }, at(key)));
    }
  }
  const compatibility = fm.data.compatibility;
  if (
    typeof compatibility === 'string' &&
    (compatibility.length > MAX_COMPATIBILITY_LENGTH || compatibility.length === 0)
  ) {
    diagnostics.push(
      diagnose(codes.skillCompatibility, { length: compatibility.length }, at('compatibility')),
    );
  }
  const metadata = fm.data.metadata;
  let draft = false;
  if (metadata !== undefined) {
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
      diagnostics.push(diagnose(codes.skillField, { kind: 'map' }, at('metadata')));
    } else {
      for (const [key, value] of Object.entries(metadata)) {
        if (typeof value !== 'string') {
          diagnostics.push(diagnose(codes.skillMetadata, { key, value }, at('metadata')));
        }
      }
      draft = (metadata as Record<string, unknown>)[marker.key] === marker.value;
    }
  }
  for (const [key, pos] of fm.keys) {
    // Fields some hosts define have their own finding (CMP642), which names the hosts.
    if (!KNOWN_KEYS.has(key) && !HOST_FIELDS.has(key)) {
      diagnostics.push(diagnose(codes.skillUnknownField, { key }, { file: bodyPath, ...pos }));
    }
  }
  for (const a of fm.ambiguities) {
    diagnostics.push(
      diagnose(
        codes.ambiguousYaml,
        { key: a.key, reason: a.reason },
        {
          file: bodyPath,
          line: a.line,
          column: a.column,
        },
      ),
    );
  }

  return draft;
}
