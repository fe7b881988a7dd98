/**
 * The view state of `companion dev`: one immutable object that the Ink UI draws and the plain log narrates.
 *
 * `reduceDevState` is pure (state + event → next state) so every rule — which diagnostics are new, what no
 * topic covers, how long the timeline gets — is tested without a terminal. `createDevModel` is the thin shell
 * that feeds it from the catalog store, the session registry and the watcher.
 *
 * Longer than ~400 lines on purpose: the reducer's rules share one state shape, and reading them together is how
 * one checks that every event keeps every view true.
 */
import { DEFAULT_DESCRIPTION_BUDGET } from '../core/catalog.js';
import { INSTRUCTIONS_BUDGET } from '../core/coverage.js';
import { compare, type Diagnostic, sortDiagnostics } from '../core/diagnostics.js';
import { sameList } from '../core/diff.js';
import type {
  Catalog,
  CatalogChange,
  CatalogSource,
  FileChange,
  Generation,
  HeldItem,
  SkillEntry,
} from '../core/types.js';
import type { HostHeard, SessionInfo, SessionRegistry, WatcherStatus } from './dev-inputs.js';

/** How many timeline entries the state keeps, newest first. */
export const TIMELINE_LIMIT = 50;

export interface RebuildView {
  readonly generation: number;
  /** Wall-clock ms when the generation was built. */
  readonly at: number;
  readonly ms: number;
  readonly paths: readonly string[];
}

/**
 * What a topic names of one kind: the ids, as the catalog's topic lists them (its own array, not a copy), and those
 * the catalog does not serve (a topic can name a document that is gone). Not an object per id: XL's topics name
 * 100,000 documents, and an `{ id, served }` each held ~4.6 MB of the dashboard's heap.
 */
export interface CoveredItems {
  readonly ids: readonly string[];
  readonly missing: ReadonlySet<string>;
}

export interface TopicView {
  readonly id: string;
  readonly title: string;
  readonly scope: string;
  readonly documents: CoveredItems;
  readonly skills: CoveredItems;
}

/** No id missing: what almost every topic's items share. */
const NONE_MISSING: ReadonlySet<string> = Object.freeze(new Set<string>());

/** `ids` with those `served` does not hold noted missing. */
function coverItems(ids: readonly string[], served: (id: string) => boolean): CoveredItems {
  let missing: Set<string> | undefined;
  for (const id of ids) {
    if (served(id)) continue;
    missing ??= new Set();
    missing.add(id);
  }
  return { ids, missing: missing ?? NONE_MISSING };
}

export interface UncoveredItem {
  readonly kind: 'document' | 'skill';
  readonly id: string;
}

/** A limit hosts enforce, and how much of it the content uses. */
export interface MeterView {
  readonly label: string;
  readonly used: number;
  readonly limit: number;
  /** Who enforces it and what happens over it. */
  readonly note: string;
}

export interface CoverageView {
  readonly topics: readonly TopicView[];
  /** Served documents and skills no topic names, documents first, each sorted by id. */
  readonly uncovered: readonly UncoveredItem[];
  readonly documents: number;
  readonly skills: number;
  /** Prompts served (`prompts/list`). */
  readonly prompts: number;
  /** The listing budget, the instructions budget, the longest skill description against Codex's cap. */
  readonly meters: readonly MeterView[];
}

export interface DiagnosticView {
  /** code + file + line + message: what identifies "the same problem" across generations. */
  readonly key: string;
  readonly diagnostic: Diagnostic;
  /** Not present in the previous generation. */
  readonly isNew: boolean;
}

export interface DiagnosticGroup {
  /** The file, or `''` for diagnostics about the project as a whole. */
  readonly file: string;
  readonly items: readonly DiagnosticView[];
  /** The item this file belongs to is served from its last good version. */
  readonly held?: HeldItem;
}

export interface DiagnosticsView {
  /** Groups holding an error first, then by file; within a group, errors first, then by position. */
  readonly groups: readonly DiagnosticGroup[];
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
  readonly fresh: number;
}

export interface HostNotification {
  readonly method: string;
  readonly uri?: string;
  readonly at: number;
  readonly generation: number;
}

/** One open `subscriptions/listen` stream of a modern host, with what it listens for in words. */
export interface ListenView {
  readonly id: string;
  readonly openedAt: number;
  /** `resources list`, `3 resources`, `tools list`, …; empty for a stream that asked for nothing. */
  readonly filters: readonly string[];
}

export interface HostView {
  readonly id: string;
  readonly transport: string;
  /** `clientInfo`; absent until the host finished initializing. */
  readonly name?: string;
  readonly version?: string;
  readonly state: 'active' | 'idle';
  readonly lastActivityAt: number;
  readonly protocolVersion?: string;
  readonly era?: 'legacy' | 'modern';
  readonly listen: readonly ListenView[];
  readonly subscriptions: number;
  /** The first few subscribed URIs, in subscription order. */
  readonly subscribed: readonly string[];
  readonly connectedAt: number;
  readonly lastNotification?: HostNotification;
  /** The host listed or read after `lastNotification`. */
  readonly reread: boolean;
}

/** What one host was sent for one change. */
export interface HostSent {
  readonly id: string;
  readonly name: string;
  readonly listChanged: boolean;
  readonly promptsListChanged: boolean;
  readonly updated: number;
}

export interface TimelineEntry {
  /** Absent for a batch that published nothing (the bytes were identical). */
  readonly generation?: number;
  readonly at: number;
  /** What happened to each file: saved, added, deleted, renamed. */
  readonly files: readonly FileChange[];
  readonly rebuildMs?: number;
  /** Time the watcher held the first event before running the batch (absent for reconciles). */
  readonly waitMs?: number;
  readonly listChanged: boolean;
  /** Whether the change altered `prompts/list` (hosts listening for it were sent its list_changed). */
  readonly promptsListChanged: boolean;
  /** `resources/updated` notifications sent, over all hosts. */
  readonly updated: number;
  /** Sessions open when the change was published. */
  readonly hosts: number;
  /** Per host, what the MCP layer recorded sending for this generation. */
  readonly sent: readonly HostSent[];
  readonly added: number;
  readonly fixed: number;
  /** Items served from their last good version after this change. */
  readonly held: number;
}

export interface WatcherView {
  /** `starting` until the watcher reports ready. */
  readonly mode: 'starting' | 'events' | 'polling' | 'closed';
  readonly reason?: string;
  readonly watchedPaths?: number;
  readonly lastReconcileAt?: number;
}

export interface ErrorView {
  readonly at: number;
  readonly message: string;
}

/** Everything the dev UI shows. Replaced, never mutated. */
export interface DevState {
  /** The server's name from the catalog. */
  readonly name: string;
  /** The URL a host connects to. */
  readonly url: string;
  readonly root: string;
  readonly generation: number;
  readonly builtAt: number;
  readonly lastRebuild?: RebuildView;
  readonly coverage: CoverageView;
  readonly diagnostics: DiagnosticsView;
  /** Items served from their last good version, by path. */
  readonly held: readonly HeldItem[];
  readonly hosts: readonly HostView[];
  /** Newest first, at most `TIMELINE_LIMIT`. */
  readonly timeline: readonly TimelineEntry[];
  readonly watcher: WatcherView;
  readonly lastError?: ErrorView;
  /** Said in the instructions too: e.g. that the skills published into the project are stale. */
  readonly notice?: string;
}

/** What can happen to the state. */
export type DevEvent =
  /**
   * A published rebuild and what each host was sent for it, as the MCP layer recorded it (`SessionRegistry.heard`):
   * one save is one event.
   */
  | {
      readonly type: 'generation';
      readonly change: CatalogChange;
      /** Sessions open when it was published. */
      readonly hosts: number;
      /** The hosts that were sent anything, by name. */
      readonly sent: readonly HostSent[];
    }
  /** A watcher batch ran. Annotates the generation it published, or records a save that changed nothing. */
  | {
      readonly type: 'batch';
      readonly at: number;
      readonly generation?: number;
      readonly paths: readonly string[];
      readonly waitMs?: number;
    }
  | { readonly type: 'sessions'; readonly sessions: readonly SessionInfo[] }
  | { readonly type: 'watcher'; readonly status: WatcherStatus }
  | { readonly type: 'error'; readonly at: number; readonly message: string };

export interface InitialStateInput {
  readonly url: string;
  readonly root: string;
  readonly generation: Generation;
  readonly sessions?: readonly SessionInfo[];
  readonly watcher?: WatcherStatus;
}

/** The state before anything changed: every diagnostic of the first generation counts as known, not new. */
export function createInitialState(input: InitialStateInput): DevState {
  const { generation } = input;
  const held = generation.held ?? [];
  return {
    name: generation.catalog.server.title || generation.catalog.server.name,
    url: input.url,
    root: input.root,
    generation: generation.number,
    builtAt: generation.builtAt,
    coverage: buildCoverageView(generation.catalog),
    diagnostics: buildDiagnosticsView(generation.diagnostics, undefined, held),
    held,
    hosts: (input.sessions ?? []).map(toHostView),
    timeline: [],
    watcher: input.watcher === undefined ? { mode: 'starting' } : toWatcherView(input.watcher),
    ...(generation.catalog.notice === undefined ? {} : { notice: generation.catalog.notice }),
  };
}

/** The pure transition. Returns `state` itself when the event changes nothing. */
export function reduceDevState(state: DevState, event: DevEvent): DevState {
  switch (event.type) {
    case 'generation': {
      const { change } = event;
      const held = change.current.held ?? [];
      const previousKeys = new Set(change.previous.diagnostics.map(diagnosticKey));
      const diagnostics = buildDiagnosticsView(change.current.diagnostics, previousKeys, held);
      const currentKeys = new Set(change.current.diagnostics.map(diagnosticKey));
      let fixed = 0;
      for (const key of previousKeys) if (!currentKeys.has(key)) fixed++;
      const entry: TimelineEntry = {
        generation: change.current.number,
        at: change.current.builtAt,
        files: change.files ?? change.changedPaths.map((path) => ({ path, kind: 'saved' as const })),
        rebuildMs: change.rebuildMs,
        listChanged: change.listChanged,
        promptsListChanged: change.promptsListChanged,
        updated: event.sent.reduce((sum, host) => sum + host.updated, 0),
        hosts: event.hosts,
        sent: event.sent,
        added: diagnostics.fresh,
        fixed,
        held: held.length,
      };
      return {
        ...state,
        name: change.current.catalog.server.title || change.current.catalog.server.name,
        generation: change.current.number,
        builtAt: change.current.builtAt,
        lastRebuild: {
          generation: change.current.number,
          at: change.current.builtAt,
          ms: change.rebuildMs,
          paths: change.changedPaths,
        },
        // The coverage view depends on the topics and on which ids are served: an edit of a document's body
        // (the common save) keeps it, and comparing ids costs far less than rebuilding it on a large corpus.
        coverage: sameCoverageInputs(change.previous.catalog, change.current.catalog)
          ? state.coverage
          : buildCoverageView(change.current.catalog),
        diagnostics,
        held,
        timeline: capTimeline([entry, ...state.timeline]),
        notice: change.current.catalog.notice,
      };
    }
    case 'batch': {
      if (event.generation !== undefined) {
        const index = state.timeline.findIndex((entry) => entry.generation === event.generation);
        const found = state.timeline[index];
        if (found === undefined || event.waitMs === undefined) return state;
        const timeline = [...state.timeline];
        timeline[index] = { ...found, waitMs: event.waitMs };
        return { ...state, timeline };
      }
      if (event.paths.length === 0) return state;
      const entry: TimelineEntry = {
        at: event.at,
        files: event.paths.map((path) => ({ path, kind: 'saved' as const })),
        ...(event.waitMs === undefined ? {} : { waitMs: event.waitMs }),
        listChanged: false,
        promptsListChanged: false,
        updated: 0,
        hosts: state.hosts.length,
        sent: [],
        added: 0,
        fixed: 0,
        held: state.held.length,
      };
      return { ...state, timeline: capTimeline([entry, ...state.timeline]) };
    }
    case 'sessions':
      return { ...state, hosts: event.sessions.map(toHostView) };
    case 'watcher':
      return { ...state, watcher: toWatcherView(event.status) };
    case 'error':
      return { ...state, lastError: { at: event.at, message: event.message } };
  }
}

/** What each host heard of one generation, labelled and sorted by name, for the timeline. */
export function buildHostSent(heard: readonly HostHeard[]): HostSent[] {
  return heard
    .map(({ id, clientInfo, listChanged, promptsListChanged, updated }) => ({
      id,
      name: formatHostLabel({ id, ...clientInfo }),
      listChanged,
      promptsListChanged,
      updated,
    }))
    .sort((a, b) => compare(a.name, b.name));
}

function formatHostLabel(host: Pick<HostView, 'name' | 'version' | 'id'>): string {
  if (host.name === undefined) return host.id.slice(0, 8);
  return host.version ? `${host.name} ${host.version}` : host.name;
}

/** The identity of a diagnostic across generations. Column and hint are left out: they move with edits above. */
export function diagnosticKey(diagnostic: Diagnostic): string {
  return `${diagnostic.code}\u0000${diagnostic.file ?? ''}\u0000${diagnostic.line ?? ''}\u0000${diagnostic.message}`;
}

/** Whether two catalogs give the same coverage view: the same topics, served ids and meter inputs. */
function sameCoverageInputs(previous: Catalog, current: Catalog): boolean {
  if (previous === current) return true;
  if (previous.coverage !== current.coverage || previous.instructions !== current.instructions) return false;
  const sameId = (a: { id: string }, b: { id: string }) => a.id === b.id;
  const sameSkill = (a: SkillEntry, b: SkillEntry) =>
    a === b || (a.id === b.id && a.description === b.description);
  return (
    sameList(previous.documents, current.documents, sameId) &&
    sameList(previous.skills, current.skills, sameSkill) &&
    previous.prompts.length === current.prompts.length
  );
}

/** Codex refuses a skill whose description is longer (CMP405). */
const DESCRIPTION_CAP = 1024;

/** Each topic with what it names, every served document or skill that no topic names, and the meters. */
export function buildCoverageView(catalog: Catalog): CoverageView {
  // Served documents by id → position, and a flag per position for those a topic names: one table of them all,
  // not three (XL serves 100,000 documents and its topics name every one).
  const documentPositions = new Map<string, number>();
  catalog.documents.forEach((document, i) => {
    documentPositions.set(document.id, i);
  });
  const named = new Uint8Array(catalog.documents.length);
  const skillIds = new Set(catalog.skills.map((skill) => skill.id));
  const namedSkills = new Set<string>();
  const topics = catalog.coverage.topics.map((topic): TopicView => {
    for (const id of topic.skills) namedSkills.add(id);
    return {
      id: topic.id,
      title: topic.title,
      scope: topic.scope,
      documents: coverItems(topic.documents, (id) => {
        const at = documentPositions.get(id);
        if (at !== undefined) named[at] = 1;
        return at !== undefined;
      }),
      skills: coverItems(topic.skills, (id) => skillIds.has(id)),
    };
  });
  const uncoveredDocuments: string[] = [];
  // Each served id once, as the set of them had it (a catalog serves an id once).
  for (const [id, at] of documentPositions) if (named[at] === 0) uncoveredDocuments.push(id);
  const uncovered: UncoveredItem[] = [
    ...uncoveredDocuments.sort(compare).map((id) => ({ kind: 'document' as const, id })),
    // A draft (served by `dev --drafts`) needs no topic until it is published; check does not ask for one either.
    ...catalog.skills
      .filter((skill) => !skill.draft && !namedSkills.has(skill.id))
      .map((skill) => skill.id)
      .sort(compare)
      .map((id) => ({ kind: 'skill' as const, id })),
  ];
  let listing = 0;
  let longest: SkillEntry | undefined;
  for (const skill of catalog.skills) {
    if (skill.draft) continue; // hosts list only what is published (CMP410 counts the same)
    listing += skill.id.length + skill.description.length + 4;
    if (longest === undefined || skill.description.length > longest.description.length) longest = skill;
  }
  const meters: MeterView[] = [
    {
      label: 'skill listing',
      used: listing,
      limit: catalog.descriptionBudget ?? DEFAULT_DESCRIPTION_BUDGET,
      note: 'names + descriptions of all skills; hosts drop what does not fit (CMP410)',
    },
    {
      label: 'instructions',
      used: catalog.instructions.length,
      limit: INSTRUCTIONS_BUDGET,
      note: 'hosts cut the rest (CMP105)',
    },
    {
      label: 'longest description',
      used: longest?.description.length ?? 0,
      limit: DESCRIPTION_CAP,
      note: `${longest === undefined ? 'no skill' : longest.id}; Codex refuses a skill over it (CMP405)`,
    },
  ];
  return {
    topics,
    uncovered,
    documents: documentPositions.size,
    skills: skillIds.size,
    prompts: catalog.prompts.length,
    meters,
  };
}

/** The held item a file belongs to: its own path, or (a skill) its directory. */
export function findHeld(held: readonly HeldItem[], file: string): HeldItem | undefined {
  return held.find((item) => item.path === file || (item.kind === 'skill' && file.startsWith(item.path)));
}

/**
 * Groups diagnostics by file, files with an error first. With `previousKeys` a diagnostic whose key is not
 * among them is new; without (the first generation) none is.
 */
export function buildDiagnosticsView(
  diagnostics: readonly Diagnostic[],
  previousKeys: ReadonlySet<string> | undefined,
  held: readonly HeldItem[] = [],
): DiagnosticsView {
  const byFile = new Map<string, DiagnosticView[]>();
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  let fresh = 0;
  for (const diagnostic of sortDiagnostics(diagnostics)) {
    const key = diagnosticKey(diagnostic);
    const isNew = previousKeys !== undefined && !previousKeys.has(key);
    if (isNew) fresh++;
    if (diagnostic.severity === 'error') errors++;
    else if (diagnostic.severity === 'warning') warnings++;
    else infos++;
    const file = diagnostic.file ?? '';
    const items = byFile.get(file) ?? [];
    items.push({ key, diagnostic, isNew });
    byFile.set(file, items);
  }
  const severityRank = { error: 0, warning: 1, info: 2 } as const;
  const groups = [...byFile]
    .map(([file, items]): DiagnosticGroup => {
      const sorted = [...items].sort(
        (a, b) => severityRank[a.diagnostic.severity] - severityRank[b.diagnostic.severity],
      );
      const item = findHeld(held, file);
      return item === undefined ? { file, items: sorted } : { file, items: sorted, held: item };
    })
    // sortDiagnostics already ordered files; a stable sort by rank keeps that order within a rank.
    .sort((a, b) => groupRank(a) - groupRank(b));
  return { groups, errors, warnings, infos, fresh };
}

function groupRank(group: DiagnosticGroup): number {
  return group.items.some((item) => item.diagnostic.severity === 'error') ? 0 : 1;
}

function capTimeline(entries: readonly TimelineEntry[]): readonly TimelineEntry[] {
  return entries.length > TIMELINE_LIMIT ? entries.slice(0, TIMELINE_LIMIT) : entries;
}

/** How many subscribed URIs a host view keeps, for the hosts view. */
const SUBSCRIBED_SHOWN = 5;

function toHostView(session: SessionInfo): HostView {
  return {
    id: session.id,
    transport: session.transport,
    ...(session.clientInfo === undefined
      ? {}
      : { name: session.clientInfo.name, version: session.clientInfo.version }),
    state: session.state ?? 'active',
    lastActivityAt: session.lastActivityAt ?? session.connectedAt,
    ...(session.protocolVersion === undefined ? {} : { protocolVersion: session.protocolVersion }),
    ...(session.era === undefined ? {} : { era: session.era }),
    listen: (session.listen ?? []).map((stream) => ({
      id: stream.id,
      openedAt: stream.openedAt,
      filters: describeFilters(stream.filters),
    })),
    subscriptions: session.subscriptions.length,
    subscribed: session.subscriptions.slice(0, SUBSCRIBED_SHOWN),
    connectedAt: session.connectedAt,
    ...(session.lastNotification === undefined ? {} : { lastNotification: session.lastNotification }),
    reread: session.rereadSinceNotification,
  };
}

/** A listen stream's filters in words: `resources list`, `2 resources`, `prompts list`, `tools list`. */
function describeFilters(filters: NonNullable<SessionInfo['listen']>[number]['filters']): string[] {
  const out: string[] = [];
  if (filters.resourcesListChanged) out.push('resources list');
  const uris = filters.resourceSubscriptions?.length ?? 0;
  if (uris > 0) out.push(uris === 1 ? '1 resource' : `${uris} resources`);
  if (filters.promptsListChanged) out.push('prompts list');
  if (filters.toolsListChanged) out.push('tools list');
  return out;
}

function toWatcherView(status: WatcherStatus): WatcherView {
  return {
    mode: status.mode,
    ...(status.reason === undefined ? {} : { reason: status.reason }),
    ...(status.watchedPaths === undefined ? {} : { watchedPaths: status.watchedPaths }),
    ...(status.lastReconcileAt === undefined ? {} : { lastReconcileAt: status.lastReconcileAt }),
  };
}

/** The part of a watcher the model reads: its status right now. */
export interface WatcherProbe {
  status(): WatcherStatus;
}

export interface DevModelOptions {
  readonly store: CatalogSource;
  readonly sessions: SessionRegistry;
  /**
   * Read once for the initial state (shown as starting unless it already polls); later changes arrive through
   * `recordWatcherStatus`.
   */
  readonly watcher?: WatcherProbe;
  readonly url: string;
  readonly root: string;
  /** Clock for errors and batches. @default Date.now */
  readonly now?: () => number;
  /**
   * Runs `flush` later, off the path that reported the event. The default, `setImmediate`, runs it after the
   * current turn and every microtask it queued — which is where the MCP layer writes the notifications of a
   * change — so hosts hear of a save before the view model (and anything drawn from it) does any work.
   * Tests pass `(flush) => flush()` to see each event at once. @default setImmediate
   */
  readonly defer?: (flush: () => void) => void;
}

export type DevListener = (state: DevState, previous: DevState, event: DevEvent) => void;

/**
 * The live state of one `companion dev` run. Subscribes to the store and the registry on creation; the watcher
 * has no subscription API of its own, so the command forwards its `onStatus`, `onBatch` and `onError` callbacks
 * to the `record*` methods. Events are queued as they arrive and reduced together in one deferred flush (see
 * `DevModelOptions.defer`), in the order they arrived.
 */
export interface DevModel {
  getState(): DevState;
  /**
   * Calls `listener` after every event that changed the state, with the state before it, during the deferred
   * flush. Returns the unsubscribe function.
   */
  subscribe(listener: DevListener): () => void;
  recordWatcherStatus(status: WatcherStatus): void;
  /** A watcher batch ran: `change` is what the store published for it, undefined when nothing was. */
  recordBatch(change: CatalogChange | undefined, paths: readonly string[], waitMs?: number): void;
  recordError(error: unknown): void;
  /** Stops listening to the store and the registry; events still queued are dropped. Idempotent. */
  close(): void;
}

/** Creates the model and starts listening. A throwing listener never reaches the store or the registry. */
export function createDevModel(options: DevModelOptions): DevModel {
  const now = options.now ?? Date.now;
  const defer = options.defer ?? ((flush: () => void) => setImmediate(flush));
  const listeners = new Set<DevListener>();
  const watcherStatus = options.watcher?.status();
  let state = createInitialState({
    url: options.url,
    root: options.root,
    generation: options.store.current(),
    sessions: options.sessions.list(),
    // A watcher reports `events` from the moment it is created, before chokidar is ready; until its first
    // `onStatus` only a fallback to polling (or a close) is worth showing.
    ...(watcherStatus === undefined || watcherStatus.mode === 'events' ? {} : { watcher: watcherStatus }),
  });
  let closed = false;
  // Each entry makes its event when the flush runs, after the protocol writes of the turn that queued it.
  let queue: (() => DevEvent)[] = [];

  const flush = (): void => {
    const events = queue;
    queue = [];
    for (const make of events) {
      if (closed) return;
      const event = make();
      const previous = state;
      const next = reduceDevState(previous, event);
      if (next === previous) continue;
      state = next;
      for (const listener of [...listeners]) {
        try {
          listener(next, previous, event);
        } catch {
          // A broken view must not stop the other views from drawing.
        }
      }
    }
  };
  const enqueue = (make: () => DevEvent): void => {
    if (closed) return;
    queue.push(make);
    if (queue.length === 1) defer(flush);
  };

  // Made when the flush runs: by then every door has sent this change and recorded what each host heard of it.
  const stopStore = options.store.subscribe((change) => {
    enqueue(() => ({
      type: 'generation',
      change,
      hosts: options.sessions.list().length,
      sent: buildHostSent(options.sessions.heard(change.current.number)),
    }));
  });
  const stopSessions = options.sessions.subscribe((sessions) =>
    enqueue(() => ({ type: 'sessions', sessions })),
  );

  return {
    getState: () => state,
    subscribe(listener) {
      // Wrapped so the same function may subscribe twice (React does under StrictMode).
      const entry: DevListener = (next, previous, event) => listener(next, previous, event);
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    recordWatcherStatus: (status) => enqueue(() => ({ type: 'watcher', status })),
    recordBatch(change, paths, waitMs) {
      const at = now();
      enqueue(() => ({
        type: 'batch',
        at,
        ...(change === undefined ? {} : { generation: change.current.number }),
        paths,
        ...(waitMs === undefined ? {} : { waitMs }),
      }));
    },
    recordError(error) {
      const message = error instanceof Error ? error.message : String(error);
      const at = now();
      enqueue(() => ({ type: 'error', at, message: message.split('\n')[0] ?? message }));
    },
    close() {
      if (closed) return;
      closed = true;
      queue = [];
      stopStore();
      stopSessions();
      listeners.clear();
    },
  };
}
