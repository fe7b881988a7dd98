/**
 * What `install`, `uninstall` and `doctor` share before their own work: strict parsing with `--help`, no
 * positionals, the `--client` names (where the command takes them), the project directory, and where the hosts'
 * user configuration lives. Each step answers the exit code of a usage error instead of its value.
 */
import { resolve } from 'node:path';
import { CLIENT_IDS, type ClientId, type HomeContext, parseClientIds, readHome } from '../install/clients.js';
import { isDirectory } from '../install/install-fs.js';
import { EXIT_USAGE, type ParsedArgs, parseCommandArgs, writeUsageError } from './args.js';
import type { CommandIo } from './io.js';

type Options = Parameters<typeof parseCommandArgs>[1];
type Values<T extends Options> = Extract<ParsedArgs<T>, { ok: true }>['values'];

/** A host command's parsed options, or the exit code once `--help` or a usage error was printed. */
export function parseHostArgs<T extends Options>(
  argv: readonly string[],
  io: CommandIo,
  command: string,
  usage: string,
  options: T,
): Values<T> | number {
  const args = parseCommandArgs(argv, options);
  if (!args.ok) return writeUsageError(io, command, args.message, usage);
  const { values, positionals } = args;
  if ((values as { help?: boolean }).help) {
    io.stdout.write(usage);
    return 0;
  }
  if (positionals.length > 0) {
    const hint = 'client' in options ? ' (use --client NAME)' : '';
    return writeUsageError(io, command, `unexpected argument '${positionals[0]}'${hint}`, usage);
  }
  return values;
}

/** The `--client` names, known and without repeats, or the exit code of the usage error. */
export function parseHostClients(
  given: readonly string[] | undefined,
  io: CommandIo,
  command: string,
  usage: string,
): ClientId[] | number {
  const parsed = parseClientIds(given);
  if ('unknown' in parsed) {
    return writeUsageError(
      io,
      command,
      `unknown client '${parsed.unknown}': use ${CLIENT_IDS.join(', ')}`,
      usage,
    );
  }
  return parsed.clients;
}

/** The absolute `--project` directory (the cwd by default), or the exit code when it is not a directory. */
export function resolveProject(io: CommandIo, command: string, given: string | undefined): string | number {
  const project = resolve(io.cwd, given ?? '.');
  if (!isDirectory(project)) {
    io.stderr.write(`companion ${command}: the project ${project} is not a directory.\n`);
    return EXIT_USAGE;
  }
  return project;
}

/** Where the hosts' user configuration lives: the home directory, the environment and the platform. */
export function readWhere(io: CommandIo): HomeContext {
  return { home: readHome(io.env), env: io.env, platform: process.platform };
}
