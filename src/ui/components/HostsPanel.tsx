/**
 * Who is connected, and whether each host actually re-read after the last notification it was sent — hosts
 * handle `list_changed` unevenly, and this is where an author sees it.
 */
import type { HostView } from '../dev-state.js';
import { formatClock, formatHostName, formatMethod, pluralize } from '../format.js';
import { Panel, type PanelLine } from './Panel.js';
import { Tint } from './Tint.js';

export function summarizeHosts(hosts: readonly HostView[]): string {
  return hosts.length === 0 ? 'none' : `${hosts.length} connected`;
}

/** A row per host, or a hint naming the URL to connect to. Never empty. */
export function buildHostLines(hosts: readonly HostView[], url: string): PanelLine[] {
  if (hosts.length === 0) {
    return [{ key: 'empty', node: <Tint dim>{`no host connected: point one at ${url}`}</Tint> }];
  }
  return hosts.map((host) => ({
    key: host.id,
    node: (
      <>
        <Tint bold>{formatHostName(host)}</Tint>
        <Tint dim>{` ${host.transport} · ${pluralize(host.subscriptions, 'sub')} · `}</Tint>
        <Notification host={host} />
      </>
    ),
  }));
}

function Notification({ host }: { readonly host: HostView }) {
  const last = host.lastNotification;
  if (last === undefined) return <Tint dim>no notification yet</Tint>;
  return (
    <>
      {`${formatMethod(last.method)} gen ${last.generation} at ${formatClock(last.at)} `}
      {host.reread ? <Tint tone="good">✓ re-read</Tint> : <Tint tone="warning">✗ not re-read</Tint>}
    </>
  );
}

export interface HostsPanelProps {
  readonly hosts: readonly HostView[];
  readonly url: string;
  readonly rows: number;
  readonly width: number;
  readonly bordered?: boolean;
}

export function HostsPanel({ hosts, url, rows, width, bordered }: HostsPanelProps) {
  return (
    <Panel
      title="Hosts"
      summary={summarizeHosts(hosts)}
      lines={buildHostLines(hosts, url)}
      rows={rows}
      width={width}
      {...(bordered === undefined ? {} : { bordered })}
    />
  );
}
