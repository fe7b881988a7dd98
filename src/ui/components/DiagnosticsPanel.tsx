/**
 * Problems, live: grouped by file, each new one (absent from the previous generation) marked, fixed ones gone.
 * Files with something new come first, so a fresh mistake is visible even when the panel is clipped.
 */
import type { Severity } from '../../core/diagnostics.js';
import type { DiagnosticsView } from '../dev-state.js';
import { pluralize, toSingleLine } from '../format.js';
import { Panel, type PanelLine } from './Panel.js';
import { Tint, type Tone } from './Tint.js';

const severityTone: Readonly<Record<Severity, Tone>> = { error: 'error', warning: 'warning', info: 'info' };

/** `2 errors · 1 warning · 1 new`, or `none`. */
export function summarizeDiagnostics(view: DiagnosticsView): string {
  const parts: string[] = [];
  if (view.errors > 0) parts.push(pluralize(view.errors, 'error'));
  if (view.warnings > 0) parts.push(pluralize(view.warnings, 'warning'));
  if (view.infos > 0) parts.push(pluralize(view.infos, 'note'));
  if (view.fresh > 0) parts.push(`${view.fresh} new`);
  return parts.length === 0 ? 'none' : parts.join(' · ');
}

/** A row per file, then a row per diagnostic in it. Never empty. */
export function buildDiagnosticLines(view: DiagnosticsView): PanelLine[] {
  const lines: PanelLine[] = [];
  for (const group of view.groups) {
    lines.push({
      key: `file:${group.file}`,
      node: <Tint bold>{group.file === '' ? 'project' : toSingleLine(group.file)}</Tint>,
    });
    for (const item of group.items) {
      const { diagnostic } = item;
      const where =
        diagnostic.line === undefined
          ? ''
          : diagnostic.column === undefined
            ? `${diagnostic.line} `
            : `${diagnostic.line}:${diagnostic.column} `;
      lines.push({
        key: `diagnostic:${item.key}`,
        node: (
          <>
            {'  '}
            {item.isNew ? (
              <Tint tone="fresh" bold>
                new{' '}
              </Tint>
            ) : (
              '    '
            )}
            <Tint tone={severityTone[diagnostic.severity]}>{diagnostic.severity.padEnd(7)}</Tint>
            <Tint dim>{`${diagnostic.code} ${where}`}</Tint>
            {toSingleLine(diagnostic.message)}
          </>
        ),
      });
    }
  }
  if (lines.length === 0) lines.push({ key: 'empty', node: <Tint tone="good">✓ no problems</Tint> });
  return lines;
}

export interface DiagnosticsPanelProps {
  readonly diagnostics: DiagnosticsView;
  readonly rows: number;
  readonly width: number;
  readonly bordered?: boolean;
}

export function DiagnosticsPanel({ diagnostics, rows, width, bordered }: DiagnosticsPanelProps) {
  return (
    <Panel
      title="Diagnostics"
      summary={summarizeDiagnostics(diagnostics)}
      lines={buildDiagnosticLines(diagnostics)}
      rows={rows}
      width={width}
      {...(bordered === undefined ? {} : { bordered })}
    />
  );
}
