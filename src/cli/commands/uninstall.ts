/**
 * `companion uninstall`: takes back what `companion install` recorded writing in a project — its entries in the
 * hosts' configs and the skill files it published — for the chosen clients, and nothing else.
 */
import { formatUninstallReport, uninstall } from '../../install/uninstall.js';
import { parseHostArgs, parseHostClients, readWhere, resolveProject } from '../host-command.js';
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
  const values = parseHostArgs(argv, io, 'uninstall', USAGE, OPTIONS);
  if (typeof values === 'number') return values;
  const clients = parseHostClients(values.client, io, 'uninstall', USAGE);
  if (typeof clients === 'number') return clients;
  const project = resolveProject(io, 'uninstall', values.project);
  if (typeof project === 'number') return project;
  const report = uninstall({ project, clients, where: readWhere(io) });
  io.stdout.write(formatUninstallReport(report));
  return report.failed ? 1 : 0;
};
