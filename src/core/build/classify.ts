/**
 * Classifying paths, the first phase of every derive: which paths to derive again (all of them, or the changed
 * ones and everything below a directory whose availability changed), and what each is — a document, a file of a
 * skill directory, a prompt, a file the scope file or base.md shape (derived by the frame), or a stray that no
 * area serves — with the inline `companion-disable` directives each file writes.
 */
import { codes, compare, type Diagnostic, diagnose } from '../diagnostics.js';
import { buildDocumentId } from '../documents.js';
import { type Directive, readDirectivesOf } from '../lint/index.js';
import type { Memo } from '../memo.js';
import {
  BASE_FILE,
  KNOWLEDGE_DIR,
  PROMPTS_DIR,
  SCOPE_FILE,
  SCOPE_SCHEMA_FILE,
  SKILLS_DIR,
} from '../names.js';
import { buildPromptName } from '../prompts.js';
import { SKILL_BODY } from '../skills.js';
import type { FileProblem, Snapshot, SourceFile } from '../types.js';
import type { Availability } from './availability.js';

const KNOWN_KNOWLEDGE_FILES: ReadonlySet<string> = new Set([
  SCOPE_FILE,
  `${KNOWLEDGE_DIR}${SCOPE_SCHEMA_FILE}`,
]);

/**
 * Whether a change reaches the frame: the scope file and base.md shape everything; so does a change above them
 * (a directory that could not be read just now, or can again), which decides whether they are held, missing or
 * there. Undefined `changed` (a build from scratch) always does.
 */
export function reachesFrame(changed: ReadonlySet<string> | undefined): boolean {
  return (
    changed === undefined ||
    changed.has(SCOPE_FILE) ||
    changed.has(BASE_FILE) ||
    changed.has(SCOPE_FILE.slice(0, SCOPE_FILE.indexOf('/'))) ||
    changed.has(BASE_FILE.slice(0, BASE_FILE.indexOf('/')))
  );
}

/** What the engine already holds a unit for, under a directory whose availability changed. */
export interface KnownPaths {
  readonly documentPaths: Iterable<string>;
  readonly promptPaths: Iterable<string>;
  readonly skillIds: Iterable<string>;
}

export interface DerivePathsInput {
  readonly snapshot: Snapshot;
  /** Undefined: a full derive. */
  readonly changed: ReadonlySet<string> | undefined;
  readonly availability: Availability;
  readonly previousProblems: ReadonlyMap<string, FileProblem>;
  readonly fallback: ReadonlyMap<string, SourceFile>;
  readonly known: () => KnownPaths;
}

/** The paths one derive reads again. */
export function pathsToDerive(input: DerivePathsInput): string[] {
  const { snapshot, changed, availability, previousProblems, fallback } = input;
  if (changed === undefined) {
    const paths = [...sortedPaths(snapshot.files), ...availability.problems.keys()];
    // Below a directory that could not be read, only the last good versions say what is there.
    if (availability.anyUnavailable) {
      for (const path of fallback.keys())
        if (!snapshot.files.has(path) && availability.unavailableAt(path)) paths.push(path);
    }
    return paths;
  }
  const paths = [...changed];
  // A directory whose availability changed (it could not be read just now, or can again) changes everything
  // below it, named or not: a version held there because it could not be read may be gone now, or back.
  for (const dir of changed) {
    const was = previousProblems.get(dir)?.kind === 'unavailable';
    if (!was && !availability.isUnavailable(dir)) continue;
    const prefix = `${dir}/`;
    const below = new Set<string>();
    const collect = (keys: Iterable<string>): void => {
      for (const path of keys) if (path.startsWith(prefix) && !changed.has(path)) below.add(path);
    };
    const known = input.known();
    collect(snapshot.files.keys());
    collect(fallback.keys());
    collect(known.documentPaths);
    collect(known.promptPaths);
    for (const id of known.skillIds) collect([`${SKILLS_DIR}${id}/${SKILL_BODY}`]);
    paths.push(...below);
  }
  return paths;
}

/** The paths of `files` in code-point order; the loader already hands them over sorted, so usually no sort. */
function sortedPaths(files: ReadonlyMap<string, SourceFile>): string[] {
  const paths = [...files.keys()];
  for (let i = 1; i < paths.length; i++) {
    if (compare(paths[i - 1]!, paths[i]!) > 0) return paths.sort(compare);
  }
  return paths;
}

export interface Classified {
  /** Each document path, with its file in the snapshot (undefined when it is gone or could not be read). */
  readonly documents: ReadonlyMap<string, SourceFile | undefined>;
  /** Skill ids; a problem directly in skills/ still names a skill directory for coverage (see skillPresence). */
  readonly skills: Set<string>;
  readonly prompts: Set<string>;
  /** Per skill id: each changed file, by the path inside its directory; undefined when it is gone. */
  readonly skillFiles: ReadonlyMap<string, ReadonlyMap<string, SourceFile | undefined>>;
  /**
   * The stray-file finding of each path that carries one, in the order of the paths; a path classified and not
   * here carries none (a full derive of 100,000 files would otherwise note 100,000 empty entries).
   */
  readonly strays: ReadonlyMap<string, Diagnostic>;
  /** The directives of each path that writes any, the same way. */
  readonly directives: ReadonlyMap<string, readonly Directive[]>;
}

/** Sorts `paths` into documents, skill directories, prompts and strays. */
export function classifyPaths(
  paths: readonly string[],
  files: ReadonlyMap<string, SourceFile>,
  problems: ReadonlyMap<string, FileProblem>,
  memo: Memo,
): Classified {
  const documents = new Map<string, SourceFile | undefined>();
  const skills = new Set<string>();
  const prompts = new Set<string>();
  const skillFiles = new Map<string, Map<string, SourceFile | undefined>>();
  const strays = new Map<string, Diagnostic>();
  const directives = new Map<string, readonly Directive[]>();
  const stray = (path: string, file: SourceFile | undefined, area: 'knowledge' | 'prompts' | 'skills') => {
    if (file) strays.set(path, diagnose(codes.strayFile, { path, area }, { file: path }));
  };
  for (const path of paths) {
    const file = files.get(path);
    const written = file ? readDirectivesOf(path, file.bytes, memo) : undefined;
    if (written !== undefined && written.length > 0) directives.set(path, written);
    if (path.startsWith(KNOWLEDGE_DIR)) {
      if (KNOWN_KNOWLEDGE_FILES.has(path)) continue;
      if (buildDocumentId(path) !== undefined) documents.set(path, file);
      else stray(path, file, 'knowledge');
    } else if (path.startsWith(PROMPTS_DIR)) {
      if (buildPromptName(path) !== undefined) prompts.add(path);
      else stray(path, file, 'prompts');
    } else if (path.startsWith(SKILLS_DIR) && path !== BASE_FILE) {
      const rest = path.slice(SKILLS_DIR.length);
      const slash = rest.indexOf('/');
      if (slash === -1) {
        stray(path, file, 'skills');
        if (problems.has(path)) skills.add(rest);
        continue;
      }
      const id = rest.slice(0, slash);
      skills.add(id);
      const changes = skillFiles.get(id) ?? new Map<string, SourceFile | undefined>();
      skillFiles.set(id, changes);
      changes.set(rest.slice(slash + 1), file);
    }
  }
  return { documents, skills, prompts, skillFiles, strays, directives };
}
