/**
 * The last changes, newest first: which files, how long the watcher held them and the rebuild took, and what
 * was sent to hosts. A save of identical bytes shows as such, so "nothing happened" is visible too.
 */
import type { TimelineEntry } from '../dev-state.js';
import { formatClock, formatMs, formatPaths, formatSent } from '../format.js';
import { Panel, type PanelLine } from './Panel.js';
import { Tint } from './Tint.js';

export function summarizeTimeline(timeline: readonly TimelineEntry[]): string {
  return timeline.length === 0 ? 'no changes yet' : `last ${timeline.length}`;
}

/** A row per entry. Never empty. */
export function buildTimelineLines(timeline: readonly TimelineEntry[]): PanelLine[] {
  if (timeline.length === 0) {
    return [{ key: 'empty', node: <Tint dim>save a file to see it here</Tint> }];
  }
  return timeline.map((entry, index) => {
    const key = `${entry.generation ?? 'same'}:${entry.at}:${index}`;
    const clock = `${formatClock(entry.at)} `;
    if (entry.generation === undefined) {
      return {
        key,
        node: (
          <>
            <Tint dim>{clock}</Tint>
            <Tint dim>{`same bytes  ${formatPaths(entry.paths, 2)} → nothing sent`}</Tint>
          </>
        ),
      };
    }
    const timing =
      entry.rebuildMs === undefined
        ? ''
        : entry.waitMs === undefined
          ? formatMs(entry.rebuildMs)
          : `${formatMs(entry.rebuildMs)} (+${formatMs(entry.waitMs)} wait)`;
    return {
      key,
      node: (
        <>
          <Tint dim>{clock}</Tint>
          <Tint bold>{`gen ${entry.generation}`}</Tint>
          {`  ${formatPaths(entry.paths, 2)}  `}
          <Tint dim>{timing}</Tint>
          {' → '}
          <Tint tone={entry.listChanged || entry.updated > 0 ? 'accent' : undefined}>
            {formatSent(entry)}
          </Tint>
          {entry.added > 0 ? <Tint tone="fresh">{`  +${entry.added} new`}</Tint> : ''}
          {entry.fixed > 0 ? <Tint tone="good">{`  −${entry.fixed} fixed`}</Tint> : ''}
        </>
      ),
    };
  });
}

export interface TimelinePanelProps {
  readonly timeline: readonly TimelineEntry[];
  readonly rows: number;
  readonly width: number;
  readonly bordered?: boolean;
}

export function TimelinePanel({ timeline, rows, width, bordered }: TimelinePanelProps) {
  return (
    <Panel
      title="Timeline"
      summary={summarizeTimeline(timeline)}
      lines={buildTimelineLines(timeline)}
      rows={rows}
      width={width}
      {...(bordered === undefined ? {} : { bordered })}
    />
  );
}
