/**
 * Small text formatters shared by the Ink panels and the plain log, so both say the same thing the same way.
 * Pure: no stream, no environment, no clock.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import type { FileChange, HeldItem } from '../core/types.js';
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

/** What a change sent, over all hosts: `list_changed, prompts list_changed, 2 updated`, or `nothing sent`. */
export function formatSent(
  entry: Pick<TimelineEntry, 'listChanged' | 'promptsListChanged' | 'updated' | 'hosts'>,
): string {
  const parts: string[] = [];
  if (entry.listChanged) parts.push('list_changed');
  if (entry.promptsListChanged) parts.push('prompts list_changed');
  if (entry.updated > 0) parts.push(`${entry.updated} updated`);
  if (parts.length === 0) return 'nothing sent';
  return entry.hosts === 0 ? `${parts.join(', ')} (no host connected)` : parts.join(', ');
}

/**
 * What each host was sent for one change, as the MCP layer recorded it: `claude-code 2.1: list_changed, 1 updated
 * · vscode: list_changed`; `nothing sent` when no host got anything (`no host connected` when none was there).
 */
export function formatSentTo(
  entry: Pick<TimelineEntry, 'sent' | 'hosts' | 'listChanged' | 'promptsListChanged' | 'updated'>,
): string {
  const parts = entry.sent
    .filter((host) => host.listChanged || host.promptsListChanged || host.updated > 0)
    .map((host) => {
      const what = [
        host.listChanged ? 'list_changed' : '',
        host.promptsListChanged ? 'prompts list_changed' : '',
        host.updated > 0 ? `${host.updated} updated` : '',
      ]
        .filter((part) => part !== '')
        .join(', ');
      return `${toSingleLine(host.name)}: ${what}`;
    });
  if (parts.length > 0) return parts.join(' · ');
  const anything = entry.listChanged || entry.promptsListChanged || entry.updated > 0;
  if (entry.hosts === 0) return anything ? 'no host connected' : 'nothing sent';
  return 'nothing sent';
}

/**
 * Files as an author would say what happened to them: `saved a.md`, `added b.md, c.md`, `renamed a.md → b.md`,
 * `deleted d.md`, kinds joined with `; `, at most `max` paths named in all.
 */
export function formatFileChanges(files: readonly FileChange[], max = 3): string {
  if (files.length === 0) return 'reconciled with the disk';
  const order: FileChange['kind'][] = ['saved', 'added', 'renamed', 'deleted', 'unavailable', 'read again'];
  const words: Readonly<Record<FileChange['kind'], string>> = {
    saved: 'saved',
    added: 'added',
    renamed: 'renamed',
    deleted: 'deleted',
    unavailable: 'could not read',
    'read again': 'read again',
  };
  const parts: string[] = [];
  let named = 0;
  for (const kind of order) {
    const ofKind = files.filter((file) => file.kind === kind);
    if (ofKind.length === 0) continue;
    const room = Math.max(1, max - named);
    const shown = ofKind
      .slice(0, room)
      .map((file) =>
        kind === 'renamed' && file.from !== undefined ? `${file.from} → ${file.path}` : file.path,
      );
    named += shown.length;
    const rest = ofKind.length - shown.length;
    parts.push(`${words[kind]} ${shown.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}`);
  }
  return toSingleLine(parts.join('; '));
}

/** `the last good scope`, `the last good version of document any/intro`, … */
export function formatHeldItem(item: Pick<HeldItem, 'kind' | 'id'>): string {
  switch (item.kind) {
    case 'scope':
      return 'the last good scope';
    case 'base':
      return 'the last good skills/base.md';
    case 'document':
      return `the last good version of document ${toSingleLine(item.id)}`;
    case 'skill':
      return `the last good version of skill ${toSingleLine(item.id)}`;
    case 'prompt':
      return `the last good version of prompt ${toSingleLine(item.id)}`;
  }
}

/**
 * `serving the last good scope from 10:42:13` — what hosts get while the file on disk does not parse, validate
 * or read; the time is when that version was saved. `could not be read just now` says why when it is not the
 * content.
 */
export function formatHeld(item: HeldItem): string {
  const why = item.reason === 'unavailable' ? ' (the file could not be read just now; retrying)' : '';
  return `serving ${formatHeldItem(item)} from ${formatClock(item.modifiedMs)}${why}`;
}

/** `legacy 2025-11-25`, `modern 2026-07-28`, or just the era or revision when only one is known. */
export function formatEra(host: Pick<HostView, 'era' | 'protocolVersion'>): string | undefined {
  if (host.era === undefined && host.protocolVersion === undefined) return undefined;
  return [host.era, host.protocolVersion].filter((part) => part !== undefined).join(' ');
}

/**
 * Breaks `text` into lines of at most `width` columns at spaces (a word longer than a line is cut), for views
 * that show a whole message. Control characters are made safe first.
 */
export function wrapText(text: string, width: number): string[] {
  const limit = Math.max(1, width);
  const lines: string[] = [];
  let line = '';
  for (const word of toSingleLine(text).split(' ')) {
    let rest = word;
    while (rest.length > limit) {
      if (line !== '') {
        lines.push(line);
        line = '';
      }
      lines.push(rest.slice(0, limit));
      rest = rest.slice(limit);
    }
    if (line === '') line = rest;
    else if (line.length + 1 + rest.length <= limit) line = `${line} ${rest}`;
    else {
      lines.push(line);
      line = rest;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
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
  if (method === 'notifications/prompts/list_changed') return 'prompts list_changed';
  return method.replace(/^notifications\//, '');
}

/** Replaces the home directory prefix with `~`, to keep the header short. */
export function shortenHome(path: string, home: string | undefined): string {
  if (home === undefined || home === '' || home === '/') return path;
  if (path === home) return '~';
  return path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}
