/**
 * The Skills extension (`io.modelcontextprotocol/skills`, SEP-2640, text of 2026-08-21): `skills/list` and
 * `skills/get` over the published skills. Entries are `{uri, frontmatter, resources}` — the front matter as
 * written, and a manifest of every file with the digest and size of the bytes a read returns. The 2026-07-28
 * caching fields (`ttlMs`, `cacheScope`) are not sent: this server speaks the 2025-era wire.
 */
import type { Catalog, SkillEntry } from '../core/types.js';
import { decodeCursor, encodeCursor, paginate } from './cursor.js';
import { invalidParams } from './errors.js';

export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';
export const SKILLS_LIST_METHOD = 'skills/list';
export const SKILLS_GET_METHOD = 'skills/get';

/** One wire entry. */
export interface SkillWireEntry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: { uri: string; digest: string; size: number }[];
}

/**
 * Built afresh for every answer, on purpose: memoizing the entry per `SkillEntry` (a `WeakMap`) was measured
 * slower, not faster — the copy it saves is small, and serializing long-lived cached entries costs more than
 * serializing fresh ones (L, 1,000 skills: a full `skills/list` pagination 3.35 → 3.62 ms p50, 3.74 frozen).
 */
export function toSkillWireEntry(skill: SkillEntry): SkillWireEntry {
  return {
    uri: skill.uri,
    frontmatter: { ...skill.frontmatter },
    resources: skill.manifest.map(({ uri, digest, size }) => ({ uri, digest, size })),
  };
}

/** `skills/list`: one page of published skills, in catalog order; an entry is never split across pages. */
export function listSkillsPage(
  catalog: Catalog,
  generation: number,
  params: Record<string, unknown>,
  pageSize: number,
): { skills: SkillWireEntry[]; nextCursor?: string } {
  const offset = params.cursor === undefined ? 0 : decodeCursor(params.cursor, 'skills', generation);
  const { page, nextCursor } = paginate(catalog.skills, offset, pageSize, (next) =>
    encodeCursor('skills', next, generation),
  );
  const skills = page.map(toSkillWireEntry);
  return nextCursor === undefined ? { skills } : { skills, nextCursor };
}

/** `skills/get`: the entry whose `SKILL.md` URI is `params.uri`; anything else is -32602 with `data.uri`. */
export function getSkill(catalog: Catalog, params: Record<string, unknown>): { skill: SkillWireEntry } {
  const uri = params.uri;
  if (typeof uri !== 'string') throw invalidParams('skills/get needs params.uri, a SKILL.md URI', { uri });
  const skill = catalog.skills.find((entry) => entry.uri === uri);
  if (!skill) throw invalidParams(`Skill not found: ${uri}`, { uri });
  return { skill: toSkillWireEntry(skill) };
}
