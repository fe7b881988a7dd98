/**
 * `companion doctor`: for every host configuration found, whether it starts this server on this content root,
 * whether the published skill copies are fresh, and what the host does not support. Reads only.
 */
import { resolve } from 'node:path';
import { buildDoctorExitCode, readDoctorReport } from '../../install/doctor.js';
import { formatDoctorReport } from '../../install/report/format-doctor.js';
import { parseHostArgs, readWhere, resolveProject } from '../host-command.js';
import type { Command } from '../io.js';
import { readContent, readRecordedRoot } from './install.js';

const USAGE = `Usage: companion doctor [--project DIR] [--root DIR]

Checks every host configuration it finds (the files of \`companion install\`'s clients:
.mcp.json, .vscode/mcp.json, .cursor/mcp.json, .codex/config.toml, ~/.codex/config.toml,
.gemini/settings.json, ~/.config/goose/config.yaml, opencode.json(c),
~/.codeium/windsurf/mcp_config.json, .agents/plugins/NAME/, Claude Desktop's): whether
it starts this server on this content root, whether the skills published into the
project are fresh (against the content, .companion/state.json and the copies on disk),
and what that host is known not to support, with what to do about it.

Options:
  --project DIR   The project to check. Default: the current directory.
  --root DIR      The content repository. Default: the one installed from, else the
                  current directory.
  -h, --help      Show this help.

Exit codes:
  0  everything found is in place
  1  something needs action (each is marked "fix"), or no host configuration was found
  2  usage error, or a root that is missing or is not a content repository
`;

const OPTIONS = {
  project: { type: 'string' },
  root: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Exit 0 when all is in place, 1 when something needs action, 2 for a usage or root error. */
export const run: Command = async (argv, io) => {
  const values = parseHostArgs(argv, io, 'doctor', USAGE, OPTIONS);
  if (typeof values === 'number') return values;
  const project = resolveProject(io, 'doctor', values.project);
  if (typeof project === 'number') return project;
  const root = resolve(io.cwd, values.root ?? readRecordedRoot(project) ?? '.');
  const catalog = readContent('doctor', root, io);
  if (typeof catalog === 'number') return catalog;
  const report = readDoctorReport({
    project,
    root,
    catalog,
    where: readWhere(io),
  });
  io.stdout.write(formatDoctorReport(report));
  return buildDoctorExitCode(report);
};
