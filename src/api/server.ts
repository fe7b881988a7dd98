/**
 * `companion-mcp/server`: serve a catalog source (a store from `companion-mcp`) to MCP hosts over stdio or
 * Streamable HTTP, exactly as `companion serve` and `companion dev` do.
 */

export type { HttpServerHandle, ServeHttpOptions } from '../mcp/serve-http.js';
export { serveHttp } from '../mcp/serve-http.js';
export type { ServeStdioOptions } from '../mcp/serve-stdio.js';
export { serveStdio } from '../mcp/serve-stdio.js';
