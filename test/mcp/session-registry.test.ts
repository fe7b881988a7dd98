import { describe, expect, it } from 'vitest';
import { createSessionRegistry, type SessionInfo } from '../../src/mcp/session-registry.js';

describe('createSessionRegistry', () => {
  it('lists open sessions with what the dev UI shows, and tells observers of every change', () => {
    let now = 100;
    const registry = createSessionRegistry({ now: () => now });
    const seen: (readonly SessionInfo[])[] = [];
    const stop = registry.subscribe((sessions) => seen.push(sessions));

    const a = registry.open({ id: 'a', transport: 'stdio' });
    expect(registry.list()).toEqual([
      { id: 'a', transport: 'stdio', subscriptions: [], connectedAt: 100, rereadSinceNotification: false },
    ]);
    a.setClientInfo({ name: 'claude-code', version: '2.1.0' });
    a.addSubscription('companion://guides');
    a.addSubscription('companion://guides');
    a.addSubscription('companion://skill/x/SKILL.md');
    expect(a.isSubscribed('companion://guides')).toBe(true);
    a.removeSubscription('companion://guides');
    expect(a.isSubscribed('companion://guides')).toBe(false);

    now = 200;
    a.recordNotification('notifications/resources/updated', 7, 'companion://skill/x/SKILL.md');
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
    a.recordNotification('notifications/resources/list_changed', 8);
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
