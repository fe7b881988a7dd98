/**
 * The staleness notice `serve` and `dev` put in front of their instructions (and `dev` shows in its UI) when the
 * skills published into the project no longer match what the server serves.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { withNotice } from '../core/catalog.js';
import { RUN_PREFIX } from '../core/product.js';
import type { BuildResult, Catalog } from '../core/types.js';
import { buildPublication } from './publication.js';
import { RECORD_FILE, readInstallRecord } from './record.js';

/** At most this many directories are named; the instructions have a 2048-character budget. */
const NAMED_DIRECTORIES = 3;

/**
 * Answers a one-sentence notice when `project` has a record of published skills (`.companion/state.json`) for
 * this catalog's server and a recorded skills directory holds something other than what `catalog` publishes
 * now (its digest differs) or is gone; undefined otherwise — no record, another server's record, or all fresh.
 *
 * Reads only the record and checks that the directories exist (no hashing of the copies on disk; `companion
 * doctor` does that), so it is cheap enough to call after every rebuild. Never throws.
 */
export function readPublicationNotice(project: string, catalog: Catalog): string | undefined {
  const read = readInstallRecord(project);
  if (read.status === 'absent') return undefined;
  if (read.status === 'invalid') {
    return `The record of the skills published into this project (${RECORD_FILE}) cannot be read: run \`${RUN_PREFIX} install\`.`;
  }
  if (read.status === 'legacy') {
    return `The record of the skills published into this project (${RECORD_FILE}) is from an older companion: run \`${RUN_PREFIX} install\`.`;
  }
  const { record } = read;
  if (record.server !== catalog.server.name) return undefined;
  const digest = buildPublication(catalog).digest;
  const stale = record.directories
    .filter((d) => d.digest !== digest || !existsSync(join(project, ...d.path.split('/'))))
    .map((d) => d.path);
  if (stale.length === 0) return undefined;
  const named =
    stale.length > NAMED_DIRECTORIES
      ? `${stale.slice(0, NAMED_DIRECTORIES).join(', ')} and ${stale.length - NAMED_DIRECTORIES} more`
      : stale.join(', ');
  return `The skills published into this project (${named}) are stale: run \`${RUN_PREFIX} install\`.`;
}

/**
 * A catalog store's `finish` step: every generation's instructions carry the stale-copies notice for `project`
 * (the directory a host starts the server in). The notice needs the catalog, so it is added to the built one
 * (`withNotice`), after an incremental rebuild as after a full one.
 */
export function withPublicationNotice(project: string): (built: BuildResult) => BuildResult {
  return (built) => {
    const notice = readPublicationNotice(project, built.catalog);
    return notice === undefined ? built : { ...built, catalog: withNotice(built.catalog, notice) };
  };
}
