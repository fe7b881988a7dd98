/**
 * The whole screen for one view state at one terminal size. Pure: no hooks on streams, so tests render it at
 * any size. Panels get rows by demand, and the layout degrades in steps: coverage and diagnostics side by side
 * from 100 columns, one column below; borders only while there are rows to spare; every row truncates rather
 * than wraps.
 */
import { Box } from 'ink';
import type { DevState } from '../dev-state.js';
import { buildCoverageLines, summarizeCoverage } from './CoveragePanel.js';
import { buildDiagnosticLines, summarizeDiagnostics } from './DiagnosticsPanel.js';
import { Footer } from './Footer.js';
import { Header } from './Header.js';
import { buildHostLines, summarizeHosts } from './HostsPanel.js';
import { Panel, type PanelLine, panelOverhead } from './Panel.js';
import { buildTimelineLines, summarizeTimeline } from './TimelinePanel.js';

/** Two panels side by side from this many columns. */
export const WIDE_COLUMNS = 100;
/** Header (2 rows) and footer (1 row). */
const CHROME_ROWS = 3;

export interface DashboardProps {
  readonly state: DevState;
  readonly width: number;
  /** Rows the dashboard may use. Keep it below the terminal's height, or Ink redraws the whole screen. */
  readonly height: number;
  readonly home?: string;
}

interface PanelSpec {
  readonly title: string;
  readonly summary: string;
  readonly lines: readonly PanelLine[];
}

export function Dashboard({ state, width, height, home }: DashboardProps) {
  const panels: PanelSpec[] = [
    {
      title: 'Coverage',
      summary: summarizeCoverage(state.coverage),
      lines: buildCoverageLines(state.coverage),
    },
    {
      title: 'Diagnostics',
      summary: summarizeDiagnostics(state.diagnostics),
      lines: buildDiagnosticLines(state.diagnostics),
    },
    { title: 'Hosts', summary: summarizeHosts(state.hosts), lines: buildHostLines(state.hosts, state.url) },
    {
      title: 'Timeline',
      summary: summarizeTimeline(state.timeline),
      lines: buildTimelineLines(state.timeline),
    },
  ];
  const layout = planLayout(
    panels.map((panel) => panel.lines.length),
    width,
    height,
  );
  const render = (index: number, panelWidth: number) => {
    const panel = panels[index]!;
    return (
      <Panel
        key={panel.title}
        title={panel.title}
        summary={panel.summary}
        lines={panel.lines}
        rows={layout.rows[index] ?? 0}
        width={panelWidth}
        bordered={layout.bordered}
      />
    );
  };
  const left = Math.floor(width / 2);
  return (
    <Box flexDirection="column" width={width}>
      <Header state={state} width={width} {...(home === undefined ? {} : { home })} />
      {layout.wide ? (
        <>
          <Box flexDirection="row">
            {render(0, left)}
            {render(1, width - left)}
          </Box>
          {render(2, width)}
          {render(3, width)}
        </>
      ) : (
        [0, 1, 2, 3].map((index) => render(index, width))
      )}
      <Footer width={width} {...(state.lastError === undefined ? {} : { lastError: state.lastError })} />
    </Box>
  );
}

export interface Layout {
  /** Coverage and diagnostics side by side; hosts and timeline below, full width. */
  readonly wide: boolean;
  readonly bordered: boolean;
  /** Content rows per panel, in panel order (coverage, diagnostics, hosts, timeline). */
  readonly rows: readonly number[];
}

/**
 * Decides the layout for four panels wanting `demands` content rows each (coverage, diagnostics, hosts,
 * timeline). Wide: coverage and diagnostics share a band as tall as the taller one's share; hosts and timeline
 * get the full width, where their long rows fit. Rows left once every demand is met go to the timeline, which
 * grows as the author works. Never plans more than `height` rows in total.
 */
export function planLayout(demands: readonly number[], width: number, height: number): Layout {
  const available = Math.max(0, height - CHROME_ROWS);
  const wide = width >= WIDE_COLUMNS;
  const [coverage = 0, diagnostics = 0, hosts = 0, timeline = 0] = demands;
  const bandDemands = wide
    ? [Math.max(coverage, diagnostics), hosts, timeline]
    : [coverage, diagnostics, hosts, timeline];
  const bands = bandDemands.length;
  // Borders cost three rows per band; keep them only while each band still gets a few rows of content.
  const bordered = width >= 40 && available - bands * panelOverhead(true) >= bands * 3;
  const content = Math.max(0, available - bands * panelOverhead(bordered));
  const shares = allocateRows(bandDemands, content);
  const used = shares.reduce((sum, rows) => sum + rows, 0);
  shares[bands - 1] = (shares[bands - 1] ?? 0) + (content - used);
  if (wide) {
    const [top = 0, middle = 0, bottom = 0] = shares;
    return { wide, bordered, rows: [top, top, middle, bottom] };
  }
  return { wide, bordered, rows: shares };
}

/**
 * Shares `total` rows among panels wanting `demands` rows, one row at a time in turn, so a short panel gets
 * all it needs and a long one gets the rest. Never gives a panel more than it wants.
 */
export function allocateRows(demands: readonly number[], total: number): number[] {
  const rows = demands.map(() => 0);
  let left = total;
  let progressed = true;
  while (left > 0 && progressed) {
    progressed = false;
    for (let index = 0; index < demands.length && left > 0; index++) {
      if ((rows[index] ?? 0) < (demands[index] ?? 0)) {
        rows[index] = (rows[index] ?? 0) + 1;
        left--;
        progressed = true;
      }
    }
  }
  return rows;
}
