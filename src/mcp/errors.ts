/**
 * The protocol errors companion answers with. Every refusal a client can cause is `-32602` (Invalid params);
 * nothing a client sends may surface as `-32603`, which would read as a server bug.
 */
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/**
 * A JSON-RPC error the SDK puts on the wire as `{code, message, data}`. Not the SDK's `McpError`, whose message
 * is prefixed with "MCP error <code>: " — which the SDK client then prefixes a second time.
 */
export class ProtocolError extends Error {
  readonly code: number;
  readonly data: Record<string, unknown> | undefined;
  constructor(code: number, message: string, data?: Record<string, unknown>) {
    super(message);
    this.name = 'ProtocolError';
    this.code = code;
    this.data = data;
  }
}

/** `-32602` with `message`, and `data` when given. */
export function invalidParams(message: string, data?: Record<string, unknown>): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, message, data);
}

/**
 * The one error every unreadable URI gets — unknown, malformed, draft or escaping alike — so the answer never
 * tells a prober why (SEP-2164: `-32602` with `data.uri`, the URI exactly as the client sent it).
 */
export function resourceNotFound(uri: unknown): ProtocolError {
  const shown = typeof uri === 'string' ? uri : String(uri);
  return invalidParams(`Resource not found: ${shown}`, { uri });
}

/** The request's `params` as a plain object, or `{}` when absent. Anything else (an array, a string) is -32602. */
export function paramsOf(request: { params?: unknown }): Record<string, unknown> {
  const params = request.params;
  if (params === undefined) return {};
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw invalidParams('params must be an object');
  }
  return params as Record<string, unknown>;
}
