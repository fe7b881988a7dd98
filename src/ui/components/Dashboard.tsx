/**
 * The whole screen for one view state at one terminal size: the header with the view tabs, the current view
 * (or the key help), and the footer with the keys. Pure: no hooks on streams, so tests render it at any size.
 * Every row truncates rather than wraps, so the layout is the same at every width and a wider terminal shows
 * more of each row.
 */
import { Box } from 'ink';
import { useMemo } from 'react';
import type { DevState } from '../dev-state.js';
import { CoverageView } from '../views/CoverageView.js';
import { HelpView } from '../views/HelpView.js';
import { HostsView } from '../views/HostsView.js';
import { OverviewView } from '../views/OverviewView.js';
import { listFindings, ProblemsView } from '../views/ProblemsView.js';
import { TimelineView } from '../views/TimelineView.js';
import { Footer } from './Footer.js';
import { Header, type ViewName } from './Header.js';

/** Header (2 rows) and footer (1 row). */
export const CHROME_ROWS = 3;

export interface DashboardProps {
  readonly state: DevState;
  readonly view: ViewName;
  /** Index of the selected finding in the problems view. */
  readonly selected: number;
  readonly help?: boolean;
  /** What Enter does on a finding, e.g. `Enter opens it in vim`. */
  readonly enterHint: string;
  /** A message for the footer (where an opened file went). */
  readonly message?: string;
  /** Shown as `~` in the root. */
  readonly home?: string;
  readonly width: number;
  /** Rows the dashboard may use. Keep it below the terminal's height, or Ink redraws the whole screen. */
  readonly height: number;
}

const VIEW_KEYS: Readonly<Record<ViewName, string>> = {
  overview: '1–5 views · ? keys',
  problems: '↑↓ select · Enter open · 1–5 views · ? keys',
  coverage: '1–5 views · ? keys',
  hosts: '1–5 views · ? keys',
  timeline: '1–5 views · ? keys',
};

export function Dashboard({
  state,
  view,
  selected,
  help,
  enterHint,
  message,
  home,
  width,
  height,
}: DashboardProps) {
  const rows = Math.max(1, height - CHROME_ROWS);
  const problems = listFindings(state.diagnostics).length;
  const hosts = state.hosts.length;
  const uncovered = state.coverage.uncovered.length;
  // The same object while the counts stay, so the memoized header is not drawn again on every save.
  const counts = useMemo(() => ({ problems, hosts, uncovered }), [problems, hosts, uncovered]);
  return (
    <Box flexDirection="column" width={width}>
      <Header
        name={state.name}
        url={state.url}
        watcher={state.watcher}
        counts={counts}
        view={view}
        width={width}
      />
      {help ? (
        <HelpView width={width} rows={rows} />
      ) : view === 'overview' ? (
        <OverviewView state={state} width={width} rows={rows} {...(home === undefined ? {} : { home })} />
      ) : view === 'problems' ? (
        <ProblemsView
          diagnostics={state.diagnostics}
          selected={selected}
          enterHint={enterHint}
          width={width}
          rows={rows}
        />
      ) : view === 'coverage' ? (
        <CoverageView coverage={state.coverage} width={width} rows={rows} />
      ) : view === 'hosts' ? (
        <HostsView hosts={state.hosts} url={state.url} width={width} rows={rows} />
      ) : (
        <TimelineView timeline={state.timeline} width={width} rows={rows} />
      )}
      <Footer
        keys={help ? 'Esc or ? close' : VIEW_KEYS[view]}
        width={width}
        {...(message === undefined ? {} : { message })}
        {...(state.lastError === undefined ? {} : { lastError: state.lastError })}
      />
    </Box>
  );
}
