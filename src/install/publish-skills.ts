/**
 * Plans the publication of skills into one host skills directory (`.claude/skills`, `.agents/skills`, …): each
 * skill is a directory holding the served bytes of its files, with their source's permission bits, and a
 * `.gitignore` whose first line marks the copy as companion's and whose `*` keeps it out of git.
 *
 * Only files companion wrote are ever replaced or deleted: a file is companion's when the record lists it with
 * the digest of its bytes as they are now (or, for a copy the record does not know, when it already holds
 * exactly what would be written and the copy carries this server's marker). A file the user added or changed,
 * a directory that is not companion's copy, a symlink anywhere in a copy: all stay as they are, and the plan says
 * so. A skills directory that resolves into the content (or contains it) is refused whole: install never writes
 * into what it serves. Planning reads only; `applyDirectoryPlan` writes.
 */
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { digestBytes } from './config-bytes.js';
import {
  type InstallDisk,
  type InstallStats,
  listFilesBelow,
  nodeInstallFs,
  readOwnership,
} from './install-fs.js';
import type { Journal } from './journal.js';
import {
  buildPublicationDigest,
  compareCodePoints,
  type PublishedFile,
  type PublishedSkill,
} from './publication.js';
import type { DirectoryRecord, PublishedFileRecord, SkillCopyRecord } from './record.js';
import { type FileOwnership, isSameBytes } from './write-file.js';

const GITIGNORE = '.gitignore';
const MARKER_PATTERN = /^# Published by companion install for the server ("(?:[^"\\]|\\.)*")\./;

/** The `.gitignore` of a published copy: the marker line, then `*` (which ignores the `.gitignore` too). */
export function buildSkillGitignore(server: string): string {
  return `# Published by companion install for the server ${JSON.stringify(server)}. Edit the skill in its content repository: install refreshes the files it wrote here and leaves the ones you add or change.\n*\n`;
}

/** The server whose marker `.gitignore` the directory carries, or undefined when it is not a companion copy. */
export function readCopyOwner(dir: string, disk: InstallDisk = nodeInstallFs): string | undefined {
  try {
    const first =
      Buffer.from(disk.readFile(join(dir, GITIGNORE)))
        .toString('utf8')
        .split('\n', 1)[0] ?? '';
    const quoted = MARKER_PATTERN.exec(first)?.[1];
    return quoted === undefined ? undefined : (JSON.parse(quoted) as string);
  } catch {
    return undefined;
  }
}

/** The files of one published skill as a copy holds them, the marker `.gitignore` included. */
export function buildCopyFiles(skill: PublishedSkill, server: string): PublishedFile[] {
  return [
    ...skill.files,
    { path: GITIGNORE, bytes: Buffer.from(buildSkillGitignore(server), 'utf8'), mode: 0o644 },
  ];
}

type Operation =
  | {
      readonly op: 'write';
      readonly path: string;
      readonly bytes: Uint8Array;
      readonly mode: number;
      readonly before?: Uint8Array;
    }
  | {
      readonly op: 'delete';
      readonly path: string;
      readonly before: Uint8Array;
      readonly keep: FileOwnership;
    }
  /** After the deletes: remove these directories when empty, in order (deepest first). */
  | { readonly op: 'prune'; readonly dirs: readonly string[] };

export interface DirectoryOutcome {
  /** The directory as messages name it. */
  readonly shown: string;
  /** Set when nothing may be written there at all, with why. */
  readonly refused?: string;
  /** Skills written (new or changed). */
  readonly published: readonly string[];
  /** Skills whose copy was already exact. */
  readonly unchanged: readonly string[];
  /** Copies of skills no longer published, removed. */
  readonly removed: readonly string[];
  /** Copies of skills no longer published that keep files companion did not write: those stay, with why. */
  readonly kept: readonly { readonly id: string; readonly reason: string }[];
  /** Skills not published here because something else holds their name. */
  readonly conflicts: readonly { readonly id: string; readonly reason: string }[];
  /** Published skills whose copy keeps files that are not companion's (changed or added by the user). */
  readonly userFiles: readonly { readonly id: string; readonly files: readonly string[] }[];
}

export interface DirectoryPlan {
  readonly absolute: string;
  readonly outcome: DirectoryOutcome;
  readonly operations: readonly Operation[];
  /** What the record says about this directory once the plan is applied. */
  readonly record: DirectoryRecord;
}

export interface DirectoryInput {
  /** Absolute skills directory. */
  readonly absolute: string;
  /** Project-relative posix path, as messages and the record name it. */
  readonly shown: string;
  readonly server: string;
  readonly skills: readonly PublishedSkill[];
  /** What the record says companion wrote there. */
  readonly recorded?: DirectoryRecord;
  /** The real content root and its content directories (`knowledge/`, `skills/`), which nothing may touch. */
  readonly content: { readonly root: string; readonly directories: readonly string[] };
  /** What the plan reads the directory through. @default the real disk */
  readonly disk?: InstallDisk;
}

/** Plans bringing `absolute` to hold the skills, as far as companion owns the names there. Reads only. */
export function planSkillsDirectory(input: DirectoryInput): DirectoryPlan {
  const { absolute, shown, server } = input;
  const disk = input.disk ?? nodeInstallFs;
  const empty = { published: [], unchanged: [], removed: [], kept: [], conflicts: [], userFiles: [] };
  const refused = findRefusal(input, disk);
  if (refused !== undefined) {
    return {
      absolute,
      outcome: { shown, refused, ...empty },
      operations: [],
      record: input.recorded ?? { path: shown, skills: [], digest: buildPublicationDigest([]) },
    };
  }
  const operations: Operation[] = [];
  const outcome = {
    shown,
    published: [] as string[],
    unchanged: [] as string[],
    removed: [] as string[],
    kept: [] as { id: string; reason: string }[],
    conflicts: [] as { id: string; reason: string }[],
    userFiles: [] as { id: string; files: string[] }[],
  };
  const records: SkillCopyRecord[] = [];
  const complete: PublishedSkill[] = [];
  const recordedById = new Map((input.recorded?.skills ?? []).map((s) => [s.id, s]));

  for (const skill of input.skills) {
    const copy = join(absolute, skill.id);
    const recorded = recordedById.get(skill.id);
    const state = readCopyState(copy, server, recorded !== undefined, disk);
    if (state !== undefined) {
      outcome.conflicts.push({ id: skill.id, reason: `${shown}/${skill.id} ${state}` });
      continue;
    }
    const planned = planCopy(copy, buildCopyFiles(skill, server), recorded, operations, disk);
    if (planned.files.length > 0)
      records.push({ id: skill.id, complete: planned.userFiles.length === 0, files: planned.files });
    if (planned.userFiles.length > 0) outcome.userFiles.push({ id: skill.id, files: planned.userFiles });
    else complete.push(skill);
    (planned.wrote ? outcome.published : outcome.unchanged).push(skill.id);
  }

  const wanted = new Set(input.skills.map((s) => s.id));
  for (const recorded of input.recorded?.skills ?? []) {
    if (wanted.has(recorded.id)) continue;
    const { remaining } = planRemoval(join(absolute, recorded.id), recorded, operations, disk);
    if (remaining.length === 0) outcome.removed.push(recorded.id);
    else {
      outcome.kept.push({
        id: recorded.id,
        reason: `it is no longer published, but it holds files companion did not write or that changed since (${formatList(remaining)})`,
      });
    }
  }
  records.sort((a, b) => compareCodePoints(a.id, b.id));
  return {
    absolute,
    outcome,
    operations,
    record: { path: shown, skills: records, digest: buildPublicationDigest(complete) },
  };
}

/** Applies a plan's writes and deletes through the journal. */
export function applyDirectoryPlan(plan: DirectoryPlan, journal: Journal): void {
  for (const operation of plan.operations) {
    if (operation.op === 'write') {
      journal.writeFile(operation.path, operation.bytes, operation.before, { mode: operation.mode });
    } else if (operation.op === 'delete') {
      journal.deleteFile(operation.path, operation.before, operation.keep);
    } else {
      for (const dir of operation.dirs) journal.removeEmptyDirectory(dir);
    }
  }
}

/** Why the whole directory is off limits: it is not a directory, or it overlaps the content. */
function findRefusal(input: DirectoryInput, disk: InstallDisk): string | undefined {
  const { absolute, shown, content } = input;
  try {
    const stats = disk.stat(absolute);
    if (!stats.isDirectory()) return `${shown} is not a directory`;
  } catch {
    // Missing (or unreadable): created when written, and judged by where it would be.
  }
  const real = resolveExisting(absolute, disk);
  for (const directory of content.directories) {
    if (isInsideOrEqual(real, directory)) {
      return `${shown} resolves to ${real}, inside the content it would publish (${directory}); install never writes into content. Point ${shown} somewhere else (it is often a symlink), then run again`;
    }
  }
  if (isInsideOrEqual(content.root, real)) {
    return `${shown} resolves to ${real}, which holds the content root ${content.root}; install never writes into content. Point ${shown} somewhere else, then run again`;
  }
  return undefined;
}

/** Why an existing copy is not companion's to write into, or undefined when it is (or is absent). */
function readCopyState(
  copy: string,
  server: string,
  recorded: boolean,
  disk: InstallDisk,
): string | undefined {
  let stats: InstallStats;
  try {
    stats = disk.lstat(copy);
  } catch {
    return undefined;
  }
  if (stats.isSymbolicLink()) return 'is a symlink companion did not make';
  if (!stats.isDirectory()) return 'is a file companion did not write';
  if (recorded) return undefined;
  const owner = readCopyOwner(copy, disk);
  if (owner === server) return undefined;
  if (owner !== undefined) return `was published by the companion server "${owner}"`;
  return 'exists and was not published by companion (it has no companion .gitignore)';
}

/** What planning one wanted copy decided. */
interface CopyPlan {
  /** The files companion owns in the copy afterwards. */
  readonly files: PublishedFileRecord[];
  /** Paths left alone because they are not companion's. */
  readonly userFiles: string[];
  readonly wrote: boolean;
}

function planCopy(
  copy: string,
  files: readonly PublishedFile[],
  recorded: SkillCopyRecord | undefined,
  operations: Operation[],
  disk: InstallDisk,
): CopyPlan {
  const owned = new Map((recorded?.files ?? []).map((f) => [f.path, f]));
  const result: CopyPlan = { files: [], userFiles: [], wrote: false };
  let wrote = false;
  for (const file of files) {
    const path = join(copy, ...file.path.split('/'));
    const found = inspectFile(copy, file.path, disk);
    const record = { path: file.path, digest: digestBytes(file.bytes), mode: file.mode };
    if (found.kind === 'blocked') {
      result.userFiles.push(file.path);
      continue;
    }
    if (found.kind === 'absent') {
      operations.push({ op: 'write', path, bytes: file.bytes, mode: file.mode });
      result.files.push(record);
      wrote = true;
      continue;
    }
    const digest = digestBytes(found.bytes);
    const ours =
      digest === owned.get(file.path)?.digest ||
      digest === record.digest ||
      (file.path === GITIGNORE && MARKER_PATTERN.test(Buffer.from(found.bytes).toString('utf8')));
    if (!ours) {
      result.userFiles.push(file.path);
      continue;
    }
    if (!isSameBytes(found.bytes, file.bytes) || found.mode !== file.mode) {
      operations.push({ op: 'write', path, bytes: file.bytes, mode: file.mode, before: found.bytes });
      wrote = true;
    }
    result.files.push(record);
  }
  // Files companion wrote that the skill no longer has: deleted when unchanged, else left to the user.
  const wanted = new Set(files.map((f) => f.path));
  const deleted = planDeletes(
    copy,
    (recorded?.files ?? []).filter((f) => !wanted.has(f.path)),
    operations,
    disk,
  );
  result.files.sort((a, b) => compareCodePoints(a.path, b.path));
  return { ...result, wrote: wrote || deleted.size > 0 };
}

/**
 * Plans removing a stale copy: its recorded files that are unchanged, then the directories left empty. Answers
 * what stays in the copy (files the user added, or changed since companion wrote them).
 */
function planRemoval(
  copy: string,
  recorded: SkillCopyRecord,
  operations: Operation[],
  disk: InstallDisk,
): { remaining: string[] } {
  const deleted = planDeletes(copy, recorded.files, operations, disk);
  return { remaining: listFilesBelow(copy, disk).filter((path) => !deleted.has(path)) };
}

/**
 * Plans deleting the recorded files that still hold their recorded bytes, then pruning the directories that
 * held them, up to the copy itself. Answers the paths it deletes; a changed file is no longer companion's.
 */
function planDeletes(
  copy: string,
  files: readonly PublishedFileRecord[],
  operations: Operation[],
  disk: InstallDisk,
): Set<string> {
  const deleted = new Set<string>();
  const dirs = new Set<string>([copy]);
  for (const file of files) {
    const found = inspectFile(copy, file.path, disk);
    if (found.kind !== 'file' || digestBytes(found.bytes) !== file.digest) continue;
    const path = join(copy, ...file.path.split('/'));
    operations.push({ op: 'delete', path, before: found.bytes, keep: found.ownership });
    deleted.add(file.path);
    for (let dir = dirname(path); dir.length > copy.length; dir = dirname(dir)) dirs.add(dir);
  }
  if (deleted.size > 0) operations.push({ op: 'prune', dirs: [...dirs].sort((a, b) => b.length - a.length) });
  return deleted;
}

export type Found =
  | { readonly kind: 'absent' }
  | {
      readonly kind: 'file';
      readonly bytes: Uint8Array;
      readonly mode: number;
      readonly ownership: FileOwnership;
    }
  /** Something other than a plain file is there, or a directory on the way is a link or a file. */
  | { readonly kind: 'blocked' };

/** What is at `relativePath` inside `copy`, never following a symlink on the way. */
export function inspectFile(copy: string, relativePath: string, disk: InstallDisk = nodeInstallFs): Found {
  const segments = relativePath.split('/');
  let at = copy;
  for (let i = 0; i < segments.length; i++) {
    at = join(at, segments[i]!);
    let stats: InstallStats;
    try {
      stats = disk.lstat(at);
    } catch {
      return { kind: 'absent' };
    }
    const last = i === segments.length - 1;
    if (!last && !stats.isDirectory()) return { kind: 'blocked' };
    if (last) {
      if (!stats.isFile() || stats.nlink > 1) return { kind: 'blocked' };
      return {
        kind: 'file',
        bytes: disk.readFile(at),
        mode: stats.mode & 0o777,
        ownership: readOwnership(at, disk),
      };
    }
  }
  return { kind: 'absent' };
}

function formatList(paths: readonly string[]): string {
  return paths.length > 3 ? `${paths.slice(0, 3).join(', ')} and ${paths.length - 3} more` : paths.join(', ');
}

/** The real path `path` would have: the deepest existing ancestor resolved, the rest appended. */
function resolveExisting(path: string, disk: InstallDisk): string {
  const rest: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    try {
      return join(disk.realpath(at), ...rest.reverse());
    } catch {
      if (dirname(at) === at) return path;
      rest.push(at.slice(dirname(at).length + 1));
    }
  }
}

function isInsideOrEqual(path: string, directory: string): boolean {
  const rel = relative(directory, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(`..${sep}`));
}
