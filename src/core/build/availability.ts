/**
 * What the loader could not read in one snapshot, and what that leaves unknown: a path below a directory that
 * could not be read just now (`unavailable`) is not gone, only unknown, so it is neither reported missing nor
 * dropped while a last good version of it exists.
 */
import { SKILLS_DIR } from '../names.js';
import type { FileProblem } from '../types.js';

export interface Availability {
  /** Every problem of the snapshot, by path. */
  readonly problems: ReadonlyMap<string, FileProblem>;
  /** Whether any problem is `unavailable`: most snapshots have none, and then nothing below needs a lookup. */
  readonly anyUnavailable: boolean;
  /** `path` itself could not be read just now. */
  isUnavailable(path: string): boolean;
  /** The path, or a directory above it, could not be read just now: what is below is unknown, not gone. */
  unavailableAt(path: string): boolean;
  /** Something at or below a skill's directory (or above it) could not be read just now. */
  skillUnavailable(id: string): boolean;
}

export function createAvailability(problems: readonly FileProblem[]): Availability {
  const byPath = new Map(problems.map((p) => [p.path, p]));
  const anyUnavailable = problems.some((p) => p.kind === 'unavailable');
  const isUnavailable = (path: string): boolean => byPath.get(path)?.kind === 'unavailable';
  const unavailableAt = (path: string): boolean => {
    if (!anyUnavailable) return false;
    for (let at = path.length; at > 0; at = path.lastIndexOf('/', at - 1)) {
      if (isUnavailable(path.slice(0, at))) return true;
    }
    return false;
  };
  return {
    problems: byPath,
    anyUnavailable,
    isUnavailable,
    unavailableAt,
    skillUnavailable(id) {
      if (!anyUnavailable) return false;
      const dir = `${SKILLS_DIR}${id}`;
      if (unavailableAt(dir)) return true;
      for (const [path, problem] of byPath) {
        if (problem.kind === 'unavailable' && path.startsWith(`${dir}/`)) return true;
      }
      return false;
    },
  };
}
