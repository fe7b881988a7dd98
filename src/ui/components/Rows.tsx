/**
 * What every view draws: single-line rows, at most `rows` of them, the last of which says how many more there
 * are when some do not fit. Rows never wrap: a view that shows a whole message wraps it into rows itself
 * (`wrapText`), so every view knows its height and a wider terminal shows more of each row, never less.
 */
import { Box, Text } from 'ink';
import { memo, type ReactNode } from 'react';
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
        <Text key={line.key} wrap="truncate-end">
          {line.node}
        </Text>
      ))}
    </Box>
  );
});

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
