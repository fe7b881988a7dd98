/**
 * Every bound the protocol surface keeps against whoever connects, in one place: what one host may hold
 * (subscriptions, listen streams), how many hosts may be connected at once, and how deep a message may nest.
 * Each is answered, never silently dropped: -32602 or -32600 in band, HTTP 503 with `Retry-After` at the door.
 */

/**
 * Legacy `resources/subscribe` URIs one session may hold, and `resourceSubscriptions` one listen stream may name:
 * more than every file of a large catalog. Only served URIs are ever held, so a session's memory is also bounded
 * by the catalog itself.
 */
export const MAX_SUBSCRIPTIONS = 4096;
/** No served URI is longer (its path lies below the content root), so a longer one can never be served. */
export const MAX_SUBSCRIPTION_URI_LENGTH = 8192;
/** Open `subscriptions/listen` streams one stdio connection may hold. */
export const MAX_LISTEN_STREAMS_PER_CONNECTION = 16;

/**
 * Hosts one HTTP server serves at once: legacy sessions plus open modern listen streams. The next one is answered
 * 503 with `Retry-After` until one leaves (DELETE, a closed stream, or the idle reaper).
 */
export const DEFAULT_MAX_SESSIONS = 128;
/** Seconds a refused host is told to wait (`Retry-After`). */
export const SESSION_RETRY_AFTER_SECONDS = 10;

/**
 * Deepest nesting of objects and arrays a message may have (the message object itself is level 1). An MCP request
 * companion answers nests a handful of levels; a deeper one is refused with -32600 before anything reads it,
 * because code that walks it recursively (a validator, `JSON.stringify` of an error echoing it) would exhaust the
 * stack and answer nothing at all.
 */
export const MAX_JSON_DEPTH = 64;

/** True when `value` nests objects and arrays deeper than `limit` levels. Iterative: any depth is safe to check. */
export function exceedsJsonDepth(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** The id of a JSON-RPC request, when `message` is one (so an error answer can name it); `null` otherwise. */
export function requestIdOf(message: unknown): string | number | null {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return null;
  const id = (message as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** The JSON-RPC error answering a message that nests deeper than `MAX_JSON_DEPTH`. */
export function tooDeepError(id: string | number | null) {
  return {
    jsonrpc: '2.0' as const,
    id,
    error: {
      code: -32600,
      message: `Invalid Request: the message nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels`,
      data: { maxDepth: MAX_JSON_DEPTH },
    },
  };
}
