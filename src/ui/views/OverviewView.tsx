/**
 * The one screen an author keeps an eye on: a status line (clean, N errors, or what is held), the hosts and
 * the last save with what each host was sent, then as many of the problems and recent changes as fit.
 */
import { memo, useMemo } from 'react';
import { type Row, Rows, sectionRow } from '../components/Rows.js';
import { Tint } from '../components/Tint.js';
import type { DevState } from '../dev-state.js';
import { findHeld } from '../dev-state.js';
import {
  formatClock,
  formatFileChanges,
  formatHeld,
  formatHostName,
  formatSentTo,
  pluralize,
  shortenHome,
  toSingleLine,
} from '../format.js';
import { summarizeHosts } from './HostsView.js';
import { listFindings, summarizeDiagnostics } from './ProblemsView.js';
import { buildTimelineRows } from './TimelineView.js';

export type OverviewInput = Pick<
  DevState,
  'diagnostics' | 'held' | 'hosts' | 'timeline' | 'coverage' | 'url' | 'notice' | 'generation' | 'root'
>;

/** The status line: `✓ clean`, or the counts of findings; `, N held` while last good versions are served. */
export function buildStatusRow(state: OverviewInput): Row {
  const { diagnostics, coverage, held } = state;
  const prompts = coverage.prompts > 0 ? ` · ${pluralize(coverage.prompts, 'prompt')}` : '';
  const served = `${pluralize(coverage.documents, 'document')} · ${pluralize(coverage.skills, 'skill')}${prompts} served`;
  const heldNote = held.length > 0 ? ` · ${held.length} held at last good` : '';
  if (diagnostics.errors + diagnostics.warnings + diagnostics.infos === 0) {
    return {
      key: 'status',
      node: (
        <>
          <Tint tone="good" bold>
            ✓ clean
          </Tint>
          <Tint dim>{` · generation ${state.generation} · ${served}`}</Tint>
        </>
      ),
    };
  }
  return {
    key: 'status',
    node: (
      <>
        <Tint tone={diagnostics.errors > 0 ? 'error' : 'warning'} bold>
          {`${diagnostics.errors > 0 ? '✗' : '!'} ${summarizeDiagnostics(diagnostics)}`}
        </Tint>
        <Tint tone="warning">{heldNote}</Tint>
        <Tint dim>{` · generation ${state.generation} · ${served} · 2 for details`}</Tint>
      </>
    ),
  };
}

export function buildOverviewRows(state: OverviewInput, home?: string): Row[] {
  const rows: Row[] = [buildStatusRow(state)];
  rows.push({ key: 'root', node: <Tint dim>{`root ${toSingleLine(shortenHome(state.root, home))}`}</Tint> });
  // Held items first, each beside the finding that explains it.
  for (const item of state.held) {
    const finding = state.diagnostics.groups
      .filter((group) => findHeld([item], group.file) !== undefined)
      .flatMap((group) => group.items)[0]?.diagnostic;
    rows.push({
      key: `held:${item.path}`,
      node: (
        <>
          <Tint tone="warning">{`⏸ ${formatHeld(item)}`}</Tint>
          {finding === undefined ? (
            ''
          ) : (
            <Tint dim>{` — ${finding.code} ${toSingleLine(finding.message)}`}</Tint>
          )}
        </>
      ),
    });
  }
  if (state.notice)
    rows.push({ key: 'notice', node: <Tint tone="warning">{toSingleLine(state.notice)}</Tint> });
  rows.push({
    key: 'hosts',
    node:
      state.hosts.length === 0 ? (
        <Tint dim>{`hosts: none connected — point one at ${state.url}`}</Tint>
      ) : (
        <>
          <Tint dim>hosts: </Tint>
          {`${summarizeHosts(state.hosts)} — `}
          {state.hosts
            .map(
              (host) =>
                `${formatHostName(host)} (${host.transport}${host.era ? `, ${host.era}` : ''}${host.state === 'idle' ? ', idle' : ''})`,
            )
            .join(', ')}
        </>
      ),
  });
  const last = state.timeline[0];
  rows.push({
    key: 'last',
    node:
      last === undefined ? (
        <Tint dim>last save: none yet — save a file and watch it reach the hosts</Tint>
      ) : (
        <>
          <Tint dim>{`last save ${formatClock(last.at)}: `}</Tint>
          {formatFileChanges(last.files, 2)}
          {' → '}
          <Tint tone="accent">
            {last.generation === undefined ? 'same bytes, nothing sent' : formatSentTo(last)}
          </Tint>
        </>
      ),
  });
  const findings = listFindings(state.diagnostics);
  if (findings.length > 0) {
    rows.push(sectionRow('problems', 'Problems', summarizeDiagnostics(state.diagnostics)));
    for (const item of findings.slice(0, 8)) {
      const d = item.diagnostic;
      const where = d.file === undefined ? 'project' : `${d.file}${d.line === undefined ? '' : `:${d.line}`}`;
      rows.push({
        key: `p:${item.key}`,
        node: (
          <>
            <Tint tone={d.severity === 'error' ? 'error' : 'warning'}>
              {d.severity === 'error' ? '  ✗ ' : '  ! '}
            </Tint>
            {item.isNew ? (
              <Tint tone="fresh" bold>
                new{' '}
              </Tint>
            ) : (
              ''
            )}
            {toSingleLine(where)}
            <Tint dim>{` ${d.code} `}</Tint>
            {toSingleLine(d.message)}
          </>
        ),
      });
    }
  }
  if (state.timeline.length > 0) {
    rows.push(sectionRow('timeline', 'Recent changes'));
    for (const row of buildTimelineRows(state.timeline.slice(0, 6)))
      rows.push({ ...row, key: `t:${row.key}` });
  }
  return rows;
}

export interface OverviewViewProps {
  readonly state: OverviewInput;
  readonly home?: string;
  readonly width: number;
  readonly rows: number;
}

export const OverviewView = memo(function OverviewView({ state, home, width, rows }: OverviewViewProps) {
  const lines = useMemo(() => buildOverviewRows(state, home), [state, home]);
  return <Rows lines={lines} rows={rows} width={width} />;
});
