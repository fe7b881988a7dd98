/**
 * The programmatic API of the `companion-mcp` package (`import … from 'companion-mcp'`): the pure catalog builder,
 * prompt rendering, the fs loader, the catalog store and its watcher, and the diagnostics catalogue. Nothing here loads the MCP SDK,
 * React or Ink; the server factory is `companion-mcp/server`.
 *
 * What is exported here is the package's public contract: the CLI is built from the same functions.
 */

export type { CatalogBuilder } from '../core/catalog.js';
export { buildCatalog, createCatalogBuilder } from '../core/catalog.js';
export type { Diagnostic, DiagnosticData, Severity } from '../core/diagnostics.js';
export { codes, failsCheck, sortDiagnostics, summarizeDiagnostics } from '../core/diagnostics.js';
export type { PromptCatalog, PromptError, RenderedPrompt, RenderResult } from '../core/prompt-render.js';
export { findPrompt, listPromptArgumentValues, renderPrompt } from '../core/prompt-render.js';
export type { ListedPrompt, PromptArgumentKind, TemplateNode } from '../core/prompt-types.js';
export type * from '../core/types.js';
export type { CatalogStore, CatalogStoreOptions } from '../fs/catalog-store.js';
export { createCatalogStore, createStaticSource } from '../fs/catalog-store.js';
export type { ReadOptions } from '../fs/read-snapshot.js';
export { RootError, readSnapshot } from '../fs/read-snapshot.js';
export type { Watcher, WatcherBatch, WatcherOptions, WatcherStatus } from '../fs/watcher.js';
export { createWatcher } from '../fs/watcher.js';
