/**
 * What the dev view model reads from the rooms beside it, as ui types: the hosts the MCP adapter serves and the
 * watcher's status. `src/ui` imports only `src/core` and itself, so these are declared here and the adapters
 * fill them: `src/mcp/session-registry.ts`'s registry is a `SessionRegistry`, its `SessionInfo` and `HostHeard`
 * the ones below, `src/fs/watcher.ts`'s status a `WatcherStatus`. TypeScript checks the fit where
 * `companion dev` wires them together (`src/cli/commands/dev.ts`).
 *
 * Only what the dashboard shows is listed; an adapter may carry more.
 */

/** One connected host, as the dashboard reads it. */
export interface SessionInfo {
  readonly id: string;
  readonly transport: string;
  readonly state: 'active' | 'idle';
  /** Clock time of the last request, or of the moment its stream closed. */
  readonly lastActivityAt: number;
  /** Absent until the host finished initializing. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  readonly protocolVersion?: string;
  readonly era?: 'legacy' | 'modern';
  /** Legacy `resources/subscribe` URIs, in subscription order. */
  readonly subscriptions: readonly string[];
  /** A modern host's open `subscriptions/listen` streams and what each asked for. */
  readonly listen?: readonly {
    readonly id: string;
    readonly openedAt: number;
    readonly filters: {
      readonly resourcesListChanged?: boolean;
      readonly resourceSubscriptions?: readonly string[];
      readonly promptsListChanged?: boolean;
      readonly toolsListChanged?: boolean;
    };
  }[];
  readonly connectedAt: number;
  readonly lastNotification?: {
    readonly method: string;
    readonly uri?: string;
    readonly at: number;
    readonly generation: number;
  };
  /** The host listed or read after `lastNotification` (false when nothing was sent). */
  readonly rereadSinceNotification: boolean;
}

/** What one host was sent for one generation's change. */
export interface HostHeard {
  readonly id: string;
  /** The host's `clientInfo` when it was sent. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  readonly listChanged: boolean;
  readonly promptsListChanged: boolean;
  /** `notifications/resources/updated` sent: one per URI. */
  readonly updated: number;
}

/** The hosts right now, what each was sent of a generation, and every change to them. */
export interface SessionRegistry {
  list(): readonly SessionInfo[];
  /** What each host was sent for `generation` (empty when nothing was, or it is too old to be remembered). */
  heard(generation: number): readonly HostHeard[];
  /** Calls `listener` with the new list after every change; returns the unsubscribe function. */
  subscribe(listener: (sessions: readonly SessionInfo[]) => void): () => void;
}

/** The watcher's mode, as the dashboard shows it. */
export interface WatcherStatus {
  readonly mode: 'events' | 'polling' | 'closed';
  /** Why the watcher polls. */
  readonly reason?: string;
  readonly watchedPaths?: number;
  /** Wall-clock ms of the last finished reconcile. */
  readonly lastReconcileAt?: number;
}
