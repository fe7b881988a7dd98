/**
 * One protocol server over a catalog source: the SDK's low-level `Server` (v2) with every handler installed by
 * hand, for either era. The SDK owns the wire — the 2025 `initialize` handshake, the 2026-07-28 per-request
 * envelope and `server/discover`, `resultType`, the caching fields of the spec's cacheable results, which
 * methods exist in which era (`resources/subscribe` and `ping` are gone in 2026-07-28), error framing. The
 * handlers own what companion answers.
 *
 * Why not `McpServer`: it resolves `resources/read` through `new URL()` (which collapses `..` and rewrites
 * spelling), does not paginate `resources/list`, and validates spec params with schemas whose failures answer
 * -32603. Here every handler is registered with a loose params schema, so malformed params reach it and are
 * refused with -32602; every request reads `source.current()` once, so one answer always comes from one
 * generation; and a read is a lookup of the raw URI string in the catalog — a URI is never a path.
 */
import {
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  Server,
  type ServerContext,
  type StandardSchemaV1,
} from '@modelcontextprotocol/server';
import { LISTED_RESOURCE_FIELDS, LISTED_TEMPLATE_FIELDS, pickListed } from '../core/listed-fields.js';
import { renderPrompt } from '../core/prompt-render.js';
import { type CatalogQueries, createCatalogQueries } from '../core/queries.js';
import type { CatalogSource, Generation, ListedResource, ResourceTemplateEntry } from '../core/types.js';
import { completeArgument } from './completion.js';
import { decodeCursor, paginate } from './cursor.js';
import { invalidParams, ProtocolError, paramsOf, resourceNotFound } from './errors.js';
import { MAX_SUBSCRIPTION_URI_LENGTH, MAX_SUBSCRIPTIONS } from './limits.js';
import type { ListPages } from './list-pages.js';
import type { ResponseSplice } from './response-splice.js';
import type { ProtocolEra, SessionHandle } from './session-registry.js';
import {
  type CacheFields,
  DIRECTORY_READ_METHOD,
  getSkill,
  listSkillsPage,
  readSkillDirectory,
  SKILLS_EXTENSION_ID,
  SKILLS_GET_METHOD,
  SKILLS_LIST_METHOD,
} from './skills-extension.js';
import { callTool, listTools } from './tools.js';

/**
 * Default `resources/list` page size. Large, because a host walks the whole list and every page is a round trip
 * (on Streamable HTTP, a request): an 11,000-entry catalog is 23 pages of 500 (about 260 KB of JSON each)
 * rather than 221 of 50.
 */
export const DEFAULT_RESOURCES_PAGE_SIZE = 500;
/** Default `skills/list` page size: the SDK's own default. An entry carries its whole manifest, so fewer fit. */
export const DEFAULT_SKILLS_PAGE_SIZE = 100;

/**
 * Exactly what this server declares, in both eras; every declaration is backed by a handler below. In the
 * 2026-07-28 era `resources.subscribe` and the two `listChanged` mean the `subscriptions/listen` filters. Prompts
 * are declared even when the content has none yet: a save can add one, and the host hears of it. No
 * `tools.listChanged` (the tools never change while the server runs).
 */
export const SERVER_CAPABILITIES = {
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
  tools: {},
  extensions: { [SKILLS_EXTENSION_ID]: { directoryRead: true } },
} as const;

/** `cacheScope` of every cacheable result: the content is the same for everyone who can reach the server. */
export const CACHE_SCOPE = 'public';

/** The methods whose 2026-07-28 results the SDK gives `ttlMs`/`cacheScope` (the spec's `CacheableResult`s). */
const CACHEABLE_METHODS = [
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'server/discover',
] as const;

export { LIST_CHANGED, PROMPTS_LIST_CHANGED, RESOURCE_UPDATED } from './notification-methods.js';

/**
 * What a server reports about the host it answers: a registry session (stdio, legacy HTTP), or — for a modern
 * HTTP request, which belongs to no session — whatever stands for that client (see `serve-http.ts`).
 */
export type ServedHost = Pick<
  SessionHandle,
  | 'setClientInfo'
  | 'setProtocol'
  | 'recordReread'
  | 'addSubscription'
  | 'removeSubscription'
  | 'isSubscribed'
  | 'subscriptionCount'
>;

export interface CreateServerOptions {
  /** The era this instance serves; the serving entry (HTTP handler, `serveStdio`) decides it. */
  readonly era: ProtocolEra;
  readonly host: ServedHost;
  /**
   * `ttlMs` of every 2026-07-28 cacheable result (lists, reads, discovery, the skills methods). The 2025 era
   * has no caching fields.
   */
  readonly cacheTtlMs: number;
  /**
   * Entries per page of both `resources/list` and `skills/list`, when given.
   * @default DEFAULT_RESOURCES_PAGE_SIZE (500) and DEFAULT_SKILLS_PAGE_SIZE (100)
   */
  readonly pageSize?: number;
  /** One line per problem, to stderr. Never stdout: on stdio that is the protocol stream. */
  readonly log?: (line: string) => void;
  /**
   * What the tools keep between calls (the search indexes), shared by every server of one door so that a
   * stateless request reuses them. Absent: this server keeps its own.
   */
  readonly queries?: CatalogQueries;
  /**
   * Answer `resources/list` and `skills/list` from pages serialized once per generation, spliced into the
   * response by the door that writes it. Absent: every page is built afresh (an in-memory transport, a test).
   */
  readonly pages?: ServedPages;
}

/** The door's list pages, and how a handler finds the response its answer will be spliced into. */
export interface ServedPages {
  readonly cache: ListPages;
  /** The splice of the response to this request; undefined when the door writes it without one. */
  spliceFor(ctx: ServerContext): ResponseSplice | undefined;
}

/** The methods whose answers a door splices from cached pages. */
export const SPLICED_METHODS: ReadonlySet<string> = new Set(['resources/list', SKILLS_LIST_METHOD]);

/**
 * Accepts any params, so malformed ones reach the handler and become -32602 there: a Standard Schema that returns
 * what it is given (the SDK hands it a fresh copy of the request's params). It is what `z.looseObject({})` did,
 * without a zod parse of every request's params.
 */
const ANY_PARAMS = {
  params: {
    '~standard': {
      version: 1,
      vendor: 'companion',
      validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
    },
  } satisfies StandardSchemaV1<Record<string, unknown>>,
};

/** The wire form of a listed resource or template: the fields `listed-fields.ts` lists, in its order. */
const toWireResource = (resource: ListedResource) => pickListed(resource, LISTED_RESOURCE_FIELDS);
const toWireTemplate = (template: ResourceTemplateEntry) => pickListed(template, LISTED_TEMPLATE_FIELDS);

/** `prompts/get`'s `arguments`: a map of strings by the spec; anything else is left for `renderPrompt` to refuse. */
function asArguments(value: unknown): Readonly<Record<string, unknown>> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidParams('prompts/get: arguments must be an object of strings', { arguments: value });
  }
  return value as Record<string, unknown>;
}

/** Creates a server for one serving unit (a connection, a legacy session, a modern request). */
export function createCompanionServer(source: CatalogSource, options: CreateServerOptions): Server {
  const { host, era } = options;
  const queries = options.queries ?? createCatalogQueries();
  const resourcesPageSize = options.pageSize ?? DEFAULT_RESOURCES_PAGE_SIZE;
  const skillsPageSize = options.pageSize ?? DEFAULT_SKILLS_PAGE_SIZE;
  const log = options.log ?? (() => {});
  const cacheHint = { ttlMs: options.cacheTtlMs, cacheScope: CACHE_SCOPE } as const;
  const cache: CacheFields = era === 'modern' ? cacheHint : {};
  const initial = source.current().catalog;
  const { name, title, version, websiteUrl, icons } = initial.server;
  const server = new Server(
    {
      name,
      title,
      version,
      ...(websiteUrl === undefined ? {} : { websiteUrl }),
      ...(icons === undefined || icons.length === 0 ? {} : { icons: icons.map((icon) => ({ ...icon })) }),
    },
    {
      capabilities: SERVER_CAPABILITIES,
      instructions: initial.instructions,
      cacheHints: Object.fromEntries(CACHEABLE_METHODS.map((method) => [method, cacheHint])),
    },
  );

  /** A modern request names its client and revision in its envelope; the host learns both from each request. */
  const identify = (ctx: ServerContext): void => {
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    if (envelope === undefined) return;
    const client = envelope[CLIENT_INFO_META_KEY] as { name?: unknown; version?: unknown } | undefined;
    if (typeof client?.name === 'string' && typeof client.version === 'string') {
      host.setClientInfo({ name: client.name, version: client.version });
    }
    const version = envelope[PROTOCOL_VERSION_META_KEY];
    if (typeof version === 'string') host.setProtocol('modern', version);
  };

  /**
   * Registers `method`, answered against one generation. A `ProtocolError` goes out as it is; anything else is a
   * bug, logged here and answered as a bare -32603, so no internal message (a path, an errno) reaches the client.
   */
  const handle = <T>(
    method: string,
    handler: (params: Record<string, unknown>, generation: Generation, ctx: ServerContext) => T,
  ): void => {
    server.setRequestHandler(method, ANY_PARAMS, (raw, ctx) => {
      identify(ctx);
      const params = paramsOf(raw);
      if (params.task !== undefined) {
        throw invalidParams(`${method} cannot run as a task: this server declares no tasks capability`);
      }
      try {
        return handler(params, source.current(), ctx) as Record<string, unknown>;
      } catch (error) {
        if (error instanceof ProtocolError) throw error;
        log(
          `companion: ${method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
        throw new ProtocolError(-32603, 'Internal error');
      }
    });
  };

  /**
   * One page of a list: from the door's cache, spliced into the response, when the door splices this request's
   * answer; built afresh otherwise. Either way the same JSON goes out.
   */
  const listPage = (
    generation: Generation,
    ctx: ServerContext,
    list: 'resources' | 'skills',
    offset: number,
    pageSize: number,
    build: () => { items: readonly unknown[]; nextCursor?: string },
  ): { items: unknown; nextCursor?: string } => {
    const splice = options.pages?.spliceFor(ctx);
    if (splice === undefined) return build();
    const page = options.pages!.cache.page(generation, list, offset, pageSize, build);
    const items = splice.hold(page.json);
    return page.nextCursor === undefined ? { items } : { items, nextCursor: page.nextCursor };
  };

  handle('resources/list', (params, generation, ctx) => {
    const { catalog } = generation;
    const offset =
      params.cursor === undefined ? 0 : decodeCursor(params.cursor, 'resources', catalog.resources);
    host.recordReread();
    const { items: resources, nextCursor } = listPage(
      generation,
      ctx,
      'resources',
      offset,
      resourcesPageSize,
      () => {
        const { page, nextCursor } = paginate('resources', catalog.resources, offset, resourcesPageSize);
        return { items: page.map(toWireResource), ...(nextCursor === undefined ? {} : { nextCursor }) };
      },
    );
    return nextCursor === undefined ? { resources } : { resources, nextCursor };
  });

  handle('resources/templates/list', (params, { catalog }) => {
    // The templates fit one page, so no cursor was ever issued: any cursor is one this server did not give.
    if (params.cursor !== undefined) throw invalidParams('Invalid cursor', { cursor: params.cursor });
    return { resourceTemplates: catalog.templates.map(toWireTemplate) };
  });

  handle('resources/read', (params, { catalog }) => {
    const uri = params.uri;
    if (typeof uri !== 'string') throw invalidParams('resources/read needs params.uri, a string', { uri });
    try {
      // The raw string, exactly as sent: no URL parsing, no decoding, no path join.
      const content = catalog.contents.get(uri);
      if (!content) throw resourceNotFound(uri);
      host.recordReread();
      // Read once: a getter may make the text at each ask (the index builds it again from the lists).
      const text = content.text;
      if (text !== undefined) return { contents: [{ uri, mimeType: content.mimeType, text }] };
      const { buffer, byteOffset, byteLength } = content.bytes;
      const blob = Buffer.from(buffer, byteOffset, byteLength).toString('base64');
      return { contents: [{ uri, mimeType: content.mimeType, blob }] };
    } catch (error) {
      if (!(error instanceof ProtocolError)) log(`companion: resources/read failed: ${String(error)}`);
      // Whatever went wrong, the client learns only that this URI is not served.
      throw resourceNotFound(uri);
    }
  });

  // 2025 era only: the SDK answers -32601 for both in 2026-07-28, where `subscriptions/listen` replaces them.
  handle('resources/subscribe', (params, { catalog }) => {
    const uri = params.uri;
    if (typeof uri !== 'string')
      throw invalidParams('resources/subscribe needs params.uri, a string', { uri });
    if (uri.length > MAX_SUBSCRIPTION_URI_LENGTH) {
      throw invalidParams(`resources/subscribe: uri longer than ${MAX_SUBSCRIPTION_URI_LENGTH} characters`, {
        maxLength: MAX_SUBSCRIPTION_URI_LENGTH,
      });
    }
    // As a read answers it: a URI this server does not serve is not found. A resource a save creates later is
    // announced by list_changed (a skill's other files by resources/updated on its SKILL.md), then subscribable.
    if (!catalog.contents.has(uri)) throw resourceNotFound(uri);
    if (!host.isSubscribed(uri) && host.subscriptionCount() >= MAX_SUBSCRIPTIONS) {
      throw invalidParams(`resources/subscribe: at most ${MAX_SUBSCRIPTIONS} subscriptions per session`, {
        maxSubscriptions: MAX_SUBSCRIPTIONS,
      });
    }
    host.addSubscription(uri);
    return {};
  });

  handle('resources/unsubscribe', (params) => {
    const uri = params.uri;
    if (typeof uri !== 'string')
      throw invalidParams('resources/unsubscribe needs params.uri, a string', { uri });
    host.removeSubscription(uri);
    return {};
  });

  handle('completion/complete', (params, { catalog }) => ({ completion: completeArgument(catalog, params) }));

  handle('prompts/list', (params, { catalog }) => {
    // The prompts fit one page (a content repository holds tens, not thousands): no cursor was ever issued.
    if (params.cursor !== undefined) throw invalidParams('Invalid cursor', { cursor: params.cursor });
    return { prompts: catalog.prompts.map((prompt) => prompt.listed) };
  });

  handle('prompts/get', (params, { catalog }) => {
    if (typeof params.name !== 'string') {
      throw invalidParams('prompts/get needs params.name, a string', { name: params.name });
    }
    const rendered = renderPrompt(catalog, params.name, asArguments(params.arguments));
    if (!rendered.ok) {
      const { error } = rendered;
      throw invalidParams(error.message, {
        prompt: error.prompt,
        ...(error.argument === undefined ? {} : { argument: error.argument }),
        ...(error.allowed === undefined ? {} : { allowed: error.allowed }),
      });
    }
    host.recordReread();
    return rendered.result;
  });

  handle('tools/list', (_params, { catalog }) => ({ tools: listTools(catalog) }));

  handle('tools/call', (params, { catalog }) => callTool(catalog, params.name, params.arguments, queries));

  handle(SKILLS_LIST_METHOD, (params, generation, ctx) => {
    const { catalog } = generation;
    const offset = params.cursor === undefined ? 0 : decodeCursor(params.cursor, 'skills', catalog.skills);
    host.recordReread();
    const { items: skills, nextCursor } = listPage(generation, ctx, 'skills', offset, skillsPageSize, () =>
      listSkillsPage(catalog, offset, skillsPageSize),
    );
    return nextCursor === undefined ? { skills, ...cache } : { skills, nextCursor, ...cache };
  });

  handle(SKILLS_GET_METHOD, (params, { catalog }) => {
    const result = getSkill(catalog, params, cache);
    host.recordReread();
    return result;
  });

  handle(DIRECTORY_READ_METHOD, (params, { catalog }) => {
    const result = readSkillDirectory(catalog, params, cache);
    host.recordReread();
    return result;
  });

  server.oninitialized = () => {
    const client = server.getClientVersion();
    if (client) host.setClientInfo({ name: client.name, version: client.version });
    const version = server.getNegotiatedProtocolVersion();
    if (version !== undefined) host.setProtocol('legacy', version);
  };
  server.onerror = (error) => log(`companion: protocol error: ${error.message}`);
  return server;
}
