/**
 * `companion dev`: serves the content over Streamable HTTP, watches it, rebuilds on every save, notifies every
 * connected host, and shows what is covered and what is broken — as a live Ink dashboard on a terminal, or as
 * plain one-line-per-event logs in a pipe or CI. The composition root of the watching daemon: store → HTTP
 * server → watcher → view model → UI.
 */
import { resolve } from 'node:path';
import { shouldUseColor } from '../../check/color.js';
import type { CatalogSource } from '../../core/types.js';
import type { CatalogStore } from '../../fs/catalog-store.js';
import { RootError } from '../../fs/read-snapshot.js';
import { startWatchThread } from '../../fs/watch-thread.js';
import { createWatcher } from '../../fs/watcher.js';
import {
  DEFAULT_HTTP_PORT,
  DEFAULT_IDLE_TIMEOUT_MS,
  type HttpServerHandle,
  PortInUseError,
  serveHttp,
} from '../../mcp/serve-http.js';
import { createDevModel, type DevModel } from '../../ui/dev-state.js';
import { formatMs } from '../../ui/format.js';
import { formatListeningLine, PLAIN_PREFIX, startPlainLog } from '../../ui/plain-log.js';
import { EXIT_USAGE, parseCommandArgs, parseWholeNumber, writeUsageError } from '../args.js';
import { minorCollection, startIdleHeap } from '../idle-heap.js';
import type { Command, CommandIo } from '../io.js';
import { checkServedRoot, createServedStore, NoContentError, type ServedStore } from '../served-store.js';
import { releaseYoungGeneration, whenYoungGenerationHeld } from '../young-generation.js';

const DEFAULT_HOST = '127.0.0.1';

const USAGE = `Usage: companion dev [--root DIR] [--port N] [--host HOST] [--session-timeout S] [--drafts]

Serves the content to MCP hosts over Streamable HTTP while you edit it: every save
rebuilds, every connected host is notified, and the terminal shows coverage,
problems, connected hosts and recent changes. Press q (or Ctrl+C) to stop.

When stdout is not a terminal, or CI is set, prints one plain line per event
instead of the dashboard. NO_COLOR turns colour off.

Options:
  --root DIR    The content repository, holding knowledge/ and skills/.
                Default: the current directory.
  --port N      The port to listen on (0 picks a free one). Default: ${DEFAULT_HTTP_PORT}.
  --host HOST   The address to listen on. Default: ${DEFAULT_HOST}. There is no
                authentication: keep it on loopback.
  --session-timeout S
                Seconds an HTTP session may stay silent with no open stream
                before it is closed (a host that left without saying so).
                Default: ${DEFAULT_IDLE_TIMEOUT_MS / 1000}.
  --drafts      Also serve draft skills to your hosts, marked as drafts, to try
                them before publishing. serve, check and install never do.
  -h, --help    Show this help.

Exit codes:
  0  stopped by q, Ctrl+C, SIGINT or SIGTERM
  2  usage error, a root that is missing, cannot be read or holds no content
     (neither knowledge/server-scope.json nor skills/), or a port in use
`;

const OPTIONS = {
  root: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'session-timeout': { type: 'string' },
  drafts: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/**
 * Runs until stopped, then resolves 0 after closing the sessions, the watcher and the server. Resolves 2
 * without starting anything for a usage error, an unusable root, or an address it cannot listen on.
 */
export const run: Command = async (argv, io) => {
  const args = parseCommandArgs(argv, OPTIONS);
  if (!args.ok) return writeUsageError(io, 'dev', args.message, USAGE);
  const { values, positionals } = args;
  if (values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  if (positionals.length > 0) {
    return writeUsageError(io, 'dev', `unexpected argument '${positionals[0]}' (use --root DIR)`, USAGE);
  }
  const port = values.port === undefined ? DEFAULT_HTTP_PORT : parseWholeNumber(values.port, 0, 65535);
  if (port === undefined) {
    return writeUsageError(
      io,
      'dev',
      `--port must be a whole number from 0 to 65535, not '${values.port}'`,
      USAGE,
    );
  }
  const host = values.host ?? DEFAULT_HOST;
  if (host === '') return writeUsageError(io, 'dev', '--host must not be empty', USAGE);
  const timeout = values['session-timeout'];
  const sessionTimeout = timeout === undefined ? undefined : parseWholeNumber(timeout, 1, 86_400);
  if (timeout !== undefined && sessionTimeout === undefined) {
    return writeUsageError(
      io,
      'dev',
      `--session-timeout must be a whole number of seconds from 1 to 86400, not '${timeout}'`,
      USAGE,
    );
  }

  const plain = io.stdout.isTTY !== true || isCi(io.env);
  // Ink, React and the layout engine take a while to load; start now so it overlaps the first build.
  const uiModule = plain ? undefined : loadUi();

  const rootPath = resolve(io.cwd, values.root ?? '.');
  // Before any thread starts (it sets a V8 flag for a moment): what gives the young generation back once idle.
  const scavenge = minorCollection();
  // chokidar's scan of the tree runs on a thread of its own from now on, beside the first build (watch-thread.ts).
  const watchThread = startWatchThread(rootPath);
  // A root that cannot be served fails here, before anything listens.
  try {
    checkServedRoot(rootPath);
  } catch (error) {
    watchThread.close();
    if (!(error instanceof RootError) && !(error instanceof NoContentError)) throw error;
    io.stderr.write(`companion dev: ${error.message}\n`);
    return EXIT_USAGE;
  }

  // Until the model exists (and in plain mode always), the server's own lines go to stderr; on a terminal they
  // go to the dashboard's footer, since a stray write would tear the frame.
  let model: DevModel | undefined;
  const log = (line: string): void => {
    if (plain || model === undefined) io.stderr.write(`${line}\n`);
    // A silent session closed is no error: the hosts view shows the host leaving.
    else if (!line.startsWith('companion: closing HTTP session '))
      model.recordError(line.replace(/^companion: /, ''));
  };

  // The door listens before the first build: a host that connects meanwhile (one started with dev, one that waits
  // for the line below) is answered the moment the store exists, instead of being refused or starting only then.
  const building = createPendingSource();
  let server: HttpServerHandle;
  try {
    // ttlMs 0: the content changes as you write, and hosts should re-read what a notification names.
    server = await serveHttp(building.source, {
      host,
      port,
      log,
      cacheTtlMs: 0,
      until: building.built,
      ...(sessionTimeout === undefined ? {} : { idleTimeoutMs: sessionTimeout * 1000 }),
    });
  } catch (error) {
    watchThread.close();
    if (error instanceof PortInUseError) {
      io.stderr.write(`companion dev: ${error.message}\n`);
      return EXIT_USAGE;
    }
    const code = (error as NodeJS.ErrnoException | null)?.code;
    if (code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      io.stderr.write(`companion dev: cannot listen on ${host}:${port} (${code}); pass --host or --port\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
  // From the moment it listens, a signal stops it cleanly: one that comes before there is anything to stop (while
  // the thread comes online) is kept, and acted on once the daemon is set up.
  let stop: ((why: string) => void) | undefined;
  let stopAsked: string | undefined;
  const onSignal = (why: string): void => {
    if (stop === undefined) stopAsked ??= why;
    else stop(why);
  };
  const onSigint = (): void => onSignal('SIGINT');
  const onSigterm = (): void => onSignal('SIGTERM');
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  // Said the moment it is true.
  if (plain) io.stdout.write(`${formatListeningLine(server.listening)}\n`);

  // The thread's isolate would let V8 grow this thread's young generation during the build (young-generation.ts).
  await whenYoungGenerationHeld();
  let served: ServedStore;
  try {
    served = createServedStore(rootPath, io.cwd, io.env, {
      includeDrafts: values.drafts,
    });
  } catch (error) {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
    watchThread.close();
    await server.close();
    if (!(error instanceof RootError) && !(error instanceof NoContentError)) throw error;
    io.stderr.write(`companion dev: ${error.message}\n`);
    return EXIT_USAGE;
  }
  const { store } = served;
  building.resolve(store);
  if (served.forcePolling) watchThread.close();
  if (served.unknownTools.length > 0) {
    io.stderr.write(
      `companion dev: COMPANION_EXCLUDE_TOOLS names no such tool: ${served.unknownTools.join(', ')} (ignored)\n`,
    );
  }

  const watcher = createWatcher(store, {
    forcePolling: served.forcePolling,
    watch: watchThread.watch,
    // A host that connects as the door listens walks its lists first; the reconcile's walk of the tree waits for it.
    firstReconcile: (begin) => server.whenQuiet(begin),
    // The watcher sets `lastBatch` before it calls back, so its `waitMs` is this batch's.
    // A batch that published nothing names only the files the store holds: one that came and went (an editor's
    // temp file) or is ignored is nothing an author saved.
    onBatch: (change, paths) =>
      model?.recordBatch(
        change,
        change === undefined ? paths.filter((path) => store.hasFile(path)) : paths,
        watcher.status().lastBatch?.waitMs,
      ),
    onError: (error) => model?.recordError(error),
    onStatus: (status) => model?.recordWatcherStatus(status),
  });
  const devModel = createDevModel({
    store,
    sessions: server.sessions,
    watcher,
    url: server.listening,
    root: store.root,
  });
  model = devModel;
  // Once the daemon is quiet, the young generation goes back to V8's initial size (idle-heap.ts).
  const stopIdleHeap = startIdleHeap(scavenge);
  // Once edits are noticed, the search index the first document_lookup needs is built in the background.
  let warmedOnce = false;
  watcher.ready.then(
    () => {
      // The cold build is done: from here V8 sizes the young generation as it would (young-generation.ts).
      releaseYoungGeneration();
      return server.warm({
        onWarm: ({ elapsedMs, workMs }) => {
          if (warmedOnce) return;
          warmedOnce = true;
          // The index build's last pending chunks were handed to buffers no one holds, which only a young
          // collection frees, and a daemon idle after its warm-up may make none for a long time (posting-table.ts).
          scavenge?.();
          if (plain) {
            io.stdout.write(
              `${PLAIN_PREFIX} search index ready in ${formatMs(elapsedMs)} (${formatMs(workMs)} of work)\n`,
            );
          }
        },
      });
    },
    () => {},
  );

  return new Promise<number>((resolveRun) => {
    let stopping = false;
    let stopLog: (() => void) | undefined;
    let ui: { close(): void } | undefined;

    const shutdown = (why: string): void => {
      if (stopping) return;
      stopping = true;
      // The UI goes first so the terminal is restored even if closing the server takes a moment.
      ui?.close();
      stopIdleHeap();
      Promise.allSettled([watcher.close(), server.close()]).then(() => {
        stopLog?.();
        devModel.close();
        if (plain) io.stdout.write(`${PLAIN_PREFIX} stopped (${why})\n`);
        // Only now: Ink's signal-exit hook, still in the listener list of the signal being handled, re-raises
        // the signal (killing us with 143) if it finds no other listener on it.
        process.off('SIGINT', onSigint);
        process.off('SIGTERM', onSigterm);
        resolveRun(0);
      });
    };
    stop = shutdown;

    if (plain) {
      stopLog = startPlainLog(devModel, (text) => io.stdout.write(text), { listeningWritten: true });
      if (stopAsked !== undefined) shutdown(stopAsked);
      return;
    }
    if (stopAsked !== undefined) shutdown(stopAsked);
    startInkUi(uiModule ?? loadUi(), devModel, io, () => shutdown('q')).then(
      (started) => {
        ui = started;
        // Stopped by a signal while the UI was still loading: take it down again at once.
        if (stopping) started.close();
      },
      (error: unknown) => {
        io.stderr.write(`companion dev: cannot start the terminal UI: ${String(error)}\n`);
        shutdown('UI failed');
      },
    );
  });
};

type UiModule = typeof import('../../ui/app.js');

/**
 * Loads Ink and React only on a terminal, so plain mode (CI, pipes, tests) never pays for them. A failure is
 * kept for `startInkUi` to report, never left as an unhandled rejection when the command exits early.
 */
function loadUi(): Promise<UiModule | Error> {
  // React's development build (what React loads unless NODE_ENV says production) records every render in the
  // process's performance timeline, which nothing ever clears, and renders at half the speed: measured, it grew
  // the daemon by ~1 MB per save and put 20 ms on every save's notification. The dashboard is never a React
  // developer's debugging target, so it always draws with the production build.
  process.env.NODE_ENV = 'production';
  return import('../../ui/app.js').catch((error: unknown) =>
    error instanceof Error ? error : new Error(String(error)),
  );
}

async function startInkUi(
  loading: Promise<UiModule | Error>,
  model: DevModel,
  io: CommandIo,
  onQuit: () => void,
): Promise<{ close(): void }> {
  const loaded = await loading;
  if (loaded instanceof Error) throw loaded;
  return loaded.renderDevUi(model, {
    stdout: io.stdout as NodeJS.WriteStream,
    stdin: io.stdin as NodeJS.ReadStream,
    stderr: io.stderr as NodeJS.WriteStream,
    color: shouldUseColor(io.stdout, io.env),
    env: io.env,
    ...(io.env.HOME === undefined ? {} : { home: io.env.HOME }),
    onQuit,
  });
}

/** `undefined` for anything but a whole number in 0–65535; the default port when absent. */

/** The same test Ink applies: a CI log cannot redraw a frame in place, so it gets plain lines. */
function isCi(env: NodeJS.ProcessEnv): boolean {
  const set = (name: string) => {
    const value = env[name];
    return value !== undefined && value !== '0' && value !== 'false';
  };
  return set('CI') || set('CONTINUOUS_INTEGRATION');
}

/**
 * The door's source before the store exists: `built` resolves once `resolve` hands it the store, and the door holds
 * every request until then (serveHttp's `until`), so nothing reads the source sooner. A build that fails never
 * resolves it: the door is closed instead.
 */
function createPendingSource(): {
  readonly source: CatalogSource;
  readonly built: Promise<void>;
  resolve(store: CatalogStore): void;
} {
  let store: CatalogStore | undefined;
  let resolveBuilt!: () => void;
  const built = new Promise<void>((resolveIt) => {
    resolveBuilt = resolveIt;
  });
  const theStore = (): CatalogStore => {
    if (store === undefined) throw new Error('companion dev: the catalog is read before it is built');
    return store;
  };
  return {
    source: {
      current: () => theStore().current(),
      subscribe: (listener) => theStore().subscribe(listener),
    },
    built,
    resolve(made) {
      store = made;
      resolveBuilt();
    },
  };
}
