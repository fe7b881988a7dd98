/**
 * The changes, newest first, one row per batch: when, which generation, what happened to which files (saved,
 * added, deleted, renamed), how long it took, and what each host was sent. A save of identical bytes shows as
 * such, so "nothing happened" is visible too.
 */
import { memo, useMemo } from 'react';
import { type Row, Rows } from '../components/Rows.js';
import { Tint } from '../components/Tint.js';
import type { TimelineEntry } from '../dev-state.js';
import { formatClock, formatFileChanges, formatMs, formatSentTo } from '../format.js';

/** A row per entry. Never empty. `wide` names more files per row. */
export function buildTimelineRows(timeline: readonly TimelineEntry[], wide = false): Row[] {
  if (timeline.length === 0) return [{ key: 'empty', node: <Tint dim>save a file to see it here</Tint> }];
  const files = wide ? 4 : 2;
  // A row's key follows its entry, not its place: a new save moves every row down one, and a key that moved
  // with the place would remount them all. Two entries alike in generation and time (two identical saves in one
  // millisecond) are told apart by how many alike are older, which does not change as newer ones arrive.
  const alike = new Map<string, number>();
  const keys: string[] = [];
  for (let index = timeline.length - 1; index >= 0; index--) {
    const entry = timeline[index]!;
    const base = `${entry.generation ?? 'same'}:${entry.at}`;
    const older = alike.get(base) ?? 0;
    alike.set(base, older + 1);
    keys[index] = older === 0 ? base : `${base}#${older}`;
  }
  return timeline.map((entry, index) => {
    const key = keys[index]!;
    const clock = `${formatClock(entry.at)} `;
    if (entry.generation === undefined) {
      return {
        key,
        node: <Tint dim>{`${clock}${formatFileChanges(entry.files, files)}: same bytes, nothing sent`}</Tint>,
      };
    }
    const timing =
      entry.rebuildMs === undefined
        ? ''
        : entry.waitMs === undefined
          ? formatMs(entry.rebuildMs)
          : `${formatMs(entry.rebuildMs)} +${formatMs(entry.waitMs)} wait`;
    const sent = formatSentTo(entry);
    return {
      key,
      node: (
        <>
          <Tint dim>{clock}</Tint>
          <Tint bold>{`gen ${entry.generation}`}</Tint>
          {`  ${formatFileChanges(entry.files, files)}`}
          <Tint dim>{timing === '' ? '' : `  ${timing}`}</Tint>
          {' → '}
          <Tint tone={sent === 'nothing sent' ? undefined : 'accent'}>{sent}</Tint>
          {entry.added > 0 ? <Tint tone="fresh">{`  +${entry.added} new`}</Tint> : ''}
          {entry.fixed > 0 ? <Tint tone="good">{`  −${entry.fixed} fixed`}</Tint> : ''}
          {entry.held > 0 ? <Tint tone="warning">{`  ${entry.held} held`}</Tint> : ''}
        </>
      ),
    };
  });
}

export interface TimelineViewProps {
  readonly timeline: readonly TimelineEntry[];
  readonly width: number;
  readonly rows: number;
}

export const TimelineView = memo(function TimelineView({ timeline, width, rows }: TimelineViewProps) {
  const lines = useMemo(() => buildTimelineRows(timeline, width >= 120), [timeline, width]);
  return <Rows lines={lines} rows={rows} width={width} unit={(hidden) => `${hidden} older`} />;
});
