/**
 * The record of what `companion install` did in a project: `.companion/state.json` (next to a `.gitignore` of
 * `*`, so nothing of it reaches git). It remembers the clients configured and, per skills directory, which skills
 * were published there and their digest — what stale detection, stale removal and `doctor` compare against.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const RECORD_DIR = '.companion';
export const RECORD_FILE = '.companion/state.json';
export const RECORD_VERSION = 1;

export interface DirectoryRecord {
  /** Project-relative posix path of the skills directory (`.claude/skills`). */
  readonly path: string;
  /** Skill ids published there, sorted. */
  readonly skills: readonly string[];
  /** `buildPublicationDigest` over exactly those skills as published. */
  readonly digest: string;
}

export interface PublicationRecord {
  readonly version: 1;
  /** The server name (the entry key) the record belongs to. */
  readonly server: string;
  /** The absolute content root published from; `install` and `doctor` default to it. */
  readonly root: string;
  /** Client ids configured here, in the order first configured. */
  readonly clients: readonly string[];
  /** Every skill the content published at the last install, sorted. */
  readonly skills: readonly string[];
  /** `buildPublicationDigest` of the whole publication at the last install. */
  readonly digest: string;
  readonly directories: readonly DirectoryRecord[];
  /** Set when the last install pointed hosts at `companion dev` (`--url`); a plain install keeps doing so. */
  readonly url?: string;
}

export type RecordRead =
  | { readonly status: 'absent' }
  | { readonly status: 'invalid'; readonly reason: string }
  | { readonly status: 'ok'; readonly record: PublicationRecord };

/** Reads `<project>/.companion/state.json`. Never throws: a record it cannot use is `invalid` with the reason. */
export function readPublicationRecord(project: string): RecordRead {
  const path = join(project, ...RECORD_FILE.split('/'));
  if (!existsSync(path)) return { status: 'absent' };
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return { status: 'invalid', reason: `${RECORD_FILE} cannot be read (${(error as Error).message})` };
  }
  const problem = findRecordProblem(data);
  if (problem !== undefined) return { status: 'invalid', reason: `${RECORD_FILE} ${problem}` };
  return { status: 'ok', record: data as PublicationRecord };
}

function findRecordProblem(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'is not a JSON object';
  const record = data as Record<string, unknown>;
  if (record.version !== RECORD_VERSION) {
    return `has version ${JSON.stringify(record.version)}; this companion reads version ${RECORD_VERSION}`;
  }
  for (const field of ['server', 'root', 'digest'] as const) {
    if (typeof record[field] !== 'string') return `lacks "${field}"`;
  }
  for (const field of ['clients', 'skills'] as const) {
    if (!isStringArray(record[field])) return `lacks "${field}"`;
  }
  if (record.url !== undefined && typeof record.url !== 'string') return 'has a "url" that is not a string';
  const directories = record.directories;
  if (!Array.isArray(directories)) return 'lacks "directories"';
  for (const directory of directories) {
    if (
      typeof directory !== 'object' ||
      directory === null ||
      typeof (directory as DirectoryRecord).path !== 'string' ||
      typeof (directory as DirectoryRecord).digest !== 'string' ||
      !isStringArray((directory as DirectoryRecord).skills) ||
      !isSafeProjectPath((directory as DirectoryRecord).path)
    ) {
      return 'has a directory entry it cannot use';
    }
  }
  return undefined;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** A relative posix path that stays inside the project (a record is data, and data may be edited by hand). */
export function isSafeProjectPath(path: string): boolean {
  return (
    path !== '' &&
    !path.startsWith('/') &&
    !path.includes('\\') &&
    path.split('/').every((s) => s !== '' && s !== '..')
  );
}

/** The record's file text: stable key order, two-space JSON, a final newline. Pure. */
export function formatPublicationRecord(record: PublicationRecord): string {
  const ordered = {
    version: record.version,
    server: record.server,
    root: record.root,
    clients: record.clients,
    skills: record.skills,
    digest: record.digest,
    directories: record.directories.map((d) => ({ path: d.path, skills: d.skills, digest: d.digest })),
    ...(record.url === undefined ? {} : { url: record.url }),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
