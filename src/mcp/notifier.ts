/**
 * The notifier of a long-lived protocol server (a stdio connection, a legacy HTTP session): one published change
 * of the store becomes at most one `notifications/resources/list_changed`, one
 * `notifications/prompts/list_changed` and one `notifications/resources/updated` per URI the host asked about — the store already batches a burst of saves
 * into one change, and a change that changed nothing is never published, so nothing is sent then.
 *
 * Legacy hosts hear list_changed and the updates of the URIs they `resources/subscribe`d. Modern hosts hear only
 * what their open `subscriptions/listen` streams asked for; the SDK's stdio entry stamps each notification with
 * the subscription it belongs to. (Modern HTTP requests have no long-lived server: `serve-http.ts` publishes
 * those changes on the handler's listen bus instead.)
 */
import type { Server } from '@modelcontextprotocol/server';
import type { CatalogSource } from '../core/types.js';
import { LIST_CHANGED, PROMPTS_LIST_CHANGED, RESOURCE_UPDATED } from './create-server.js';
import { selectHeard } from './listen.js';
import type { ProtocolEra, SessionHandle } from './session-registry.js';

/** Sends each change to `server` until it closes; returns the function that stops it sooner. */
export function attachNotifier(
  server: Server,
  source: CatalogSource,
  session: SessionHandle,
  era: ProtocolEra,
  log: (line: string) => void,
): () => void {
  const unsubscribe = source.subscribe((change) => {
    // Before the handshake there is no one to tell (a legacy instance learns its revision from `initialize`).
    if (era === 'legacy' && server.getNegotiatedProtocolVersion() === undefined) return;
    const heard =
      era === 'legacy'
        ? {
            listChanged: change.listChanged,
            updatedUris: change.updatedUris.filter((uri) => session.isSubscribed(uri)),
            // Like list_changed, the prompts' list_changed needs no subscription in the 2025 era.
            promptsListChanged: change.promptsListChanged,
          }
        : selectHeard(
            session.listens().map((stream) => stream.filters),
            change,
          );
    const generation = change.current.number;
    const send = (method: string, sending: Promise<void>, uri?: string): void => {
      session.recordNotification(method, generation, uri);
      sending.catch((error: unknown) => log(`companion: could not send ${method}: ${String(error)}`));
    };
    if (heard.listChanged) send(LIST_CHANGED, server.sendResourceListChanged());
    if (heard.promptsListChanged) send(PROMPTS_LIST_CHANGED, server.sendPromptListChanged());
    for (const uri of heard.updatedUris) send(RESOURCE_UPDATED, server.sendResourceUpdated({ uri }), uri);
  });
  const previous = server.onclose;
  server.onclose = () => {
    unsubscribe();
    previous?.();
  };
  return unsubscribe;
}
