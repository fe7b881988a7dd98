/**
 * Publishes skills into one host skills directory (`.claude/skills`, `.agents/skills`, …): each skill is a
 * directory holding the served bytes of its files and a `.gitignore` whose first line marks the copy as
 * companion's (and names the server) and whose `*` keeps it out of git.
 *
 * The marker is what makes a directory companion's: a same-named directory without it is the user's and is
 * never replaced or removed. A copy is rewritten only when its bytes differ, so reinstalling changes nothing.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  type Stats,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import {
  buildPublicationDigest,
  compareCodePoints,
  type PublishedFile,
  type PublishedSkill,
} from './publication.js';

const GITIGNORE = '.gitignore';
const MARKER_PATTERN = /^# Published by companion install for the server ("(?:[^"\\]|\\.)*")\./;

/** The `.gitignore` of a published copy: the marker line, then `*` (which ignores the `.gitignore` too). */
export function buildSkillGitignore(server: string): string {
  return `# Published by companion install for the server ${JSON.stringify(server)}. Edit the skill in its content repository: install overwrites this copy.\n*\n`;
}

/** The server whose marker `.gitignore` the directory carries, or undefined when it is not a companion copy. */
export function readCopyOwner(dir: string): string | undefined {
  try {
    const first = readFileSync(join(dir, GITIGNORE), 'utf8').split('\n', 1)[0] ?? '';
    const quoted = MARKER_PATTERN.exec(first)?.[1];
    return quoted === undefined ? undefined : (JSON.parse(quoted) as string);
  } catch {
    return undefined;
  }
}

export interface DirectoryOutcome {
  /** The directory as messages name it. */
  readonly shown: string;
  /** Skills written (new or changed). */
  readonly published: readonly string[];
  /** Skills whose copy was already exact. */
  readonly unchanged: readonly string[];
  /** Copies of skills no longer published, removed. */
  readonly removed: readonly string[];
  /** Skills no longer published whose directory is not companion's any more: left alone, with why (`is a …`). */
  readonly kept: readonly { readonly id: string; readonly reason: string }[];
  /** Skills not published here because something else holds their name. */
  readonly conflicts: readonly { readonly id: string; readonly reason: string }[];
  /** What the directory now holds from this publication (published + unchanged), sorted. */
  readonly held: readonly string[];
  /** `buildPublicationDigest` over `held`. */
  readonly digest: string;
}

/**
 * Brings `dir` to hold exactly `skills` (as far as companion owns the names): writes missing or differing
 * copies, removes this server's copies of skills not in `skills` (`recorded` names those the record remembers,
 * the markers find the rest), and leaves every directory without this server's marker untouched.
 */
export function publishSkillsDirectory(
  dir: string,
  shown: string,
  server: string,
  skills: readonly PublishedSkill[],
  recorded: readonly string[],
): DirectoryOutcome {
  const published: string[] = [];
  const unchanged: string[] = [];
  const removed: string[] = [];
  const kept: { id: string; reason: string }[] = [];
  const conflicts: { id: string; reason: string }[] = [];
  const gitignore = buildSkillGitignore(server);

  if (existsSync(dir) && !lstatSync(dir).isDirectory() && !isDirectoryLink(dir)) {
    const reason = `${shown} is not a directory`;
    return {
      shown,
      published,
      unchanged,
      removed,
      kept,
      conflicts: skills.map((s) => ({ id: s.id, reason })),
      held: [],
      digest: buildPublicationDigest([]),
    };
  }

  const wanted = new Set(skills.map((s) => s.id));
  const held: PublishedSkill[] = [];
  for (const skill of skills) {
    const target = join(dir, skill.id);
    const state = readCopyState(target, server);
    if (state.kind === 'foreign') {
      conflicts.push({ id: skill.id, reason: `${shown}/${skill.id} ${state.reason}` });
      continue;
    }
    held.push(skill);
    const files: PublishedFile[] = [
      ...skill.files,
      { path: GITIGNORE, bytes: Buffer.from(gitignore, 'utf8') },
    ];
    if (state.kind === 'ours' && isSameTree(target, files)) {
      unchanged.push(skill.id);
      continue;
    }
    // Replace the whole copy: a file the skill no longer has must not linger in it.
    rmSync(target, { recursive: true, force: true });
    for (const file of files) {
      if (!isSafeRelativePath(file.path)) throw new Error(`refusing to write the unsafe path ${file.path}`);
      const path = join(target, ...file.path.split('/'));
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, file.bytes);
    }
    published.push(skill.id);
  }

  // Stale copies: those the record remembers plus any other directory carrying this server's marker.
  const stale = new Set(recorded.filter((id) => !wanted.has(id)));
  for (const name of listDirectory(dir)) {
    if (!wanted.has(name) && readCopyOwner(join(dir, name)) === server) stale.add(name);
  }
  for (const id of [...stale].sort(compareCodePoints)) {
    if (!isSafeRelativePath(id) || id.includes('/')) continue;
    const target = join(dir, id);
    if (!existsSync(target) && !isLink(target)) continue;
    const state = readCopyState(target, server);
    if (state.kind !== 'ours') {
      kept.push({ id, reason: state.kind === 'foreign' ? state.reason : 'is gone' });
      continue;
    }
    rmSync(target, { recursive: true, force: true });
    removed.push(id);
  }

  const heldIds = held.map((s) => s.id).sort(compareCodePoints);
  return {
    shown,
    published,
    unchanged,
    removed,
    kept,
    conflicts,
    held: heldIds,
    digest: buildPublicationDigest(held),
  };
}

type CopyState =
  | { readonly kind: 'absent' }
  | { readonly kind: 'ours' }
  | { readonly kind: 'foreign'; readonly reason: string };

function readCopyState(target: string, server: string): CopyState {
  let stats: Stats;
  try {
    stats = lstatSync(target);
  } catch {
    return { kind: 'absent' };
  }
  if (stats.isSymbolicLink()) return { kind: 'foreign', reason: 'is a symlink companion did not make' };
  if (!stats.isDirectory()) return { kind: 'foreign', reason: 'is a file companion did not write' };
  const owner = readCopyOwner(target);
  if (owner === server) return { kind: 'ours' };
  if (owner !== undefined) {
    return { kind: 'foreign', reason: `was published by the companion server "${owner}"` };
  }
  return {
    kind: 'foreign',
    reason: 'exists and was not published by companion (it has no companion .gitignore)',
  };
}

/**
 * Compares a directory with the files it should hold, reading what is there. False as soon as anything
 * differs: a missing, extra or changed file, or an entry that is not a plain file or directory.
 */
export function isSameTree(dir: string, files: readonly PublishedFile[]): boolean {
  const found = new Map<string, Buffer>();
  const walk = (relative: string): boolean => {
    const absolute = relative === '' ? dir : join(dir, ...relative.split('/'));
    for (const entry of readdirSync(absolute, { withFileTypes: true })) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!walk(path)) return false;
      } else if (entry.isFile()) {
        found.set(path, readFileSync(join(dir, ...path.split('/'))));
      } else return false;
    }
    return true;
  };
  try {
    if (!walk('')) return false;
  } catch {
    return false;
  }
  if (found.size !== files.length) return false;
  return files.every((file) => {
    const bytes = found.get(file.path);
    return (
      bytes?.equals(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength)) === true
    );
  });
}

function listDirectory(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function isDirectoryLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink() && readdirSync(path) !== undefined;
  } catch {
    return false;
  }
}

function isSafeRelativePath(path: string): boolean {
  return (
    path !== '' &&
    !path.startsWith('/') &&
    !path.includes('\\') &&
    path.split('/').every((s) => s !== '' && s !== '.' && s !== '..')
  );
}
