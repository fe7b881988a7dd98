/**
 * Every finding, grouped by file, files with an error first: one row each, and the selected one expanded — its
 * location, code, whole message and hint, and what Enter does. A file whose item is held says what hosts get
 * meanwhile. The window scrolls to keep the selection in view.
 */
import { memo, useMemo } from 'react';
import type { Severity } from '../../core/diagnostics.js';
import { type Row, Rows } from '../components/Rows.js';
import { Tint, type Tone } from '../components/Tint.js';
import type { DiagnosticsView, DiagnosticView } from '../dev-state.js';
import { formatHeld, formatLocation, pluralize, toSingleLine, wrapText } from '../format.js';

const severityTone: Readonly<Record<Severity, Tone>> = { error: 'error', warning: 'warning', info: 'info' };
const severityMark: Readonly<Record<Severity, string>> = { error: '✗', warning: '!', info: 'i' };

/** The findings in the order ↑/↓ walk them. */
export function listFindings(view: DiagnosticsView): readonly DiagnosticView[] {
  return view.groups.flatMap((group) => group.items);
}

/** `2 errors · 1 warning · 1 new`, or `no problems`. */
export function summarizeDiagnostics(view: DiagnosticsView): string {
  const parts: string[] = [];
  if (view.errors > 0) parts.push(pluralize(view.errors, 'error'));
  if (view.warnings > 0) parts.push(pluralize(view.warnings, 'warning'));
  if (view.infos > 0) parts.push(pluralize(view.infos, 'note'));
  if (view.fresh > 0) parts.push(`${view.fresh} new`);
  return parts.length === 0 ? 'no problems' : parts.join(' · ');
}

export interface ProblemsViewProps {
  readonly diagnostics: DiagnosticsView;
  /** Index into `listFindings`. */
  readonly selected: number;
  /** What Enter does, e.g. `Enter opens it in vim`. */
  readonly enterHint: string;
  readonly width: number;
  readonly rows: number;
}

export const ProblemsView = memo(function ProblemsView({
  diagnostics,
  selected,
  enterHint,
  width,
  rows,
}: ProblemsViewProps) {
  const { lines, start, end } = useMemo(
    () => buildProblemRows(diagnostics, selected, enterHint, width),
    [diagnostics, selected, enterHint, width],
  );
  return <Rows lines={windowRows(lines, start, end, rows)} rows={rows} width={width} />;
});

/** The rows of the view, and where the selected finding's block starts and ends. */
export function buildProblemRows(
  view: DiagnosticsView,
  selected: number,
  enterHint: string,
  width: number,
): { lines: Row[]; start: number; end: number } {
  const lines: Row[] = [{ key: 'summary', node: <Tint bold>{summarizeDiagnostics(view)}</Tint> }];
  if (view.groups.length === 0) {
    lines.push({ key: 'none', node: <Tint tone="good">✓ every validation passes</Tint> });
    return { lines, start: 0, end: 0 };
  }
  let index = 0;
  let start = 0;
  let end = 0;
  const indent = '     ';
  const textWidth = Math.max(20, width - indent.length);
  for (const group of view.groups) {
    lines.push({
      key: `file:${group.file}`,
      node: (
        <>
          <Tint bold>{group.file === '' ? 'project' : toSingleLine(group.file)}</Tint>
          {group.held ? <Tint tone="warning">{`  held: ${formatHeld(group.held)}`}</Tint> : ''}
        </>
      ),
    });
    for (const item of group.items) {
      const { diagnostic } = item;
      const tone = severityTone[diagnostic.severity];
      const where =
        diagnostic.line === undefined
          ? ''
          : diagnostic.column === undefined
            ? `${diagnostic.line}`
            : `${diagnostic.line}:${diagnostic.column}`;
      if (index !== selected) {
        lines.push({
          key: `d:${item.key}`,
          node: (
            <>
              {'  '}
              <Tint tone={tone}>{severityMark[diagnostic.severity]}</Tint>
              {item.isNew ? (
                <Tint tone="fresh" bold>
                  {' new'}
                </Tint>
              ) : (
                ''
              )}
              <Tint dim>{` ${where === '' ? '' : `${where} `}${diagnostic.code} `}</Tint>
              {toSingleLine(diagnostic.message)}
            </>
          ),
        });
      } else {
        start = lines.length;
        lines.push({
          key: `d:${item.key}`,
          node: (
            <>
              <Tint tone="accent" bold>
                {'▸ '}
              </Tint>
              <Tint tone={tone} bold>{`${severityMark[diagnostic.severity]} ${diagnostic.severity}`}</Tint>
              {item.isNew ? (
                <Tint tone="fresh" bold>
                  {' new'}
                </Tint>
              ) : (
                ''
              )}
              <Tint bold>{` ${diagnostic.code}`}</Tint>
              {`  ${formatLocation(diagnostic)}`}
            </>
          ),
        });
        wrapText(diagnostic.message, textWidth).forEach((text, i) => {
          lines.push({ key: `d:${item.key}:m${i}`, node: `${indent}${text}` });
        });
        wrapText(`hint: ${diagnostic.hint}`, textWidth).forEach((text, i) => {
          lines.push({ key: `d:${item.key}:h${i}`, node: <Tint tone="good">{`${indent}${text}`}</Tint> });
        });
        if (diagnostic.file !== undefined) {
          lines.push({ key: `d:${item.key}:enter`, node: <Tint dim>{`${indent}${enterHint}`}</Tint> });
        }
        end = lines.length - 1;
      }
      index++;
    }
  }
  return { lines, start, end };
}

/**
 * The `rows` rows to show: the selected block whole when it fits (with its file's row above it when there is
 * room), the top of the list otherwise; `… N above` and `… N more` where rows are cut.
 */
export function windowRows(lines: readonly Row[], start: number, end: number, rows: number): Row[] {
  if (lines.length <= rows) return [...lines];
  let offset = Math.max(0, Math.min(end - rows + 2, start - 1));
  offset = Math.min(offset, lines.length - rows + 1);
  if (offset <= 1) offset = 0;
  const visible = lines.slice(offset, offset + rows);
  const out = [...visible];
  if (offset > 0) out[0] = { key: '…above', node: <Tint dim>{`… ${offset + 1} rows above`}</Tint> };
  const below = lines.length - (offset + rows);
  if (below > 0) out[rows - 1] = { key: '…below', node: <Tint dim>{`… ${below + 1} rows below`}</Tint> };
  return out;
}
