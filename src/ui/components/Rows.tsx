/**
 * What every view draws: single-line rows, at most `rows` of them, the last of which says how many more there
 * are when some do not fit. Rows never wrap: a view that shows a whole message wraps it into rows itself
 * (`wrapText`), so every view knows its height and a wider terminal shows more of each row, never less.
 */
import { Box, Text } from 'ink';
import { isValidElement, memo, type ReactNode } from 'react';
import { Tint } from './Tint.js';

/** One row. `key` is unique within its view. */
export interface Row {
  readonly key: string;
  readonly node: ReactNode;
}

export interface RowsProps {
  readonly lines: readonly Row[];
  readonly rows: number;
  readonly width: number;
  /** What the hidden rows are, for the `… N more` row. @default 'rows' */
  readonly unit?: (hidden: number) => string;
}

export const Rows = memo(function Rows({ lines, rows, width, unit }: RowsProps) {
  const visible = clipRows(lines, rows, unit);
  return (
    <Box flexDirection="column" width={width} height={rows} overflow="hidden">
      {visible.map((line) => (
        <RowLine key={line.key} node={line.node} />
      ))}
    </Box>
  );
});

/**
 * One row, rendered again only when what it shows changed: views build their rows afresh on every frame, and
 * comparing two small element trees costs less than React rendering every row of the screen anew (a save
 * changes two or three rows of forty). Ink still lays out and writes every row each frame; that is its own.
 */
const RowLine = memo(
  function RowLine({ node }: { readonly node: ReactNode }) {
    return <Text wrap="truncate-end">{node}</Text>;
  },
  (before, after) => isSameNode(before.node, after.node),
);

/**
 * Whether two nodes draw the same: equal primitives, or elements of the same type and key whose props are the
 * same node by node. Anything else (a function, an object that is not an element) only by identity, so a false
 * answer can cost a redraw but a true one never hides a change. Context still reaches a skipped row.
 */
export function isSameNode(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!isSameNode(a[i], b[i])) return false;
    return true;
  }
  if (!isValidElement(a) || !isValidElement(b)) return false;
  if (a.type !== b.type || a.key !== b.key) return false;
  const propsA = a.props as Record<string, unknown>;
  const propsB = b.props as Record<string, unknown>;
  const keys = Object.keys(propsA);
  if (keys.length !== Object.keys(propsB).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(propsB, key) || !isSameNode(propsA[key], propsB[key])) return false;
  }
  return true;
}

/** The first `rows` rows; when some do not fit, the last visible row becomes `… N more`. */
export function clipRows(
  lines: readonly Row[],
  rows: number,
  unit: (hidden: number) => string = (hidden) => `${hidden} more`,
): readonly Row[] {
  if (rows <= 0) return [];
  if (lines.length <= rows) return lines;
  const shown = lines.slice(0, rows - 1);
  return [...shown, { key: '…more', node: <Tint dim>{`… ${unit(lines.length - shown.length)}`}</Tint> }];
}

/** A title row for a section of a view. */
export function sectionRow(key: string, title: string, summary?: string): Row {
  return {
    key,
    node: (
      <>
        <Tint bold>{title}</Tint>
        {summary === undefined ? '' : <Tint dim>{`  ${summary}`}</Tint>}
      </>
    ),
  };
}
