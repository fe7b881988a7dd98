/**
 * The Skills extension (`io.modelcontextprotocol/skills`, SEP-2640, final since 2026-09-13): `skills/list`,
 * `skills/get` and `resources/directory/read` over the published skills. Entries are `{uri, frontmatter,
 * resources}` — the front matter as written, and a manifest of every file with the digest and size of the bytes a
 * read returns. On the 2026-07-28 era every result also carries the caching fields (`ttlMs`, `cacheScope`), which
 * the extension makes required there; the 2025 era has no such fields, so they are left out.
 */
import type { Catalog, SkillEntry } from '../core/types.js';
import { buildSkillDirectoryUri } from '../core/uris.js';
import { paginate } from './cursor.js';
import { invalidParams } from './errors.js';

export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';
export const SKILLS_LIST_METHOD = 'skills/list';
export const SKILLS_GET_METHOD = 'skills/get';
export const DIRECTORY_READ_METHOD = 'resources/directory/read';
export const DIRECTORY_MIME_TYPE = 'inode/directory';

/** `{ttlMs, cacheScope}` on a modern-era result; nothing on a legacy one. */
export interface CacheFields {
  readonly ttlMs?: number;
  readonly cacheScope?: 'public';
}

/** One wire entry. */
export interface SkillWireEntry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: { uri: string; digest: string; size: number }[];
}

/**
 * A fresh wire object per call: what is worth keeping is the serialized page (`list-pages.ts`), which the doors
 * reuse for a whole generation; memoizing these objects instead was measured slower (serializing long-lived
 * cached objects costs more than serializing fresh ones: L, a full `skills/list` pagination 3.35 → 3.62 ms p50).
 */
export function toSkillWireEntry(skill: SkillEntry): SkillWireEntry {
  return {
    uri: skill.uri,
    frontmatter: { ...skill.frontmatter },
    resources: skill.manifest.map(({ uri, digest, size }) => ({ uri, digest, size })),
  };
}

/**
 * One page of `skills/list` from `offset` (decoded from the request's cursor): the published skills in catalog
 * order, an entry never split across pages, and the next page's cursor. The caching fields of the 2026-07-28 era
 * go beside it in the result.
 */
export function listSkillsPage(
  catalog: Catalog,
  offset: number,
  pageSize: number,
): { items: SkillWireEntry[]; nextCursor?: string } {
  const { page, nextCursor } = paginate('skills', catalog.skills, offset, pageSize);
  const items = page.map(toSkillWireEntry);
  return nextCursor === undefined ? { items } : { items, nextCursor };
}

/** `skills/get`: the entry whose `SKILL.md` URI is `params.uri`; anything else is -32602 with `data.uri`. */
export function getSkill(
  catalog: Catalog,
  params: Record<string, unknown>,
  cache: CacheFields,
): { skill: SkillWireEntry } & CacheFields {
  const uri = params.uri;
  if (typeof uri !== 'string') throw invalidParams('skills/get needs params.uri, a SKILL.md URI', { uri });
  const skill = catalog.skills.find((entry) => entry.uri === uri);
  if (!skill) throw invalidParams(`Skill not found: ${uri}`, { uri });
  return { skill: toSkillWireEntry(skill), ...cache };
}

/** A `resources/directory/read` child: a served file with its listing fields, or a subdirectory. */
export interface DirectoryChild {
  uri: string;
  name: string;
  mimeType: string;
  size?: number;
}

/**
 * `resources/directory/read` for every directory of every published skill: the skill root
 * (`<scheme>://skill/<id>`) and each directory below it (`…/references`), no trailing slash. The answer holds
 * the direct children only — served files with `name`, `mimeType` and `size`, subdirectories as
 * `inode/directory` — in the skill's file order, in one page. The URI is matched against the directories the
 * skill's served files lie in, never parsed into a path; anything else (a file, a draft, an unknown or malformed
 * URI, a cursor, which is never issued) is -32602 with `data.uri`.
 */
export function readSkillDirectory(
  catalog: Catalog,
  params: Record<string, unknown>,
  cache: CacheFields,
): { resources: DirectoryChild[] } & CacheFields {
  const uri = params.uri;
  if (typeof uri !== 'string') {
    throw invalidParams('resources/directory/read needs params.uri, a directory URI', { uri });
  }
  const notDirectory = () => invalidParams(`Not a directory resource: ${uri}`, { uri });
  if (params.cursor !== undefined) throw invalidParams('Invalid cursor', { cursor: params.cursor });
  const prefix = buildSkillDirectoryUri(catalog.server.scheme, '', '');
  if (!uri.startsWith(prefix)) throw notDirectory();
  const rest = uri.slice(prefix.length);
  const slash = rest.indexOf('/');
  const skillId = slash === -1 ? rest : rest.slice(0, slash);
  const skill = catalog.skills.find((entry) => entry.id === skillId);
  if (!skill) throw notDirectory();
  const dir = slash === -1 ? '' : rest.slice(slash + 1);
  if (slash !== -1 && dir === '') throw notDirectory();
  const below = dir === '' ? '' : `${dir}/`;
  const children: DirectoryChild[] = [];
  const seenDirectories = new Set<string>();
  for (const file of skill.files) {
    const content = catalog.contents.get(file.uri);
    if (!content || !file.path.startsWith(below)) continue;
    const relative = file.path.slice(below.length);
    const cut = relative.indexOf('/');
    if (cut === -1) {
      children.push({ uri: file.uri, name: relative, mimeType: content.mimeType, size: content.size });
      continue;
    }
    const name = relative.slice(0, cut);
    if (seenDirectories.has(name)) continue;
    seenDirectories.add(name);
    children.push({
      uri: buildSkillDirectoryUri(catalog.server.scheme, skill.id, `${below}${name}`),
      name,
      mimeType: DIRECTORY_MIME_TYPE,
    });
  }
  // The root always exists; a directory below it exists while a served file lies in it.
  if (dir !== '' && children.length === 0) throw notDirectory();
  return { resources: children, ...cache };
}
