/**
 * `companion install`'s work, apart from argument parsing: configure each chosen host to start this server,
 * publish the skills into every skills directory in play, and record what was done. Every write is skipped
 * when the bytes would not change, so a second run touches nothing and says so.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { Catalog } from '../core/types.js';
import {
  buildConfigPath,
  type ClientDefinition,
  type ClientId,
  type HomeContext,
  isClientId,
  readClient,
} from './clients.js';
import { buildJsonConfigEdit, type ConfigEdit, type EntryEdit, readJsonEntry } from './json-config.js';
import { buildPublication, compareCodePoints } from './publication.js';
import { type DirectoryOutcome, publishSkillsDirectory } from './publish-skills.js';
import {
  formatPublicationRecord,
  type PublicationRecord,
  RECORD_DIR,
  RECORD_FILE,
  RECORD_VERSION,
  readPublicationRecord,
} from './record.js';
import {
  buildServerEntry,
  type Launch,
  namesAbsolutePaths,
  namesCompanion,
  OWN_BIN,
  readLaunch,
} from './server-entry.js';
import { buildTomlConfigEdit, readTomlEntry } from './toml-config.js';
import { readTextIfExists, writeFileIfChanged } from './write-file.js';

export interface InstallInput {
  /** Absolute project directory: where project configs, skills directories and the record go. */
  readonly project: string;
  /** Absolute content root the entries serve. */
  readonly root: string;
  readonly catalog: Catalog;
  /** The clients `--client` named; empty means the recorded ones, else the ones detected in the project. */
  readonly clients: readonly ClientId[];
  /**
   * `--url`: the `companion dev` URL, written for hosts that take one. Undefined keeps what the record says;
   * null (`--stdio`) writes the stdio command.
   */
  readonly url?: string | null;
  readonly where: HomeContext;
  /** Absolute node binary, for hosts that do not inherit the shell's PATH. */
  readonly execPath: string;
  /** The bin entries run when companion is not a project dependency. @default this companion's bin */
  readonly ownBin?: string;
}

export interface ConfigOutcome {
  readonly client: ClientDefinition;
  /** The config file as messages name it; undefined when it has no known place (no HOME). */
  readonly shown?: string;
  readonly status: 'created' | 'updated' | 'unchanged' | 'refused';
  readonly reason?: string;
  /** The written entry names absolute paths inside a project file, so it holds on this machine only. */
  readonly machineSpecific: boolean;
  /** `--url` was given but this host's config takes no URL: the stdio command was written. */
  readonly urlIgnored: boolean;
}

export interface InstallReport {
  readonly server: string;
  readonly clients: readonly ClientId[];
  /** How the clients were chosen, and for `detected` what was found. */
  readonly chosen: { readonly how: 'given' | 'recorded' | 'detected'; readonly found: readonly string[] };
  readonly configs: readonly ConfigOutcome[];
  readonly directories: readonly DirectoryOutcome[];
  /** Clients that read no skills directory, with what they do instead. */
  readonly withoutSkillsDir: readonly { readonly client: ClientDefinition; readonly text: string }[];
  /** Why an earlier record was not used, when it was not. */
  readonly recordNote?: string;
  readonly recordWritten: boolean;
  readonly url?: string;
  /** The URL came from the record, not from `--url`. */
  readonly urlKept: boolean;
  /** Whether anything on disk changed. */
  readonly changed: boolean;
  /** Whether something was refused or skipped: the command exits 1. */
  readonly failed: boolean;
}

/** Directories whose presence in a project says which host is used there, in detection order. */
const DETECTED: readonly (readonly [string, ClientId])[] = [
  ['.claude', 'claude-code'],
  ['.vscode', 'vscode'],
  ['.cursor', 'cursor'],
  ['.codex', 'codex'],
];

/**
 * Configures, publishes and records. Never throws for a host's config it cannot use: that client is refused
 * (`failed`) with the reason, and the others go ahead. Throws only for I/O errors it cannot explain.
 */
export function publishInstall(input: InstallInput): InstallReport {
  const { project, catalog } = input;
  const server = catalog.server.name;
  const publication = buildPublication(catalog);

  // The earlier record counts only when it is this server's: another server's copies carry its own marker.
  const previous = readPublicationRecord(project);
  let recordNote: string | undefined;
  let record: PublicationRecord | undefined;
  if (previous.status === 'invalid') recordNote = `${previous.reason}; writing a new record.`;
  else if (previous.status === 'ok' && previous.record.server !== server) {
    recordNote = `${RECORD_FILE} recorded the server "${previous.record.server}"; it now records "${server}" (the copies "${previous.record.server}" published stay where they are).`;
  } else if (previous.status === 'ok') record = previous.record;

  const recordedClients = (record?.clients ?? []).filter(isClientId);
  let clients: ClientId[];
  let chosen: InstallReport['chosen'];
  if (input.clients.length > 0) {
    clients = [...new Set(input.clients)];
    chosen = { how: 'given', found: [] };
  } else if (recordedClients.length > 0) {
    clients = recordedClients;
    chosen = { how: 'recorded', found: [] };
  } else {
    const found = DETECTED.filter(([dir]) => isDirectory(join(project, dir)));
    clients = found.length > 0 ? found.map(([, id]) => id) : ['generic'];
    chosen = { how: 'detected', found: found.map(([dir]) => `${dir}/`) };
  }

  const url = input.url === undefined ? record?.url : (input.url ?? undefined);
  const launch = readLaunch(project, input.ownBin ?? OWN_BIN);
  const configs = clients.map((id) =>
    writeClientConfig(readClient(id), input, url, launch, server, recordedClients),
  );

  // Every skills directory in play: the chosen clients' (unless refused) and every one recorded before, so a
  // refresh reaches copies made for clients not named this time. Clients sharing a directory publish once.
  const withoutSkillsDir: { client: ClientDefinition; text: string }[] = [];
  const dirs: string[] = [];
  for (const outcome of configs) {
    if (outcome.status === 'refused') continue;
    if (outcome.client.skillsDir === undefined) {
      withoutSkillsDir.push({ client: outcome.client, text: outcome.client.noSkillsDir ?? '' });
    } else dirs.push(outcome.client.skillsDir);
  }
  for (const directory of record?.directories ?? []) dirs.push(directory.path);
  const directories: DirectoryOutcome[] = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    const absolute = join(project, ...dir.split('/'));
    const identity = readIdentity(absolute);
    if (seen.has(dir) || seen.has(identity)) continue;
    seen.add(dir);
    seen.add(identity);
    const recorded = record?.directories.find((d) => d.path === dir)?.skills ?? [];
    directories.push(publishSkillsDirectory(absolute, dir, server, publication.skills, recorded));
  }

  const configured = configs.filter((c) => c.status !== 'refused').map((c) => c.client.id);
  const next: PublicationRecord = {
    version: RECORD_VERSION,
    server,
    root: input.root,
    clients: [...new Set([...recordedClients, ...configured])],
    skills: publication.skills.map((s) => s.id),
    digest: publication.digest,
    directories: directories
      .map((d) => ({ path: d.shown, skills: d.held, digest: d.digest }))
      .sort((a, b) => compareCodePoints(a.path, b.path)),
    ...(url === undefined ? {} : { url }),
  };
  const stateWritten = writeFileIfChanged(
    join(project, ...RECORD_FILE.split('/')),
    formatPublicationRecord(next),
  );
  const ignoreWritten = writeFileIfChanged(join(project, RECORD_DIR, '.gitignore'), '*\n');
  const recordWritten = stateWritten || ignoreWritten;

  const changed =
    recordWritten ||
    configs.some((c) => c.status === 'created' || c.status === 'updated') ||
    directories.some((d) => d.published.length > 0 || d.removed.length > 0);
  const failed =
    configs.some((c) => c.status === 'refused') || directories.some((d) => d.conflicts.length > 0);
  return {
    server,
    clients,
    chosen,
    configs,
    directories,
    withoutSkillsDir,
    ...(recordNote === undefined ? {} : { recordNote }),
    recordWritten,
    ...(url === undefined ? {} : { url }),
    urlKept: input.url === undefined && url !== undefined,
    changed,
    failed,
  };
}

function writeClientConfig(
  client: ClientDefinition,
  input: InstallInput,
  url: string | undefined,
  launch: Launch,
  server: string,
  recordedClients: readonly ClientId[],
): ConfigOutcome {
  const path = buildConfigPath(client, input.project, input.where);
  const base = { client, machineSpecific: false, urlIgnored: url !== undefined && !client.takesUrl };
  if (path === undefined) {
    return {
      ...base,
      status: 'refused',
      reason: `${client.label} keeps its configuration under your home directory, and HOME is not set.`,
    };
  }
  const shown = formatShownPath(path, input.project, input.where.home);
  const owned = buildServerEntry(client, {
    project: input.project,
    root: input.root,
    launch,
    ...(url === undefined ? {} : { url }),
    execPath: input.execPath,
  });
  const edit: EntryEdit = {
    serversKey: client.serversKey,
    key: server,
    owned,
    ownedFields: client.ownedFields,
    // A URL-only entry names no command; it is ours when the record says this client was configured by us.
    isOurs: (entry) =>
      namesCompanion(entry) ||
      (typeof entry.url === 'string' && entry.command === undefined && recordedClients.includes(client.id)),
    shownPath: shown,
  };
  let text: string | undefined;
  try {
    text = readTextIfExists(path);
  } catch (error) {
    return {
      ...base,
      shown,
      status: 'refused',
      reason: `${shown} cannot be read (${(error as Error).message}).`,
    };
  }
  const planned: ConfigEdit =
    client.format === 'json' ? buildJsonConfigEdit(text, edit) : buildTomlConfigEdit(text, edit);
  if (planned.status === 'refused') return { ...base, shown, status: 'refused', reason: planned.reason };
  if (planned.status !== 'unchanged') writeFileIfChanged(path, planned.text);
  return {
    ...base,
    shown,
    status: planned.status,
    machineSpecific: client.scope === 'project' && namesAbsolutePaths(owned),
  };
}

/** Reads back the entry a client's config holds for `server`, for `doctor`. */
export function readClientEntry(
  client: ClientDefinition,
  path: string,
  server: string,
  shown: string,
): ReturnType<typeof readJsonEntry> {
  const text = readTextIfExists(path) ?? '';
  return client.format === 'json'
    ? readJsonEntry(text, client.serversKey, server, shown)
    : readTomlEntry(text, client.serversKey, server, shown);
}

/** A path as messages show it: project-relative inside the project, `~/…` inside home, else absolute. */
export function formatShownPath(path: string, project: string, home: string | undefined): string {
  const inProject = relative(project, path);
  if (inProject !== '' && !inProject.startsWith('..') && !isAbsolute(inProject)) {
    return inProject.split(sep).join('/');
  }
  if (home !== undefined) {
    const inHome = relative(home, path);
    if (inHome !== '' && !inHome.startsWith('..') && !isAbsolute(inHome))
      return `~/${inHome.split(sep).join('/')}`;
  }
  return path;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A directory's real path when it exists, so two names for one directory publish once. */
function readIdentity(path: string): string {
  try {
    return existsSync(path) ? realpathSync.native(path) : path;
  } catch {
    return path;
  }
}

/** What `companion install` prints: one line per thing done or reused, then what is left to do. Pure. */
export function formatInstallReport(report: InstallReport): string {
  const out: string[] = [];
  const key = `"${report.server}"`;
  if (report.chosen.how === 'detected') {
    const labels = report.clients.map((id) => readClient(id).label).join(', ');
    out.push(
      report.chosen.found.length > 0
        ? `No --client given: installing for ${labels} (found ${report.chosen.found.join(', ')}).`
        : `No --client given and no host directory found: installing the generic setup (.mcp.json and .agents/skills).`,
    );
  } else if (report.chosen.how === 'recorded') {
    out.push(`No --client given: refreshing ${report.clients.map((id) => readClient(id).label).join(', ')}.`);
  }
  if (report.recordNote !== undefined) out.push(report.recordNote);
  if (report.urlKept) {
    out.push(`Keeping hosts pointed at ${report.url}, as the last install did (--stdio switches back).`);
  }

  for (const config of report.configs) {
    const label = config.client.label;
    switch (config.status) {
      case 'created':
      case 'updated':
        out.push(`Configured ${key} for ${label} in ${config.shown}.`);
        break;
      case 'unchanged':
        out.push(`Reused ${key} for ${label} in ${config.shown}: unchanged.`);
        break;
      case 'refused':
        out.push(`Refused ${label}: ${config.reason}`);
        break;
    }
    if (config.urlIgnored && config.status !== 'refused') {
      out.push(`${label} takes no URL in its configuration file: wrote the stdio command instead.`);
    }
  }

  for (const dir of report.directories) {
    if (dir.published.length > 0) {
      const also = dir.unchanged.length > 0 ? ` (${dir.unchanged.join(', ')} unchanged)` : '';
      out.push(`Published ${dir.published.join(', ')} into ${dir.shown}${also}.`);
    } else if (dir.unchanged.length > 0) {
      out.push(`Reused ${dir.unchanged.join(', ')} in ${dir.shown}: unchanged.`);
    } else if (dir.conflicts.length === 0) {
      out.push(`No skills to publish into ${dir.shown}: the content publishes none.`);
    }
    for (const id of dir.removed) out.push(`Removed stale ${dir.shown}/${id}.`);
    for (const kept of dir.kept) {
      out.push(
        `Kept ${dir.shown}/${kept.id}: it is no longer published, but it ${kept.reason}, so it may be yours now; remove it by hand if not.`,
      );
    }
    for (const conflict of dir.conflicts) {
      out.push(
        `Skipped ${conflict.id} in ${dir.shown}: ${conflict.reason}. Move it away, then run install again.`,
      );
    }
  }
  for (const { text } of report.withoutSkillsDir) out.push(text);
  if (report.recordWritten) out.push(`Recorded what was published in ${RECORD_FILE}.`);

  const written = report.configs.filter((c) => c.status === 'created' || c.status === 'updated');
  const left = written.map((c) => c.client.remaining);
  const machineSpecific = [...new Set(written.filter((c) => c.machineSpecific).map((c) => c.shown))];
  if (machineSpecific.length > 0) {
    left.push(
      `${machineSpecific.join(', ')} name${machineSpecific.length === 1 ? 's' : ''} absolute paths on this machine: keep ${machineSpecific.length === 1 ? 'it' : 'them'} out of git, or have each machine run \`companion install\`.`,
    );
  }
  if (report.url !== undefined && report.configs.some((c) => c.status !== 'refused' && !c.urlIgnored)) {
    left.push(`${report.url} answers only while \`companion dev\` runs.`);
  }
  if (left.length > 0) out.push('', 'Left to do:', ...[...new Set(left)].map((line) => `  ${line}`));
  if (!report.changed && !report.failed) out.push('', 'Nothing changed: everything was already in place.');
  return `${out.join('\n')}\n`;
}
