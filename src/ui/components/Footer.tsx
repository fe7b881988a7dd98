/** The key help, and the latest problem the daemon itself hit (a rebuild that threw, a watcher error). */
import { Box, Text } from 'ink';
import type { ErrorView } from '../dev-state.js';
import { formatClock, toSingleLine } from '../format.js';
import { Tint } from './Tint.js';

export interface FooterProps {
  readonly lastError?: ErrorView;
  readonly width: number;
}

export function Footer({ lastError, width }: FooterProps) {
  return (
    <Box width={width}>
      <Text wrap="truncate-end">
        <Tint bold>q</Tint>
        <Tint dim> quit · </Tint>
        <Tint bold>Ctrl+C</Tint>
        <Tint dim> quit</Tint>
        {lastError === undefined ? (
          ''
        ) : (
          <Tint tone="error">{`   ! ${formatClock(lastError.at)} ${toSingleLine(lastError.message)}`}</Tint>
        )}
      </Text>
    </Box>
  );
}
