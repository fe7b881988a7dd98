/**
 * `companion install`'s work, apart from argument parsing: configure each chosen host to start this server,
 * publish the skills into every skills directory in play, and record what was written. It is all-or-nothing:
 * every change is planned first (reading only); when any client or skills directory is refused, nothing is
 * written; otherwise every write goes through one journal, and a failure rolls back everything this run wrote.
 * A second run finds nothing to change and touches nothing.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '../core/types.js';
import { applyClientFiles, type ClientFilesPlan, planClientFiles } from './client-files.js';
import { type ClientDefinition, type ClientId, type HomeContext, isClientId, readClient } from './clients.js';
import {
  applyConfigPlan,
  buildConfigRecords,
  type ClientOutcome,
  type ClientRequest,
  isChanged,
  planConfigs,
} from './config-plan.js';
import { createJournal, type RollbackReport } from './journal.js';
import { buildPublication, compareCodePoints } from './publication.js';
import {
  applyDirectoryPlan,
  type DirectoryOutcome,
  type DirectoryPlan,
  planSkillsDirectory,
} from './publish-skills.js';
import {
  formatInstallRecord,
  type InstallRecord,
  RECORD_DIR,
  RECORD_FILE,
  RECORD_VERSION,
  readInstallRecord,
} from './record.js';
import {
  buildServerEntry,
  namesAbsolutePaths,
  OWN_BIN,
  readEntryLaunch,
  readLaunch,
} from './server-entry.js';
import { isDirectory, isSameBytes, readBytesIfExists } from './write-file.js';

export interface InstallInput {
  /** Absolute project directory: where project configs, skills directories and the record go. */
  readonly project: string;
  /** Absolute content root the entries serve. */
  readonly root: string;
  readonly catalog: Catalog;
  /** The clients `--client` named; empty means the recorded ones, else the ones detected in the project. */
  readonly clients: readonly ClientId[];
  /** `--name`: the entry name to write under, instead of the recorded one or the server's name. */
  readonly name?: string;
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
  /** Names this run's backups. @default now */
  readonly now?: Date;
}

export interface ConfigOutcome extends ClientOutcome {
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
  /** Config files backed up before they were changed: as shown, and the backup's project-relative path. */
  readonly backups: readonly { readonly shown: string; readonly backup: string }[];
  /** Files written whole beside a config (Antigravity's plugin manifest), project-relative. */
  readonly filesWritten: readonly string[];
  /** Why an earlier record was not used, when it was not. */
  readonly recordNote?: string;
  readonly recordWritten: boolean;
  readonly url?: string;
  /** The URL came from the record, not from `--url`. */
  readonly urlKept: boolean;
  /** Something was refused while planning: nothing was written. */
  readonly refused: boolean;
  /** A write failed: what failed, and the rollback of everything written before it. */
  readonly aborted?: { readonly reason: string; readonly rollback: RollbackReport };
  /** Whether anything on disk changed. */
  readonly changed: boolean;
  /** Whether something was refused, failed or skipped: the command exits 1. */
  readonly failed: boolean;
}

/**
 * Directories whose presence in a project says which host is used there, in detection order. Only hosts whose
 * config lives in the project: a user-level file is never written without --client.
 */
const DETECTED: readonly (readonly [string, ClientId])[] = [
  ['.claude', 'claude-code'],
  ['.vscode', 'vscode'],
  ['.cursor', 'cursor'],
  ['.codex', 'codex'],
  ['.gemini', 'gemini'],
  ['.opencode', 'opencode'],
];

/** Plans, then writes everything or nothing. Never throws for what it finds on disk. */
export function publishInstall(input: InstallInput): InstallReport {
  const { project, catalog } = input;
  const server = catalog.server.name;
  const publication = buildPublication(catalog);

  // The earlier record counts only when it is this server's: another server's copies are its own business.
  const previous = readInstallRecord(project);
  let recordNote: string | undefined;
  let record: InstallRecord | undefined;
  let recordedClients: { id: ClientId; name: string }[] = [];
  let recordedUrl: string | undefined;
  if (previous.status === 'invalid') recordNote = `${previous.reason}; writing a new record.`;
  else if (previous.status !== 'absent' && previous.record.server !== server) {
    recordNote = `${RECORD_FILE} recorded the server "${previous.record.server}"; it now records "${server}" (what "${previous.record.server}" installed stays where it is).`;
  } else if (previous.status === 'legacy') {
    recordNote = `${RECORD_FILE} was written by an older companion that did not record what it wrote; entries and copies it made count as yours unless they are exactly what this install writes.`;
    recordedClients = previous.record.clients.filter(isClientId).map((id) => ({ id, name: server }));
    recordedUrl = previous.record.url;
  } else if (previous.status === 'ok') {
    record = previous.record;
    recordedClients = record.clients.flatMap((c) => (isClientId(c.id) ? [{ id: c.id, name: c.name }] : []));
    recordedUrl = record.url;
  }

  let clients: ClientId[];
  let chosen: InstallReport['chosen'];
  if (input.clients.length > 0) {
    clients = [...new Set(input.clients)];
    chosen = { how: 'given', found: [] };
  } else if (recordedClients.length > 0) {
    clients = recordedClients.map((c) => c.id);
    chosen = { how: 'recorded', found: [] };
  } else {
    const found = DETECTED.filter(([dir]) => isDirectory(join(project, dir)));
    clients = found.length > 0 ? found.map(([, id]) => id) : ['generic'];
    chosen = { how: 'detected', found: found.map(([dir]) => `${dir}/`) };
  }

  const url = input.url === undefined ? recordedUrl : (input.url ?? undefined);
  const launch = readLaunch(project, input.ownBin ?? OWN_BIN);
  const requests: ClientRequest[] = clients.map((id) => {
    const client = readClient(id);
    const recordedName = recordedClients.find((c) => c.id === id)?.name;
    const name = input.name ?? recordedName ?? server;
    const owned = buildServerEntry(client, {
      project,
      root: input.root,
      launch,
      name,
      ...(url === undefined ? {} : { url }),
      execPath: input.execPath,
    });
    return {
      client,
      name,
      owned,
      ...(recordedName !== undefined && recordedName !== name ? { previousName: recordedName } : {}),
    };
  });
  const configPlan = planConfigs(requests, project, input.where, record);
  // The files some clients need beside their config: a refusal there refuses the client.
  const filePlans = new Map<ClientId, ClientFilesPlan>();
  for (const { client, name } of requests) {
    if (client.files === undefined) continue;
    filePlans.set(client.id, planClientFiles(client, name, server, project, record?.files ?? []));
  }
  const configs: ConfigOutcome[] = configPlan.clients.map((outcome) => {
    const { client } = outcome;
    const owned = requests.find((r) => r.client.id === client.id)!.owned;
    const filesRefused = filePlans.get(client.id)?.refused;
    return {
      ...outcome,
      ...(filesRefused === undefined || outcome.status === 'refused'
        ? {}
        : { status: 'refused' as const, reason: `${filesRefused}.` }),
      machineSpecific:
        client.scope === 'project' &&
        client.ignoredByGit !== true &&
        namesAbsolutePaths(readEntryLaunch(client, owned)),
      urlIgnored: url !== undefined && !client.takesUrl,
    };
  });

  // Every skills directory in play: the chosen clients' and every one recorded before, so a refresh reaches
  // copies made for clients not named this time. Two names for one directory publish once.
  const withoutSkillsDir: { client: ClientDefinition; text: string }[] = [];
  const dirs: string[] = [];
  for (const id of clients) {
    const client = readClient(id);
    if (client.skillsDir === undefined) withoutSkillsDir.push({ client, text: client.noSkillsDir ?? '' });
    else dirs.push(client.skillsDir);
  }
  for (const directory of record?.directories ?? []) dirs.push(directory.path);
  const content = readContentArea(input.root);
  const plans: DirectoryPlan[] = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    const absolute = join(project, ...dir.split('/'));
    const identity = readIdentity(absolute);
    if (seen.has(dir) || seen.has(identity)) continue;
    seen.add(dir);
    seen.add(identity);
    const recorded = record?.directories.find((d) => d.path === dir);
    plans.push(
      planSkillsDirectory({
        absolute,
        shown: dir,
        server,
        skills: publication.skills,
        ...(recorded === undefined ? {} : { recorded }),
        content,
      }),
    );
  }
  const directories = plans.map((p) => p.outcome);

  const base = {
    server,
    clients,
    chosen,
    configs,
    directories,
    withoutSkillsDir,
    ...(recordNote === undefined ? {} : { recordNote }),
    ...(url === undefined ? {} : { url }),
    urlKept: input.url === undefined && url !== undefined,
  };
  const refused =
    configs.some((c) => c.status === 'refused') || directories.some((d) => d.refused !== undefined);
  if (refused) {
    return {
      ...base,
      backups: [],
      filesWritten: [],
      recordWritten: false,
      refused: true,
      changed: false,
      failed: true,
    };
  }

  const next: InstallRecord = {
    version: RECORD_VERSION,
    server,
    root: input.root,
    ...(url === undefined ? {} : { url }),
    clients: mergeClients(record?.clients ?? [], requests),
    // What really reached a skills directory, not what the content offered: a skill whose copy was refused
    // or left incomplete everywhere is not listed.
    skills: [
      ...new Set(plans.flatMap((p) => p.record.skills.filter((s) => s.complete).map((s) => s.id))),
    ].sort(compareCodePoints),
    digest: publication.digest,
    configs: [],
    directories: plans
      .map((p) => p.record)
      .filter((d) => d.skills.length > 0)
      .sort((a, b) => compareCodePoints(a.path, b.path)),
    created: [],
    ...mergeFileRecords(record?.files ?? [], filePlans),
  };
  const journal = createJournal();
  const stamp = (input.now ?? new Date()).toISOString().replaceAll(':', '-');
  let written: ReturnType<typeof applyConfigPlan> = [];
  let recordWritten = false;
  try {
    written = applyConfigPlan(configPlan, project, stamp, journal);
    for (const plan of filePlans.values()) applyClientFiles(plan, journal);
    for (const plan of plans) applyDirectoryPlan(plan, journal);
    const complete: InstallRecord = {
      ...next,
      configs: buildConfigRecords(configPlan, written, record?.configs ?? []),
      created: [...new Set([...(record?.created ?? []), ...journal.createdDirectories])],
    };
    recordWritten = writeRecord(project, complete, journal);
  } catch (error) {
    const rollback = journal.rollback();
    return {
      ...base,
      backups: [],
      filesWritten: [],
      recordWritten: false,
      refused: false,
      aborted: { reason: (error as Error).message, rollback },
      changed: rollback.failed.length > 0,
      failed: true,
    };
  }

  const filesWritten = [...filePlans.values()].flatMap((p) => p.written);
  const changed =
    recordWritten ||
    configPlan.files.some(isChanged) ||
    filesWritten.length > 0 ||
    directories.some((d) => d.published.length > 0 || d.removed.length > 0);
  const failed = directories.some((d) => d.conflicts.length > 0 || d.userFiles.length > 0);
  return {
    ...base,
    backups: written.flatMap((w) =>
      w.backup === undefined ? [] : [{ shown: w.plan.shown, backup: w.backup }],
    ),
    filesWritten,
    recordWritten,
    refused: false,
    changed,
    failed,
  };
}

/** Writes the record and its `.gitignore` when their bytes change; answers whether anything was written. */
function writeRecord(
  project: string,
  record: InstallRecord,
  journal: ReturnType<typeof createJournal>,
): boolean {
  let wrote = false;
  for (const [path, text] of [
    [RECORD_FILE, formatInstallRecord(record)],
    [`${RECORD_DIR}/.gitignore`, '*\n'],
  ] as const) {
    const absolute = join(project, ...path.split('/'));
    const before = readBytesIfExists(absolute);
    const bytes = new Uint8Array(Buffer.from(text, 'utf8'));
    if (isSameBytes(before, bytes)) continue;
    journal.writeFile(absolute, bytes, before);
    wrote = true;
  }
  return wrote;
}

/** The recorded client files, those of this run's clients replaced by what their plans keep. */
function mergeFileRecords(
  recorded: NonNullable<InstallRecord['files']>,
  plans: ReadonlyMap<ClientId, ClientFilesPlan>,
): Pick<InstallRecord, 'files'> {
  const files = [
    ...recorded.filter((f) => !plans.has(f.client as ClientId)),
    ...[...plans.values()].flatMap((p) => p.records),
  ].sort((a, b) => compareCodePoints(a.path, b.path));
  return files.length === 0 ? {} : { files };
}

/** The recorded clients with this run's, in the order first configured, each with its current name. */
function mergeClients(
  recorded: readonly { readonly id: string; readonly name: string }[],
  requests: readonly ClientRequest[],
): { id: string; name: string }[] {
  const merged = recorded.map((c) => ({ id: c.id, name: c.name }));
  for (const request of requests) {
    const existing = merged.find((c) => c.id === request.client.id);
    if (existing === undefined) merged.push({ id: request.client.id, name: request.name });
    else existing.name = request.name;
  }
  return merged;
}

/** The real content root and the content directories in it, which install must never write into. */
export function readContentArea(root: string): { root: string; directories: string[] } {
  const rootReal = readIdentity(root);
  const directories = new Set<string>();
  for (const name of ['knowledge', 'skills']) {
    directories.add(join(rootReal, name));
    directories.add(readIdentity(join(rootReal, name)));
  }
  return { root: rootReal, directories: [...directories] };
}

/** A directory's real path when it exists, so two names for one directory publish once. */
function readIdentity(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}
