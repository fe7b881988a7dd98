/**
 * The non-TTY face of `companion dev` (a pipe, a CI log, a test): one plain line per event, never an ANSI code,
 * so the output greps and diffs. Lines come from the same view state as the Ink UI.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import type { HeldItem } from '../core/types.js';
import type { DevEvent, DevModel, DevState, HostView } from './dev-state.js';
import { diagnosticKey, findHeld } from './dev-state.js';
import {
  formatEra,
  formatFileChanges,
  formatHeld,
  formatHostName,
  formatLocation,
  formatMs,
  formatPaths,
  formatSent,
  pluralize,
  toSingleLine,
} from './format.js';

/** Every plain line starts with this, so the daemon's lines stand out in a shared log. */
export const PLAIN_PREFIX = '[companion]';

/** The first line: where to connect. */
export function formatListeningLine(url: string): string {
  return prefix(`listening on ${url}`);
}

/** The lines printed once at start: where to connect, what was loaded, and every problem already there. */
export function formatStartLines(state: DevState): string[] {
  return [formatListeningLine(state.url), ...formatLoadedLines(state)];
}

/** The start lines after the listening line. */
function formatLoadedLines(state: DevState): string[] {
  const { diagnostics, coverage } = state;
  const lines = [
    `root ${state.root}: generation ${state.generation}, ${pluralize(coverage.documents, 'document')}, ` +
      `${pluralize(coverage.skills, 'skill')}, ` +
      `${coverage.prompts > 0 ? `${pluralize(coverage.prompts, 'prompt')}, ` : ''}` +
      `${pluralize(diagnostics.errors, 'error')}, ` +
      `${pluralize(diagnostics.warnings, 'warning')}`,
  ];
  if (state.notice) lines.push(`notice: ${toSingleLine(state.notice)}`);
  // Polling from the start (COMPANION_WATCH=poll, or events unavailable before the log began) is no transition,
  // so the event lines below never say it; a daemon that polls must still say so.
  if (state.watcher.mode === 'polling') {
    lines.push(`watcher polling: ${state.watcher.reason ?? 'no reason given'}`);
  }
  for (const item of coverage.uncovered) lines.push(`not covered by any topic: ${item.kind} ${item.id}`);
  for (const group of diagnostics.groups) {
    for (const item of group.items) lines.push(`diagnostic ${formatDiagnostic(item.diagnostic)}`);
  }
  lines.push(...formatHeldLines([], state));
  return lines.map(prefix);
}

/** `serving the last good scope from 10:42:13 beside CMP101 knowledge/server-scope.json:3:5 …` and releases. */
function formatHeldLines(before: readonly HeldItem[], state: DevState): string[] {
  const lines: string[] = [];
  const was = new Set(before.map((item) => `${item.kind}:${item.id}:${item.modifiedMs}`));
  const now = new Set(state.held.map((item) => `${item.kind}:${item.id}`));
  for (const item of state.held) {
    if (was.has(`${item.kind}:${item.id}:${item.modifiedMs}`)) continue;
    const finding = state.diagnostics.groups
      .filter((group) => findHeld([item], group.file) !== undefined)
      .flatMap((group) => group.items)[0]?.diagnostic;
    lines.push(`${formatHeld(item)}${finding === undefined ? '' : ` beside ${formatDiagnostic(finding)}`}`);
  }
  for (const item of before) {
    if (!now.has(`${item.kind}:${item.id}`))
      lines.push(`no longer held: ${item.kind} ${item.id} is served from the file again`);
  }
  return lines;
}

/** The lines one event adds, given the state before and after it. Empty when there is nothing to say. */
export function formatEventLines(previous: DevState, state: DevState, event: DevEvent): string[] {
  const lines: string[] = [];
  switch (event.type) {
    case 'generation': {
      const { change } = event;
      const entry = state.timeline[0];
      lines.push(
        `generation ${change.current.number} in ${formatMs(change.rebuildMs)}: ` +
          `${entry === undefined ? formatPaths(change.changedPaths) : formatFileChanges(entry.files)} → ` +
          `${entry === undefined ? 'nothing sent' : formatSent(entry)}`,
      );
      for (const group of state.diagnostics.groups) {
        for (const item of group.items) {
          if (item.isNew) lines.push(`diagnostic new ${formatDiagnostic(item.diagnostic)}`);
        }
      }
      const current = new Set(change.current.diagnostics.map(diagnosticKey));
      for (const diagnostic of change.previous.diagnostics) {
        if (!current.has(diagnosticKey(diagnostic))) {
          lines.push(`fixed ${diagnostic.code} ${formatLocation(diagnostic)} ${diagnostic.message}`);
        }
      }
      lines.push(...formatHeldLines(previous.held, state));
      if (state.notice !== previous.notice) {
        lines.push(state.notice ? `notice: ${toSingleLine(state.notice)}` : 'notice cleared');
      }
      const before = new Set(previous.coverage.uncovered.map((item) => `${item.kind} ${item.id}`));
      for (const item of state.coverage.uncovered) {
        if (!before.has(`${item.kind} ${item.id}`))
          lines.push(`not covered by any topic: ${item.kind} ${item.id}`);
      }
      break;
    }
    case 'batch':
      if (event.generation === undefined && event.paths.length > 0) {
        lines.push(`saved ${formatPaths(event.paths)}: same bytes, nothing sent`);
      }
      break;
    case 'sessions':
      lines.push(...formatHostLines(previous.hosts, state.hosts));
      break;
    case 'watcher': {
      const before = previous.watcher;
      const after = state.watcher;
      if (before.mode === after.mode) break;
      if (after.mode === 'events') {
        lines.push(
          after.watchedPaths
            ? `watching ${pluralize(after.watchedPaths, 'path')} for changes`
            : 'watching for changes',
        );
      } else if (after.mode === 'polling') {
        lines.push(`watcher fell back to polling: ${after.reason ?? 'no reason given'}`);
      }
      break;
    }
    case 'error':
      lines.push(`error: ${event.message}`);
      break;
  }
  return lines.map(prefix);
}

/**
 * Prints the start lines, then one line per event until the returned function is called. `write` receives
 * whole lines ending in `\n`. `listeningWritten`: the caller wrote `formatListeningLine` already, the moment its
 * door listened; the start lines go on from there.
 */
export function startPlainLog(
  model: DevModel,
  write: (text: string) => void,
  options: { readonly listeningWritten?: boolean } = {},
): () => void {
  const state = model.getState();
  const lines = options.listeningWritten ? formatLoadedLines(state) : formatStartLines(state);
  for (const line of lines) write(`${line}\n`);
  return model.subscribe((state, previous, event) => {
    for (const line of formatEventLines(previous, state, event)) write(`${line}\n`);
  });
}

function formatHostLines(before: readonly HostView[], after: readonly HostView[]): string[] {
  const lines: string[] = [];
  const previous = new Map(before.map((host) => [host.id, host]));
  const current = new Set(after.map((host) => host.id));
  for (const host of after) {
    const old = previous.get(host.id);
    // A host is "connected" once it has said who it is; the bare session before that is an implementation detail.
    const era = formatEra(host);
    if (host.name !== undefined && old?.name === undefined) {
      lines.push(
        `host connected: ${formatHostName(host)} (${host.transport}${era === undefined ? '' : `, ${era}`})`,
      );
    }
    if (old === undefined || host.name === undefined) continue;
    if (old.name !== undefined && era !== undefined && era !== formatEra(old)) {
      lines.push(`host ${formatHostName(host)} speaks ${era}`);
    }
    if (host.state !== old.state) {
      lines.push(
        host.state === 'idle'
          ? `host ${formatHostName(host)} is idle: no open stream, no request lately`
          : `host ${formatHostName(host)} is active again`,
      );
    }
    const streams = (list: HostView['listen']) => list.map((s) => `${s.id}:${s.filters.join(',')}`).join(' ');
    if (streams(host.listen) !== streams(old.listen)) {
      lines.push(
        host.listen.length === 0
          ? `host ${formatHostName(host)} has no listen stream open`
          : `host ${formatHostName(host)} listens on ${pluralize(host.listen.length, 'stream')}: ${host.listen
              .map((stream) => (stream.filters.length === 0 ? 'nothing' : stream.filters.join(', ')))
              .join('; ')}`,
      );
    }
    if (host.subscriptions !== old.subscriptions) {
      lines.push(`host ${formatHostName(host)} has ${pluralize(host.subscriptions, 'subscription')}`);
    }
    if (host.reread && !old.reread && host.lastNotification !== undefined) {
      lines.push(`host ${formatHostName(host)} re-read after generation ${host.lastNotification.generation}`);
    }
  }
  for (const host of before) {
    if (!current.has(host.id) && host.name !== undefined) {
      lines.push(`host disconnected: ${formatHostName(host)}`);
    }
  }
  return lines;
}

function formatDiagnostic(diagnostic: Diagnostic): string {
  return `${diagnostic.code} ${formatLocation(diagnostic)} ${diagnostic.severity}: ${diagnostic.message}`;
}

function prefix(line: string): string {
  // Messages quote file content and host names; one event stays one line, and never a terminal escape.
  return `${PLAIN_PREFIX} ${toSingleLine(line)}`;
}
