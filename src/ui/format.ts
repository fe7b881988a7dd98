/**
 * Small text formatters shared by the Ink panels and the plain log, so both say the same thing the same way.
 * Pure: no stream, no environment, no clock.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import type { HostView, TimelineEntry } from './dev-state.js';

/**
 * Makes text from content or from a host safe to print on one terminal line: line breaks become spaces, and
 * every other control character (ESC above all, which would smuggle in colours or cursor moves) becomes `?`.
 */
export function toSingleLine(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g, '?');
}

/** `HH:MM:SS` in local time: an author compares it with the clock on the wall, not with UTC. */
export function formatClock(ms: number): string {
  const date = new Date(ms);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** Milliseconds for people: whole numbers from 10 ms up, one decimal below (a rebuild is often 1–3 ms). */
export function formatMs(ms: number): string {
  if (ms >= 10) return `${Math.round(ms)} ms`;
  return `${Math.round(ms * 10) / 10} ms`;
}

/** `1 document`, `2 documents`. */
export function pluralize(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** At most `max` paths joined with `, `, then `and N more`. */
export function formatPaths(paths: readonly string[], max = 3): string {
  if (paths.length === 0) return '(reconcile)';
  if (paths.length <= max) return toSingleLine(paths.join(', '));
  return `${toSingleLine(paths.slice(0, max).join(', '))} and ${paths.length - max} more`;
}

/** `file:line` or `file:line:column`; `project` for diagnostics about no file in particular. */
export function formatLocation(diagnostic: Pick<Diagnostic, 'file' | 'line' | 'column'>): string {
  const file = toSingleLine(diagnostic.file ?? 'project');
  if (diagnostic.line === undefined) return file;
  return diagnostic.column === undefined
    ? `${file}:${diagnostic.line}`
    : `${file}:${diagnostic.line}:${diagnostic.column}`;
}

/** What a change sent to hosts: `list_changed, 2 updated`, or `nothing sent`. */
export function formatSent(entry: Pick<TimelineEntry, 'listChanged' | 'updated' | 'hosts'>): string {
  const parts: string[] = [];
  if (entry.listChanged) parts.push('list_changed');
  if (entry.updated > 0) parts.push(`${entry.updated} updated`);
  if (parts.length === 0) return 'nothing sent';
  return entry.hosts === 0 ? `${parts.join(', ')} (no host connected)` : parts.join(', ');
}

/** `claude-code 1.2.3`, or `(initializing)` before the host sent its client info. */
export function formatHostName(host: Pick<HostView, 'name' | 'version'>): string {
  if (host.name === undefined) return '(initializing)';
  return toSingleLine(host.version ? `${host.name} ${host.version}` : host.name);
}

/** The short name of a notification method: `list_changed`, `updated`. */
export function formatMethod(method: string): string {
  if (method === 'notifications/resources/list_changed') return 'list_changed';
  if (method === 'notifications/resources/updated') return 'updated';
  return method.replace(/^notifications\//, '');
}

/** Replaces the home directory prefix with `~`, to keep the header short. */
export function shortenHome(path: string, home: string | undefined): string {
  if (home === undefined || home === '' || home === '/') return path;
  if (path === home) return '~';
  return path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}
