/**
 * Who is really connected: per host its name and version, transport, protocol era, whether it is active or
 * idle, what it subscribed to (and for a modern host, its open listen streams and their filters), the last
 * notification it was sent and whether it re-read since — hosts handle notifications unevenly, and this is
 * where an author sees it.
 */
import { memo, useMemo } from 'react';
import { type Row, Rows } from '../components/Rows.js';
import { Tint } from '../components/Tint.js';
import type { HostView } from '../dev-state.js';
import { formatClock, formatEra, formatHostName, formatMethod, pluralize, toSingleLine } from '../format.js';

/** `2 connected (1 idle)`, or `none`. */
export function summarizeHosts(hosts: readonly HostView[]): string {
  if (hosts.length === 0) return 'none connected';
  const idle = hosts.filter((host) => host.state === 'idle').length;
  return `${hosts.length} connected${idle > 0 ? ` (${idle} idle)` : ''}`;
}

/** One row: `claude-code 2.1.0 http legacy 2025-11-25 active`. */
export function buildHostHeadline(host: HostView): Row['node'] {
  const era = formatEra(host);
  return (
    <>
      <Tint bold>{formatHostName(host)}</Tint>
      <Tint dim>{` ${host.transport}${era === undefined ? '' : ` · ${era}`} · `}</Tint>
      {host.state === 'active' ? (
        <Tint tone="good">active</Tint>
      ) : (
        <Tint tone="warning">{`idle since ${formatClock(host.lastActivityAt)}`}</Tint>
      )}
    </>
  );
}

/** What the host was last sent and whether it re-read since. */
export function buildLastSent(host: HostView): Row['node'] {
  const last = host.lastNotification;
  if (last === undefined) return <Tint dim>no notification yet</Tint>;
  return (
    <>
      {`${formatMethod(last.method)} gen ${last.generation} at ${formatClock(last.at)} `}
      {host.reread ? <Tint tone="good">✓ re-read</Tint> : <Tint tone="warning">✗ not re-read</Tint>}
    </>
  );
}

/** A block of rows per host, or a hint naming the URL to connect to. */
export function buildHostRows(hosts: readonly HostView[], url: string): Row[] {
  if (hosts.length === 0) {
    return [{ key: 'empty', node: <Tint dim>{`no host connected: point one at ${url}`}</Tint> }];
  }
  const rows: Row[] = [{ key: 'summary', node: <Tint bold>{summarizeHosts(hosts)}</Tint> }];
  for (const host of hosts) {
    rows.push({ key: `${host.id}:head`, node: buildHostHeadline(host) });
    const subscribed =
      host.subscriptions === 0
        ? 'no subscriptions'
        : `${pluralize(host.subscriptions, 'subscription')}: ${host.subscribed.map(toSingleLine).join(', ')}${host.subscriptions > host.subscribed.length ? ', …' : ''}`;
    rows.push({ key: `${host.id}:subs`, node: <Tint dim>{`    ${subscribed}`}</Tint> });
    for (const stream of host.listen) {
      rows.push({
        key: `${host.id}:listen:${stream.id}`,
        node: (
          <Tint
            dim
          >{`    listening since ${formatClock(stream.openedAt)}: ${stream.filters.length === 0 ? 'nothing' : stream.filters.join(', ')}`}</Tint>
        ),
      });
    }
    rows.push({
      key: `${host.id}:sent`,
      node: (
        <>
          {'    '}
          {buildLastSent(host)}
        </>
      ),
    });
  }
  return rows;
}

export interface HostsViewProps {
  readonly hosts: readonly HostView[];
  readonly url: string;
  readonly width: number;
  readonly rows: number;
}

export const HostsView = memo(function HostsView({ hosts, url, width, rows }: HostsViewProps) {
  const lines = useMemo(() => buildHostRows(hosts, url), [hosts, url]);
  return <Rows lines={lines} rows={rows} width={width} />;
});
