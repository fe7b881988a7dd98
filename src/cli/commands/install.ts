/**
 * `companion install`: configures MCP hosts to start this server and publishes its skills where each host
 * looks, recording what it did in `.companion/state.json`. Running it again changes nothing and says so.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildCatalog } from '../../core/catalog.js';
import type { Catalog } from '../../core/types.js';
import { RootError, readSnapshot } from '../../fs/read-snapshot.js';
import { publishInstall } from '../../install/install.js';
import { isDirectory } from '../../install/install-fs.js';
import { readInstallRecord } from '../../install/record.js';
import { formatInstallReport } from '../../install/report/format-install.js';
import { DEFAULT_URL } from '../../install/server-entry.js';
import { EXIT_USAGE, parseWholeNumber, writeUsageError } from '../args.js';
import { parseHostArgs, parseHostClients, readWhere, resolveProject } from '../host-command.js';
import type { Command, CommandIo } from '../io.js';

const USAGE = `Usage: companion install [--client NAME]... [--project DIR] [--root DIR] [--name NAME]
                         [--url [--port N] | --stdio]

Configures each host to start this server (an entry named after the server in the
host's MCP configuration) and publishes every published skill into the host's skills
directory, with references/base.md written in and a .gitignore that keeps the copy out
of git. Records what it wrote in .companion/state.json, and keeps a backup of every
config it changes in .companion/backups/. It changes only what it wrote: an entry or a
file it did not write (or that you changed since) is never overwritten or deleted, and
fields it does not own are kept. Every host is changed or none: when one is refused,
nothing is written, and a failure undoes what was written. A second run changes
nothing; \`companion uninstall\` takes it all back.

Clients:
  claude-code     .mcp.json (mcpServers) and .claude/skills
  claude-desktop  claude_desktop_config.json in your user configuration; no skills directory
  vscode          .vscode/mcp.json (servers) and .github/skills
  cursor          .cursor/mcp.json (mcpServers) and .cursor/skills
  codex           .codex/config.toml ([mcp_servers.NAME]) and .agents/skills
  codex-user      ~/.codex/config.toml (or $CODEX_HOME) and .agents/skills
  gemini          .gemini/settings.json (mcpServers) and .agents/skills
  goose           ~/.config/goose/config.yaml (extensions) and .agents/skills
  opencode        opencode.json or opencode.jsonc (mcp) and .opencode/skills
  copilot-cli     .mcp.json (mcpServers) and .github/skills
  windsurf        ~/.codeium/windsurf/mcp_config.json (mcpServers) and .windsurf/skills
  antigravity     .agents/plugins/NAME/ (a workspace plugin: plugin.json, mcp_config.json)
                  and .agents/skills
  generic         .mcp.json (mcpServers) and .agents/skills

Options:
  --client NAME   A host to configure; repeat it, or separate names with commas.
                  Default: the clients installed before; else the hosts whose directory
                  the project has (.claude/, .vscode/, .cursor/, .codex/, .gemini/,
                  .opencode/); else generic.
  --project DIR   The project to install into. Default: the current directory.
  --root DIR      The content repository to serve. Default: the one installed from
                  before, else the current directory.
  --name NAME     The entry name in each host's configuration, when the server's own
                  name is taken by an entry companion did not write. Later runs keep it.
  --url           Point hosts that take a URL at \`companion dev\` instead of starting
                  a server of their own (${DEFAULT_URL}). Later runs keep
                  doing so until --stdio.
  --port N        The port \`companion dev\` listens on, for --url. Default: 3917.
  --stdio         Write the command that starts a server again (undoes --url).
  -h, --help      Show this help.

Exit codes:
  0  installed, or nothing to change
  1  something was refused (nothing was written), a write failed (everything was
     undone), or a skill could not be published in full
  2  usage error, or a root that is missing or is not a content repository
`;

const OPTIONS = {
  client: { type: 'string', multiple: true },
  project: { type: 'string' },
  root: { type: 'string' },
  name: { type: 'string' },
  url: { type: 'boolean', default: false },
  stdio: { type: 'boolean', default: false },
  port: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Exit 0 when installed (or already in place), 1 when something was refused, 2 for a usage or root error. */
export const run: Command = async (argv, io) => {
  const values = parseHostArgs(argv, io, 'install', USAGE, OPTIONS);
  if (typeof values === 'number') return values;
  const clients = parseHostClients(values.client, io, 'install', USAGE);
  if (typeof clients === 'number') return clients;
  let url: string | null | undefined = values.stdio ? null : undefined;
  if (values.url && values.stdio)
    return writeUsageError(io, 'install', 'use --url or --stdio, not both', USAGE);
  if (values.port !== undefined && !values.url) {
    return writeUsageError(io, 'install', '--port goes with --url', USAGE);
  }
  if (values.url) {
    const port = values.port === undefined ? 3917 : parseWholeNumber(values.port, 1, 65535);
    if (port === undefined) {
      return writeUsageError(io, 'install', `--port must be a port number, got '${values.port}'`, USAGE);
    }
    url = `http://127.0.0.1:${port}/mcp`;
  }

  if (values.name !== undefined && !isEntryName(values.name)) {
    return writeUsageError(
      io,
      'install',
      `--name must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit, got '${values.name}'`,
      USAGE,
    );
  }

  const project = resolveProject(io, 'install', values.project);
  if (typeof project === 'number') return project;
  const root = resolve(io.cwd, values.root ?? readRecordedRoot(project) ?? '.');
  const catalog = readContent('install', root, io);
  if (typeof catalog === 'number') return catalog;

  const report = publishInstall({
    project,
    root,
    catalog,
    clients,
    ...(values.name === undefined ? {} : { name: values.name }),
    ...(url === undefined ? {} : { url }),
    where: readWhere(io),
    execPath: process.execPath,
  });
  io.stdout.write(formatInstallReport(report));
  return report.failed ? 1 : 0;
};

/** The root the last install published from, when it still exists. */
export function readRecordedRoot(project: string): string | undefined {
  const read = readInstallRecord(project);
  return (read.status === 'ok' || read.status === 'legacy') && isDirectory(read.record.root)
    ? read.record.root
    : undefined;
}

/** An entry name every host accepts (Claude Code's `mcp add` allows no more). */
export function isEntryName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name);
}

/**
 * Reads and builds the content root for `install` and `doctor`; answers the exit code when it cannot (a root
 * that is missing, unreadable or not a content repository). Errors in the content are reported, not fatal:
 * what is published is what the server serves.
 */
export function readContent(command: string, root: string, io: CommandIo): Catalog | number {
  let snapshot: ReturnType<typeof readSnapshot>;
  try {
    snapshot = readSnapshot(root);
  } catch (error) {
    if (!(error instanceof RootError)) throw error;
    io.stderr.write(`companion ${command}: ${error.message}\n`);
    return EXIT_USAGE;
  }
  if (!existsSync(join(root, 'knowledge', 'server-scope.json')) && !existsSync(join(root, 'skills'))) {
    io.stderr.write(
      `companion ${command}: ${root} is not a content repository (it has neither knowledge/server-scope.json nor skills/); pass --root DIR.\n`,
    );
    return EXIT_USAGE;
  }
  const { catalog, diagnostics } = buildCatalog(snapshot);
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  if (errors > 0) {
    io.stderr.write(
      `companion ${command}: the content has ${errors} error${errors === 1 ? '' : 's'} (run \`companion check\`); working with what the server serves.\n`,
    );
  }
  return catalog;
}
