import { describe, expect, it } from 'vitest';
import { createCatalogStore } from '../../src/fs/catalog-store.js';
import { selectHostHeard } from '../../src/mcp/listen.js';
import { createSessionRegistry } from '../../src/mcp/session-registry.js';
import {
  buildCoverageView,
  buildHostSent,
  createDevModel,
  type DevEvent,
  type HostSent,
  reduceDevState,
  TIMELINE_LIMIT,
} from '../../src/ui/dev-state.js';
import { formatMethod, formatSent, formatSentTo } from '../../src/ui/format.js';
import { connectInMemory, waitFor } from '../helpers/mcp-client.js';
import { copyFixture } from '../helpers/temp-project.js';
import {
  makeCatalog,
  makeChange,
  makeDiagnostic,
  makeGeneration,
  makeSession,
  makeState,
  makeTimelineEntry,
  T0,
} from './view-states.js';

function generationEvent(
  change: ReturnType<typeof makeChange>,
  sent: readonly HostSent[] = [],
  hosts = 0,
): DevEvent {
  return { type: 'generation', change, hosts, sent };
}

/** A host that was sent list_changed and `updated` resource updates. */
function sentTo(name: string, updated = 0): HostSent {
  return { id: name, name, listChanged: true, promptsListChanged: false, updated };
}

describe('reduceDevState: diagnostics', () => {
  const kept = makeDiagnostic({
    code: 'CMP201',
    file: 'knowledge/server-scope.json',
    line: 4,
    message: 'kept',
  });
  const fixed = makeDiagnostic({ code: 'CMP403', line: 3, message: 'fixed soon' });
  const added = makeDiagnostic({ code: 'CMP404', severity: 'warning', line: 2, message: 'added' });

  it('marks nothing new in the first generation', () => {
    const state = makeState(makeGeneration(1, [kept, fixed]));
    expect(state.diagnostics.fresh).toBe(0);
    expect(state.diagnostics.groups.flatMap((g) => g.items).every((item) => !item.isNew)).toBe(true);
  });

  it('marks what the previous generation lacked as new and drops what was fixed', () => {
    const g1 = makeGeneration(1, [kept, fixed]);
    const g2 = makeGeneration(2, [kept, added]);
    const state = reduceDevState(makeState(g1), generationEvent(makeChange(g1, g2)));
    const items = state.diagnostics.groups.flatMap((group) => group.items);
    // Errors first within a file.
    expect(items.map((item) => [item.diagnostic.message, item.isNew])).toEqual([
      ['kept', false],
      ['added', true],
    ]);
    expect(state.diagnostics).toMatchObject({ errors: 1, warnings: 1, infos: 0, fresh: 1 });
    expect(state.timeline[0]).toMatchObject({ generation: 2, added: 1, fixed: 1 });
  });

  it('puts files with an error first, then the rest by path', () => {
    const a = makeDiagnostic({ file: 'a.md', severity: 'warning', message: 'a' });
    const b = makeDiagnostic({ file: 'b.md', severity: 'error', message: 'b' });
    const c = makeDiagnostic({ file: 'c.md', severity: 'warning', message: 'c' });
    const g1 = makeGeneration(1, [a, b]);
    const g2 = makeGeneration(2, [a, b, c]);
    const state = reduceDevState(makeState(g1), generationEvent(makeChange(g1, g2)));
    expect(state.diagnostics.groups.map((group) => group.file)).toEqual(['b.md', 'a.md', 'c.md']);
  });

  it('treats a diagnostic that only moved column as the same one, and a moved line as new', () => {
    const before = makeDiagnostic({ line: 3, column: 1 });
    const g1 = makeGeneration(1, [before]);
    const sameLine = reduceDevState(
      makeState(g1),
      generationEvent(makeChange(g1, makeGeneration(2, [{ ...before, column: 9 }]))),
    );
    expect(sameLine.diagnostics.fresh).toBe(0);
    const otherLine = reduceDevState(
      makeState(g1),
      generationEvent(makeChange(g1, makeGeneration(2, [{ ...before, line: 4 }]))),
    );
    expect(otherLine.diagnostics.fresh).toBe(1);
  });

  it('groups project-wide diagnostics under the empty file', () => {
    const { file: _omitted, ...projectWide } = makeDiagnostic();
    const project = makeState(makeGeneration(1, [projectWide]));
    expect(project.diagnostics.groups.map((group) => group.file)).toEqual(['']);
  });
});

describe('buildCoverageView', () => {
  it('lists every topic with what it names and every served item no topic names', () => {
    const view = buildCoverageView(
      makeCatalog({
        documents: ['any/b', 'any/a', 'any/orphan'],
        skills: ['lonely', 'used'],
        topics: [{ id: 'basics', scope: 'any', documents: ['any/a', 'any/b', 'any/gone'], skills: ['used'] }],
      }),
    );
    expect(view.topics).toEqual([
      {
        id: 'basics',
        title: 'Topic 0',
        scope: 'any',
        documents: { ids: ['any/a', 'any/b', 'any/gone'], missing: new Set(['any/gone']) },
        skills: { ids: ['used'], missing: new Set() },
      },
    ]);
    expect(view.uncovered).toEqual([
      { kind: 'document', id: 'any/orphan' },
      { kind: 'skill', id: 'lonely' },
    ]);
    expect(view).toMatchObject({ documents: 3, skills: 2 });
  });

  it('leaves a draft served by dev --drafts out of what is uncovered and out of the listing meter', () => {
    const published = makeCatalog({ skills: ['used'], topics: [{ skills: ['used'] }] });
    const withDraft = {
      ...published,
      skills: [
        ...published.skills,
        { ...published.skills[0]!, id: 'wip', description: 'x'.repeat(500), draft: true as const },
      ],
    };
    const view = buildCoverageView(withDraft);
    expect(view.uncovered).toEqual([]);
    expect(view.meters[0]).toEqual(buildCoverageView(published).meters[0]);
  });

  it('follows a generation whose catalog changed, and keeps the view when only diagnostics did', () => {
    const covered = makeCatalog({ documents: ['any/a'], topics: [{ documents: ['any/a'] }] });
    const g1 = makeGeneration(1, [], covered);
    const state = makeState(g1);
    const sameCatalog = reduceDevState(
      state,
      generationEvent(makeChange(g1, makeGeneration(2, [makeDiagnostic()], covered))),
    );
    expect(sameCatalog.coverage).toBe(state.coverage);
    const grown = makeCatalog({ documents: ['any/a', 'any/new'], topics: [{ documents: ['any/a'] }] });
    const next = reduceDevState(state, generationEvent(makeChange(g1, makeGeneration(2, [], grown))));
    expect(next.coverage.uncovered).toEqual([{ kind: 'document', id: 'any/new' }]);
  });

  it('keeps the view when an edit left the topics and the served ids as they were', () => {
    const covered = makeCatalog({ documents: ['any/a', 'any/b'], topics: [{ documents: ['any/a'] }] });
    const g1 = makeGeneration(1, [], covered);
    const state = makeState(g1);
    // What an incremental rebuild hands over after a body edit: the same coverage, new entry objects.
    const edited = {
      ...covered,
      documents: covered.documents.map((d) => ({ ...d, title: `${d.title}!` })),
    };
    const afterEdit = reduceDevState(state, generationEvent(makeChange(g1, makeGeneration(2, [], edited))));
    expect(afterEdit.coverage).toBe(state.coverage);
    const { documents, skills } = makeCatalog({ documents: ['any/a', 'any/b', 'any/c'], skills: ['s'] });
    const grown = { ...covered, documents, skills };
    const afterAdd = reduceDevState(state, generationEvent(makeChange(g1, makeGeneration(2, [], grown))));
    expect(afterAdd.coverage.uncovered).toEqual([
      { kind: 'document', id: 'any/b' },
      { kind: 'document', id: 'any/c' },
      { kind: 'skill', id: 's' },
    ]);
  });
});

describe('reduceDevState: timeline', () => {
  it('keeps the newest entries first and caps them', () => {
    let state = makeState();
    let previous = makeGeneration(1);
    for (let number = 2; number <= TIMELINE_LIMIT + 6; number++) {
      const current = makeGeneration(number);
      state = reduceDevState(
        state,
        generationEvent(
          makeChange(previous, current, { listChanged: true }),
          [sentTo('a', 1), sentTo('b')],
          2,
        ),
      );
      previous = current;
    }
    expect(state.timeline).toHaveLength(TIMELINE_LIMIT);
    expect(state.timeline[0]).toMatchObject({
      generation: TIMELINE_LIMIT + 6,
      listChanged: true,
      updated: 1,
      hosts: 2,
    });
    expect(state.timeline.at(-1)?.generation).toBe(7);
    expect(state.generation).toBe(TIMELINE_LIMIT + 6);
    expect(state.lastRebuild).toEqual({
      generation: TIMELINE_LIMIT + 6,
      at: T0 + (TIMELINE_LIMIT + 6) * 1000,
      ms: 3,
      paths: ['skills/a/SKILL.md'],
    });
  });

  it("adds the watcher's wait to the entry of the generation its batch published", () => {
    const g1 = makeGeneration(1);
    const g2 = makeGeneration(2);
    let state = reduceDevState(makeState(g1), generationEvent(makeChange(g1, g2)));
    state = reduceDevState(state, { type: 'batch', at: T0, generation: 2, paths: ['x'], waitMs: 15 });
    expect(state.timeline).toHaveLength(1);
    expect(state.timeline[0]).toMatchObject({ generation: 2, waitMs: 15, rebuildMs: 3 });
  });

  it('records a batch that published nothing as a same-bytes entry', () => {
    const state = reduceDevState(makeState(), {
      type: 'batch',
      at: T0,
      paths: ['skills/a/SKILL.md'],
      waitMs: 15,
    });
    expect(state.timeline).toEqual([
      makeTimelineEntry({ files: [{ path: 'skills/a/SKILL.md', kind: 'saved' }], waitMs: 15 }),
    ]);
    const unchanged = makeState();
    expect(reduceDevState(unchanged, { type: 'batch', at: T0, paths: [] })).toBe(unchanged);
  });
});

describe('reduceDevState: hosts, watcher, errors', () => {
  it('shows each session with its client, subscriptions and re-read state', () => {
    const state = reduceDevState(makeState(), {
      type: 'sessions',
      sessions: [
        makeSession({
          clientInfo: { name: 'claude-code', version: '1.2.3' },
          subscriptions: ['demo://guides', 'demo://skill/a/SKILL.md'],
          lastNotification: { method: 'notifications/resources/list_changed', at: T0, generation: 4 },
          rereadSinceNotification: true,
        }),
      ],
    });
    expect(state.hosts).toEqual([
      {
        id: 'session-1',
        transport: 'http',
        name: 'claude-code',
        version: '1.2.3',
        state: 'active',
        lastActivityAt: T0,
        listen: [],
        subscriptions: 2,
        subscribed: ['demo://guides', 'demo://skill/a/SKILL.md'],
        connectedAt: T0,
        lastNotification: { method: 'notifications/resources/list_changed', at: T0, generation: 4 },
        reread: true,
      },
    ]);
  });

  it('records what each host was sent, as its door recorded it, in the one event of the save', () => {
    const registry = createSessionRegistry({ now: () => T0 });
    const vscode = registry.open({ id: 'session-1', transport: 'http' });
    vscode.setClientInfo({ name: 'vscode', version: '1.132' });
    const claude = registry.open({ id: 'session-2', transport: 'stdio' });
    claude.setClientInfo({ name: 'claude-code', version: '2.1.0' });
    registry.open({ id: 'session-3', transport: 'stdio' });
    vscode.recordHeard(4, { listChanged: false, promptsListChanged: true, updatedUris: [] });
    claude.recordHeard(4, {
      listChanged: true,
      promptsListChanged: false,
      updatedUris: ['demo://a', 'demo://b'],
    });
    const g3 = makeGeneration(3);
    const g4 = makeGeneration(4);
    const change = makeChange(g3, g4, { listChanged: true });
    const state = reduceDevState(
      makeState(g3),
      generationEvent({ ...change, promptsListChanged: true }, buildHostSent(registry.heard(4)), 3),
    );
    const entry = state.timeline[0]!;
    // Sorted by name; a prompts list_changed is that, never a resource update; the one silent host is left out.
    expect(entry.sent).toEqual([
      {
        id: 'session-2',
        name: 'claude-code 2.1.0',
        listChanged: true,
        promptsListChanged: false,
        updated: 2,
      },
      { id: 'session-1', name: 'vscode 1.132', listChanged: false, promptsListChanged: true, updated: 0 },
    ]);
    expect(entry).toMatchObject({ generation: 4, updated: 2, hosts: 3 });
    expect(formatSentTo(entry)).toBe(
      'claude-code 2.1.0: list_changed, 2 updated · vscode 1.132: prompts list_changed',
    );
    expect(formatSent(entry)).toBe('list_changed, prompts list_changed, 2 updated');
    expect(formatMethod('notifications/prompts/list_changed')).toBe('prompts list_changed');
  });

  it('follows the watcher mode and keeps the last error', () => {
    let state = makeState();
    expect(state.watcher.mode).toBe('starting');
    state = reduceDevState(state, { type: 'watcher', status: { mode: 'polling', reason: 'ENOSPC' } });
    expect(state.watcher).toEqual({ mode: 'polling', reason: 'ENOSPC' });
    state = reduceDevState(state, { type: 'error', at: T0, message: 'boom' });
    expect(state.lastError).toEqual({ at: T0, message: 'boom' });
  });
});

describe('createDevModel', () => {
  it('follows a real store and registry, and stops when closed', () => {
    const project = copyFixture('fs-basic');
    try {
      const store = createCatalogStore({ root: project.root });
      const sessions = createSessionRegistry({ now: () => T0 });
      // Flushed by hand, after the turn: the doors below record what they send before the model reduces.
      let pending: (() => void) | undefined;
      const settle = (): void => {
        const flush = pending;
        pending = undefined;
        flush?.();
      };
      const model = createDevModel({
        store,
        sessions,
        url: 'http://127.0.0.1:1/mcp',
        root: store.root,
        now: () => T0,
        defer: (flush) => {
          pending = flush;
        },
      });
      const events: string[] = [];
      const stop = model.subscribe((_state, _previous, event) => events.push(event.type));
      expect(model.getState()).toMatchObject({ generation: 1, watcher: { mode: 'starting' } });
      expect(model.getState().coverage.topics.map((topic) => topic.id)).toEqual(['basics']);

      const session = sessions.open({ id: 's1', transport: 'http' });
      session.setClientInfo({ name: 'inspector', version: '0.1.0' });
      const skillUri = store.current().catalog.skills[0]?.uri;
      expect(skillUri).toBeDefined();
      session.addSubscription(skillUri!);
      // The session's door, subscribed after the model as every door is, recording by the one rule.
      store.subscribe((change) =>
        session.recordHeard(change.current.number, selectHostHeard('legacy', session, change)),
      );
      settle();

      project.write('skills/demo/SKILL.md', '---\nname: demo\ndescription: Changed.\n---\n\n# Demo\n');
      store.applyChanges(['skills/demo/SKILL.md']);
      settle();
      const state = model.getState();
      expect(state.generation).toBe(2);
      expect(state.timeline[0]).toMatchObject({ generation: 2, updated: 1, hosts: 1 });
      expect(state.timeline[0]!.sent).toEqual([
        {
          id: 's1',
          name: 'inspector 0.1.0',
          listChanged: state.timeline[0]!.listChanged,
          promptsListChanged: false,
          updated: 1,
        },
      ]);
      expect(state.hosts).toMatchObject([{ name: 'inspector', subscriptions: 1 }]);

      model.recordBatch(undefined, ['skills/demo/SKILL.md'], 12);
      model.recordWatcherStatus({ mode: 'events', watchedPaths: 9 });
      model.recordError(new Error('first line\nsecond line'));
      settle();
      expect(model.getState().lastError?.message).toBe('first line');
      // The last `sessions` is the host's last notification, for the hosts view; the save itself is one event.
      expect(events).toEqual([
        'sessions',
        'sessions',
        'sessions',
        'generation',
        'sessions',
        'batch',
        'watcher',
        'error',
      ]);

      stop();
      model.close();
      project.write('skills/demo/SKILL.md', '---\nname: demo\ndescription: Again.\n---\n');
      store.applyChanges(['skills/demo/SKILL.md']);
      settle();
      expect(model.getState().generation).toBe(2);
    } finally {
      project.cleanup();
    }
  });

  it('reduces events only after the turn that published them: hosts hear first, in arrival order', async () => {
    const project = copyFixture('fs-basic');
    try {
      const store = createCatalogStore({ root: project.root });
      const sessions = createSessionRegistry({ now: () => T0 });
      const model = createDevModel({ store, sessions, url: 'u', root: store.root });
      const seen: string[] = [];
      model.subscribe((state, _previous, event) => seen.push(`${event.type}:${state.generation}`));
      // Subscribed after the model, as every MCP session is: it must still run before the model does any work.
      store.subscribe((change) => seen.push(`host:${change.current.number}`));
      project.write('skills/demo/SKILL.md', '---\nname: demo\ndescription: Changed.\n---\n\n# Demo\n');
      store.applyChanges(['skills/demo/SKILL.md']);
      model.recordError('after the save');
      expect(seen).toEqual(['host:2']);
      expect(model.getState().generation).toBe(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen).toEqual(['host:2', 'generation:2', 'error:2']);
      model.close();
    } finally {
      project.cleanup();
    }
  });

  it('hears one save as one event carrying what a real connected host was sent', async () => {
    const project = copyFixture('fs-basic');
    const store = createCatalogStore({ root: project.root });
    const sessions = createSessionRegistry({ now: () => T0 });
    const model = createDevModel({ store, sessions, url: 'u', root: store.root });
    const connection = await connectInMemory(store, { sessions });
    try {
      const skillUri = store.current().catalog.skills[0]!.uri;
      await connection.client.subscribeResource({ uri: skillUri });
      await new Promise((resolve) => setImmediate(resolve));
      const events: DevEvent[] = [];
      model.subscribe((_state, _previous, event) => events.push(event));

      project.write('skills/demo/SKILL.md', '---\nname: demo\ndescription: Changed.\n---\n\n# Demo\n');
      store.applyChanges(['skills/demo/SKILL.md']);
      await waitFor(() => connection.notifications.length >= 2, 3000, 'the host to hear the save');
      const generations = events.filter((event) => event.type === 'generation');
      expect(generations).toHaveLength(1);
      const heard = connection.notifications.filter((n) => n.method === 'notifications/resources/updated');
      expect(generations[0]).toMatchObject({
        hosts: 1,
        sent: [{ id: 'in-memory', name: 'in-memory 1.0.0', listChanged: true, updated: heard.length }],
      });
      expect(heard).toEqual([{ method: 'notifications/resources/updated', uri: skillUri }]);
      expect(model.getState().timeline[0]).toMatchObject({ generation: 2, updated: 1, hosts: 1 });
    } finally {
      model.close();
      await connection.close();
      project.cleanup();
    }
  });

  it('shows a watcher that already polls, and one that is not ready yet as starting', () => {
    const project = copyFixture('fs-basic');
    try {
      const store = createCatalogStore({ root: project.root });
      const base = { store, sessions: createSessionRegistry(), url: 'u', root: store.root };
      const polling = createDevModel({
        ...base,
        watcher: { status: () => ({ mode: 'polling', reason: 'forced' }) },
      });
      expect(polling.getState().watcher).toEqual({ mode: 'polling', reason: 'forced' });
      const starting = createDevModel({ ...base, watcher: { status: () => ({ mode: 'events' }) } });
      expect(starting.getState().watcher).toEqual({ mode: 'starting' });
    } finally {
      project.cleanup();
    }
  });
});
