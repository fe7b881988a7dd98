/**
 * The last row: the keys of the current view, then a message for the author (where an opened file went) or the
 * latest problem the daemon itself hit (a rebuild that threw, a watcher error).
 */
import { Box, Text } from 'ink';
import { memo } from 'react';
import type { ErrorView } from '../dev-state.js';
import { formatClock, toSingleLine } from '../format.js';
import { Tint } from './Tint.js';

export interface FooterProps {
  /** The keys this view takes, e.g. `↑↓ select · Enter open`. */
  readonly keys: string;
  /** Shown instead of the last error while set. May hold an OSC 8 hyperlink, which Ink passes through. */
  readonly message?: string;
  readonly lastError?: ErrorView;
  readonly width: number;
}

export const Footer = memo(function Footer({ keys, message, lastError, width }: FooterProps) {
  return (
    <Box width={width}>
      <Text wrap="truncate-end">
        <Tint dim>{keys === '' ? 'q quit' : `${keys} · q quit`}</Tint>
        {message !== undefined ? (
          <Text>{`   ${message}`}</Text>
        ) : lastError === undefined ? (
          ''
        ) : (
          <Tint tone="error">{`   ! ${formatClock(lastError.at)} ${toSingleLine(lastError.message)}`}</Tint>
        )}
      </Text>
    </Box>
  );
});
