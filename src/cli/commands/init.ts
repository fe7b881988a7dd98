/**
 * `companion init [DIR]`: scaffolds a content repository that passes `companion check`, and says what to do
 * next. It never overwrites a file: it refuses a directory that already holds content.
 */
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { formatRunCommand, PACKAGE_NAME, quoteShellArg } from '../../core/product.js';
import { EXIT_USAGE, parseCommandArgs, writeUsageError } from '../args.js';
import type { Command } from '../io.js';
import { buildScaffold, buildServerName, buildServerTitle } from '../templates/scaffold.js';

const USAGE = `Usage: companion init [DIR]

Scaffolds a content repository in DIR (default: the current directory): the scope file
and its JSON Schema, one knowledge document, one skill and the shared skills/base.md.
The result passes \`companion check\`. Existing files are never overwritten: init refuses
a directory that already has knowledge/server-scope.json or a non-empty skills/.

Options:
  -h, --help   Show this help.
`;

const OPTIONS = { help: { type: 'boolean', short: 'h', default: false } } as const;

/** Exit 0 after writing the scaffold; 2 for a usage error or a target it refuses. */
export const run: Command = async (argv, io) => {
  const args = parseCommandArgs(argv, OPTIONS);
  if (!args.ok) return writeUsageError(io, 'init', args.message, USAGE);
  if (args.values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  if (args.positionals.length > 1) {
    return writeUsageError(
      io,
      'init',
      `expected at most one directory, got ${args.positionals.length}`,
      USAGE,
    );
  }
  const target = resolve(io.cwd, args.positionals[0] ?? '.');

  const refusal = findRefusal(target);
  if (refusal !== undefined) {
    io.stderr.write(`companion init: ${refusal}\n`);
    return EXIT_USAGE;
  }

  const name = buildServerName(basename(target));
  const files = buildScaffold({ name, title: buildServerTitle(name) });
  const conflicts = files.filter((file) => existsSync(join(target, file.path)));
  if (conflicts.length > 0) {
    io.stderr.write(
      `companion init: ${target} already has ${conflicts.map((f) => f.path).join(', ')}; init never overwrites a file.\n`,
    );
    return EXIT_USAGE;
  }

  for (const file of files) {
    const path = join(target, file.path);
    mkdirSync(dirname(path), { recursive: true });
    // `wx` fails rather than overwrite, should a file appear between the check above and this write.
    writeFileSync(path, file.content, { flag: 'wx' });
  }

  const width = Math.max(...files.map((f) => f.path.length));
  // The way back to the target from where init ran: relative when it lies below, absolute when that is shorter.
  const below = relative(io.cwd, target);
  const shown = below.startsWith('..') || isAbsolute(below) ? target : below;
  io.stdout.write(
    [
      `Created a companion content repository in ${target}:`,
      '',
      ...files.map((f) => `  ${f.path.padEnd(width)}  ${f.purpose}`),
      '',
      'Next:',
      ...formatSteps([
        ...(shown === '' ? [] : [{ command: `cd ${quoteShellArg(shown)}` }]),
        ...(hasOwnInstall(target)
          ? []
          : [
              ...(existsSync(join(target, 'package.json')) ? [] : [{ command: 'npm init -y' }]),
              {
                command: `npm install --save-dev ${PACKAGE_NAME}`,
                purpose: 'put companion into this repository',
              },
            ]),
        {
          command: formatRunCommand('check'),
          purpose: 'check everything (add --strict in CI to fail on warnings too)',
        },
        {
          command: formatRunCommand('dev'),
          purpose: 'serve it live to your MCP host and watch coverage as you edit',
        },
      ]),
      '',
      'Then make it yours: edit knowledge/server-scope.json (your editor completes and checks it',
      'from server-scope.schema.json), write documents under knowledge/documents/<scope>/ and',
      'skills under skills/<name>/, and name each one from a topic in the scope file.',
      '',
    ].join('\n'),
  );
  return 0;
};

/** `  command   what it does`, the commands padded to one width. */
function formatSteps(steps: readonly { command: string; purpose?: string }[]): string[] {
  const width = Math.max(...steps.map(({ command }) => command.length));
  return steps.map(({ command, purpose }) =>
    purpose === undefined ? `  ${command}` : `  ${command.padEnd(width)}   ${purpose}`,
  );
}

/**
 * Whether `npx companion` run in `target` finds this package: it is installed in `target` or a directory above
 * (npx looks in every node_modules up the tree).
 */
function hasOwnInstall(target: string): boolean {
  for (let dir = target; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', PACKAGE_NAME, 'package.json'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/** Why `target` cannot take a scaffold, or `undefined` when it can (missing directories are created). */
function findRefusal(target: string): string | undefined {
  if (!existsSync(target)) return undefined;
  if (!statSync(target).isDirectory()) return `${target} is not a directory.`;
  if (existsSync(join(target, 'knowledge', 'server-scope.json'))) {
    return `${target} already has knowledge/server-scope.json; init only scaffolds a new content repository. Run \`${formatRunCommand('check')}\` there instead.`;
  }
  const skills = join(target, 'skills');
  if (existsSync(skills) && (!statSync(skills).isDirectory() || readdirSync(skills).length > 0)) {
    return `${target} already has a non-empty skills/; init never overwrites content. Pick an empty directory.`;
  }
  return undefined;
}
