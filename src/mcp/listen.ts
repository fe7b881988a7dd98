/**
 * `subscriptions/listen` (2026-07-28) as companion honours it. The SDK owns the wire — the acknowledgement, the
 * subscription id on every notification, per-stream filtering, teardown; this module decides what is honoured
 * before a request reaches it, and which of a change the open streams hear (for the session registry).
 *
 * What is honoured, the same for every door:
 * - `resourcesListChanged`: yes (the `resources.listChanged` capability).
 * - `resourceSubscriptions`: the URIs this server serves now, each once; any other URI is left out of the
 *   acknowledgement — the acknowledged filter is "the subset the server agreed to honor", so a host sees what it
 *   got. This matches `resources/subscribe`, which refuses an unserved URI with -32602: a resource that does not
 *   exist yet is announced by `list_changed` when a save creates it (a skill's other files by `resources/updated`
 *   on its `SKILL.md`), and then it can be subscribed.
 * - `promptsListChanged`: yes (the `prompts.listChanged` capability).
 * - `toolsListChanged`: no (the tools never change while the server runs), so the SDK leaves it out.
 * More than `MAX_SUBSCRIPTIONS` URIs, or one longer than any served URI can be, is refused with -32602.
 */
import type { Catalog, CatalogDiff } from '../core/types.js';
import { invalidParams } from './errors.js';
import { MAX_SUBSCRIPTION_URI_LENGTH, MAX_SUBSCRIPTIONS } from './limits.js';
import type { ListenFilters, ProtocolEra, SessionHandle } from './session-registry.js';

export const LISTEN_METHOD = 'subscriptions/listen';

/** The narrowed request and what the acknowledgement will carry. */
export interface NarrowedListen {
  /** The request's `params`, its `resourceSubscriptions` narrowed to served URIs. */
  readonly params: Record<string, unknown>;
  readonly honoured: ListenFilters;
}

/**
 * Narrows the `params` of a `subscriptions/listen` request against `catalog`. `undefined` when the params are not
 * a filter companion can read (no `notifications` object, a non-array `resourceSubscriptions`, a non-string URI):
 * those pass through unchanged for the SDK to refuse with its own -32602. Throws -32602 past the bounds.
 */
export function narrowListen(params: unknown, catalog: Catalog): NarrowedListen | undefined {
  if (!isRecord(params) || !isRecord(params.notifications)) return undefined;
  const requested = params.notifications;
  const uris = requested.resourceSubscriptions;
  if (uris !== undefined && (!Array.isArray(uris) || !uris.every((uri) => typeof uri === 'string')))
    return undefined;
  const asked = (uris ?? []) as string[];
  if (asked.length > MAX_SUBSCRIPTIONS) {
    throw invalidParams(`subscriptions/listen: at most ${MAX_SUBSCRIPTIONS} resourceSubscriptions`, {
      maxSubscriptions: MAX_SUBSCRIPTIONS,
    });
  }
  if (asked.some((uri) => uri.length > MAX_SUBSCRIPTION_URI_LENGTH)) {
    throw invalidParams(
      `subscriptions/listen: a resourceSubscriptions URI is longer than ${MAX_SUBSCRIPTION_URI_LENGTH} characters`,
      { maxLength: MAX_SUBSCRIPTION_URI_LENGTH },
    );
  }
  const served = [...new Set(asked)].filter((uri) => catalog.contents.has(uri));
  const notifications = uris === undefined ? requested : { ...requested, resourceSubscriptions: served };
  const honoured: {
    resourcesListChanged?: boolean;
    resourceSubscriptions?: readonly string[];
    promptsListChanged?: boolean;
  } = {};
  if (requested.resourcesListChanged === true) honoured.resourcesListChanged = true;
  if (requested.promptsListChanged === true) honoured.promptsListChanged = true;
  if (served.length > 0) honoured.resourceSubscriptions = served;
  return { params: { ...params, notifications }, honoured };
}

/** What of one change a host hears. */
export type Heard = Pick<CatalogDiff, 'listChanged' | 'updatedUris' | 'promptsListChanged'>;

/**
 * What of `change` reaches at least one of the streams listening with `filters` (the SDK's own per-stream rule:
 * `resourcesListChanged` hears list_changed, `promptsListChanged` the prompts' list_changed,
 * `resourceSubscriptions` names the URIs it hears updated).
 */
export function selectHeard(filters: readonly ListenFilters[], change: Heard): Heard {
  const listened = new Set(filters.flatMap((filter) => filter.resourceSubscriptions ?? []));
  return {
    listChanged: change.listChanged && filters.some((filter) => filter.resourcesListChanged === true),
    updatedUris: listened.size === 0 ? [] : change.updatedUris.filter((uri) => listened.has(uri)),
    promptsListChanged:
      change.promptsListChanged && filters.some((filter) => filter.promptsListChanged === true),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * What of `change` one host hears — the one rule every door sends by and records in the session registry. A
 * legacy host hears both list_changed (no subscription needed in 2025-11-25) and the updates of the URIs it
 * `resources/subscribe`d; a modern host what its open `subscriptions/listen` streams asked for.
 */
export function selectHostHeard(
  era: ProtocolEra,
  host: Pick<SessionHandle, 'isSubscribed' | 'listens'>,
  change: Heard,
): Heard {
  if (era === 'modern')
    return selectHeard(
      host.listens().map((stream) => stream.filters),
      change,
    );
  return {
    listChanged: change.listChanged,
    updatedUris: change.updatedUris.filter((uri) => host.isSubscribed(uri)),
    promptsListChanged: change.promptsListChanged,
  };
}
