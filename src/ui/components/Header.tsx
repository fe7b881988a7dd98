/**
 * Two rows: what is being served and where a host connects, then the root, the generation, the last rebuild
 * and the watcher's health.
 */
import { Box, Text } from 'ink';
import type { DevState, WatcherView } from '../dev-state.js';
import { formatClock, formatMs, formatPaths, pluralize, shortenHome, toSingleLine } from '../format.js';
import { Tint } from './Tint.js';

export interface HeaderProps {
  readonly state: DevState;
  readonly width: number;
  /** Replaced by `~` in the root. */
  readonly home?: string;
}

export function Header({ state, width, home }: HeaderProps) {
  const rebuild = state.lastRebuild;
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Tint bold>companion dev</Tint>
        {state.name === '' || state.name === 'companion' ? (
          ''
        ) : (
          <Tint dim>{` · ${toSingleLine(state.name)}`}</Tint>
        )}
        {'  '}
        <Tint tone="accent" bold>
          {state.url}
        </Tint>
        {'  '}
        <Watcher watcher={state.watcher} />
      </Text>
      <Text wrap="truncate-end">
        <Tint dim>root </Tint>
        {toSingleLine(shortenHome(state.root, home))}
        <Tint dim> · generation </Tint>
        <Tint bold>{String(state.generation)}</Tint>
        <Tint dim> · </Tint>
        {rebuild === undefined
          ? `loaded ${formatClock(state.builtAt)}`
          : `rebuilt ${formatClock(rebuild.at)} in ${formatMs(rebuild.ms)}: ${formatPaths(rebuild.paths, 2)}`}
      </Text>
      {state.notice ? (
        <Text wrap="truncate-end">
          <Tint tone="warning">{toSingleLine(state.notice)}</Tint>
        </Text>
      ) : null}
    </Box>
  );
}

function Watcher({ watcher }: { readonly watcher: WatcherView }) {
  switch (watcher.mode) {
    case 'starting':
      return <Tint dim>watcher starting…</Tint>;
    case 'events':
      // A count of 0 while events flow says more about the count than about the watcher: leave it out.
      return (
        <Tint tone="good">
          {watcher.watchedPaths ? `watching ${pluralize(watcher.watchedPaths, 'path')}` : 'watching'}
        </Tint>
      );
    case 'polling':
      return <Tint tone="warning">{`polling: ${watcher.reason ?? 'no reason given'}`}</Tint>;
    case 'closed':
      return <Tint dim>watcher stopped</Tint>;
  }
}
