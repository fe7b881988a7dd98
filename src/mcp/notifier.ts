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
import { selectHostHeard } from './listen.js';
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
    const heard = selectHostHeard(era, session, change);
    // Recorded before the writes: the registry says what this host is sent for this generation, once.
    session.recordHeard(change.current.number, heard);
    const send = (method: string, sending: Promise<void>): void => {
      sending.catch((error: unknown) => log(`companion: could not send ${method}: ${String(error)}`));
    };
    if (heard.listChanged) send(LIST_CHANGED, server.sendResourceListChanged());
    if (heard.promptsListChanged) send(PROMPTS_LIST_CHANGED, server.sendPromptListChanged());
    for (const uri of heard.updatedUris) send(RESOURCE_UPDATED, server.sendResourceUpdated({ uri }));
  });
  const previous = server.onclose;
  server.onclose = () => {
    unsubscribe();
    previous?.();
  };
  return unsubscribe;
}
