/**
 * Two rows on every view: what is served and where a host connects, with the watcher's health; then the views,
 * the current one highlighted, each with its count.
 */
import { Box, Text } from 'ink';
import { memo } from 'react';
import type { WatcherView } from '../dev-state.js';
import { pluralize, toSingleLine } from '../format.js';
import { Tint } from './Tint.js';

/** The views, in key order: `1`…`5` (and Tab) switch between them. */
export const VIEWS = ['overview', 'problems', 'coverage', 'hosts', 'timeline'] as const;
export type ViewName = (typeof VIEWS)[number];

const TITLES: Readonly<Record<ViewName, string>> = {
  overview: 'Overview',
  problems: 'Problems',
  coverage: 'Coverage',
  hosts: 'Hosts',
  timeline: 'Timeline',
};

export interface HeaderProps {
  readonly name: string;
  readonly url: string;
  readonly watcher: WatcherView;
  /** Findings, hosts and uncovered items, for the view tabs. */
  readonly counts: { readonly problems: number; readonly hosts: number; readonly uncovered: number };
  readonly view: ViewName;
  readonly width: number;
}

export const Header = memo(function Header({ name, url, watcher, counts, view, width }: HeaderProps) {
  const count: Partial<Record<ViewName, number>> = {
    problems: counts.problems,
    hosts: counts.hosts,
    coverage: counts.uncovered,
  };
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Tint bold>companion dev</Tint>
        {name === '' || name === 'companion' ? '' : <Tint dim>{` · ${toSingleLine(name)}`}</Tint>}
        {'  '}
        <Tint tone="accent" bold>
          {url}
        </Tint>
        {'  '}
        <Watcher watcher={watcher} />
      </Text>
      <Text wrap="truncate-end">
        {VIEWS.map((item, index) => {
          const label = `${index + 1} ${TITLES[item]}${count[item] ? ` (${count[item]})` : ''}`;
          return (
            <Text key={item}>
              {index > 0 ? '  ' : ''}
              {item === view ? (
                <Tint tone="accent" bold>
                  {`[${label}]`}
                </Tint>
              ) : (
                <Tint dim>{` ${label} `}</Tint>
              )}
            </Text>
          );
        })}
        <Tint dim>{'   ? keys'}</Tint>
      </Text>
    </Box>
  );
});

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
      return <Tint tone="warning">{`polling: ${toSingleLine(watcher.reason ?? 'no reason given')}`}</Tint>;
    case 'closed':
      return <Tint dim>watcher stopped</Tint>;
  }
}

/** The title of a view, for the help and the tests. */
export function viewTitle(view: ViewName): string {
  return TITLES[view];
}
