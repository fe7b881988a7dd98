/**
 * Notifications per host, over real HTTP and in both protocol eras: an in-process catalog store, two SDK clients
 * (one watching three URIs, one only the list), files edited on disk and handed to `store.applyChanges` as the
 * watcher would. A 2025-11-25 host subscribes and hears on its session's GET stream; a 2026-07-28 host opens a
 * `subscriptions/listen` stream. Both must hear the same notifications for the same saves, and nothing for a save
 * that changed nothing.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogChange } from '../../src/core/types.js';
import { type CatalogStore, createCatalogStore } from '../../src/fs/catalog-store.js';
import type { HttpServerHandle } from '../../src/mcp/serve-http.js';
import { createSessionRegistry, type SessionInfo } from '../../src/mcp/session-registry.js';
import {
  connectHttp,
  type McpConnection,
  type Negotiation,
  type ReceivedNotification,
  rawRequest,
  startHttp,
  waitFor,
} from '../helpers/mcp-client.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';

const LIST_CHANGED = 'notifications/resources/list_changed';
const UPDATED = 'notifications/resources/updated';
const PROMPTS_LIST_CHANGED = 'notifications/prompts/list_changed';
const DOCUMENT = 'knowledge/documents/any/hosts/codex.md';
const DOCUMENT_URI = 'companion://guides/any/hosts/codex';
const SKILL_URI = 'companion://skill/write-a-skill/SKILL.md';
const REFERENCE = 'skills/write-a-skill/references/checklist.md';

describe.each(['legacy', 'modern'] as const satisfies readonly Negotiation[])(
  'notifications per host, %s era',
  (era) => {
    let project: TempProject;
    let store: CatalogStore;
    let server: HttpServerHandle;
    let subscribed: McpConnection;
    let bystander: McpConnection;
    let clock = 1_000;
    const registry = createSessionRegistry({ now: () => clock });
    const watched = (): string[] => [store.current().catalog.indexUri, DOCUMENT_URI, SKILL_URI];

    beforeAll(async () => {
      project = copyFixture('', { bundled: true, prefix: 'companion-mcp-notify-' });
      store = createCatalogStore({ root: project.root });
      server = await startHttp(store, { sessions: registry, pageSize: 4 });
      subscribed = await connectHttp(server.url, 'subscribed-host', era);
      bystander = await connectHttp(server.url, 'bystander-host', era);
      expect(await subscribed.watch({ uris: watched() })).toEqual(watched());
      await bystander.watch({ listChanged: true });
    });

    afterAll(async () => {
      await subscribed?.close();
      await bystander?.close();
      await server?.close();
      project?.cleanup();
    });

    /** Clears what both clients received, applies `paths`, and waits until each got what the change calls for. */
    async function applyAndCollect(paths: string[]): Promise<{
      change: CatalogChange | undefined;
      got: ReceivedNotification[];
      other: ReceivedNotification[];
    }> {
      subscribed.notifications.length = 0;
      bystander.notifications.length = 0;
      const change = store.applyChanges(paths);
      const subscriptions = new Set(watched());
      const wantUpdated = (change?.updatedUris ?? []).filter(
        (uri) => subscriptions.has(uri) && isSubscribed(uri),
      );
      const wantList = change?.listChanged ? 1 : 0;
      const count = (notifications: ReceivedNotification[], method: string) =>
        notifications.filter((notification) => notification.method === method).length;
      await waitFor(
        () =>
          count(subscribed.notifications, UPDATED) >= wantUpdated.length &&
          count(subscribed.notifications, LIST_CHANGED) >= wantList &&
          count(bystander.notifications, LIST_CHANGED) >= wantList,
        3000,
        'notifications',
      );
      // Nothing more may follow: give a straggler the chance to arrive.
      await new Promise((resolve) => setTimeout(resolve, 60));
      return { change, got: [...subscribed.notifications], other: [...bystander.notifications] };
    }

    let unsubscribedDocument = false;
    const isSubscribed = (uri: string) => !(unsubscribedDocument && uri === DOCUMENT_URI);

    const sessionNamed = (name: string): SessionInfo => {
      const session = server.sessions.list().find((info) => info.clientInfo?.name === name);
      if (!session) throw new Error(`no session for ${name}`);
      return session;
    };
    /** What a host asked to hear updates of: its subscriptions (legacy) or its listen stream's URIs (modern). */
    const watchedBy = (info: SessionInfo): readonly string[] =>
      era === 'legacy'
        ? info.subscriptions
        : (info.listen ?? []).flatMap((stream) => stream.filters.resourceSubscriptions ?? []);

    it('registers each host with its client, transport, era and what it watches', () => {
      const sessions = server.sessions.list();
      expect(sessions.map((session) => session.clientInfo?.name).sort()).toEqual([
        'bystander-host',
        'subscribed-host',
      ]);
      const info = sessionNamed('subscribed-host');
      expect(info.transport).toBe('http');
      expect(info.connectedAt).toBe(1_000);
      expect(info.era).toBe(era);
      expect(info.protocolVersion).toBe(era === 'legacy' ? '2025-11-25' : '2026-07-28');
      expect(watchedBy(info)).toEqual(watched());
      expect(watchedBy(sessionNamed('bystander-host'))).toEqual([]);
      if (era === 'legacy') {
        expect(info.listen).toBeUndefined();
      } else {
        expect(info.subscriptions).toEqual([]);
        expect(info.listen).toEqual([
          {
            id: expect.any(String),
            openedAt: 1_000,
            filters: { resourcesListChanged: true, resourceSubscriptions: watched() },
          },
        ]);
        expect(sessionNamed('bystander-host').listen?.[0]?.filters).toEqual({ resourcesListChanged: true });
      }
    });

    it('an edited document: updated to the subscriber only, one list_changed to each', async () => {
      clock = 2_000;
      appendFileSync(project.path(DOCUMENT), '\nOne more line for the test.\n');
      const { change, got, other } = await applyAndCollect([DOCUMENT]);
      expect(change?.listChanged).toBe(true);
      expect(change?.updatedUris).toContain(DOCUMENT_URI);
      expect(got.filter((n) => n.method === LIST_CHANGED)).toHaveLength(1);
      expect(other).toEqual([{ method: LIST_CHANGED }]);
      const updated = got.filter((n) => n.method === UPDATED).map((n) => n.uri);
      expect(updated).toContain(DOCUMENT_URI);
      expect(updated).not.toContain(SKILL_URI);
      expect(new Set(updated).size).toBe(updated.length);

      // The new bytes and size are what the next read and list say.
      const read = await subscribed.client.readResource({ uri: DOCUMENT_URI });
      const text = String((read.contents[0] as { text: string }).text);
      expect(text).toBe(readFileSync(project.path(DOCUMENT), 'utf8'));
      let listed: number | undefined;
      let cursor: string | undefined;
      do {
        const page = await bystander.client.listResources(cursor === undefined ? {} : { cursor });
        listed ??= page.resources.find((resource) => resource.uri === DOCUMENT_URI)?.size;
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      expect(listed).toBe(Buffer.byteLength(text, 'utf8'));
    });

    it('tracks the last notification and whether the host re-read since', async () => {
      clock = 3_000;
      appendFileSync(project.path(DOCUMENT), 'And another.\n');
      const { change } = await applyAndCollect([DOCUMENT]);
      const before = sessionNamed('bystander-host');
      expect(before.lastNotification).toEqual({
        method: LIST_CHANGED,
        at: 3_000,
        generation: change!.current.number,
      });
      expect(before.rereadSinceNotification).toBe(false);
      await bystander.client.listResources();
      expect(sessionNamed('bystander-host').rereadSinceNotification).toBe(true);
      const subscriber = sessionNamed('subscribed-host');
      expect(subscriber.lastNotification?.method).toBe(UPDATED);
      expect(subscriber.rereadSinceNotification).toBe(false);
    });

    it('a changed reference: the skill’s SKILL.md is updated for its subscriber', async () => {
      appendFileSync(project.path(REFERENCE), '\n- One more item.\n');
      const { change, got, other } = await applyAndCollect([REFERENCE]);
      expect(change?.updatedUris).toContain(SKILL_URI);
      expect(got.filter((n) => n.method === UPDATED).map((n) => n.uri)).toContain(SKILL_URI);
      expect(other.filter((n) => n.method === UPDATED)).toEqual([]);
      expect(got.filter((n) => n.method === LIST_CHANGED)).toHaveLength(change?.listChanged ? 1 : 0);
      // The manifest a host re-fetches matches the bytes now served.
      const entry = (await rawRequest(subscribed, 'skills/get', { uri: SKILL_URI })) as {
        skill: { resources: { uri: string; size: number }[] };
      };
      const reference = entry.skill.resources.find((file) => file.uri.endsWith('references/checklist.md'))!;
      expect(reference.size).toBe(readFileSync(project.path(REFERENCE)).length);
    });

    it('saving identical bytes sends nothing', async () => {
      writeFileSync(project.path(DOCUMENT), readFileSync(project.path(DOCUMENT)));
      const { change, got, other } = await applyAndCollect([DOCUMENT]);
      expect(change).toBeUndefined();
      expect(got).toEqual([]);
      expect(other).toEqual([]);
    });

    it('after unsubscribe, an edit no longer sends updated for that URI', async () => {
      if (era === 'legacy') await subscribed.client.unsubscribeResource({ uri: DOCUMENT_URI });
      else await subscribed.watch({ uris: watched().filter((uri) => uri !== DOCUMENT_URI) });
      unsubscribedDocument = true;
      // A modern host re-listens: its old stream's entry leaves once that stream has closed.
      await waitFor(
        () =>
          server.sessions.list().filter((info) => info.clientInfo?.name === 'subscribed-host').length === 1,
        2000,
        'the old listen stream to close',
      );
      expect(watchedBy(sessionNamed('subscribed-host'))).not.toContain(DOCUMENT_URI);
      appendFileSync(project.path(DOCUMENT), 'Unwatched now.\n');
      const { got } = await applyAndCollect([DOCUMENT]);
      expect(got.filter((n) => n.method === UPDATED).map((n) => n.uri)).not.toContain(DOCUMENT_URI);
      expect(got.filter((n) => n.method === LIST_CHANGED)).toHaveLength(1);
    });

    it('a cursor from an older generation continues at its offset in the current list', async () => {
      const first = await rawRequest(bystander, 'resources/list', {});
      expect(first.nextCursor).toBeDefined();
      appendFileSync(project.path(DOCUMENT), 'A generation later.\n');
      await applyAndCollect([DOCUMENT]);
      const second = await bystander.client.listResources({ cursor: first.nextCursor as string });
      const current = store.current().catalog.resources.map((resource) => resource.uri);
      expect(second.resources.map((resource) => resource.uri)).toEqual(current.slice(4, 8));
    });

    it('a new prompt: its list_changed to a host that listens for it; a body edit sends none', async () => {
      // The bystander's stream has been open since the start (a 2025 host hears this unasked; a 2026 host asks).
      const host = bystander;
      await host.watch({ listChanged: true, promptsListChanged: true });
      const path = 'prompts/greet.md';
      const text = (greeting: string) => `---\ndescription: Greets the reader.\n---\n${greeting}, reader.\n`;
      const heardPrompts = () => host.notifications.filter((n) => n.method === PROMPTS_LIST_CHANGED);
      host.notifications.length = 0;
      project.write(path, text('Hello'));
      // A prompt no topic names is a finding, not a reason to withhold it.
      expect(store.applyChanges([path])?.promptsListChanged).toBe(true);
      await waitFor(() => heardPrompts().length > 0, 3000, 'prompts/list_changed');
      const { prompts } = await host.client.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toContain('greet');

      host.notifications.length = 0;
      project.write(path, text('Good morning'));
      expect(store.applyChanges([path])?.promptsListChanged).toBe(false);
      const rendered = await host.client.getPrompt({ name: 'greet' });
      expect(JSON.stringify(rendered.messages)).toContain('Good morning, reader.');
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(heardPrompts()).toEqual([]);

      project.remove(path);
      expect(store.applyChanges([path])?.promptsListChanged).toBe(true);
      await waitFor(() => heardPrompts().length > 0, 3000, 'prompts/list_changed after the delete');
      // The subscriber asked for no prompts in the 2026 era, so it heard none of this.
      if (era === 'modern') {
        expect(subscribed.notifications.filter((n) => n.method === PROMPTS_LIST_CHANGED)).toEqual([]);
      }
    });

    it('a session that ends leaves the registry and hears nothing more', async () => {
      const late = await connectHttp(server.url, 'short-lived-host', era);
      await late.watch({ listChanged: true });
      expect(server.sessions.list()).toHaveLength(3);
      await late.close();
      await waitFor(() => server.sessions.list().length === 2, 2000, 'the session to leave');
      late.notifications.length = 0;
      appendFileSync(project.path(DOCUMENT), 'After it left.\n');
      await applyAndCollect([DOCUMENT]);
      expect(late.notifications).toEqual([]);
    });
  },
);
