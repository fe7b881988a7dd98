/**
 * `companion uninstall`: takes back what `companion install` recorded writing in a project — its entries in the
 * hosts' configs and the skill files it published — for the chosen clients, and nothing else.
 */
import { resolve } from 'node:path';
import { CLIENT_IDS, parseClientIds, readHome } from '../../install/clients.js';
import { isDirectory } from '../../install/install-fs.js';
import { formatUninstallReport, uninstall } from '../../install/uninstall.js';
import { EXIT_USAGE, parseCommandArgs, writeUsageError } from '../args.js';
import type { Command } from '../io.js';

const USAGE = `Usage: companion uninstall [--client NAME]... [--project DIR]

Takes back what companion install wrote in this project, as .companion/state.json records
it: each host's entry and every published skill file. A config that is still as install
left it gets its original bytes back (or is deleted when install created it); otherwise
only companion's entry is removed and the rest stays as it is now. An entry or a file you
changed or added since is left in place, and uninstall says so. Everything is taken back
or nothing: a failure undoes what was done.

Options:
  --client NAME   A host to take back; repeat it, or separate names with commas.
                  Default: every host the record names.
  --project DIR   The project to uninstall from. Default: the current directory.
  -h, --help      Show this help.

Exit codes:
  0  taken back (or nothing was installed)
  1  something was left in place or refused, or a write failed (everything was undone)
  2  usage error
`;

const OPTIONS = {
  client: { type: 'string', multiple: true },
  project: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

export const run: Command = async (argv, io) => {
  const args = parseCommandArgs(argv, OPTIONS);
  if (!args.ok) return writeUsageError(io, 'uninstall', args.message, USAGE);
  const { values, positionals } = args;
  if (values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  if (positionals.length > 0) {
    return writeUsageError(
      io,
      'uninstall',
      `unexpected argument '${positionals[0]}' (use --client NAME)`,
      USAGE,
    );
  }
  const parsed = parseClientIds(values.client);
  if ('unknown' in parsed) {
    return writeUsageError(
      io,
      'uninstall',
      `unknown client '${parsed.unknown}': use ${CLIENT_IDS.join(', ')}`,
      USAGE,
    );
  }
  const { clients } = parsed;
  const project = resolve(io.cwd, values.project ?? '.');
  if (!isDirectory(project)) {
    io.stderr.write(`companion uninstall: the project ${project} is not a directory.\n`);
    return EXIT_USAGE;
  }
  const report = uninstall({
    project,
    clients,
    where: { home: readHome(io.env), env: io.env, platform: process.platform },
  });
  io.stdout.write(formatUninstallReport(report));
  return report.failed ? 1 : 0;
};
