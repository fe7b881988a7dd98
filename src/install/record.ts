/**
 * The record of what `companion install` wrote in a project: `.companion/state.json` (next to a `.gitignore` of
 * `*`, so nothing of it reaches git). It is what makes anything companion's: an entry in a host's config is
 * companion's when the record names it and its owned fields still have the recorded digest; a file in a skills
 * directory is companion's when the record lists it with the digest of its bytes. Install rewrites and uninstall
 * removes only those; everything else stays the user's. The record also keeps where each config's backup is and
 * whether restoring it would lose nothing, and the directories install created.
 */
import { isAbsolute, join } from 'node:path';
import { exists, type InstallDisk, nodeInstallFs } from './install-fs.js';

export const RECORD_DIR = '.companion';
export const RECORD_FILE = '.companion/state.json';
export const BACKUP_DIR = '.companion/backups';
export const RECORD_VERSION = 2;

/** One client install configured, and the entry name it uses. */
export interface ClientRecord {
  readonly id: string;
  /** The entry's key in the client's config (the server name, or `--name`). */
  readonly name: string;
}

/** An entry companion wrote, by the digest of its owned fields as written. */
export interface EntryRecord {
  /** The servers table (`mcpServers`, `servers`, `mcp_servers`). */
  readonly table: string;
  readonly name: string;
  /** `buildEntryDigest` of the owned fields written. */
  readonly digest: string;
}

/** A config file install changed. */
export interface ConfigRecord {
  /** Absolute path of the config, as the host finds it (a symlink's own path). */
  readonly path: string;
  readonly entries: readonly EntryRecord[];
  /** `digestBytes` of the file as companion last wrote it. */
  readonly written: string;
  /** What the file was before the first install changed it: absent, or the backup that holds its bytes. */
  readonly original: { readonly absent: true } | { readonly backup: string; readonly digest: string };
  /**
   * True while every install that changed the file found it as companion had left it: restoring `original`
   * then gives back the user's file byte for byte, as long as the file still has the `written` digest.
   */
  readonly pristine: boolean;
}

/** A file install published, with what it wrote. */
export interface PublishedFileRecord {
  /** Posix path inside the skill's copy (`SKILL.md`, `references/base.md`, `.gitignore`). */
  readonly path: string;
  /** `digestBytes` of the bytes written. */
  readonly digest: string;
  readonly mode: number;
}

export interface SkillCopyRecord {
  readonly id: string;
  /** True when the copy holds every file the skill publishes, as published. */
  readonly complete: boolean;
  readonly files: readonly PublishedFileRecord[];
}

export interface DirectoryRecord {
  /** Project-relative posix path of the skills directory (`.claude/skills`). */
  readonly path: string;
  /** The copies in it that hold at least one file companion wrote, by id. */
  readonly skills: readonly SkillCopyRecord[];
  /** `buildPublicationDigest` over the complete copies, as published. */
  readonly digest: string;
}

/** A file install wrote whole for a client besides its config (Antigravity's plugin manifest), by digest. */
export interface ClientFileRecord {
  /** The client id the file serves. */
  readonly client: string;
  /** Project-relative posix path. */
  readonly path: string;
  /** `digestBytes` of the bytes written. */
  readonly digest: string;
}

export interface InstallRecord {
  readonly version: 2;
  /** The server name the content declared at the last install. */
  readonly server: string;
  /** The absolute content root published from; `install` and `doctor` default to it. */
  readonly root: string;
  /** Set when the last install pointed hosts at `companion dev` (`--url`); a plain install keeps doing so. */
  readonly url?: string;
  readonly clients: readonly ClientRecord[];
  /** The skills the last install wrote a complete copy of, in at least one directory, sorted. */
  readonly skills: readonly string[];
  /** `buildPublicationDigest` of the whole publication at the last install. */
  readonly digest: string;
  readonly configs: readonly ConfigRecord[];
  readonly directories: readonly DirectoryRecord[];
  /** Absolute paths of the directories install created (outermost first), removed by uninstall when empty. */
  readonly created: readonly string[];
  /** Files written whole for clients that need them beside their config; absent when there are none. */
  readonly files?: readonly ClientFileRecord[];
}

/** What an older companion recorded (version 1): no ownership, but the root, clients and URL to default to. */
export interface LegacyRecord {
  readonly version: 1;
  readonly server: string;
  readonly root: string;
  readonly clients: readonly string[];
  readonly url?: string;
}

export type RecordRead =
  | { readonly status: 'absent' }
  | { readonly status: 'invalid'; readonly reason: string }
  | { readonly status: 'legacy'; readonly record: LegacyRecord }
  | { readonly status: 'ok'; readonly record: InstallRecord };

/** Reads `<project>/.companion/state.json`. Never throws: a record it cannot use is `invalid` with the reason. */
export function readInstallRecord(project: string, disk: InstallDisk = nodeInstallFs): RecordRead {
  const path = join(project, ...RECORD_FILE.split('/'));
  if (!exists(path, disk)) return { status: 'absent' };
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(disk.readFile(path)).toString('utf8'));
  } catch (error) {
    return { status: 'invalid', reason: `${RECORD_FILE} cannot be read (${(error as Error).message})` };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { status: 'invalid', reason: `${RECORD_FILE} is not a JSON object` };
  }
  const record = data as Record<string, unknown>;
  if (record.version === 1) {
    const legacy = findLegacyProblem(record);
    return legacy === undefined
      ? { status: 'legacy', record: data as LegacyRecord }
      : { status: 'invalid', reason: `${RECORD_FILE} ${legacy}` };
  }
  if (record.version !== RECORD_VERSION) {
    return {
      status: 'invalid',
      reason: `${RECORD_FILE} has version ${JSON.stringify(record.version)}; this companion reads version ${RECORD_VERSION}`,
    };
  }
  const problem = findRecordProblem(record);
  if (problem !== undefined) return { status: 'invalid', reason: `${RECORD_FILE} ${problem}` };
  return { status: 'ok', record: data as InstallRecord };
}

function findLegacyProblem(record: Record<string, unknown>): string | undefined {
  if (typeof record.server !== 'string' || typeof record.root !== 'string') return 'lacks "server" or "root"';
  if (!isArrayOf(record.clients, isString)) return 'lacks "clients"';
  if (record.url !== undefined && typeof record.url !== 'string') return 'has a "url" that is not a string';
  return undefined;
}

function findRecordProblem(record: Record<string, unknown>): string | undefined {
  for (const field of ['server', 'root', 'digest'] as const) {
    if (typeof record[field] !== 'string') return `lacks "${field}"`;
  }
  if (record.url !== undefined && typeof record.url !== 'string') return 'has a "url" that is not a string';
  if (!isArrayOf(record.skills, isString) || !isArrayOf(record.created, isAbsolutePath)) {
    return 'lacks "skills" or "created"';
  }
  if (!isArrayOf(record.clients, (c) => hasStrings(c, ['id', 'name']))) return 'has a client it cannot use';
  const configs = record.configs;
  const entry = (e: unknown) => hasStrings(e, ['table', 'name', 'digest']);
  const original = (o: unknown) => hasStrings(o, ['backup', 'digest']) || (isObject(o) && o.absent === true);
  const config = (c: unknown) =>
    hasStrings(c, ['path', 'written']) &&
    isAbsolutePath((c as { path: string }).path) &&
    isArrayOf((c as { entries: unknown }).entries, entry) &&
    original((c as { original: unknown }).original) &&
    typeof (c as { pristine: unknown }).pristine === 'boolean';
  if (!isArrayOf(configs, config)) return 'has a config entry it cannot use';
  const file = (f: unknown) =>
    hasStrings(f, ['path', 'digest']) &&
    isSafeProjectPath((f as { path: string }).path) &&
    typeof (f as { mode: unknown }).mode === 'number';
  const skill = (s: unknown) =>
    hasStrings(s, ['id']) &&
    isSafeName((s as { id: string }).id) &&
    typeof (s as { complete: unknown }).complete === 'boolean' &&
    isArrayOf((s as { files: unknown }).files, file);
  const directory = (d: unknown) =>
    hasStrings(d, ['path', 'digest']) &&
    isSafeProjectPath((d as { path: string }).path) &&
    isArrayOf((d as { skills: unknown }).skills, skill);
  if (!isArrayOf(record.directories, directory)) return 'has a directory entry it cannot use';
  const clientFile = (f: unknown) =>
    hasStrings(f, ['client', 'path', 'digest']) && isSafeProjectPath((f as { path: string }).path);
  if (record.files !== undefined && !isArrayOf(record.files, clientFile))
    return 'has a file entry it cannot use';
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasStrings(value: unknown, fields: readonly string[]): boolean {
  return isObject(value) && fields.every((field) => typeof value[field] === 'string');
}

function isArrayOf(value: unknown, check: (item: unknown) => boolean): boolean {
  return Array.isArray(value) && value.every(check);
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function isAbsolutePath(value: unknown): boolean {
  return typeof value === 'string' && isAbsolute(value);
}

function isSafeName(value: string): boolean {
  return value !== '' && value !== '.' && value !== '..' && !value.includes('/') && !value.includes('\\');
}

/** A relative posix path that stays inside its directory (a record is data, and data may be edited by hand). */
export function isSafeProjectPath(path: string): boolean {
  return (
    path !== '' &&
    !path.startsWith('/') &&
    !path.includes('\\') &&
    path.split('/').every((s) => s !== '' && s !== '.' && s !== '..')
  );
}

/** The record's file text: stable key order, two-space JSON, a final newline. Pure. */
export function formatInstallRecord(record: InstallRecord): string {
  const ordered = {
    version: record.version,
    server: record.server,
    root: record.root,
    ...(record.url === undefined ? {} : { url: record.url }),
    clients: record.clients.map((c) => ({ id: c.id, name: c.name })),
    skills: record.skills,
    digest: record.digest,
    configs: record.configs.map((c) => ({
      path: c.path,
      entries: c.entries.map((e) => ({ table: e.table, name: e.name, digest: e.digest })),
      written: c.written,
      original:
        'absent' in c.original ? { absent: true } : { backup: c.original.backup, digest: c.original.digest },
      pristine: c.pristine,
    })),
    directories: record.directories.map((d) => ({
      path: d.path,
      digest: d.digest,
      skills: d.skills.map((s) => ({
        id: s.id,
        complete: s.complete,
        files: s.files.map((f) => ({ path: f.path, digest: f.digest, mode: f.mode })),
      })),
    })),
    created: record.created,
    ...(record.files === undefined || record.files.length === 0
      ? {}
      : { files: record.files.map((f) => ({ client: f.client, path: f.path, digest: f.digest })) }),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
