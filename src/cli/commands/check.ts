/**
 * `companion check`: reads a content root, builds the catalog, and prints every diagnostic. The command CI
 * runs; it loads no UI and no MCP code.
 */
import { relative, resolve, sep } from 'node:path';
import { shouldUseColor } from '../../check/color.js';
import { formatFixDiff } from '../../check/format-diff.js';
import { CHECK_FORMATS, formatReport, isCheckFormat } from '../../check/format-report.js';
import { countChecked, summarizeCheck } from '../../check/summary.js';
import { failsCheck, sortDiagnostics } from '../../core/diagnostics.js';
import { type FixPlan, planFixes } from '../../core/lint/fixes.js';
import type { BuildResult, Snapshot } from '../../core/types.js';
import { applyFixPlan } from '../../fs/apply-fixes.js';
import { readAndBuildCatalog, readPoolEnv } from '../../fs/build-pool.js';
import { RootError } from '../../fs/read-snapshot.js';
import { EXIT_USAGE, parseCommandArgs, writeUsageError } from '../args.js';
import type { Command } from '../io.js';
import { isYoungGenerationHeld } from '../young-generation.js';

const USAGE = `Usage: companion check [--root DIR] [--format text|json|github] [--strict] [--fix [--dry-run]]

Checks a content repository: the scope file, every document and skill, their links, their
coverage and the lint rules. Prints each problem with its file, line, code and what to do
about it. The scope file's "check" section sets severities and house rules; an inline
<!-- companion-disable CODE --> suppresses a code in one file.

Options:
  --root DIR        The content repository, holding knowledge/ and skills/.
                    Default: the current directory.
  --format FORMAT   text (default), json (for tools; missing locations are null),
                    or github (GitHub Actions annotations).
  --strict          Fail on warnings too.
  --fix             Repair what is mechanical and safe (CRLF line endings, trailing
                    whitespace in front matter, YAML values parsers read differently,
                    a skill name or directory that differs only by case), say on
                    stderr what changed, then check again. Never touches prose.
  --dry-run         With --fix: print the fixes as a unified diff and write nothing.
  -h, --help        Show this help.

Exit codes:
  0  no errors (and, under --strict, no warnings); with --fix --dry-run, nothing to fix
  1  errors found (or warnings under --strict); with --fix --dry-run, fixes to make
  2  usage error, or a root that is missing or cannot be read
`;

const OPTIONS = {
  root: { type: 'string' },
  format: { type: 'string', default: 'text' },
  strict: { type: 'boolean', default: false },
  fix: { type: 'boolean', default: false },
  'dry-run': { type: 'boolean', default: false },
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
  if (values['dry-run'] && !values.fix) {
    return writeUsageError(io, 'check', '--dry-run goes with --fix', USAGE);
  }
  const strict = values.strict;
  const root = resolve(io.cwd, values.root ?? '.');

  const built = readRoot(root, strict, io);
  if (built === undefined) return EXIT_USAGE;
  let { snapshot, result } = built;

  if (values.fix) {
    const plan = planFixes(snapshot, result.diagnostics);
    if (values['dry-run']) {
      io.stdout.write(formatFixDiff(plan));
      io.stderr.write(describePlan(plan));
      return plan.files.length + plan.renames.length > 0 ? 1 : 0;
    }
    const outcome = applyFixPlan(root, plan);
    for (const { path, changes } of outcome.written) {
      for (const change of changes) io.stderr.write(`fixed ${path}: ${change}\n`);
    }
    for (const { from, to, reason } of outcome.renamed) io.stderr.write(`fixed ${from} → ${to}: ${reason}\n`);
    for (const { path, reason } of outcome.refused) io.stderr.write(`not fixed ${path}: ${reason}\n`);
    for (const line of plan.skipped) io.stderr.write(`not fixed ${line}\n`);
    if (outcome.written.length + outcome.renamed.length > 0) {
      const again = readRoot(root, strict, io);
      if (again === undefined) return EXIT_USAGE;
      ({ snapshot, result } = again);
    }
  }

  const { diagnostics } = result;
  const sorted = sortDiagnostics(diagnostics);
  const suppressed = result.suppressed ?? [];
  const summary = summarizeCheck(sorted, countChecked(snapshot), strict, suppressed.length);
  io.stdout.write(
    formatReport(format, sorted, summary, {
      color: format === 'text' && shouldUseColor(io.stdout, io.env),
      filePrefix: format === 'github' ? githubFilePrefix(root, io.env.GITHUB_WORKSPACE ?? io.cwd) : '',
      suppressed,
    }),
  );
  return failsCheck(sorted, strict) ? 1 : 0;
};

/**
 * The snapshot and its build: its per-file work on a second core when the root is large enough and the machine
 * has one (`COMPANION_BUILD_THREADS=0` turns it off; build-pool.ts).
 */
function readRoot(
  root: string,
  strict: boolean | undefined,
  io: Parameters<Command>[1],
): { snapshot: Snapshot; result: BuildResult } | undefined {
  try {
    // `once`: a check reads its result and no build follows (a `--fix` reads the root again from scratch).
    const pool = readPoolEnv(io.env.COMPANION_BUILD_THREADS, true);
    const hold = isYoungGenerationHeld();
    return readAndBuildCatalog(
      root,
      { strict, once: true },
      { pool: pool && { ...pool, holdYoungGeneration: hold } },
    );
  } catch (error) {
    if (!(error instanceof RootError)) throw error;
    io.stderr.write(`companion check: ${error.message}\n`);
    return undefined;
  }
}

/** The one line `--fix --dry-run` ends with on stderr. */
function describePlan(plan: FixPlan): string {
  const changes = plan.files.reduce((n, f) => n + f.changes.length, 0) + plan.renames.length;
  const skipped = plan.skipped.map((line) => `not fixed ${line}\n`).join('');
  if (changes === 0) return `${skipped}companion check: nothing to fix\n`;
  const files = plan.files.length;
  const renames = plan.renames.length;
  const where = [
    ...(files > 0 ? [`${files} file${files === 1 ? '' : 's'}`] : []),
    ...(renames > 0 ? [`${renames} ${renames === 1 ? 'directory' : 'directories'} to rename`] : []),
  ].join(' and ');
  return `${skipped}companion check: --dry-run: ${changes} fix${changes === 1 ? '' : 'es'} in ${where}; run without --dry-run to apply\n`;
}

/**
 * Annotations name files relative to the repository GitHub checked out; diagnostics name them relative to the
 * content root. When the root is a subdirectory of the workspace, its path goes in front.
 */
function githubFilePrefix(root: string, workspace: string): string {
  const path = relative(resolve(workspace), root);
  return path.split(sep).join('/');
}
