/**
 * `companion doctor`'s findings: for every host whose configuration exists, whether it starts this server on
 * this content root, whether its published skill copies are fresh (against the catalog, the record and the
 * bytes on disk), and what the host is known not to support with what to do about it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type ParseError, parse as parseJsonc } from 'jsonc-parser';
import { RUN_PREFIX } from '../core/product.js';
import type { Catalog } from '../core/types.js';
import { buildClientFiles } from './client-files.js';
import {
  buildConfigPath,
  CLIENT_IDS,
  type ClientDefinition,
  type ClientId,
  type HomeContext,
  readClient,
} from './clients.js';
import { decodeConfig } from './config-bytes.js';
import type { EntryRead } from './config-entry.js';
import { buildEntrySpec, formatShownPath, readFormat } from './config-plan.js';
import { checkRecord, checkSkills } from './doctor-copies.js';
import { readBytesIfExists } from './install-fs.js';
import { buildPublication } from './publication.js';
import { readInstallRecord } from './record.js';
import {
  formatEntryCommand,
  isSamePath,
  namesCompanion,
  readEntryLaunch,
  readEntryTarget,
} from './server-entry.js';
import { isSameBytes } from './write-file.js';

export interface DoctorInput {
  /** Absolute project directory. */
  readonly project: string;
  /** Absolute content root the catalog was built from. */
  readonly root: string;
  readonly catalog: Catalog;
  readonly where: HomeContext;
}

/** `ok`: in place; `fix`: needs action (exit 1); `note`: worth knowing, nothing to repair. */
export type CheckLevel = 'ok' | 'fix' | 'note';

export interface DoctorCheck {
  readonly level: CheckLevel;
  readonly text: string;
}

export interface HostReport {
  /** `Claude Code`, or `Claude Code / Generic host` when clients share the file. */
  readonly label: string;
  readonly clients: readonly ClientId[];
  /** The config file as shown. */
  readonly shown: string;
  readonly checks: readonly DoctorCheck[];
}

export interface DoctorReport {
  readonly project: string;
  readonly root: string;
  readonly server: string;
  readonly skills: readonly string[];
  readonly hosts: readonly HostReport[];
  /** The record and the content compared. */
  readonly publication: readonly DoctorCheck[];
  /** How many checks say `fix`. */
  readonly fixes: number;
}

/** Examines the project and the user's host configs. Reads only; never writes. */
export function readDoctorReport(input: DoctorInput): DoctorReport {
  const { project, catalog, where } = input;
  const server = catalog.server.name;
  const publication = buildPublication(catalog);
  const recordRead = readInstallRecord(project);
  const record =
    recordRead.status === 'ok' && recordRead.record.server === server ? recordRead.record : undefined;
  const recorded = new Set<string>(record?.clients.map((c) => c.id) ?? []);

  // Hosts whose config file exists, grouped by file (Claude Code and the generic setup share .mcp.json).
  const groups = new Map<string, ClientId[]>();
  const nameOf = (id: ClientId) => record?.clients.find((c) => c.id === id)?.name ?? server;
  for (const id of CLIENT_IDS) {
    const path = buildConfigPath(readClient(id), project, where, nameOf(id));
    if (path === undefined || !existsSync(path)) continue;
    groups.set(path, [...(groups.get(path) ?? []), id]);
  }
  const dirChecks = new Map<string, DoctorCheck>();
  const hosts: HostReport[] = [];
  for (const [path, candidates] of groups) {
    const clients = pickClients(candidates, recorded, project);
    const first = readClient(clients[0]!);
    const shown = formatShownPath(path, project, where.home);
    const name = nameOf(clients[0]!);
    // Read once: the entry check and the host's server lists judge the same bytes.
    const bytes = readConfigBytes(path);
    const entry = checkEntry(first, clients, bytes, shown, name, input, recorded);
    // A user-level config this project never asked for: say it is there, judge nothing else.
    const unused = entry.length === 1 && entry[0]!.level === 'note';
    const checks: DoctorCheck[] = unused
      ? entry
      : [
          ...entry,
          ...checkClientFiles(first, name, server, project),
          ...checkServerFilters(first, bytes, shown, where, name),
          ...clients.flatMap((id) => checkSkills(readClient(id), input, publication, record, dirChecks)),
          ...checkLimitations(first, catalog),
        ];
    hosts.push({ label: clients.map((id) => readClient(id).label).join(' / '), clients, shown, checks });
  }

  const publicationChecks = checkRecord(
    recordRead,
    record,
    server,
    publication,
    input.root,
    hosts.length > 0,
  );
  const fixes = [...hosts.flatMap((h) => h.checks), ...publicationChecks].filter(
    (c) => c.level === 'fix',
  ).length;
  return {
    project,
    root: input.root,
    server,
    skills: publication.skills.map((s) => s.id),
    hosts,
    publication: publicationChecks,
    fixes,
  };
}

/** Of the clients sharing one file, those the record names; else the one the project's directories suggest. */
function pickClients(
  candidates: readonly ClientId[],
  recorded: ReadonlySet<string>,
  project: string,
): ClientId[] {
  if (candidates.length === 1) return [...candidates];
  const named = candidates.filter((id) => recorded.has(id));
  if (named.length > 0) return named;
  if (candidates.includes('claude-code') && existsSync(join(project, '.claude'))) return ['claude-code'];
  return [candidates.includes('generic') ? 'generic' : candidates[0]!];
}

function checkEntry(
  client: ClientDefinition,
  clients: readonly ClientId[],
  bytes: Uint8Array | Error,
  shown: string,
  server: string,
  input: DoctorInput,
  recorded: ReadonlySet<string>,
): DoctorCheck[] {
  const install = `\`${RUN_PREFIX} install --client ${clients[0]}\``;
  let read: EntryRead;
  try {
    if (bytes instanceof Error) throw bytes;
    read = readFormat(client).read(decodeConfig(bytes), buildEntrySpec(client, server, shown));
  } catch (error) {
    return [{ level: 'fix', text: `${shown} cannot be read (${(error as Error).message}).` }];
  }
  if (read.status === 'invalid') return [{ level: 'fix', text: read.reason }];
  if (read.status === 'missing') {
    const needed = client.scope === 'project' || clients.some((id) => recorded.has(id));
    return [
      {
        level: needed ? 'fix' : 'note',
        text: `${shown} has no entry "${server}", so ${client.label} does not start this server: run ${install} to add it.`,
      },
    ];
  }
  const entry = readEntryLaunch(client, read.entry);
  const checks: DoctorCheck[] = [];
  if (read.entry.disabled === true || read.entry.enabled === false) {
    checks.push({
      level: 'fix',
      text: `The entry "${server}" is turned off in ${shown} (${read.entry.disabled === true ? '"disabled": true' : 'enabled = false'}): turn it on.`,
    });
  }
  const target = readEntryTarget(entry, input.project, input.where.home);
  if (target.kind === 'url') {
    checks.push({
      level: 'ok',
      text: `"${server}" points at ${target.url}, which answers while \`companion dev\` runs (doctor cannot tell which content root it serves).`,
    });
    return checks;
  }
  if (!namesCompanion(entry)) {
    checks.push({
      level: 'fix',
      text: `"${server}" in ${shown} runs \`${formatEntryCommand(entry, read.entry)}\`, which is not companion; install will not touch it. Rename or remove it, then run ${install}.`,
    });
    return checks;
  }
  if (target.root === undefined) {
    checks.push({
      level: 'fix',
      text: `"${server}" passes no --root, so it serves whatever directory ${client.label} starts it in: run ${install}.`,
    });
  } else if (!isSamePath(target.root, input.root)) {
    checks.push({
      level: 'fix',
      text: `"${server}" serves ${target.root}, not this content root (${input.root}): run ${install}, with --root if needed.`,
    });
  }
  if (target.bin !== undefined && !existsSync(target.bin)) {
    checks.push({
      level: 'fix',
      text: `"${server}" runs ${target.bin}, which does not exist: run ${install}.`,
    });
  }
  if (target.npx && !existsSync(join(input.project, 'node_modules', '.bin', 'companion'))) {
    checks.push({
      level: 'fix',
      text: `"${server}" runs companion through npx, but this project's node_modules has no companion: run \`npm install\`, or ${install} to use an absolute path.`,
    });
  }
  if (!checks.some((c) => c.level === 'fix')) {
    checks.push({ level: 'ok', text: `"${server}" runs \`companion serve\` on this content root.` });
  }
  return checks;
}

/**
 * Whether the host's own allow- and denylists of server names (Gemini CLI's `mcp.allowed`, `mcp.excluded`) let it
 * start the entry, in every settings file that may hold them. A file that is absent or does not parse says nothing
 * here: the entry check reports the host's config, and the host itself reports its other files.
 */
function checkServerFilters(
  client: ClientDefinition,
  configBytes: Uint8Array | Error,
  configShown: string,
  where: HomeContext,
  name: string,
): DoctorCheck[] {
  const filters = client.serverFilters;
  if (filters === undefined) return [];
  const files = [
    { shown: configShown, bytes: configBytes },
    ...filters.alsoIn(where).map((file) => ({ shown: file.shown, bytes: readConfigBytes(file.path) })),
  ];
  const checks: DoctorCheck[] = [];
  for (const file of files) {
    const settings = parseJsoncQuietly(file.bytes);
    if (settings === undefined) continue;
    const allowed = readKeyPath(settings, filters.allowed);
    const excluded = readKeyPath(settings, filters.excluded);
    const allowedKey = filters.allowed.join('.');
    const excludedKey = filters.excluded.join('.');
    if (Array.isArray(allowed) && !allowed.includes(name)) {
      checks.push({
        level: 'fix',
        text: `${file.shown} sets ${allowedKey}, and ${client.label} starts only the servers it names: add "${name}" to it.`,
      });
    }
    if (Array.isArray(excluded) && excluded.includes(name)) {
      checks.push({
        level: 'fix',
        text: `${file.shown} lists "${name}" in ${excludedKey}, so ${client.label} never starts it: remove it from there.`,
      });
    }
  }
  return checks;
}

/** A config file's bytes (empty when it is absent), or why it cannot be read. */
function readConfigBytes(path: string): Uint8Array | Error {
  try {
    return readBytesIfExists(path) ?? new Uint8Array();
  } catch (error) {
    return error as Error;
  }
}

/** The JSONC value of `bytes`; undefined when they cannot be read, are empty or do not parse. */
function parseJsoncQuietly(bytes: Uint8Array | Error): unknown {
  if (bytes instanceof Error || bytes.length === 0) return undefined;
  const errors: ParseError[] = [];
  const value = parseJsonc(decodeConfig(bytes).text, errors, { allowTrailingComma: true });
  return errors.length === 0 ? value : undefined;
}

function readKeyPath(value: unknown, keys: readonly string[]): unknown {
  let at = value;
  for (const key of keys) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** Whether the files a client needs beside its config (Antigravity's plugin manifest) are there as written. */
function checkClientFiles(
  client: ClientDefinition,
  name: string,
  server: string,
  project: string,
): DoctorCheck[] {
  const files = buildClientFiles(client, name, server);
  if (files.length === 0) return [];
  const wrong = files.filter(
    (f) => !isSameBytes(readBytesIfExists(join(project, ...f.path.split('/'))), f.bytes),
  );
  if (wrong.length === 0) {
    return [{ level: 'ok', text: `${files.map((f) => f.path).join(' and ')} are as install wrote them.` }];
  }
  return [
    {
      level: 'fix',
      text: `${wrong.map((f) => f.path).join(' and ')} ${wrong.length === 1 ? 'is' : 'are'} missing or changed, and ${client.label} needs ${wrong.length === 1 ? 'it' : 'them'} to load the server: run \`${RUN_PREFIX} install --client ${client.id}\`.`,
    },
  ];
}

function checkLimitations(client: ClientDefinition, catalog: Catalog): DoctorCheck[] {
  const checks: DoctorCheck[] = client.limitations.map((l) => ({
    level: 'note',
    text: `${l.lacks} ${l.todo}`,
  }));
  if (client.id === 'vscode') {
    checks.push({
      level: 'note',
      text: 'VS Code supports resources, templates and list_changed: nothing to work around.',
    });
  }
  if (client.id === 'generic') {
    checks.push({
      level: 'note',
      text: 'companion knows nothing about this host: check its documentation for resources, resource templates and list_changed.',
    });
  }
  const limit = client.descriptionLimit;
  if (limit !== undefined) {
    const long = catalog.skills.filter((s) => s.description.length > limit).map((s) => s.id);
    if (long.length > 0) {
      checks.push({
        level: 'fix',
        text: `${client.label} will cut or refuse the description of ${long.join(', ')} (over ${limit} characters): shorten ${long.length === 1 ? 'it' : 'them'}.`,
      });
    }
  }
  return checks;
}

/** The exit code: 0 when everything found is in place, 1 when something needs action or nothing was found. */
export function buildDoctorExitCode(report: DoctorReport): number {
  return report.fixes > 0 || report.hosts.length === 0 ? 1 : 0;
}
