/**
 * Who is connected, in which protocol era, what each host listens to, and whether it re-read after the last
 * notification, and what each host was sent for each change.
 *
 * The MCP adapter writes it (one handle per host it can see); the dev UI reads it (`list()` and `subscribe()`).
 * It holds no SDK objects, so a reader never reaches into a live connection.
 *
 * What one entry stands for depends on the era and the transport:
 * - **stdio**: the process's one connection, whichever era it negotiated (a `server/discover` probe that falls
 *   back to `initialize` stays one entry; its era is set once known).
 * - **HTTP, 2025-11-25 and older (legacy)**: one `Mcp-Session-Id` session, from `initialize` until DELETE, close
 *   or the idle reaper; its subscriptions are `resources/subscribe` calls.
 * - **HTTP, 2026-07-28 (modern)**: the era has no sessions — every request stands alone, and any replica may
 *   answer it. A host appears while it holds a `subscriptions/listen` stream open: one entry per stream, named by
 *   the `clientInfo` its request's `_meta` carries, gone when the stream closes. A stateless request (a list, a
 *   read) counts as a re-read for every open stream whose `clientInfo` (name and version) is the same; a modern
 *   host that never listens leaves no entry, since nothing could be pushed to it.
 */

import type { Heard } from './listen.js';
import { LIST_CHANGED, PROMPTS_LIST_CHANGED, RESOURCE_UPDATED } from './notification-methods.js';

export type SessionTransport = 'stdio' | 'http';

/** `legacy`: 2025-11-25 and older (`initialize`, sessions); `modern`: 2026-07-28 and newer (`server/discover`). */
export type ProtocolEra = 'legacy' | 'modern';

/** What one `subscriptions/listen` stream asked for, as this server agreed to honour it. */
export interface ListenFilters {
  readonly resourcesListChanged?: boolean;
  readonly resourceSubscriptions?: readonly string[];
  readonly promptsListChanged?: boolean;
  readonly toolsListChanged?: boolean;
}

/** One open `subscriptions/listen` stream of a modern-era host. */
export interface ListenStream {
  /** The listen request's JSON-RPC id, as a string: the subscription id every notification on it carries. */
  readonly id: string;
  /** Clock time (ms since the epoch) when it was acknowledged. */
  readonly openedAt: number;
  readonly filters: ListenFilters;
}

/** The last notification sent to one session. */
export interface SessionNotification {
  /** `notifications/resources/list_changed`, `notifications/prompts/list_changed` or `…/resources/updated`. */
  readonly method: string;
  /** Set for `notifications/resources/updated`. */
  readonly uri?: string;
  /** Clock time (ms since the epoch) when it was sent. */
  readonly at: number;
  /** The generation whose change caused it. */
  readonly generation: number;
}

/**
 * Whether a host is really there: `active` while its stream is open (stdio: its pipe; HTTP: a legacy GET event
 * stream, or a modern listen stream) or it sent a request recently, `idle` after that. An idle legacy HTTP session
 * is closed — and leaves the registry — once it has been silent for the transport's idle timeout (a minute).
 */
export type SessionState = 'active' | 'idle';

/** A snapshot of one session; a new object after every change. */
export interface SessionInfo {
  readonly id: string;
  readonly transport: SessionTransport;
  readonly state: SessionState;
  /** Clock time of the last request, or of the moment its stream closed. */
  readonly lastActivityAt: number;
  /**
   * The host's `clientInfo`: from `initialize` (legacy; absent until `notifications/initialized`) or from a
   * request's `_meta` envelope (modern).
   */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** The revision this host speaks (`'2025-11-25'`, `'2026-07-28'`, …); absent until negotiated. */
  readonly protocolVersion?: string;
  /** Set together with `protocolVersion`. */
  readonly era?: ProtocolEra;
  /** Legacy `resources/subscribe` URIs, in the order they were subscribed. */
  readonly subscriptions: readonly string[];
  /** A modern host's open `subscriptions/listen` streams, in the order they opened; absent for legacy hosts. */
  readonly listen?: readonly ListenStream[];
  readonly connectedAt: number;
  readonly lastNotification?: SessionNotification;
  /**
   * False when a notification was sent and the host has not listed or read since; true once it calls
   * `resources/list`, `resources/read`, `skills/list` or `skills/get`. False for a session that never read.
   */
  readonly rereadSinceNotification: boolean;
}

/** What one host was sent for one generation's change, as its door recorded it. */
export interface HostHeard {
  readonly id: string;
  /** The host's `clientInfo` when it was sent. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  readonly listChanged: boolean;
  readonly promptsListChanged: boolean;
  /** `notifications/resources/updated` sent: one per URI. */
  readonly updated: number;
}

/** How many of the latest generations `heard` remembers: a reader asks within the turn that published them. */
export const HEARD_GENERATIONS = 16;

/** The read side, handed to the dev UI. */
export interface SessionRegistry {
  /** Every open session, in connection order. */
  list(): readonly SessionInfo[];
  /**
   * What each host was sent for `generation`, in the order the doors recorded it; empty when no host was sent
   * anything, or the generation is older than the last `HEARD_GENERATIONS` that were.
   */
  heard(generation: number): readonly HostHeard[];
  /** Calls `listener` with the new list after every change; returns the unsubscribe function. */
  subscribe(listener: (sessions: readonly SessionInfo[]) => void): () => void;
}

/** The write side of one session, held by the server that serves it. */
export interface SessionHandle {
  readonly id: string;
  setClientInfo(info: { name: string; version: string }): void;
  /** Records the negotiated revision and its era; a repeat of the same values changes nothing. */
  setProtocol(era: ProtocolEra, protocolVersion: string): void;
  addSubscription(uri: string): void;
  removeSubscription(uri: string): void;
  isSubscribed(uri: string): boolean;
  /** How many URIs `resources/subscribe` holds for this session. */
  subscriptionCount(): number;
  /** A `subscriptions/listen` stream was acknowledged; a second one with the same id replaces the first. */
  openListen(id: string, filters: ListenFilters): void;
  closeListen(id: string): void;
  /** The open listen streams (empty for a legacy host). */
  listens(): readonly ListenStream[];
  /**
   * What this host is sent of `generation`'s change (`selectHostHeard`), recorded once per change before the
   * writes: sets `lastNotification` to the last of them and adds to `heard`. Nothing sent records nothing.
   */
  recordHeard(generation: number, heard: Heard): void;
  /** The host listed or read: marks `rereadSinceNotification`. */
  recordReread(): void;
  /**
   * The host sent a request (or its stream closed): sets `lastActivityAt` and makes the session `active`.
   * Observers hear of it when the state changes, or at most once a second otherwise.
   */
  recordActivity(): void;
  /** `idle` when the transport sees no open stream and no recent request; `active` again on the next one. */
  setState(state: SessionState): void;
  /** Removes the session from the registry. Idempotent. */
  close(): void;
}

/** The registry with its write side: `open` a session per host. */
export interface SessionRegistryController extends SessionRegistry {
  open(init: { id: string; transport: SessionTransport }): SessionHandle;
}

export interface SessionRegistryOptions {
  /** Clock for `connectedAt`, `openedAt` and `lastNotification.at`. @default Date.now */
  readonly now?: () => number;
}

interface MutableSession {
  info: SessionInfo;
  readonly subscriptions: Set<string>;
  readonly listens: Map<string, ListenStream>;
}

/** Creates an empty registry. Listeners are called synchronously; a throwing listener does not stop the others. */
export function createSessionRegistry(options: SessionRegistryOptions = {}): SessionRegistryController {
  const now = options.now ?? Date.now;
  const sessions = new Map<string, MutableSession>();
  const listeners = new Set<(sessions: readonly SessionInfo[]) => void>();

  const list = (): readonly SessionInfo[] => [...sessions.values()].map((session) => session.info);
  // Generation → what each host heard of it, the latest HEARD_GENERATIONS in the order they were published.
  const heard = new Map<number, HostHeard[]>();
  const recordHeard = (generation: number, host: HostHeard): void => {
    const hosts = heard.get(generation);
    if (hosts !== undefined) {
      hosts.push(host);
      return;
    }
    heard.set(generation, [host]);
    if (heard.size > HEARD_GENERATIONS) heard.delete(heard.keys().next().value!);
  };
  const emit = (): void => {
    const snapshot = list();
    for (const listener of [...listeners]) {
      try {
        listener(snapshot);
      } catch {
        // A broken observer must not break the protocol path that reported the change.
      }
    }
  };

  return {
    list,
    heard: (generation) => heard.get(generation) ?? [],
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    open({ id, transport }) {
      const session: MutableSession = {
        info: {
          id,
          transport,
          state: 'active',
          lastActivityAt: now(),
          subscriptions: [],
          connectedAt: now(),
          rereadSinceNotification: false,
        },
        subscriptions: new Set(),
        listens: new Map(),
      };
      let open = true;
      sessions.set(id, session);
      emit();
      const update = (patch: Partial<SessionInfo>): void => {
        if (!open) return;
        session.info = { ...session.info, ...patch };
        emit();
      };
      return {
        id,
        setClientInfo(info) {
          const current = session.info.clientInfo;
          if (current?.name === info.name && current.version === info.version) return;
          update({ clientInfo: { name: info.name, version: info.version } });
        },
        setProtocol(era, protocolVersion) {
          if (session.info.era === era && session.info.protocolVersion === protocolVersion) return;
          update(
            era === 'modern'
              ? { era, protocolVersion, listen: [...session.listens.values()] }
              : { era, protocolVersion },
          );
        },
        addSubscription(uri) {
          if (session.subscriptions.has(uri)) return;
          session.subscriptions.add(uri);
          update({ subscriptions: [...session.subscriptions] });
        },
        removeSubscription(uri) {
          if (!session.subscriptions.delete(uri)) return;
          update({ subscriptions: [...session.subscriptions] });
        },
        isSubscribed(uri) {
          return session.subscriptions.has(uri);
        },
        subscriptionCount() {
          return session.subscriptions.size;
        },
        openListen(listenId, filters) {
          if (!open) return;
          session.listens.set(listenId, { id: listenId, openedAt: now(), filters });
          update({ listen: [...session.listens.values()] });
        },
        closeListen(listenId) {
          if (!session.listens.delete(listenId)) return;
          update({ listen: [...session.listens.values()] });
        },
        listens() {
          return session.info.listen ?? [];
        },
        recordHeard(generation, { listChanged, promptsListChanged, updatedUris }) {
          if (!open || (!listChanged && !promptsListChanged && updatedUris.length === 0)) return;
          const { clientInfo } = session.info;
          recordHeard(generation, {
            id,
            ...(clientInfo === undefined ? {} : { clientInfo }),
            listChanged,
            promptsListChanged,
            updated: updatedUris.length,
          });
          // The doors send list_changed, then the prompts' list_changed, then each update: the last is the last.
          const at = now();
          const uri = updatedUris.at(-1);
          const lastNotification: SessionNotification =
            uri !== undefined
              ? { method: RESOURCE_UPDATED, uri, at, generation }
              : { method: promptsListChanged ? PROMPTS_LIST_CHANGED : LIST_CHANGED, at, generation };
          update({ lastNotification, rereadSinceNotification: false });
        },
        recordReread() {
          if (session.info.rereadSinceNotification) return;
          update({ rereadSinceNotification: true });
        },
        recordActivity() {
          const at = now();
          // A busy host sends many requests a second; its observers need to hear about it far less often.
          if (session.info.state === 'active' && at - session.info.lastActivityAt < 1000) {
            session.info = { ...session.info, lastActivityAt: at };
            return;
          }
          update({ state: 'active', lastActivityAt: at });
        },
        setState(state) {
          if (session.info.state !== state) update({ state });
        },
        close() {
          if (!open) return;
          open = false;
          sessions.delete(id);
          emit();
        },
      };
    },
  };
}
