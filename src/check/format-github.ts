/**
 * The GitHub Actions renderer of `companion check`: one workflow command per diagnostic, which GitHub shows
 * as an annotation on the file and line, then the summary line for the log.
 *
 *     ::error file=knowledge/server-scope.json,line=14,col=7,title=CMP203::Topic "start" names …%0ACorrect the id …
 *
 * Errors become `::error`, warnings `::warning`, infos `::notice`. The message and the hint are the
 * annotation's text, on two lines. Pure: no colour, no I/O.
 */
import type { Diagnostic, Severity } from '../core/diagnostics.js';
import { type FormatOptions, formatSummaryLine } from './format-text.js';
import type { CheckSummary } from './summary.js';

export interface FormatGithubOptions extends FormatOptions {
  /**
   * Put in front of every file (with a `/`), so annotations land on the file when the content root is not the
   * repository root: `docs` turns `knowledge/x.md` into `docs/knowledge/x.md`. @default ''
   */
  readonly filePrefix?: string;
}

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

/** The annotations and the summary line, newline-terminated, in the order given. */
export function formatGithub(
  diagnostics: readonly Diagnostic[],
  summary: CheckSummary,
  options: FormatGithubOptions = {},
): string {
  const lines = diagnostics.map((d) => formatGithubAnnotation(d, options));
  lines.push(formatSummaryLine(summary, { color: false }));
  return `${lines.join('\n')}\n`;
}

/** One diagnostic as a GitHub workflow command, without a trailing newline. */
export function formatGithubAnnotation(diagnostic: Diagnostic, options: FormatGithubOptions = {}): string {
  const prefix = options.filePrefix ?? '';
  const properties: string[] = [];
  if (diagnostic.file !== undefined) {
    const file = prefix === '' ? diagnostic.file : `${prefix.replace(/\/+$/, '')}/${diagnostic.file}`;
    properties.push(`file=${escapeGithubProperty(file)}`);
    // GitHub reads line and col only together with file.
    if (diagnostic.line !== undefined) {
      properties.push(`line=${diagnostic.line}`);
      if (diagnostic.column !== undefined) properties.push(`col=${diagnostic.column}`);
    }
  }
  properties.push(`title=${escapeGithubProperty(diagnostic.code)}`);
  const data = escapeGithubData(`${diagnostic.message}\n${diagnostic.hint}`);
  return `::${COMMAND[diagnostic.severity]} ${properties.join(',')}::${data}`;
}

/** Escapes a workflow command's message: `%`, `\r` and `\n`, as the Actions toolkit does. */
export function escapeGithubData(value: string): string {
  return value.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** Escapes a workflow command's property value: as data, plus `:` and `,`, which delimit properties. */
export function escapeGithubProperty(value: string): string {
  return escapeGithubData(value).replaceAll(':', '%3A').replaceAll(',', '%2C');
}
