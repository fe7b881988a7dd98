/**
 * `companion check`: reads a content root, builds the catalog, and prints every diagnostic. The command CI
 * runs; it loads no UI and no MCP code.
 */
import { relative, resolve, sep } from 'node:path';
import { shouldUseColor } from '../../check/color.js';
import { CHECK_FORMATS, formatReport, isCheckFormat } from '../../check/format-report.js';
import { countChecked, summarizeCheck } from '../../check/summary.js';
import { buildCatalog } from '../../core/catalog.js';
import { failsCheck, sortDiagnostics } from '../../core/diagnostics.js';
import { RootError, readSnapshot } from '../../fs/read-snapshot.js';
import { EXIT_USAGE, parseCommandArgs, writeUsageError } from '../args.js';
import type { Command } from '../io.js';

const USAGE = `Usage: companion check [--root DIR] [--format text|json|github] [--strict]

Checks a content repository: the scope file, every document and skill, their links and
their coverage. Prints each problem with its file, line, code and what to do about it.

Options:
  --root DIR        The content repository, holding knowledge/ and skills/.
                    Default: the current directory.
  --format FORMAT   text (default), json (for tools; missing locations are null),
                    or github (GitHub Actions annotations).
  --strict          Fail on warnings too.
  -h, --help        Show this help.

Exit codes:
  0  no errors (and, under --strict, no warnings)
  1  errors found (or warnings under --strict)
  2  usage error, or a root that is missing or cannot be read
`;

const OPTIONS = {
  root: { type: 'string' },
  format: { type: 'string', default: 'text' },
  strict: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/**
 * Exit 0 when the check passes, 1 when it finds errors (or warnings under `--strict`), 2 for a usage error or
 * a root that cannot be read. The report goes to stdout, usage and root errors to stderr.
 */
export const run: Command = async (argv, io) => {
  const args = parseCommandArgs(argv, OPTIONS);
  if (!args.ok) return writeUsageError(io, 'check', args.message, USAGE);
  const { values, positionals } = args;
  if (values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  if (positionals.length > 0) {
    return writeUsageError(io, 'check', `unexpected argument '${positionals[0]}' (use --root DIR)`, USAGE);
  }
  const format = values.format;
  if (!isCheckFormat(format)) {
    return writeUsageError(io, 'check', `unknown format '${format}': use ${CHECK_FORMATS.join(', ')}`, USAGE);
  }
  const strict = values.strict;
  const root = resolve(io.cwd, values.root ?? '.');

  let snapshot: ReturnType<typeof readSnapshot>;
  try {
    snapshot = readSnapshot(root);
  } catch (error) {
    if (!(error instanceof RootError)) throw error;
    io.stderr.write(`companion check: ${error.message}\n`);
    return EXIT_USAGE;
  }

  const { diagnostics } = buildCatalog(snapshot, { strict });
  const sorted = sortDiagnostics(diagnostics);
  const summary = summarizeCheck(sorted, countChecked(snapshot), strict);
  io.stdout.write(
    formatReport(format, sorted, summary, {
      color: format === 'text' && shouldUseColor(io.stdout, io.env),
      filePrefix: format === 'github' ? githubFilePrefix(root, io.env.GITHUB_WORKSPACE ?? io.cwd) : '',
    }),
  );
  return failsCheck(sorted, strict) ? 1 : 0;
};

/**
 * Annotations name files relative to the repository GitHub checked out; diagnostics name them relative to the
 * content root. When the root is a subdirectory of the workspace, its path goes in front.
 */
function githubFilePrefix(root: string, workspace: string): string {
  const path = relative(resolve(workspace), root);
  return path.split(sep).join('/');
}
