import { describe, expect, it } from 'vitest';
import { createStaticSource } from '../../src/fs/catalog-store.js';
import { createSessionRegistry } from '../../src/mcp/session-registry.js';
import { createDevModel, type DevEvent, type DevState, reduceDevState } from '../../src/ui/dev-state.js';
import { formatClock } from '../../src/ui/format.js';
import {
  formatEventLines,
  formatListeningLine,
  formatStartLines,
  startPlainLog,
} from '../../src/ui/plain-log.js';
import {
  makeCatalog,
  makeChange,
  makeDiagnostic,
  makeGeneration,
  makeSession,
  makeState,
  T0,
} from './view-states.js';

const ANSI = /\u001b/;

/** Applies `event` and returns the lines it logs. */
function linesFor(state: DevState, event: DevEvent): { lines: string[]; next: DevState } {
  const next = reduceDevState(state, event);
  return { lines: formatEventLines(state, next, event), next };
}

describe('formatStartLines', () => {
  it('names the URL, what was loaded, what is uncovered and every known problem', () => {
    const catalog = makeCatalog({ documents: ['any/a'], skills: ['s'], topics: [{ skills: ['s'] }] });
    const state = makeState(makeGeneration(1, [makeDiagnostic()], catalog));
    expect(formatStartLines(state)).toEqual([
      '[companion] listening on http://127.0.0.1:3917/mcp',
      '[companion] root /home/ada/content: generation 1, 1 document, 1 skill, 1 error, 0 warnings',
      '[companion] not covered by any topic: document any/a',
      '[companion] diagnostic CMP403 skills/a/SKILL.md:3 error: The description is empty.',
    ]);
  });
});

describe('the stale-copies notice', () => {
  it('is said at start, again when it changes, and when it clears', () => {
    const notice =
      'The skills published into this project (.claude/skills) are stale: run `npx companion install`.';
    const stale = makeGeneration(1, [], { ...makeCatalog(), notice });
    const state = makeState(stale);
    expect(formatStartLines(state)).toContain(`[companion] notice: ${notice}`);
    const fresh = makeGeneration(2, [], makeCatalog());
    const event = { type: 'generation', change: makeChange(stale, fresh), hosts: 0, sent: [] } as const;
    const next = reduceDevState(state, event);
    expect(next.notice).toBeUndefined();
    expect(formatEventLines(state, next, event)).toContain('[companion] notice cleared');
  });
});

describe('formatEventLines', () => {
  it('logs a generation with what it sent, then new and fixed diagnostics', () => {
    const gone = makeDiagnostic({
      code: 'CMP201',
      file: 'knowledge/server-scope.json',
      line: 9,
      message: 'Gone.',
    });
    const fresh = makeDiagnostic({ code: 'CMP403', line: 3, message: 'Fresh.' });
    const g3 = makeGeneration(3, [gone]);
    const g4 = makeGeneration(4, [fresh]);
    const { lines } = linesFor(makeState(g3), {
      type: 'generation',
      change: makeChange(g3, g4, { listChanged: true, changedPaths: ['skills/a/SKILL.md'], rebuildMs: 3 }),
      hosts: 1,
      sent: [{ id: 's1', name: 'claude-code', listChanged: true, promptsListChanged: false, updated: 1 }],
    });
    expect(lines).toEqual([
      '[companion] generation 4 in 3 ms: saved skills/a/SKILL.md → list_changed, 1 updated',
      '[companion] diagnostic new CMP403 skills/a/SKILL.md:3 error: Fresh.',
      '[companion] fixed CMP201 knowledge/server-scope.json:9 Gone.',
    ]);
  });

  it('says when a generation sent nothing, or found no host to send to', () => {
    const g1 = makeGeneration(1);
    const g2 = makeGeneration(2);
    const quiet = linesFor(makeState(g1), {
      type: 'generation',
      change: makeChange(g1, g2),
      hosts: 1,
      sent: [],
    });
    expect(quiet.lines).toEqual(['[companion] generation 2 in 3 ms: saved skills/a/SKILL.md → nothing sent']);
    const alone = linesFor(makeState(g1), {
      type: 'generation',
      change: makeChange(g1, g2, { listChanged: true }),
      hosts: 0,
      sent: [],
    });
    expect(alone.lines).toEqual([
      '[companion] generation 2 in 3 ms: saved skills/a/SKILL.md → list_changed (no host connected)',
    ]);
  });

  it('logs a document that just lost its topic', () => {
    const g1 = makeGeneration(
      1,
      [],
      makeCatalog({ documents: ['any/a'], topics: [{ documents: ['any/a'] }] }),
    );
    const g2 = makeGeneration(2, [], makeCatalog({ documents: ['any/a'] }));
    const { lines } = linesFor(makeState(g1), {
      type: 'generation',
      change: makeChange(g1, g2, { changedPaths: ['knowledge/server-scope.json'] }),
      hosts: 0,
      sent: [],
    });
    expect(lines).toContain('[companion] not covered by any topic: document any/a');
  });

  it('logs hosts connecting, subscribing, re-reading and leaving', () => {
    const host = { clientInfo: { name: 'claude-code', version: '1.2.3' } };
    let state = makeState();
    const step = (sessions: ReturnType<typeof makeSession>[]) => {
      const result = linesFor(state, { type: 'sessions', sessions });
      state = result.next;
      return result.lines;
    };
    expect(step([makeSession()])).toEqual([]);
    expect(step([makeSession(host)])).toEqual(['[companion] host connected: claude-code 1.2.3 (http)']);
    expect(step([makeSession({ ...host, subscriptions: ['x'] })])).toEqual([
      '[companion] host claude-code 1.2.3 has 1 subscription',
    ]);
    const notified = {
      ...host,
      subscriptions: ['x'],
      lastNotification: { method: 'm', at: T0, generation: 5 },
    };
    expect(step([makeSession(notified)])).toEqual([]);
    expect(step([makeSession({ ...notified, rereadSinceNotification: true })])).toEqual([
      '[companion] host claude-code 1.2.3 re-read after generation 5',
    ]);
    expect(step([])).toEqual(['[companion] host disconnected: claude-code 1.2.3']);
  });

  it('logs the watcher becoming ready and falling back to polling, and errors', () => {
    const ready = linesFor(makeState(), { type: 'watcher', status: { mode: 'events', watchedPaths: 40 } });
    expect(ready.lines).toEqual(['[companion] watching 40 paths for changes']);
    const uncounted = linesFor(makeState(), { type: 'watcher', status: { mode: 'events', watchedPaths: 0 } });
    expect(uncounted.lines).toEqual(['[companion] watching for changes']);
    const polling = linesFor(ready.next, {
      type: 'watcher',
      status: { mode: 'polling', reason: 'ENOSPC: the watcher cannot watch every file' },
    });
    expect(polling.lines).toEqual([
      '[companion] watcher fell back to polling: ENOSPC: the watcher cannot watch every file',
    ]);
    expect(linesFor(makeState(), { type: 'error', at: T0, message: 'rebuild failed' }).lines).toEqual([
      '[companion] error: rebuild failed',
    ]);
  });

  it('logs a save of identical bytes', () => {
    const { lines } = linesFor(makeState(), {
      type: 'batch',
      at: T0,
      paths: ['skills/a/SKILL.md'],
      waitMs: 15,
    });
    expect(lines).toEqual(['[companion] saved skills/a/SKILL.md: same bytes, nothing sent']);
  });

  it('keeps each event on one line with no escape codes, whatever a message holds', () => {
    const { lines } = linesFor(makeState(), { type: 'error', at: T0, message: 'two\nlines \u001b[31mred' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(ANSI);
    expect(lines[0]).toBe('[companion] error: two lines ?[31mred');
  });
});

describe('startPlainLog', () => {
  it('writes the start lines, then a line per event until stopped', () => {
    const sessions = createSessionRegistry();
    const model = createDevModel({
      store: createStaticSource(makeGeneration(1)),
      sessions,
      url: 'http://127.0.0.1:1/mcp',
      root: '/r',
      defer: (flush) => flush(),
    });
    let out = '';
    const stop = startPlainLog(model, (text) => {
      out += text;
    });
    model.recordError('boom');
    stop();
    model.recordError('after');
    expect(out).toBe(
      '[companion] listening on http://127.0.0.1:1/mcp\n' +
        '[companion] root /r: generation 1, 0 documents, 0 skills, 0 errors, 0 warnings\n' +
        '[companion] error: boom\n',
    );
  });
});

describe('the listening line written first', () => {
  it('is the first start line, and a log told it was written goes on with the rest', () => {
    const model = createDevModel({
      store: createStaticSource(makeGeneration(1)),
      sessions: createSessionRegistry(),
      url: 'http://127.0.0.1:1/mcp',
      root: '/r',
      defer: (flush) => flush(),
    });
    const all = formatStartLines(model.getState());
    expect(all[0]).toBe(formatListeningLine('http://127.0.0.1:1/mcp'));
    let out = `${formatListeningLine('http://127.0.0.1:1/mcp')}\n`;
    const stop = startPlainLog(
      model,
      (text) => {
        out += text;
      },
      { listeningWritten: true },
    );
    stop();
    expect(out).toBe(all.map((line) => `${line}\n`).join(''));
  });
});

describe('last good and hosts, in plain lines', () => {
  it('says what is held beside its finding, and when it is no longer held', () => {
    const g1 = makeGeneration(1);
    const finding = makeDiagnostic({
      code: 'CMP101',
      file: 'knowledge/server-scope.json',
      line: 3,
      column: 5,
      message: 'Not JSON.',
    });
    const held = {
      kind: 'scope' as const,
      id: 'knowledge/server-scope.json',
      path: 'knowledge/server-scope.json',
      reason: 'invalid' as const,
      modifiedMs: T0,
    };
    const g2 = { ...makeGeneration(2, [finding]), held: [held] };
    const first = linesFor(makeState(g1), {
      type: 'generation',
      change: makeChange(g1, g2),
      hosts: 0,
      sent: [],
    });
    expect(first.lines).toContain(
      `[companion] serving the last good scope from ${formatClock(T0)} beside CMP101 knowledge/server-scope.json:3:5 error: Not JSON.`,
    );
    const g3 = makeGeneration(3);
    const fixed = linesFor(first.next, {
      type: 'generation',
      change: makeChange(g2, g3),
      hosts: 0,
      sent: [],
    });
    expect(fixed.lines).toContain(
      '[companion] no longer held: scope knowledge/server-scope.json is served from the file again',
    );
  });

  it('names each host with its era, and says when it goes idle and what it listens for', () => {
    const host = makeSession({
      clientInfo: { name: 'mcpc', version: '2.0.0' },
      protocolVersion: '2026-07-28',
      era: 'modern',
    });
    const connected = linesFor(makeState(), { type: 'sessions', sessions: [host] });
    expect(connected.lines).toEqual(['[companion] host connected: mcpc 2.0.0 (http, modern 2026-07-28)']);
    const listening = linesFor(connected.next, {
      type: 'sessions',
      sessions: [
        makeSession({
          ...host,
          listen: [
            { id: 'l1', openedAt: T0, filters: { resourcesListChanged: true, resourceSubscriptions: ['x'] } },
          ],
        }),
      ],
    });
    expect(listening.lines).toEqual([
      '[companion] host mcpc 2.0.0 listens on 1 stream: resources list, 1 resource',
    ]);
    const idle = linesFor(listening.next, {
      type: 'sessions',
      sessions: [makeSession({ ...host, state: 'idle', listen: [] })],
    });
    expect(idle.lines).toEqual([
      '[companion] host mcpc 2.0.0 is idle: no open stream, no request lately',
      '[companion] host mcpc 2.0.0 has no listen stream open',
    ]);
  });
});
