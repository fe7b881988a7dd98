/**
 * Frame tests of each view and of the whole dashboard: feed a view state, read the frame Ink would print, at
 * 80 and at 120 columns.
 */
import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Colour support is decided when chalk loads, from the environment; a test worker has no TTY, so without this
// every frame would be plain and the NO_COLOR test below would prove nothing.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

import type { HeldItem } from '../../src/core/types.js';
import { Dashboard } from '../../src/ui/components/Dashboard.js';
import type { ViewName } from '../../src/ui/components/Header.js';
import { ColorContext } from '../../src/ui/components/Tint.js';
import { type DevState, reduceDevState } from '../../src/ui/dev-state.js';
import { formatClock } from '../../src/ui/format.js';
import { CoverageView } from '../../src/ui/views/CoverageView.js';
import { HostsView } from '../../src/ui/views/HostsView.js';
import { ProblemsView } from '../../src/ui/views/ProblemsView.js';
import { TimelineView } from '../../src/ui/views/TimelineView.js';
import {
  makeCatalog,
  makeChange,
  makeDiagnostic,
  makeGeneration,
  makeSession,
  makeState,
  T0,
} from './view-states.js';

const ANSI = /\u001b\[/;

const instances: { unmount(): void }[] = [];
afterEach(() => {
  for (const instance of instances.splice(0)) instance.unmount();
});

/** Renders `tree` with colour on or off and returns the last frame. */
function frameOf(tree: ReactElement, color = false): string {
  const instance = render(<ColorContext.Provider value={color}>{tree}</ColorContext.Provider>);
  instances.push(instance);
  return instance.lastFrame() ?? '';
}

const longMessage =
  'The front matter does not parse: Nested mappings are not allowed in compact mappings — a value containing ": " must be quoted.';
const longHint =
  'Fix the YAML at the line shown; quote values that contain ": " or start with a special character.';

/** A state with a bit of everything: uncovered items, new and old findings, a held scope, two hosts, a save. */
function buildBusyState(): DevState {
  const catalog = makeCatalog({
    documents: ['any/intro', 'any/orphan'],
    skills: ['demo', 'lonely'],
    topics: [{ id: 'basics', scope: 'any', documents: ['any/intro', 'any/gone'], skills: ['demo'] }],
  });
  const old = makeDiagnostic({
    code: 'CMP201',
    severity: 'warning',
    file: 'knowledge/documents/any/orphan.md',
    line: 1,
    message: 'Old one.',
  });
  const fresh = makeDiagnostic({
    code: 'CMP403',
    file: 'skills/demo/SKILL.md',
    line: 3,
    column: 1,
    message: longMessage,
    hint: longHint,
  });
  const scope = makeDiagnostic({
    code: 'CMP101',
    file: 'knowledge/server-scope.json',
    line: 14,
    column: 3,
    message: 'The scope file is not valid JSON: a trailing comma.',
  });
  const held: HeldItem = {
    kind: 'scope',
    id: 'knowledge/server-scope.json',
    path: 'knowledge/server-scope.json',
    reason: 'invalid',
    modifiedMs: T0 - 60_000,
  };
  const g1 = makeGeneration(1, [old], catalog);
  const g2 = { ...makeGeneration(2, [old, fresh, scope], catalog), held: [held] };
  const claude = makeSession({
    id: 'session-1',
    clientInfo: { name: 'claude-code', version: '1.2.3' },
    subscriptions: ['demo://skill/demo/SKILL.md'],
    protocolVersion: '2026-07-28',
    era: 'modern',
    listen: [
      { id: 'l1', openedAt: T0, filters: { resourcesListChanged: true, resourceSubscriptions: ['a', 'b'] } },
    ],
  });
  const vscode = makeSession({
    id: 'session-2',
    clientInfo: { name: 'vscode', version: '1.99.0' },
    protocolVersion: '2025-11-25',
    era: 'legacy',
    state: 'idle',
    lastActivityAt: T0 - 20_000,
  });
  let state = makeState(g1, [claude, vscode]);
  state = reduceDevState(state, {
    type: 'generation',
    change: {
      ...makeChange(g1, g2, { listChanged: true, changedPaths: ['skills/demo/SKILL.md'], rebuildMs: 2.4 }),
      files: [{ path: 'skills/demo/SKILL.md', kind: 'saved' }],
    },
    hosts: 2,
    // What the doors recorded sending each host for generation 2.
    sent: [
      { id: claude.id, name: 'claude-code 1.2.3', listChanged: true, promptsListChanged: false, updated: 1 },
      { id: vscode.id, name: 'vscode 1.99.0', listChanged: true, promptsListChanged: false, updated: 0 },
    ],
  });
  // Each host's last notification, as the registry reports it once the doors recorded them.
  const sent = (session: typeof claude, method: string, uri?: string) =>
    makeSession({
      ...session,
      lastNotification: { method, at: T0 + 2000, generation: 2, ...(uri === undefined ? {} : { uri }) },
    });
  const claudeUpdated = sent(claude, 'notifications/resources/updated', 'demo://skill/demo/SKILL.md');
  const vscodeList = sent(vscode, 'notifications/resources/list_changed');
  state = reduceDevState(state, { type: 'sessions', sessions: [claudeUpdated, vscodeList] });
  state = reduceDevState(state, { type: 'batch', at: T0 + 2000, generation: 2, paths: [], waitMs: 15 });
  return reduceDevState(state, { type: 'watcher', status: { mode: 'events', watchedPaths: 12 } });
}

function dashboard(state: DevState, view: ViewName, width: number, height: number, selected = 0): string {
  return frameOf(
    <Dashboard
      state={state}
      view={view}
      selected={selected}
      enterHint="Enter opens it in vim"
      width={width}
      height={height}
    />,
  );
}

describe('the problems view', () => {
  it('groups by file with errors first, expands the selected finding with its whole message and hint', () => {
    const frame = frameOf(
      <ProblemsView
        diagnostics={buildBusyState().diagnostics}
        selected={1}
        enterHint="Enter opens it in vim"
        width={80}
        rows={20}
      />,
    );
    const lines = frame.split('\n').map((line) => line.trimEnd());
    expect(lines[0]).toBe('2 errors · 1 warning · 2 new');
    const at = (text: string) => lines.findIndex((line) => line.includes(text));
    // Files with an error before the file with only a warning.
    expect(at('knowledge/server-scope.json')).toBeLessThan(at('knowledge/documents/any/orphan.md'));
    expect(at('skills/demo/SKILL.md')).toBeLessThan(at('knowledge/documents/any/orphan.md'));
    // The held file says what hosts get meanwhile.
    expect(lines[at('knowledge/server-scope.json')]).toContain(
      `held: serving the last good scope from ${formatClock(T0 - 60_000)}`,
    );
    // The selected (second) finding is expanded: header, whole message wrapped, hint, what Enter does.
    const head = at('▸ ✗ error new CMP403');
    expect(head).toBeGreaterThan(0);
    expect(lines[head]).toContain('skills/demo/SKILL.md:3:1');
    const block = lines
      .slice(head + 1, head + 8)
      .map((line) => line.trim())
      .join(' ');
    expect(block).toContain(longMessage);
    expect(block).toContain(`hint: ${longHint}`);
    expect(block).toContain('Enter opens it in vim');
    // Every row fits 80 columns: wrapped, never cut mid-message for the selected finding.
    expect(lines.every((line) => line.length <= 80)).toBe(true);
    // The others stay one row each.
    expect(frame).toContain('  ✗ new 14:3 CMP101 The scope file is not valid JSON: a trailing comma.');
  });

  it('scrolls to keep the selected finding in view on a short terminal', () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      makeDiagnostic({
        code: 'CMP304',
        file: `knowledge/documents/any/d${String(i).padStart(2, '0')}.md`,
        line: 1,
        message: `Doc ${i}.`,
      }),
    );
    const state = makeState(makeGeneration(1, many));
    const frame = frameOf(
      <ProblemsView diagnostics={state.diagnostics} selected={25} enterHint="Enter" width={80} rows={12} />,
    );
    expect(frame).toContain('▸ ✗ error CMP304');
    expect(frame).toContain('knowledge/documents/any/d25.md:1');
    expect(frame).toMatch(/… \d+ rows above/);
    expect(frame.split('\n')).toHaveLength(12);
  });

  it('keeps a message that holds escapes and line breaks on one line, with no escape left', () => {
    const hostile = makeDiagnostic({ message: 'line one\nline two \u001b[31mred\u001b[2J' });
    const frame = frameOf(
      <ProblemsView
        diagnostics={makeState(makeGeneration(1, [hostile])).diagnostics}
        selected={5}
        enterHint=""
        width={100}
        rows={5}
      />,
    );
    expect(frame).not.toMatch(/\u001b/);
    expect(frame).toContain('line one line two ?[31mred?[2J');
  });
});

describe('the hosts view', () => {
  it('shows each host with its era, state, subscriptions, listen streams and last notification', () => {
    const frame = frameOf(<HostsView hosts={buildBusyState().hosts} url="u" width={120} rows={12} />);
    expect(frame).toContain('2 connected (1 idle)');
    expect(frame).toContain('claude-code 1.2.3 http · modern 2026-07-28 · active');
    expect(frame).toContain('1 subscription: demo://skill/demo/SKILL.md');
    expect(frame).toContain(`listening since ${formatClock(T0)}: resources list, 2 resources`);
    expect(frame).toMatch(/updated gen 2 at \d\d:\d\d:\d\d ✗ not re-read/);
    expect(frame).toContain(
      `vscode 1.99.0 http · legacy 2025-11-25 · idle since ${formatClock(T0 - 20_000)}`,
    );
  });

  it('names the URL when no host is connected', () => {
    expect(frameOf(<HostsView hosts={[]} url="http://127.0.0.1:1/mcp" width={80} rows={3} />)).toContain(
      'no host connected: point one at http://127.0.0.1:1/mcp',
    );
  });
});

describe('the timeline view', () => {
  it('says what happened to each file and what each host was sent, one row per batch', () => {
    const frame = frameOf(<TimelineView timeline={buildBusyState().timeline} width={220} rows={5} />);
    expect(frame).toContain(
      'gen 2  saved skills/demo/SKILL.md  2.4 ms +15 ms wait → claude-code 1.2.3: list_changed, 1 updated · vscode 1.99.0: list_changed',
    );
    expect(frame).toContain('+2 new');
    expect(frame).toContain('1 held');
  });

  it('tells renames, deletions and additions apart', () => {
    const g1 = makeGeneration(1);
    const g2 = makeGeneration(2);
    const state = reduceDevState(makeState(g1), {
      type: 'generation',
      change: {
        ...makeChange(g1, g2, { changedPaths: ['a.md', 'b.md', 'c.md', 'd.md'] }),
        files: [
          { path: 'b.md', kind: 'renamed', from: 'a.md' },
          { path: 'c.md', kind: 'deleted' },
          { path: 'd.md', kind: 'added' },
        ],
      },
      hosts: 0,
      sent: [],
    });
    const frame = frameOf(<TimelineView timeline={state.timeline} width={120} rows={3} />);
    expect(frame).toContain('added d.md; renamed a.md → b.md; deleted c.md');
    expect(frame).toContain('→ nothing sent');
  });
});

describe('the coverage view', () => {
  it('shows the meters, uncovered items first, then each topic', () => {
    const frame = frameOf(<CoverageView coverage={buildBusyState().coverage} width={100} rows={12} />);
    expect(frame).toContain('Coverage  1 topic · 2 documents · 2 skills · 2 uncovered');
    expect(frame).toMatch(/skill listing +\[[█·]+\] {2}18 \/ 3,970/);
    expect(frame).toMatch(/instructions +\[[█·]+\] {2}0 \/ 2,048/);
    expect(frame).toContain('! not covered by any topic: document any/orphan');
    expect(frame).toContain('basics [any] 2 docs, 1 skill: any/intro, any/gone (missing) · skill demo');
  });
});

describe('Dashboard', () => {
  it('fits 80×24 and shows more, never less, at 120×40', () => {
    const state = buildBusyState();
    for (const view of ['overview', 'problems', 'coverage', 'hosts', 'timeline'] as const) {
      const small = dashboard(state, view, 80, 23).split('\n');
      const large = dashboard(state, view, 120, 39).split('\n');
      expect(small.length, view).toBeLessThanOrEqual(23);
      expect(
        small.every((line) => line.length <= 80),
        view,
      ).toBe(true);
      expect(large.length, view).toBeLessThanOrEqual(39);
      // Every row of the small frame is, whole or cut, the start of a row of the large one.
      for (const line of small) {
        const text = line.replace(/…$/, '').trimEnd();
        if (text === '' || text.startsWith('… ')) continue;
        expect(
          large.some((row) => row.startsWith(text)),
          `${view}: ${text}`,
        ).toBe(true);
      }
    }
  });

  it('says on the overview what is held, beside the finding, and what the last save sent', () => {
    const frame = dashboard(buildBusyState(), 'overview', 120, 39);
    expect(frame).toContain('✗ 2 errors · 1 warning · 2 new · 1 held at last good');
    expect(frame).toContain(
      `⏸ serving the last good scope from ${formatClock(T0 - 60_000)} — CMP101 The scope file is not valid JSON`,
    );
    expect(frame).toContain(
      'hosts: 2 connected (1 idle) — claude-code 1.2.3 (http, modern), vscode 1.99.0 (http, legacy, idle)',
    );
    expect(frame).toMatch(
      /last save \d\d:\d\d:\d\d: saved skills\/demo\/SKILL\.md → claude-code 1\.2\.3: list_changed, 1 updated/,
    );
  });

  it('marks the current view in the tabs and says the keys', () => {
    const frame = dashboard(buildBusyState(), 'problems', 100, 30);
    expect(frame).toContain('[2 Problems (3)]');
    expect(frame).toContain('4 Hosts (2)');
    expect(frame).toContain('↑↓ select · Enter open');
  });

  it('uses colour when allowed and no ANSI escape at all under NO_COLOR', () => {
    const tree = (
      <Dashboard state={buildBusyState()} view="overview" selected={0} enterHint="" width={100} height={30} />
    );
    expect(frameOf(tree, true)).toMatch(ANSI);
    expect(frameOf(tree, false)).not.toMatch(ANSI);
  });
});
