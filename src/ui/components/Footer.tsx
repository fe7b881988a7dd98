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
  const keyText = keys === '' ? 'q quit' : `${keys} · q quit`;
  return (
    <Box width={width}>
      <Text wrap="truncate-end">
        {/* A message for the author comes first: it answers the key just pressed. */}
        {message !== undefined ? <Text>{`${message}   `}</Text> : ''}
        <Tint dim>{keyText}</Tint>
        {message === undefined && lastError !== undefined ? (
          <Tint tone="error">{`   ! ${formatClock(lastError.at)} ${toSingleLine(lastError.message)}`}</Tint>
        ) : (
          ''
        )}
      </Text>
    </Box>
  );
});
