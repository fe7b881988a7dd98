/**
 * The catalog store `serve` and `dev` both serve from, configured the same way from the environment: tools the
 * caller excluded (`COMPANION_EXCLUDE_TOOLS`), the stale-copies notice for the project the host started us in,
 * and whether the watcher must poll (`COMPANION_WATCH=poll`, for file systems whose events never arrive).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SCOPE_FILE } from '../core/scope.js';
import { TOOL_NAMES } from '../core/scope-schema.js';
import { readPoolEnv } from '../fs/build-pool.js';
import { type CatalogStore, createCatalogStore } from '../fs/catalog-store.js';
import { createReader } from '../fs/read-snapshot.js';
import { withPublicationNotice } from '../install/notice.js';

/** `COMPANION_EXCLUDE_TOOLS`: comma- or space-separated, lowercased, each name once. */
export function parseExcludedTools(value: string | undefined): string[] {
  if (value === undefined) return [];
  return [
    ...new Set(
      value
        .toLowerCase()
        .split(/[\s,]+/)
        .filter((name) => name !== ''),
    ),
  ];
}

/**
 * The root holds neither `knowledge/server-scope.json` nor `skills/`: almost always the wrong folder, and serving it
 * would give every host an empty server with no word why. `serve` and `dev` print the message and exit 2.
 */
export class NoContentError extends Error {
  override readonly name = 'NoContentError';
  constructor(readonly root: string) {
    super(
      `${root} holds no content: looked for ${SCOPE_FILE} and skills/ and found neither.\n` +
        'Pass --root with the content repository, or start one here with `companion init` (in an empty directory).',
    );
  }
}

export interface ServedStore {
  readonly store: CatalogStore;
  /** Names in `COMPANION_EXCLUDE_TOOLS` that are no tool (ignored; worth a warning). */
  readonly unknownTools: readonly string[];
  /** `COMPANION_WATCH=poll`: the watcher should poll instead of waiting for events. */
  readonly forcePolling: boolean;
}

/**
 * Throws for a root that cannot be served — `RootError` (missing, not a directory, unreadable) or `NoContentError`
 * — without reading its content: `createServedStore` asks it first, and `dev` before it listens.
 */
export function checkServedRoot(root: string): void {
  createReader(root);
  if (!existsSync(join(root, SCOPE_FILE)) && !existsSync(join(root, 'skills')))
    throw new NoContentError(root);
}

/**
 * Creates the store for `root`. `project` is where a host started the server (its cwd): when the skills
 * published there are stale, every generation's instructions say so. `includeDrafts` (`companion dev --drafts`
 * only) serves draft skills too, marked as drafts. Throws `RootError` for an unusable root and `NoContentError` for
 * a root with neither a scope file nor a skills directory.
 */
export function createServedStore(
  root: string,
  project: string,
  env: NodeJS.ProcessEnv,
  options: { readonly includeDrafts?: boolean } = {},
): ServedStore {
  checkServedRoot(root);
  const excludeTools = parseExcludedTools(env.COMPANION_EXCLUDE_TOOLS);
  const store = createCatalogStore({
    root,
    build: { excludeTools, ...(options.includeDrafts ? { includeDrafts: true } : {}) },
    finish: withPublicationNotice(project),
    pool: readPoolEnv(env.COMPANION_BUILD_THREADS),
  });
  return {
    store,
    unknownTools: excludeTools.filter((name) => !(TOOL_NAMES as readonly string[]).includes(name)),
    forcePolling: (env.COMPANION_WATCH ?? '').toLowerCase() === 'poll',
  };
}
