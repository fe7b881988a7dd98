/**
 * `companion serve`: serves a content root to MCP hosts over stdio (the default) or Streamable HTTP (`--http`).
 * On stdio, stdout carries protocol frames only; every log line goes to stderr.
 */
import { resolve } from 'node:path';
import { formatList, TOOL_NAMES } from '../../core/names.js';
import { formatCount } from '../../core/plural.js';
import { formatRunCommand } from '../../core/product.js';
import type { CatalogStore } from '../../fs/catalog-store.js';
import { RootError } from '../../fs/read-snapshot.js';
import { DEFAULT_RESOURCES_PAGE_SIZE, DEFAULT_SKILLS_PAGE_SIZE } from '../../mcp/create-server.js';
import { DEFAULT_MAX_SESSIONS } from '../../mcp/limits.js';
import { DEFAULT_HTTP_PORT, PortInUseError, serveHttp } from '../../mcp/serve-http.js';
import { serveStdio } from '../../mcp/serve-stdio.js';
import { EXIT_USAGE, parseCommandArgs, parseWholeNumber, writeUsageError } from '../args.js';
import { minorCollection, startIdleHeap } from '../idle-heap.js';
import type { Command, CommandIo } from '../io.js';
import { createServedStore, NoContentError, type ServedStore } from '../served-store.js';
import { releaseYoungGeneration } from '../young-generation.js';

/**
 * `ttlMs` of the 2026-07-28 cacheable results (lists, reads, discovery, skills) when `--cache-ttl` is not given:
 * a minute when the content cannot change while the process runs; 0 under `--watch`, where it changes as you
 * save — a notification names a skill's SKILL.md, not each of its files, so a cached file could outlive it.
 */
export const DEFAULT_CACHE_TTL_MS = 60_000;
export const WATCH_CACHE_TTL_MS = 0;
const MAX_CACHE_TTL_MS = 86_400_000;

const USAGE = `Usage: companion serve [--root DIR] [--watch] [--http [--port N] [--host H]]

Serves a content repository to MCP hosts: resources, the Skills extension, and the
${formatList(TOOL_NAMES)} tools. Speaks stdio unless --http is given,
in both protocol eras: 2026-07-28 (server/discover, stateless; over HTTP any number
of replicas can serve one checkout) and 2025-11-25 (initialize, sessions).

Options:
  --root DIR          The content repository, holding knowledge/ and skills/.
                      Default: the current directory.
  --watch             Re-read files as they change and notify connected hosts.
  --http              Speak Streamable HTTP at http://HOST:PORT/mcp instead of stdio.
  --port N            HTTP port (0 picks a free one). Default: ${DEFAULT_HTTP_PORT}.
  --host H            HTTP address to bind. Default: 127.0.0.1. Anything beyond
                      loopback is reachable by others, and there is no authentication.
  --allow-host NAME   Also accept this Host header (e.g. behind a proxy); repeatable.
  --allow-origin URL  Also accept this Origin header; repeatable.
  --max-sessions N    HTTP: hosts served at once (2025-era sessions plus open
                      subscriptions/listen streams); the next gets 503 with
                      Retry-After. Default: ${DEFAULT_MAX_SESSIONS}.
  --page-size N       Entries per page of both resources/list and skills/list (1 to
                      10000). Default: ${DEFAULT_RESOURCES_PAGE_SIZE} for resources/list, ${DEFAULT_SKILLS_PAGE_SIZE} for skills/list.
  --cache-ttl MS      How long a 2026-07-28 host may cache a list or read (ttlMs,
                      0 to 86400000; cacheScope is always public). Default:
                      ${DEFAULT_CACHE_TTL_MS}, or ${WATCH_CACHE_TTL_MS} with --watch (the content changes as you save).
  -h, --help          Show this help.

Environment:
  COMPANION_EXCLUDE_TOOLS   Tools to hide, comma- or space-separated
                            (${TOOL_NAMES.join(', ')}). The index and the
                            instructions drop what only they answered.

Exit codes:
  0  stopped cleanly (the host closed stdin, or SIGINT/SIGTERM)
  2  usage error, a root that cannot be read or holds no content (neither
     knowledge/server-scope.json nor skills/), or a port already in use
`;

const OPTIONS = {
  root: { type: 'string' },
  watch: { type: 'boolean', default: false },
  http: { type: 'boolean', default: false },
  port: { type: 'string' },
  host: { type: 'string' },
  'allow-host': { type: 'string', multiple: true },
  'allow-origin': { type: 'string', multiple: true },
  'page-size': { type: 'string' },
  'cache-ttl': { type: 'string' },
  'max-sessions': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

export { parseExcludedTools } from '../served-store.js';

export const run: Command = async (argv, io) => {
  const args = parseCommandArgs(argv, OPTIONS);
  if (!args.ok) return writeUsageError(io, 'serve', args.message, USAGE);
  const { values, positionals } = args;
  if (values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  if (positionals.length > 0) {
    return writeUsageError(io, 'serve', `unexpected argument '${positionals[0]}' (use --root DIR)`, USAGE);
  }
  const httpOnly = (['port', 'host', 'allow-host', 'allow-origin', 'max-sessions'] as const).find(
    (name) => values[name] !== undefined,
  );
  if (httpOnly !== undefined && !values.http) {
    return writeUsageError(io, 'serve', `--${httpOnly} needs --http`, USAGE);
  }
  const port = values.port === undefined ? DEFAULT_HTTP_PORT : parseWholeNumber(values.port, 0, 65535);
  if (port === undefined) {
    return writeUsageError(
      io,
      'serve',
      `--port must be a number from 0 to 65535, not '${values.port}'`,
      USAGE,
    );
  }
  // Unset: each list keeps its own default (createCompanionServer's).
  const pageSize =
    values['page-size'] === undefined ? undefined : parseWholeNumber(values['page-size'], 1, 10_000);
  if (values['page-size'] !== undefined && pageSize === undefined) {
    return writeUsageError(io, 'serve', `--page-size must be a number from 1 to 10000`, USAGE);
  }

  const cacheTtlMs =
    values['cache-ttl'] === undefined
      ? values.watch
        ? WATCH_CACHE_TTL_MS
        : DEFAULT_CACHE_TTL_MS
      : parseWholeNumber(values['cache-ttl'], 0, MAX_CACHE_TTL_MS);
  if (cacheTtlMs === undefined) {
    return writeUsageError(io, 'serve', `--cache-ttl must be a number from 0 to ${MAX_CACHE_TTL_MS}`, USAGE);
  }
  const maxSessions =
    values['max-sessions'] === undefined
      ? DEFAULT_MAX_SESSIONS
      : parseWholeNumber(values['max-sessions'], 1, 100_000);
  if (maxSessions === undefined) {
    return writeUsageError(io, 'serve', '--max-sessions must be a number from 1 to 100000', USAGE);
  }

  const log = (line: string): void => {
    io.stderr.write(`${line}\n`);
  };
  const root = resolve(io.cwd, values.root ?? '.');
  let served: ServedStore;
  try {
    served = createServedStore(root, io.cwd, io.env);
  } catch (error) {
    if (!(error instanceof RootError) && !(error instanceof NoContentError)) throw error;
    io.stderr.write(`companion serve: ${error.message}\n`);
    return EXIT_USAGE;
  }
  const { store } = served;
  if (served.unknownTools.length > 0) {
    log(
      `companion serve: COMPANION_EXCLUDE_TOOLS names no such tool: ${served.unknownTools.join(', ')} (ignored)`,
    );
  }
  log(describeStart(store, root));

  // Lazily: the watcher pulls in chokidar, which plain `serve` never needs.
  const watcher = values.watch
    ? (await import('../../fs/watcher.js')).createWatcher(store, {
        forcePolling: served.forcePolling,
        onError: (error) =>
          log(`companion serve: watch: ${error instanceof Error ? error.message : String(error)}`),
        // Forced, or fallen back (out of inotify watches): changes now show up a poll interval late, so say so.
        onStatus: (status) => {
          if (status.mode === 'polling')
            log(`companion serve: watch: polling (${status.reason ?? 'no reason given'})`);
        },
      })
    : undefined;
  const stopLogging = values.watch
    ? store.subscribe((change) => {
        const { number, diagnostics } = change.current;
        const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
        const held = change.current.held ?? [];
        log(
          `companion serve: generation ${number} (${formatCount(change.changedPaths.length, 'path')}, ${Math.round(change.rebuildMs)} ms)` +
            `${change.listChanged ? ', list changed' : ''}, ${change.updatedUris.length} updated` +
            `${errors > 0 ? `, ${formatCount(errors, 'error')}` : ''}` +
            held
              .map(
                (item) =>
                  `; serving the last good ${item.kind === 'scope' ? 'scope' : `${item.kind} ${item.id}`} (it does not ${item.reason === 'unavailable' ? 'read just now' : 'parse or validate'})`,
              )
              .join(''),
        );
      })
    : () => {};
  await watcher?.ready;
  // The cold build is done: from here V8 sizes the young generation as it would (young-generation.ts), and once the
  // server is quiet it goes back to V8's initial size (idle-heap.ts).
  releaseYoungGeneration();
  const stopIdleHeap = startIdleHeap(minorCollection());

  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    if (!values.http) {
      await serveStdio(store, {
        stdin: io.stdin,
        stdout: io.stdout,
        log,
        pageSize,
        cacheTtlMs,
        signal: stop.signal,
      });
      return 0;
    }
    return await serveOverHttp(store, io, {
      port,
      host: values.host ?? '127.0.0.1',
      allowedHosts: values['allow-host'] ?? [],
      allowedOrigins: values['allow-origin'] ?? [],
      pageSize,
      cacheTtlMs,
      maxSessions,
      log,
      signal: stop.signal,
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    stopIdleHeap();
    stopLogging();
    await watcher?.close();
  }
};

async function serveOverHttp(
  store: CatalogStore,
  io: CommandIo,
  options: {
    port: number;
    host: string;
    allowedHosts: string[];
    allowedOrigins: string[];
    pageSize: number | undefined;
    cacheTtlMs: number;
    maxSessions: number;
    log: (line: string) => void;
    signal: AbortSignal;
  },
): Promise<number> {
  let handle: Awaited<ReturnType<typeof serveHttp>>;
  try {
    handle = await serveHttp(store, options);
  } catch (error) {
    if (!(error instanceof PortInUseError)) throw error;
    io.stderr.write(`companion serve: ${error.message}\n`);
    return EXIT_USAGE;
  }
  options.log(`companion serve: listening at ${handle.listening}`);
  await new Promise<void>((resolveStop) => {
    if (options.signal.aborted) resolveStop();
    else options.signal.addEventListener('abort', () => resolveStop(), { once: true });
  });
  await handle.close();
  return 0;
}

/** The one start line: what is served, from where, and whether `companion check` has something to say. */
function describeStart(store: CatalogStore, root: string): string {
  const { number, catalog, diagnostics } = store.current();
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
  const warnings = diagnostics.filter((diagnostic) => diagnostic.severity === 'warning').length;
  const counted = [
    ...(errors > 0 ? [formatCount(errors, 'error')] : []),
    ...(warnings > 0 ? [formatCount(warnings, 'warning')] : []),
  ];
  const problems =
    counted.length === 0
      ? 'no problems'
      : `${counted.join(', ')} (run \`${formatRunCommand('check', '--root', root)}\` to see them)`;
  return (
    `companion serve: ${catalog.server.name} ${catalog.server.version} from ${root}, generation ${number}: ` +
    `${formatCount(catalog.documents.length, 'document')}, ${formatCount(catalog.skills.length, 'skill')}, ` +
    `${formatCount(catalog.resources.length, 'resource')}, ` +
    `tools ${catalog.tools.join(', ') || '(none)'}; ${problems}`
  );
}
