/**
 * One MCP protocol session over a catalog source: the low-level SDK `Server` with every handler installed by hand.
 *
 * Why not `McpServer`: it resolves `resources/read` through `new URL()` (which collapses `..` and rewrites
 * spelling), does not paginate `resources/list`, turns zod failures on malformed params into -32603, and sends
 * `list_changed` on every registration change. Here every request reads `source.current()` once, so one answer
 * always comes from one generation, and a read is a lookup of the raw URI string in the catalog — a URI is never
 * a path.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import * as z from 'zod';
import type { Catalog, CatalogSource, Generation } from '../core/types.js';
import { completeArgument } from './completion.js';
import { decodeCursor, encodeCursor, paginate } from './cursor.js';
import { invalidParams, ProtocolError, paramsOf, resourceNotFound } from './errors.js';
import type { SessionHandle, SessionRegistryController, SessionTransport } from './session-registry.js';
import {
  getSkill,
  listSkillsPage,
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

/** Exactly what this server declares; every declaration is backed by a handler below. */
export const SERVER_CAPABILITIES = {
  resources: { subscribe: true, listChanged: true },
  completions: {},
  tools: {},
  extensions: { [SKILLS_EXTENSION_ID]: {} },
} as const;

/**
 * Subscriptions one session may hold: more than every file of a large catalog, few enough that one client cannot
 * grow the registry (and the dev UI's session list, copied on every change) without bound.
 */
export const MAX_SUBSCRIPTIONS = 4096;
/** No served URI is longer (its path lies below the content root), so a longer one can never be updated. */
export const MAX_SUBSCRIPTION_URI_LENGTH = 8192;

export const LIST_CHANGED = 'notifications/resources/list_changed';
export const RESOURCE_UPDATED = 'notifications/resources/updated';

export interface CreateServerOptions {
  readonly transport: SessionTransport;
  /** The protocol session id (HTTP: the `Mcp-Session-Id`; stdio: any unique id). */
  readonly sessionId: string;
  readonly sessions: SessionRegistryController;
  /**
   * Entries per page of both `resources/list` and `skills/list`, when given.
   * @default DEFAULT_RESOURCES_PAGE_SIZE (500) and DEFAULT_SKILLS_PAGE_SIZE (100)
   */
  readonly pageSize?: number;
  /** One line per problem, to stderr. Never stdout: on stdio that is the protocol stream. */
  readonly log?: (line: string) => void;
}

export interface CompanionServer {
  readonly server: Server;
  readonly session: SessionHandle;
  /** Closes the protocol connection; unsubscribes from the source and leaves the registry. Idempotent. */
  close(): Promise<void>;
}

/**
 * The SDK `Server`, with one refusal corrected: a request asking for task-augmented execution (`params.task`) on
 * a server that declares no `tasks` capability is the client's mistake, so -32602 rather than the SDK's -32603.
 */
class CompanionProtocolServer extends Server {
  protected override assertTaskHandlerCapability(method: string): void {
    throw invalidParams(`${method} cannot run as a task: this server declares no tasks capability`);
  }
}

/**
 * A request schema that accepts any params, so malformed params reach the handler and become -32602 there
 * (a zod failure inside the SDK would answer -32603).
 */
function looseRequest<M extends string>(method: M) {
  return z.object({ method: z.literal(method), params: z.unknown().optional() });
}

/** The wire form of a listed resource: exactly these fields, never `annotations.audience`. */
function toWireResource(resource: Catalog['resources'][number]) {
  const annotations =
    resource.annotations.lastModified === undefined
      ? { priority: resource.annotations.priority }
      : { priority: resource.annotations.priority, lastModified: resource.annotations.lastModified };
  return {
    uri: resource.uri,
    name: resource.name,
    title: resource.title,
    description: resource.description,
    mimeType: resource.mimeType,
    size: resource.size,
    annotations,
  };
}

function toWireTemplate(template: Catalog['templates'][number]) {
  return {
    uriTemplate: template.uriTemplate,
    name: template.name,
    title: template.title,
    description: template.description,
    ...(template.mimeType === undefined ? {} : { mimeType: template.mimeType }),
    annotations: { priority: template.annotations.priority },
  };
}

/** Creates a server for one session. Connect it to exactly one transport. */
export function createCompanionServer(source: CatalogSource, options: CreateServerOptions): CompanionServer {
  const resourcesPageSize = options.pageSize ?? DEFAULT_RESOURCES_PAGE_SIZE;
  const skillsPageSize = options.pageSize ?? DEFAULT_SKILLS_PAGE_SIZE;
  const log = options.log ?? (() => {});
  const initial = source.current().catalog;
  const server = new CompanionProtocolServer(
    { name: initial.server.name, title: initial.server.title, version: initial.server.version },
    { capabilities: SERVER_CAPABILITIES, instructions: initial.instructions },
  );
  const session = options.sessions.open({ id: options.sessionId, transport: options.transport });
  let initialized = false;
  let closed = false;
  let subscriptionCount = 0;

  /**
   * Runs a handler against one generation. A `ProtocolError` goes out as it is; anything else is a bug, logged
   * here and answered as a bare -32603, so no internal message (a path, an errno) reaches the client.
   */
  const answer = <T>(method: string, handler: (generation: Generation) => T): T => {
    try {
      return handler(source.current());
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      log(
        `companion: ${method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      throw new ProtocolError(-32603, 'Internal error');
    }
  };

  server.setRequestHandler(looseRequest('resources/list'), (request) =>
    answer('resources/list', ({ catalog, number }) => {
      const params = paramsOf(request);
      const offset = params.cursor === undefined ? 0 : decodeCursor(params.cursor, 'resources', number);
      session.recordReread();
      const { page, nextCursor } = paginate(catalog.resources, offset, resourcesPageSize, (next) =>
        encodeCursor('resources', next, number),
      );
      const resources = page.map(toWireResource);
      return nextCursor === undefined ? { resources } : { resources, nextCursor };
    }),
  );

  server.setRequestHandler(looseRequest('resources/templates/list'), (request) =>
    answer('resources/templates/list', ({ catalog }) => {
      const params = paramsOf(request);
      // The templates fit one page, so no cursor was ever issued: any cursor is one this server did not give.
      if (params.cursor !== undefined) throw invalidParams('Invalid cursor', { cursor: params.cursor });
      return { resourceTemplates: catalog.templates.map(toWireTemplate) };
    }),
  );

  server.setRequestHandler(looseRequest('resources/read'), (request) => {
    const params = paramsOf(request);
    const uri = params.uri;
    if (typeof uri !== 'string') throw invalidParams('resources/read needs params.uri, a string', { uri });
    try {
      const { catalog } = source.current();
      // The raw string, exactly as sent: no URL parsing, no decoding, no path join.
      const content = catalog.contents.get(uri);
      if (!content) throw resourceNotFound(uri);
      session.recordReread();
      if (content.text !== undefined) {
        return { contents: [{ uri, mimeType: content.mimeType, text: content.text }] };
      }
      const blob = Buffer.from(
        content.bytes.buffer,
        content.bytes.byteOffset,
        content.bytes.byteLength,
      ).toString('base64');
      return { contents: [{ uri, mimeType: content.mimeType, blob }] };
    } catch (error) {
      if (!(error instanceof ProtocolError)) log(`companion: resources/read failed: ${String(error)}`);
      // Whatever went wrong, the client learns only that this URI is not served.
      throw resourceNotFound(uri);
    }
  });

  server.setRequestHandler(looseRequest('resources/subscribe'), (request) => {
    const uri = paramsOf(request).uri;
    if (typeof uri !== 'string')
      throw invalidParams('resources/subscribe needs params.uri, a string', { uri });
    // Accepted for any URI: a host may subscribe before the resource exists (it is created by the next save);
    // bounded in length and number, since whoever connects chooses them.
    if (uri.length > MAX_SUBSCRIPTION_URI_LENGTH) {
      throw invalidParams(`resources/subscribe: uri longer than ${MAX_SUBSCRIPTION_URI_LENGTH} characters`, {
        maxLength: MAX_SUBSCRIPTION_URI_LENGTH,
      });
    }
    if (!session.isSubscribed(uri)) {
      if (subscriptionCount >= MAX_SUBSCRIPTIONS) {
        throw invalidParams(`resources/subscribe: at most ${MAX_SUBSCRIPTIONS} subscriptions per session`, {
          maxSubscriptions: MAX_SUBSCRIPTIONS,
        });
      }
      subscriptionCount++;
    }
    session.addSubscription(uri);
    return {};
  });

  server.setRequestHandler(looseRequest('resources/unsubscribe'), (request) => {
    const uri = paramsOf(request).uri;
    if (typeof uri !== 'string')
      throw invalidParams('resources/unsubscribe needs params.uri, a string', { uri });
    if (session.isSubscribed(uri)) subscriptionCount--;
    session.removeSubscription(uri);
    return {};
  });

  server.setRequestHandler(looseRequest('completion/complete'), (request) =>
    answer('completion/complete', ({ catalog }) => {
      const params = request.params;
      const record = params !== null && typeof params === 'object' ? (params as Record<string, unknown>) : {};
      return { completion: completeArgument(catalog, record) };
    }),
  );

  server.setRequestHandler(looseRequest('tools/list'), () =>
    answer('tools/list', ({ catalog }) => ({ tools: listTools(catalog) })),
  );

  server.setRequestHandler(looseRequest('tools/call'), (request) =>
    answer('tools/call', ({ catalog }) => {
      const params = paramsOf(request);
      return callTool(catalog, params.name, params.arguments);
    }),
  );

  server.setRequestHandler(looseRequest(SKILLS_LIST_METHOD), (request) =>
    answer(SKILLS_LIST_METHOD, ({ catalog, number }) => {
      const page = listSkillsPage(catalog, number, paramsOf(request), skillsPageSize);
      session.recordReread();
      return page;
    }),
  );

  server.setRequestHandler(looseRequest(SKILLS_GET_METHOD), (request) =>
    answer(SKILLS_GET_METHOD, ({ catalog }) => {
      const result = getSkill(catalog, paramsOf(request));
      session.recordReread();
      return result;
    }),
  );

  server.oninitialized = () => {
    initialized = true;
    const client = server.getClientVersion();
    if (client) session.setClientInfo({ name: client.name, version: client.version });
  };
  server.onerror = (error) => log(`companion: protocol error: ${error.message}`);

  // The notifier: one list_changed per published change (the store already batches a burst into one change),
  // and resources/updated only for URIs this session subscribed to.
  const unsubscribe = source.subscribe((change) => {
    if (!initialized || closed) return;
    const generation = change.current.number;
    const send = (method: string, promise: Promise<void>, uri?: string): void => {
      session.recordNotification(method, generation, uri);
      promise.catch((error: unknown) => log(`companion: could not send ${method}: ${String(error)}`));
    };
    if (change.listChanged) send(LIST_CHANGED, server.sendResourceListChanged());
    for (const uri of change.updatedUris) {
      if (session.isSubscribed(uri)) send(RESOURCE_UPDATED, server.sendResourceUpdated({ uri }), uri);
    }
  });

  const dispose = (): void => {
    if (closed) return;
    closed = true;
    unsubscribe();
    session.close();
  };
  server.onclose = dispose;

  return {
    server,
    session,
    async close() {
      dispose();
      await server.close();
    },
  };
}
