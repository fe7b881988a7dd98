/**
 * The frame every dashboard panel shares: a title row, then at most `rows` single-line rows, the last of which
 * says how many were left out. Rows never wrap: a narrow terminal truncates them instead of reflowing the
 * layout.
 */
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { Tint, useBorderColor } from './Tint.js';

/** One row of a panel. `key` must be unique within the panel. */
export interface PanelLine {
  readonly key: string;
  readonly node: ReactNode;
}

export interface PanelProps {
  readonly title: string;
  /** Shown after the title, e.g. counts. */
  readonly summary?: string;
  readonly lines: readonly PanelLine[];
  /** Content rows available (the title and the border come on top). */
  readonly rows: number;
  readonly width: number;
  /** Draw a border. Off on small terminals, where every row counts. @default true */
  readonly bordered?: boolean;
}

/** Rows a panel uses besides its content: the title, plus two for a border. */
export function panelOverhead(bordered: boolean): number {
  return bordered ? 3 : 1;
}

/** Draws a panel at a fixed height (`rows` + overhead), so neighbours in a row line up. */
export function Panel({ title, summary, lines, rows, width, bordered = true }: PanelProps) {
  const borderColor = useBorderColor();
  const visible = clipLines(lines, rows);
  return (
    <Box
      flexDirection="column"
      width={width}
      height={rows + panelOverhead(bordered)}
      overflow="hidden"
      {...(bordered ? { borderStyle: 'single' as const, paddingX: 1 } : {})}
      {...(bordered && borderColor !== undefined ? { borderColor } : {})}
    >
      <Text wrap="truncate-end">
        <Tint bold>{title}</Tint>
        {summary === undefined ? '' : <Tint dim>{`  ${summary}`}</Tint>}
      </Text>
      {visible.map((line) => (
        <Text key={line.key} wrap="truncate-end">
          {line.node}
        </Text>
      ))}
    </Box>
  );
}

/** The first `rows` lines; when some do not fit, the last visible row becomes `… N more`. */
export function clipLines(lines: readonly PanelLine[], rows: number): readonly PanelLine[] {
  if (rows <= 0) return [];
  if (lines.length <= rows) return lines;
  const shown = lines.slice(0, rows - 1);
  const hidden = lines.length - shown.length;
  return [...shown, { key: '…more', node: <Tint dim>{`… ${hidden} more`}</Tint> }];
}
