/**
 * What `companion install` publishes from a catalog: every published skill with the exact bytes the server
 * serves for each of its files (so `references/base.md` is `skills/base.md`), and one digest over all of it
 * that the record keeps and `doctor` and the staleness notice recompute.
 */

import { createHash } from 'node:crypto';
import { compare } from '../core/diagnostics.js';
import type { Catalog } from '../core/types.js';

export interface PublishedFile {
  /** Posix path inside the skill directory (`SKILL.md`, `references/base.md`). */
  readonly path: string;
  readonly bytes: Uint8Array;
  /** Permission bits the copy gets: its source's (a script stays executable), `0o644` when unknown. */
  readonly mode: number;
}

export interface PublishedSkill {
  readonly id: string;
  /** Sorted by path (code points). */
  readonly files: readonly PublishedFile[];
}

export interface Publication {
  /** Sorted by id (code points). */
  readonly skills: readonly PublishedSkill[];
  /** `buildPublicationDigest(skills)`. */
  readonly digest: string;
}

/**
 * Every published skill of `catalog` with its served bytes, and their digest. Pure. A draft is never published,
 * not even from a catalog built with `includeDrafts` (`companion dev --drafts`, whose staleness notice compares
 * what install would write).
 */
export function buildPublication(catalog: Catalog): Publication {
  const skills = catalog.skills
    .filter((skill) => !skill.draft)
    .sort((a, b) => compareCodePoints(a.id, b.id))
    .map((skill) => ({
      id: skill.id,
      files: skill.files
        .map((file) => {
          const content = catalog.contents.get(file.uri);
          if (content === undefined) throw new Error(`the catalog serves no bytes for ${file.uri}`);
          return { path: file.path, bytes: content.bytes, mode: file.mode ?? DEFAULT_MODE };
        })
        .sort((a, b) => compareCodePoints(a.path, b.path)),
    }));
  return { skills, digest: buildPublicationDigest(skills) };
}

/** The mode of a published file whose source's mode is not known. */
export const DEFAULT_MODE = 0o644;

/**
 * SHA-256 (lowercase hex) over the skills in id order and, per skill, its files in path order: `skill\0<id>\0`,
 * then per file `<path>\0<mode, octal>\0<byte length>\0` and the bytes. Lengths make the framing unambiguous; the order is fixed
 * by sorting, so the digest depends on the content only. Pure.
 */
export function buildPublicationDigest(skills: readonly PublishedSkill[]): string {
  const hash = createHash('sha256');
  const sorted = [...skills].sort((a, b) => compareCodePoints(a.id, b.id));
  for (const skill of sorted) {
    hash.update(`skill\0${skill.id}\0`);
    const files = [...skill.files].sort((a, b) => compareCodePoints(a.path, b.path));
    for (const file of files) {
      hash.update(`${file.path}\0${file.mode.toString(8)}\0${file.bytes.byteLength}\0`);
      hash.update(file.bytes);
    }
  }
  return hash.digest('hex');
}

/** Code-point order, independent of locale (the one the catalog sorts by). */
export const compareCodePoints = compare;
