/**
 * Planning `companion install`: from the catalog, the host definitions and what is on disk (read through an
 * `InstallDisk`, never `node:fs`), every change the run would make — config edits with their backups, files
 * beside a config, skills copies and removals — and the record that results. Nothing here writes;
 * `install-apply.ts` does, and only what this plan says.
 */
import { join } from 'node:path';
import { type ClientFilesPlan, planClientFiles } from './client-files.js';
import { type ClientDefinition, type ClientId, isClientId, readClient } from './clients.js';
import { type ClientRequest, type ConfigPlan, planConfigs } from './config-plan.js';
import type { ConfigOutcome, InstallInput, InstallReport } from './install.js';
import { type InstallDisk, isDirectory, nodeInstallFs, readRealOrSelf } from './install-fs.js';
import { buildPublication, compareCodePoints, type PublishedSkill } from './publication.js';
import { type DirectoryPlan, planSkillsDirectory } from './publish-skills.js';
import { type InstallRecord, RECORD_FILE, RECORD_VERSION, readInstallRecord } from './record.js';
import {
  buildServerEntry,
  namesAbsolutePaths,
  OWN_BIN,
  readEntryLaunch,
  readLaunch,
} from './server-entry.js';

/** What planning alone decides of the report: how the clients were chosen and what each would get. */
export type InstallSummary = Omit<
  InstallReport,
  'backups' | 'filesWritten' | 'recordWritten' | 'refused' | 'aborted' | 'changed' | 'failed'
>;

/** Everything one install run would do. */
export interface InstallPlan {
  readonly project: string;
  readonly summary: InstallSummary;
  /** A client or skills directory was refused: nothing may be written. */
  readonly refused: boolean;
  readonly configs: ConfigPlan;
  /** The files some clients need beside their config, by client. */
  readonly clientFiles: ReadonlyMap<ClientId, ClientFilesPlan>;
  readonly directories: readonly DirectoryPlan[];
  /** The record after the run, but for what only writing learns (config backups, directories created). */
  readonly record: InstallRecord;
  /** The record before the run, when it was this server's. */
  readonly previous?: InstallRecord;
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

/**
 * Plans an install: every config edit, client file, skills copy and removal, and the record that results. Reads
 * only, and only through `disk`; never throws for what it finds there.
 */
export function planInstall(input: InstallInput, disk: InstallDisk = nodeInstallFs): InstallPlan {
  const { project, catalog } = input;
  const server = catalog.server.name;
  const publication = buildPublication(catalog);

  const { record, recordNote, recordedClients, recordedUrl } = readPreviousInstall(project, server, disk);
  const { clients, chosen } = chooseClients(input, recordedClients, disk);

  const url = input.url === undefined ? recordedUrl : (input.url ?? undefined);
  const launch = readLaunch(project, input.ownBin ?? OWN_BIN, disk);
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
  const configPlan = planConfigs(requests, project, input.where, record, disk);
  // The files some clients need beside their config: a refusal there refuses the client.
  const filePlans = new Map<ClientId, ClientFilesPlan>();
  for (const { client, name } of requests) {
    if (client.files === undefined) continue;
    filePlans.set(client.id, planClientFiles(client, name, server, project, record?.files ?? [], disk));
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

  const { plans, withoutSkillsDir } = planSkillsDirectories(input, clients, record, publication.skills, disk);
  const directories = plans.map((p) => p.outcome);

  const summary: InstallSummary = {
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
  return {
    project,
    summary,
    refused,
    configs: configPlan,
    clientFiles: filePlans,
    directories: plans,
    record: next,
    ...(record === undefined ? {} : { previous: record }),
  };
}

/** What the last install recorded, as far as it counts for this one. */
function readPreviousInstall(
  project: string,
  server: string,
  disk: InstallDisk,
): {
  record?: InstallRecord;
  recordNote?: string;
  recordedClients: { id: ClientId; name: string }[];
  recordedUrl?: string;
} {
  // The earlier record counts only when it is this server's: another server's copies are its own business.
  const previous = readInstallRecord(project, disk);
  if (previous.status === 'invalid')
    return { recordNote: `${previous.reason}; writing a new record.`, recordedClients: [] };
  if (previous.status === 'absent') return { recordedClients: [] };
  if (previous.record.server !== server) {
    return {
      recordNote: `${RECORD_FILE} recorded the server "${previous.record.server}"; it now records "${server}" (what "${previous.record.server}" installed stays where it is).`,
      recordedClients: [],
    };
  }
  const url = previous.record.url === undefined ? {} : { recordedUrl: previous.record.url };
  if (previous.status === 'legacy') {
    return {
      recordNote: `${RECORD_FILE} was written by an older companion that did not record what it wrote; entries and copies it made count as yours unless they are exactly what this install writes.`,
      recordedClients: previous.record.clients.filter(isClientId).map((id) => ({ id, name: server })),
      ...url,
    };
  }
  const record = previous.record;
  return {
    record,
    recordedClients: record.clients.flatMap((c) => (isClientId(c.id) ? [{ id: c.id, name: c.name }] : [])),
    ...url,
  };
}

/** The clients this run configures, and how they were chosen: given, recorded, or detected in the project. */
function chooseClients(
  input: InstallInput,
  recordedClients: readonly { readonly id: ClientId }[],
  disk: InstallDisk,
): { clients: ClientId[]; chosen: InstallReport['chosen'] } {
  if (input.clients.length > 0)
    return { clients: [...new Set(input.clients)], chosen: { how: 'given', found: [] } };
  if (recordedClients.length > 0) {
    return { clients: recordedClients.map((c) => c.id), chosen: { how: 'recorded', found: [] } };
  }
  const found = DETECTED.filter(([dir]) => isDirectory(join(input.project, dir), disk));
  return {
    clients: found.length > 0 ? found.map(([, id]) => id) : ['generic'],
    chosen: { how: 'detected', found: found.map(([dir]) => `${dir}/`) },
  };
}

/**
 * Plans every skills directory in play: the chosen clients' and every one recorded before, so a refresh reaches
 * copies made for clients not named this time. Two names for one directory publish once.
 */
function planSkillsDirectories(
  input: InstallInput,
  clients: readonly ClientId[],
  record: InstallRecord | undefined,
  skills: readonly PublishedSkill[],
  disk: InstallDisk,
): { plans: DirectoryPlan[]; withoutSkillsDir: { client: ClientDefinition; text: string }[] } {
  const withoutSkillsDir: { client: ClientDefinition; text: string }[] = [];
  const dirs: string[] = [];
  for (const id of clients) {
    const client = readClient(id);
    if (client.skillsDir === undefined) withoutSkillsDir.push({ client, text: client.noSkillsDir ?? '' });
    else dirs.push(client.skillsDir);
  }
  for (const directory of record?.directories ?? []) dirs.push(directory.path);
  const content = readContentArea(input.root, disk);
  const plans: DirectoryPlan[] = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    const absolute = join(input.project, ...dir.split('/'));
    const identity = readRealOrSelf(absolute, disk);
    if (seen.has(dir) || seen.has(identity)) continue;
    seen.add(dir);
    seen.add(identity);
    const recorded = record?.directories.find((d) => d.path === dir);
    plans.push(
      planSkillsDirectory({
        absolute,
        shown: dir,
        server: input.catalog.server.name,
        skills,
        ...(recorded === undefined ? {} : { recorded }),
        content,
        disk,
      }),
    );
  }
  return { plans, withoutSkillsDir };
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
export function readContentArea(
  root: string,
  disk: InstallDisk = nodeInstallFs,
): { root: string; directories: string[] } {
  const rootReal = readRealOrSelf(root, disk);
  const directories = new Set<string>();
  for (const name of ['knowledge', 'skills']) {
    directories.add(join(rootReal, name));
    directories.add(readRealOrSelf(join(rootReal, name), disk));
  }
  return { root: rootReal, directories: [...directories] };
}
