import { describe, expect, it } from 'vitest';
import {
  createSessionRegistry,
  HEARD_GENERATIONS,
  type SessionInfo,
} from '../../src/mcp/session-registry.js';

describe('createSessionRegistry', () => {
  it('lists open sessions with what the dev UI shows, and tells observers of every change', () => {
    let now = 100;
    const registry = createSessionRegistry({ now: () => now });
    const seen: (readonly SessionInfo[])[] = [];
    const stop = registry.subscribe((sessions) => seen.push(sessions));

    const a = registry.open({ id: 'a', transport: 'stdio' });
    expect(registry.list()).toEqual([
      {
        id: 'a',
        transport: 'stdio',
        state: 'active',
        lastActivityAt: 100,
        subscriptions: [],
        connectedAt: 100,
        rereadSinceNotification: false,
      },
    ]);
    a.setClientInfo({ name: 'claude-code', version: '2.1.0' });
    a.addSubscription('companion://guides');
    a.addSubscription('companion://guides');
    a.addSubscription('companion://skill/x/SKILL.md');
    expect(a.isSubscribed('companion://guides')).toBe(true);
    a.removeSubscription('companion://guides');
    expect(a.isSubscribed('companion://guides')).toBe(false);

    now = 200;
    a.recordHeard(7, {
      listChanged: false,
      promptsListChanged: false,
      updatedUris: ['companion://guides', 'companion://skill/x/SKILL.md'],
    });
    expect(registry.list()[0]).toMatchObject({
      clientInfo: { name: 'claude-code', version: '2.1.0' },
      subscriptions: ['companion://skill/x/SKILL.md'],
      lastNotification: {
        method: 'notifications/resources/updated',
        uri: 'companion://skill/x/SKILL.md',
        at: 200,
        generation: 7,
      },
      rereadSinceNotification: false,
    });
    a.recordReread();
    a.recordReread();
    expect(registry.list()[0]!.rereadSinceNotification).toBe(true);
    a.recordHeard(8, { listChanged: true, promptsListChanged: false, updatedUris: [] });
    expect(registry.list()[0]!.lastNotification).toEqual({
      method: 'notifications/resources/list_changed',
      at: 200,
      generation: 8,
    });
    expect(registry.list()[0]!.rereadSinceNotification).toBe(false);

    const b = registry.open({ id: 'b', transport: 'http' });
    expect(registry.list().map((session) => session.id)).toEqual(['a', 'b']);
    a.close();
    a.close();
    a.addSubscription('ignored-after-close');
    expect(registry.list().map((session) => session.id)).toEqual(['b']);
    b.close();
    expect(registry.list()).toEqual([]);

    // One emission per real change: open, client, 2 subscribes, 1 unsubscribe, notification, reread,
    // notification, open b, close a, close b.
    expect(seen).toHaveLength(11);
    expect(seen.at(-1)).toEqual([]);
    stop();
    registry.open({ id: 'c', transport: 'stdio' });
    expect(seen).toHaveLength(11);
  });

  it('keeps what each host heard of each of the latest generations', () => {
    const registry = createSessionRegistry();
    const a = registry.open({ id: 'a', transport: 'stdio' });
    const b = registry.open({ id: 'b', transport: 'http' });
    b.setClientInfo({ name: 'vscode', version: '1.99.0' });
    const seen: unknown[] = [];
    registry.subscribe((sessions) => seen.push(sessions));
    const nothing = { listChanged: false, promptsListChanged: false, updatedUris: [] };
    a.recordHeard(3, nothing);
    expect(seen).toHaveLength(0);
    b.recordHeard(3, { listChanged: true, promptsListChanged: true, updatedUris: ['x://1', 'x://2'] });
    a.recordHeard(3, { ...nothing, promptsListChanged: true });
    // One emission per host and change, however many notifications it is sent.
    expect(seen).toHaveLength(2);
    expect(registry.list()[1]!.lastNotification).toMatchObject({
      method: 'notifications/resources/updated',
      uri: 'x://2',
      generation: 3,
    });
    expect(registry.list()[0]!.lastNotification).toMatchObject({
      method: 'notifications/prompts/list_changed',
      generation: 3,
    });
    expect(registry.heard(3)).toEqual([
      {
        id: 'b',
        clientInfo: { name: 'vscode', version: '1.99.0' },
        listChanged: true,
        promptsListChanged: true,
        updated: 2,
      },
      { id: 'a', listChanged: false, promptsListChanged: true, updated: 0 },
    ]);
    expect(registry.heard(4)).toEqual([]);
    // Bounded: the oldest generation goes once more than HEARD_GENERATIONS were sent anything.
    for (let generation = 4; generation < 4 + HEARD_GENERATIONS; generation++) {
      a.recordHeard(generation, { ...nothing, listChanged: true });
    }
    expect(registry.heard(3)).toEqual([]);
    expect(registry.heard(4)).toHaveLength(1);
  });

  it('hands out snapshots: a listed session never changes under its reader', () => {
    const registry = createSessionRegistry();
    const handle = registry.open({ id: 'a', transport: 'http' });
    const before = registry.list()[0]!;
    handle.addSubscription('companion://guides');
    expect(before.subscriptions).toEqual([]);
    expect(registry.list()[0]!.subscriptions).toEqual(['companion://guides']);
  });

  it('keeps notifying the others when one observer throws', () => {
    const registry = createSessionRegistry();
    let calls = 0;
    registry.subscribe(() => {
      throw new Error('broken observer');
    });
    registry.subscribe(() => {
      calls++;
    });
    registry.open({ id: 'a', transport: 'stdio' });
    expect(calls).toBe(1);
  });
});

describe('createSessionRegistry: eras and listen streams', () => {
  it('records the era and revision once, and a modern host’s open listen streams', () => {
    let now = 10;
    const registry = createSessionRegistry({ now: () => now });
    let emitted = 0;
    registry.subscribe(() => emitted++);
    const legacy = registry.open({ id: 'legacy', transport: 'http' });
    legacy.setProtocol('legacy', '2025-11-25');
    legacy.setProtocol('legacy', '2025-11-25');
    expect(registry.list()[0]).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25' });
    expect(registry.list()[0]).not.toHaveProperty('listen');
    expect(legacy.listens()).toEqual([]);

    const modern = registry.open({ id: 'modern', transport: 'stdio' });
    modern.setProtocol('modern', '2026-07-28');
    expect(registry.list()[1]).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28', listen: [] });
    now = 20;
    modern.openListen('1', { resourcesListChanged: true });
    modern.openListen('7', { resourceSubscriptions: ['companion://guides'] });
    expect(registry.list()[1]!.listen).toEqual([
      { id: '1', openedAt: 20, filters: { resourcesListChanged: true } },
      { id: '7', openedAt: 20, filters: { resourceSubscriptions: ['companion://guides'] } },
    ]);
    modern.closeListen('1');
    modern.closeListen('1');
    modern.closeListen('never-opened');
    expect(modern.listens().map((stream) => stream.id)).toEqual(['7']);
    // open ×2, legacy protocol, modern protocol, two listens opened, one closed: repeats change nothing.
    expect(emitted).toBe(7);
    modern.close();
    modern.openListen('9', {});
    expect(registry.list().map((session) => session.id)).toEqual(['legacy']);
  });

  it('counts subscriptions for the bound a session keeps', () => {
    const handle = createSessionRegistry().open({ id: 'a', transport: 'http' });
    handle.addSubscription('x');
    handle.addSubscription('x');
    handle.addSubscription('y');
    expect(handle.subscriptionCount()).toBe(2);
    handle.removeSubscription('x');
    expect(handle.subscriptionCount()).toBe(1);
  });
});
