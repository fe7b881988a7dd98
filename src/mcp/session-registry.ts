/**
 * Who is connected, what each host subscribed to, and whether it re-read after the last notification.
 *
 * The MCP adapter writes it (one handle per protocol session); the dev UI reads it (`list()` and `subscribe()`).
 * It holds no SDK objects, so a reader never reaches into a live connection.
 */

export type SessionTransport = 'stdio' | 'http';

/** The last notification sent to one session. */
export interface SessionNotification {
  /** `notifications/resources/list_changed` or `notifications/resources/updated`. */
  readonly method: string;
  /** Set for `notifications/resources/updated`. */
  readonly uri?: string;
  /** Clock time (ms since the epoch) when it was sent. */
  readonly at: number;
  /** The generation whose change caused it. */
  readonly generation: number;
}

/** A snapshot of one session; a new object after every change. */
export interface SessionInfo {
  readonly id: string;
  readonly transport: SessionTransport;
  /** `clientInfo` from `initialize`; absent until the host sent `notifications/initialized`. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** Subscribed URIs, in the order they were subscribed. */
  readonly subscriptions: readonly string[];
  readonly connectedAt: number;
  readonly lastNotification?: SessionNotification;
  /**
   * False when a notification was sent and the host has not listed or read since; true once it calls
   * `resources/list`, `resources/read`, `skills/list` or `skills/get`. False for a session that never read.
   */
  readonly rereadSinceNotification: boolean;
}

/** The read side, handed to the dev UI. */
export interface SessionRegistry {
  /** Every open session, in connection order. */
  list(): readonly SessionInfo[];
  /** Calls `listener` with the new list after every change; returns the unsubscribe function. */
  subscribe(listener: (sessions: readonly SessionInfo[]) => void): () => void;
}

/** The write side of one session, held by the server that serves it. */
export interface SessionHandle {
  readonly id: string;
  setClientInfo(info: { name: string; version: string }): void;
  addSubscription(uri: string): void;
  removeSubscription(uri: string): void;
  isSubscribed(uri: string): boolean;
  recordNotification(method: string, generation: number, uri?: string): void;
  /** The host listed or read: marks `rereadSinceNotification`. */
  recordReread(): void;
  /** Removes the session from the registry. Idempotent. */
  close(): void;
}

/** The registry with its write side: `open` a session per protocol connection. */
export interface SessionRegistryController extends SessionRegistry {
  open(init: { id: string; transport: SessionTransport }): SessionHandle;
}

export interface SessionRegistryOptions {
  /** Clock for `connectedAt` and `lastNotification.at`. @default Date.now */
  readonly now?: () => number;
}

interface MutableSession {
  info: SessionInfo;
  readonly subscriptions: Set<string>;
}

/** Creates an empty registry. Listeners are called synchronously; a throwing listener does not stop the others. */
export function createSessionRegistry(options: SessionRegistryOptions = {}): SessionRegistryController {
  const now = options.now ?? Date.now;
  const sessions = new Map<string, MutableSession>();
  const listeners = new Set<(sessions: readonly SessionInfo[]) => void>();

  const list = (): readonly SessionInfo[] => [...sessions.values()].map((session) => session.info);
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
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    open({ id, transport }) {
      const session: MutableSession = {
        info: { id, transport, subscriptions: [], connectedAt: now(), rereadSinceNotification: false },
        subscriptions: new Set(),
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
          update({ clientInfo: { name: info.name, version: info.version } });
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
        recordNotification(method, generation, uri) {
          const lastNotification: SessionNotification =
            uri === undefined ? { method, at: now(), generation } : { method, uri, at: now(), generation };
          update({ lastNotification, rereadSinceNotification: false });
        },
        recordReread() {
          if (session.info.rereadSinceNotification) return;
          update({ rereadSinceNotification: true });
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
