/**
 * The human renderer of `companion check`: one line per diagnostic, its hint under it, a one-line summary.
 *
 *     knowledge/server-scope.json:14:7  error    CMP203  Topic "start" names document "any/gone", which …
 *       Correct the id (the path below knowledge/documents/ without .md), or write the document.
 *
 *     ✖ 1 error in 3 documents and 1 skill
 *
 * Pure: diagnostics and counts in, a string out. Colour is an option, decided by the caller.
 */

import type { Diagnostic, Severity } from '../core/diagnostics.js';
import { formatCount } from '../core/plural.js';
import { createPalette, type Palette } from './color.js';
import type { CheckSummary } from './summary.js';

/** Options every check renderer takes. */
export interface FormatOptions {
  /** Wrap severity, code and summary in ANSI colour. Only the text renderer uses it. @default false */
  readonly color?: boolean;
}

export interface FormatDiagnosticOptions extends FormatOptions {
  /** Pad the location to this width so the columns after it line up within a group. @default 0 */
  readonly locationWidth?: number;
}

// The longest severity word; padding to it lines up the codes.
const SEVERITY_WIDTH = 'warning'.length;
const INDENT = '  ';

/**
 * `file:line:col`, `file:line` or `file`, whichever parts the diagnostic has; `undefined` without a file.
 * A column without a line is not shown, because `file:col` would read as a line.
 */
export function formatLocation(diagnostic: Diagnostic): string | undefined {
  const { file, line, column } = diagnostic;
  if (file === undefined) return undefined;
  if (line === undefined) return file;
  return column === undefined ? `${file}:${line}` : `${file}:${line}:${column}`;
}

/**
 * One diagnostic as text, without a trailing newline: `location  severity  CODE  message`, then the hint on
 * the next line, indented. A multi-line message or hint keeps its line breaks, each line indented. The
 * location is left out when the diagnostic names no file. Used by `companion check` and by anything else
 * that shows a diagnostic as plain text (the terminal UI, logs).
 */
export function formatDiagnostic(diagnostic: Diagnostic, options: FormatDiagnosticOptions = {}): string {
  const palette = createPalette(options.color ?? false);
  const location = formatLocation(diagnostic);
  const [firstLine = '', ...moreLines] = diagnostic.message.split(/\r?\n/);
  const head = [
    ...(location === undefined ? [] : [location.padEnd(options.locationWidth ?? 0)]),
    // Pad outside the colour so the escape codes never count towards the width.
    styleSeverity(diagnostic.severity, palette)(diagnostic.severity) +
      ' '.repeat(Math.max(0, SEVERITY_WIDTH - diagnostic.severity.length)),
    palette.dim(diagnostic.code),
    firstLine,
  ].join('  ');
  const body = [...moreLines, ...diagnostic.hint.split(/\r?\n/)].map((line) =>
    line === '' ? '' : `${INDENT}${line}`,
  );
  return [head.trimEnd(), ...body].join('\n');
}

/**
 * The closing line: `✔ no problems in 14 documents and 5 skills`, `⚠ 1 warning in …` when the check passes
 * with findings, `✖ 2 errors, 1 warning in …` when it fails, each followed by ` (3 suppressed)` when inline
 * directives suppressed findings. No trailing newline.
 */
export function formatSummaryLine(summary: CheckSummary, options: FormatOptions = {}): string {
  const palette = createPalette(options.color ?? false);
  const items = [formatCount(summary.documents, 'document'), formatCount(summary.skills, 'skill')];
  // Prompts are named only where there are any: content without prompts reads as it always did.
  if (summary.prompts > 0) items.push(formatCount(summary.prompts, 'prompt'));
  const scope = `in ${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
  const findings = [
    ...(summary.errors > 0 ? [formatCount(summary.errors, 'error')] : []),
    ...(summary.warnings > 0 ? [formatCount(summary.warnings, 'warning')] : []),
    ...(summary.infos > 0 ? [`${summary.infos} info`] : []),
  ];
  const suppressed = summary.suppressed ? ` (${summary.suppressed} suppressed)` : '';
  if (!summary.ok) return `${palette.red('✖')} ${findings.join(', ')} ${scope}${suppressed}`;
  if (findings.length > 0) return `${palette.yellow('⚠')} ${findings.join(', ')} ${scope}${suppressed}`;
  return `${palette.green('✔')} no problems ${scope}${suppressed}`;
}

/**
 * The whole text report, newline-terminated: the diagnostics in the order given (pass them through
 * `sortDiagnostics`), a blank line between files, then a blank line and the summary line. With no
 * diagnostics, only the summary line.
 */
export function formatText(
  diagnostics: readonly Diagnostic[],
  summary: CheckSummary,
  options: FormatOptions = {},
): string {
  const blocks: string[] = [];
  for (const group of groupByFile(diagnostics)) {
    const locationWidth = Math.max(...group.map((d) => formatLocation(d)?.length ?? 0));
    blocks.push(group.map((d) => formatDiagnostic(d, { ...options, locationWidth })).join('\n'));
  }
  blocks.push(formatSummaryLine(summary, options));
  return `${blocks.join('\n\n')}\n`;
}

/** Consecutive runs of the same file, keeping the given order (sorted input gives one run per file). */
function groupByFile(diagnostics: readonly Diagnostic[]): Diagnostic[][] {
  const groups: Diagnostic[][] = [];
  let current: Diagnostic[] | undefined;
  for (const diagnostic of diagnostics) {
    if (current === undefined || current[0]?.file !== diagnostic.file) {
      current = [];
      groups.push(current);
    }
    current.push(diagnostic);
  }
  return groups;
}

function styleSeverity(severity: Severity, palette: Palette): (text: string) => string {
  if (severity === 'error') return palette.red;
  if (severity === 'warning') return palette.yellow;
  return palette.cyan;
}
