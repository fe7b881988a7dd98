/**
 * Frame tests of each panel and of the whole dashboard: feed a view state, read the frame Ink would print.
 */
import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Colour support is decided when chalk loads, from the environment; a test worker has no TTY, so without this
// every frame would be plain and the NO_COLOR test below would prove nothing.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

import { CoveragePanel } from '../../src/ui/components/CoveragePanel.js';
import { allocateRows, Dashboard, planLayout } from '../../src/ui/components/Dashboard.js';
import { DiagnosticsPanel } from '../../src/ui/components/DiagnosticsPanel.js';
import { Footer } from '../../src/ui/components/Footer.js';
import { Header } from '../../src/ui/components/Header.js';
import { HostsPanel } from '../../src/ui/components/HostsPanel.js';
import { TimelinePanel } from '../../src/ui/components/TimelinePanel.js';
import { ColorContext } from '../../src/ui/components/Tint.js';
import { type DevState, reduceDevState } from '../../src/ui/dev-state.js';
import { formatClock } from '../../src/ui/format.js';
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

/** A state with a bit of everything: uncovered items, a new and an old diagnostic, a host, two timeline rows. */
function buildBusyState(): DevState {
  const catalog = makeCatalog({
    documents: ['any/intro', 'any/orphan'],
    skills: ['demo', 'lonely'],
    topics: [{ id: 'basics', scope: 'any', documents: ['any/intro', 'any/gone'], skills: ['demo'] }],
  });
  const old = makeDiagnostic({
    code: 'CMP201',
    file: 'knowledge/server-scope.json',
    line: 7,
    message: 'Old one.',
  });
  const fresh = makeDiagnostic({
    code: 'CMP403',
    file: 'skills/demo/SKILL.md',
    line: 3,
    column: 1,
    message: 'Fresh one.',
  });
  const g1 = makeGeneration(1, [old], catalog);
  const g2 = makeGeneration(2, [old, fresh], catalog);
  let state = makeState(g1, [
    makeSession({
      clientInfo: { name: 'claude-code', version: '1.2.3' },
      subscriptions: ['demo://skill/demo/SKILL.md'],
      lastNotification: { method: 'notifications/resources/updated', at: T0, generation: 2 },
      rereadSinceNotification: false,
    }),
    makeSession({ id: 'session-2' }),
  ]);
  state = reduceDevState(state, {
    type: 'generation',
    change: makeChange(g1, g2, { listChanged: true, changedPaths: ['skills/demo/SKILL.md'], rebuildMs: 2.4 }),
    updated: 1,
    hosts: 2,
  });
  state = reduceDevState(state, { type: 'batch', at: T0 + 2000, generation: 2, paths: [], waitMs: 15 });
  state = reduceDevState(state, {
    type: 'batch',
    at: T0 + 5000,
    paths: ['skills/demo/SKILL.md'],
    waitMs: 16,
  });
  return reduceDevState(state, { type: 'watcher', status: { mode: 'events', watchedPaths: 12 } });
}

describe('CoveragePanel', () => {
  it('lists uncovered items first, then each topic with its scope and what it names', () => {
    const frame = frameOf(<CoveragePanel coverage={buildBusyState().coverage} rows={10} width={100} />);
    expect(frame).toContain('Coverage  1 topic · 2 documents · 2 skills · 2 uncovered');
    const lines = frame.split('\n');
    const at = (text: string) => lines.findIndex((line) => line.includes(text));
    expect(at('! not covered: document any/orphan')).toBeGreaterThan(0);
    expect(at('! not covered: skill lonely')).toBe(at('! not covered: document any/orphan') + 1);
    expect(frame).toContain('basics [any] 2 docs, 1 skill: any/intro, any/gone (missing) · skill demo');
  });

  it('says when the scope file declares no topic', () => {
    const frame = frameOf(<CoveragePanel coverage={makeState().coverage} rows={5} width={80} />);
    expect(frame).toContain('no topics declared');
  });
});

describe('DiagnosticsPanel', () => {
  it('groups by file, puts the file with a new diagnostic first and marks it', () => {
    const frame = frameOf(
      <DiagnosticsPanel diagnostics={buildBusyState().diagnostics} rows={10} width={100} />,
    );
    expect(frame).toContain('Diagnostics  2 errors · 1 new');
    const lines = frame.split('\n').map((line) => line.replace(/[│┌┐└┘─]/g, '').trim());
    const start = lines.indexOf('skills/demo/SKILL.md');
    expect(start).toBeGreaterThan(0);
    expect(lines.slice(start, start + 4)).toEqual([
      'skills/demo/SKILL.md',
      'new error  CMP403 3:1 Fresh one.',
      'knowledge/server-scope.json',
      'error  CMP201 7 Old one.',
    ]);
  });

  it('keeps a message that holds escapes and line breaks on one line, with no escape left', () => {
    const hostile = makeDiagnostic({ message: 'line one\nline two \u001b[31mred\u001b[2J' });
    const frame = frameOf(
      <DiagnosticsPanel
        diagnostics={makeState(makeGeneration(1, [hostile])).diagnostics}
        rows={5}
        width={100}
      />,
    );
    expect(frame).not.toMatch(/\u001b/);
    expect(frame).toContain('line one line two ?[31mred?[2J');
  });

  it('says when there is nothing to fix', () => {
    const frame = frameOf(<DiagnosticsPanel diagnostics={makeState().diagnostics} rows={5} width={80} />);
    expect(frame).toContain('Diagnostics  none');
    expect(frame).toContain('✓ no problems');
  });

  it('clips to its rows and says how many were left out', () => {
    const many = Array.from({ length: 12 }, (_, i) =>
      makeDiagnostic({ line: i + 1, message: `Problem ${i + 1}.` }),
    );
    const frame = frameOf(
      <DiagnosticsPanel diagnostics={makeState(makeGeneration(1, many)).diagnostics} rows={4} width={80} />,
    );
    // The file's row, two diagnostics, and the row saying what was left out.
    expect(frame).toContain('Problem 2.');
    expect(frame).not.toContain('Problem 3.');
    expect(frame).toContain('… 10 more');
    // 4 content rows + title + 2 border rows.
    expect(frame.split('\n')).toHaveLength(7);
  });
});

describe('HostsPanel', () => {
  it('shows each host, its subscriptions and whether it re-read since the last notification', () => {
    const state = buildBusyState();
    const frame = frameOf(<HostsPanel hosts={state.hosts} url={state.url} rows={5} width={110} />);
    expect(frame).toContain('Hosts  2 connected');
    expect(frame).toContain(
      `claude-code 1.2.3 http · 1 sub · updated gen 2 at ${formatClock(T0)} ✗ not re-read`,
    );
    expect(frame).toContain('(initializing) http · 0 subs · no notification yet');
    const reread = reduceDevState(state, {
      type: 'sessions',
      sessions: [
        makeSession({
          clientInfo: { name: 'claude-code', version: '1.2.3' },
          lastNotification: { method: 'notifications/resources/list_changed', at: T0, generation: 3 },
          rereadSinceNotification: true,
        }),
      ],
    });
    expect(frameOf(<HostsPanel hosts={reread.hosts} url={state.url} rows={5} width={110} />)).toContain(
      'list_changed gen 3 at',
    );
    expect(frameOf(<HostsPanel hosts={reread.hosts} url={state.url} rows={5} width={110} />)).toContain(
      '✓ re-read',
    );
  });

  it('names the URL to connect to when no host is connected', () => {
    const state = makeState();
    const frame = frameOf(<HostsPanel hosts={state.hosts} url={state.url} rows={3} width={100} />);
    expect(frame).toContain('no host connected: point one at http://127.0.0.1:3917/mcp');
  });
});

describe('TimelinePanel', () => {
  it('shows each change newest first: files, rebuild and wait, what was sent, diagnostics delta', () => {
    const frame = frameOf(<TimelinePanel timeline={buildBusyState().timeline} rows={5} width={120} />);
    const lines = frame.split('\n');
    const same = lines.findIndex((line) => line.includes('same bytes'));
    const generation = lines.findIndex((line) => line.includes('gen 2'));
    expect(same).toBeGreaterThan(0);
    expect(generation).toBe(same + 1);
    expect(lines[same]).toContain(
      `${formatClock(T0 + 5000)} same bytes  skills/demo/SKILL.md → nothing sent`,
    );
    expect(lines[generation]).toContain(
      `${formatClock(T0 + 2000)} gen 2  skills/demo/SKILL.md  2.4 ms (+15 ms wait) → list_changed, 1 updated  +1 new`,
    );
  });

  it('invites a save when nothing happened yet', () => {
    expect(frameOf(<TimelinePanel timeline={[]} rows={3} width={80} />)).toContain(
      'save a file to see it here',
    );
  });
});

describe('Header and Footer', () => {
  it('shows the name, the URL, the root, the generation, the last rebuild and the watcher', () => {
    const state = buildBusyState();
    const frame = frameOf(<Header state={state} width={140} home="/home/ada" />);
    expect(frame).toContain('companion dev · Demo content  http://127.0.0.1:3917/mcp  watching 12 paths');
    expect(frame).toContain(
      `root ~/content · generation 2 · rebuilt ${formatClock(T0 + 2000)} in 2.4 ms: skills/demo/SKILL.md`,
    );
    const polling = reduceDevState(state, {
      type: 'watcher',
      status: { mode: 'polling', reason: 'ENOSPC: no watches' },
    });
    expect(frameOf(<Header state={polling} width={140} />)).toContain('polling: ENOSPC: no watches');
  });

  it('shows the quit keys and the last error', () => {
    expect(frameOf(<Footer width={80} />)).toBe('q quit · Ctrl+C quit');
    expect(frameOf(<Footer width={80} lastError={{ at: T0, message: 'rebuild failed' }} />)).toContain(
      `! ${formatClock(T0)} rebuild failed`,
    );
  });
});

describe('Dashboard', () => {
  it('draws every panel side by side on a wide terminal, within its height', () => {
    const frame = frameOf(<Dashboard state={buildBusyState()} width={100} height={30} />);
    const lines = frame.split('\n');
    expect(lines.length).toBeLessThanOrEqual(30);
    const row = lines.find((line) => line.includes('Coverage'));
    expect(row).toContain('Diagnostics');
    for (const title of ['Hosts', 'Timeline', 'q quit']) expect(frame).toContain(title);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(100);
  });

  it('stacks and truncates on a narrow terminal instead of wrapping', () => {
    const frame = frameOf(<Dashboard state={buildBusyState()} width={50} height={40} />);
    const lines = frame.split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(50);
    const titles = ['Coverage', 'Diagnostics', 'Hosts', 'Timeline'].map((title) =>
      lines.findIndex((line) => line.includes(title)),
    );
    expect(titles.every((index) => index > 0)).toBe(true);
    expect([...titles].sort((a, b) => a - b)).toEqual(titles);
    // The URL is longer than a panel row here: cut with an ellipsis, on one line.
    expect(frame).toContain('…');
  });

  it('drops borders and clips panels on a short terminal, never exceeding its height', () => {
    for (const [width, height] of [
      [60, 8],
      [60, 12],
      [60, 20],
      [20, 10],
    ] as const) {
      const frame = frameOf(<Dashboard state={buildBusyState()} width={width} height={height} />);
      const lines = frame.split('\n');
      expect(lines.length).toBeLessThanOrEqual(height);
      expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(width);
      expect(frame).toContain('companion dev');
      expect(frame).toContain('q quit');
    }
    expect(frameOf(<Dashboard state={buildBusyState()} width={60} height={12} />)).not.toContain('┌');
  });

  it('uses colour when allowed and no ANSI escape at all under NO_COLOR', () => {
    const state = buildBusyState();
    expect(frameOf(<Dashboard state={state} width={120} height={40} />, true)).toMatch(ANSI);
    expect(frameOf(<Dashboard state={state} width={120} height={40} />, false)).not.toMatch(ANSI);
  });
});

describe('planLayout', () => {
  it('pairs coverage with diagnostics when wide and gives the spare rows to the timeline', () => {
    expect(planLayout([4, 2, 1, 1], 120, 40)).toEqual({ wide: true, bordered: true, rows: [4, 4, 1, 23] });
  });

  it('never plans more rows than it has', () => {
    for (const height of [0, 5, 10, 17, 40]) {
      for (const width of [30, 80, 120]) {
        const layout = planLayout([30, 30, 5, 20], width, height);
        const bands = layout.wide
          ? [layout.rows[0] ?? 0, layout.rows[2] ?? 0, layout.rows[3] ?? 0]
          : layout.rows;
        const overhead = bands.length * (layout.bordered ? 3 : 1);
        expect(bands.reduce((sum, rows) => sum + rows, 0) + overhead + 3).toBeLessThanOrEqual(
          Math.max(height, overhead + 3),
        );
      }
    }
  });

  it('shares rows in turn and never gives a panel more than it wants', () => {
    expect(allocateRows([1, 10, 2], 6)).toEqual([1, 3, 2]);
    expect(allocateRows([1, 1], 10)).toEqual([1, 1]);
    expect(allocateRows([5, 5], 0)).toEqual([0, 0]);
  });
});
