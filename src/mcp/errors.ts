/**
 * The protocol errors companion answers with. Every refusal a client can cause is `-32602` (Invalid params);
 * nothing a client sends may surface as `-32603`, which would read as a server bug. The SDK's `ProtocolError`
 * goes out as `{code, message, data}` exactly, in both eras.
 */
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError } from '@modelcontextprotocol/server';

export { ProtocolError };

/** `-32602` with `message`, and `data` when given. */
export function invalidParams(message: string, data?: Record<string, unknown>): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message, data);
}

/**
 * The one error every unreadable URI gets — unknown, malformed, draft or escaping alike — so the answer never
 * tells a prober why (SEP-2164, the 2026-07-28 rule, answered in both eras: `-32602` with `data.uri`, the URI
 * exactly as the client sent it).
 */
export function resourceNotFound(uri: unknown): ProtocolError {
  if (typeof uri === 'string') return new ResourceNotFoundError(uri);
  return invalidParams(`Resource not found: ${String(uri)}`, { uri });
}

/** The request's `params` as a plain object, or `{}` when absent. Anything else (an array, a string) is -32602. */
export function paramsOf(params: unknown): Record<string, unknown> {
  if (params === undefined) return {};
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw invalidParams('params must be an object');
  }
  return params as Record<string, unknown>;
}
