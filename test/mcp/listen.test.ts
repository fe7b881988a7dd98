/**
 * What a host hears of a change: the one rule every door sends by and records (`selectHostHeard`).
 */
import { describe, expect, it } from 'vitest';
import { selectHostHeard } from '../../src/mcp/listen.js';
import { createSessionRegistry } from '../../src/mcp/session-registry.js';

const change = { listChanged: true, promptsListChanged: true, updatedUris: ['x://a', 'x://b', 'x://c'] };

describe('selectHostHeard', () => {
  it('gives a legacy host both list_changed and the updates of the URIs it subscribed', () => {
    const host = createSessionRegistry().open({ id: 'legacy', transport: 'stdio' });
    host.addSubscription('x://b');
    host.addSubscription('x://z');
    expect(selectHostHeard('legacy', host, change)).toEqual({
      listChanged: true,
      promptsListChanged: true,
      updatedUris: ['x://b'],
    });
  });

  it('gives a modern host what its open listen streams asked for, nothing without one', () => {
    const host = createSessionRegistry().open({ id: 'modern', transport: 'http' });
    const nothing = { listChanged: false, promptsListChanged: false, updatedUris: [] };
    expect(selectHostHeard('modern', host, change)).toEqual(nothing);
    host.openListen('1', { resourceSubscriptions: ['x://c', 'x://a'] });
    expect(selectHostHeard('modern', host, change)).toEqual({ ...nothing, updatedUris: ['x://a', 'x://c'] });
    host.openListen('2', { resourcesListChanged: true });
    expect(selectHostHeard('modern', host, change)).toMatchObject({
      listChanged: true,
      promptsListChanged: false,
    });
    // Subscriptions are a legacy thing: a modern host hears by its streams alone.
    host.addSubscription('x://b');
    expect(selectHostHeard('modern', host, change).updatedUris).toEqual(['x://a', 'x://c']);
  });
});
