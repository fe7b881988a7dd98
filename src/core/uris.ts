/**
 * The one place that spells companion's URIs. A URI is never a path: every served URI is built here from an id
 * the catalog validated, and a read looks the raw URI up in the catalog, so nothing a client writes is ever
 * resolved against the disk.
 */
import { SKILL_BODY } from './names.js';

/** The index: purpose, coverage, routing and every document and skill with its URI. */
export function buildIndexUri(scheme: string): string {
  return `${scheme}://guides`;
}

/** One knowledge document; `id` is its path below `knowledge/documents/` without `.md` and may hold slashes. */
export function buildDocumentUri(scheme: string, id: string): string {
  return `${scheme}://guides/${id}`;
}

/** A published skill's body. Keeping `SKILL.md` in the URI makes the body's relative links resolve. */
export function buildSkillUri(scheme: string, skillId: string): string {
  return buildSkillFileUri(scheme, skillId, SKILL_BODY);
}

/** Any file of a skill, `path` relative to the skill directory (`references/base.md`). */
export function buildSkillFileUri(scheme: string, skillId: string, path: string): string {
  return `${scheme}://skill/${skillId}/${path}`;
}

/**
 * A directory of a skill (SEP-2640 directory resource): the skill root for `dir` `''`, else `dir` below it
 * (`references`). No trailing slash.
 */
export function buildSkillDirectoryUri(scheme: string, skillId: string, dir: string): string {
  return dir === '' ? `${scheme}://skill/${skillId}` : `${scheme}://skill/${skillId}/${dir}`;
}

export function buildDocumentTemplate(scheme: string): string {
  return `${scheme}://guides/{+documentId}`;
}

export function buildSkillFileTemplate(scheme: string): string {
  return `${scheme}://skill/{skillId}/{+path}`;
}

/**
 * A path segment that goes into a URI verbatim: letters, digits, `.`, `_` and `-`, not starting with `.`.
 * Percent-encoding, `..`, empty segments and anything a URL parser would rewrite are thereby impossible.
 */
export function isSafeSegment(segment: string): boolean {
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(segment) && segment.length <= 128;
}

/**
 * True when every `/`-separated segment of `path` is safe (see `isSafeSegment`): one pass over the characters,
 * with no segment strings made (every document's path is judged on every full build: 100,000 on XL).
 */
export function isSafePath(path: string): boolean {
  if (path.length === 0) return false;
  let start = 0;
  for (let i = 0; i <= path.length; i++) {
    const c = i === path.length ? 0x2f : path.charCodeAt(i);
    if (c === 0x2f) {
      const length = i - start;
      if (length === 0 || length > 128 || path.charCodeAt(start) === 0x2e) return false;
      start = i + 1;
    } else if (!isSegmentChar(c)) return false;
  }
  return true;
}

/** `[A-Za-z0-9._-]`. */
function isSegmentChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x2d ||
    c === 0x2e ||
    c === 0x5f
  );
}
