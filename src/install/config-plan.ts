/**
 * The host-config half of `companion install`: for each chosen client, plan the new bytes of its config file
 * (clients sharing a file are planned one after the other on the same bytes), decide whose the entry is, and —
 * once every client's plan holds — write each changed file after keeping a backup of it. An entry is companion's
 * only when the record says companion wrote it and its owned fields still have the recorded digest; any other
 * entry under the same name is refused (an identical one is left as it is, and stays the user's).
 */
import { isAbsolute, join, relative, sep } from 'node:path';
import { RUN_PREFIX } from '../core/product.js';
import { buildConfigPath, type ClientDefinition, type HomeContext } from './clients.js';
import { type ConfigText, decodeConfig, digestBytes } from './config-bytes.js';
import { buildEntryDigest, type EditResult, type EntryRead, type EntrySpec } from './config-entry.js';
import { type ConfigFile, readConfigFile } from './config-file.js';
import { type InstallDisk, nodeInstallFs } from './install-fs.js';
import type { Journal } from './journal.js';
import { buildJsonEntryEdit, buildJsonEntryRemoval, readJsonEntry } from './json-config.js';
import { BACKUP_DIR, type ConfigRecord, type EntryRecord, type InstallRecord } from './record.js';
import { findSubstitution, formatEntryCommand, readEntryLaunch } from './server-entry.js';
import { buildTomlEntryEdit, buildTomlEntryRemoval, readTomlEntry } from './toml-config.js';
import { isSameBytes } from './write-file.js';
import { buildYamlEntryEdit, buildYamlEntryRemoval, readYamlEntry } from './yaml-config.js';

/** The format operations of one client's config. */
export interface ConfigFormat {
  read(config: ConfigText, spec: EntrySpec): EntryRead;
  set(config: ConfigText | undefined, spec: EntrySpec, owned: Readonly<Record<string, unknown>>): EditResult;
  remove(config: ConfigText, spec: EntrySpec): EditResult;
}

const FORMATS: Readonly<Record<ClientDefinition['format'], ConfigFormat>> = {
  json: { read: readJsonEntry, set: buildJsonEntryEdit, remove: buildJsonEntryRemoval },
  toml: { read: readTomlEntry, set: buildTomlEntryEdit, remove: buildTomlEntryRemoval },
  yaml: { read: readYamlEntry, set: buildYamlEntryEdit, remove: buildYamlEntryRemoval },
};

export function readFormat(client: ClientDefinition): ConfigFormat {
  return FORMATS[client.format];
}

/** The entry `name` of `client`, as the format modules take it. */
export function buildEntrySpec(client: ClientDefinition, name: string, shownPath: string): EntrySpec {
  return {
    serversKey: client.serversKey,
    key: name,
    ownedFields: client.ownedFields,
    shownPath,
    ...(client.createdWith === undefined ? {} : { createdWith: client.createdWith }),
  };
}

/** One client to configure: its entry's name and owned fields. */
export interface ClientRequest {
  readonly client: ClientDefinition;
  readonly name: string;
  readonly owned: Readonly<Record<string, unknown>>;
  /** The name the record says this client's entry had, when it differs (a `--name` change): removed if ours. */
  readonly previousName?: string;
}

export interface ClientOutcome {
  readonly client: ClientDefinition;
  readonly name: string;
  /** The config file as messages name it; undefined when it has no known place (no HOME). */
  readonly shown?: string;
  readonly status: 'created' | 'updated' | 'unchanged' | 'refused';
  readonly reason?: string;
  /** `unchanged` because an identical entry companion did not write was there: it stays the user's. */
  readonly foreign?: boolean;
  /** The previous name's entry was removed (a `--name` change). */
  readonly renamedFrom?: string;
}

/** The planned change of one config file. */
export interface FilePlan {
  /** Absolute path as the host finds it (the record's key). */
  readonly path: string;
  readonly shown: string;
  readonly file: Extract<ConfigFile, { kind: 'absent' | 'present' }>;
  /** The bytes after every client's edit. */
  readonly after: Uint8Array;
  /** The entries companion owns in the file afterwards. */
  readonly entries: readonly EntryRecord[];
}

export interface ConfigPlan {
  readonly clients: readonly ClientOutcome[];
  /** Every config file in play, changed or not. */
  readonly files: readonly FilePlan[];
}

/** Plans every client's config. Reads only. */
export function planConfigs(
  requests: readonly ClientRequest[],
  project: string,
  where: HomeContext,
  record: InstallRecord | undefined,
  disk: InstallDisk = nodeInstallFs,
): ConfigPlan {
  const files = new Map<string, { plan: FilePlan; bytes: Uint8Array | undefined }>();
  const clients: ClientOutcome[] = [];
  for (const request of requests) {
    const { client, name } = request;
    const path = buildConfigPath(client, project, where, name);
    if (path === undefined) {
      clients.push({
        client,
        name,
        status: 'refused',
        reason: `${client.label} keeps its configuration under your home directory, and HOME is not set.`,
      });
      continue;
    }
    const shown = formatShownPath(path, project, where.home);
    const refusal = findRequestRefusal(request);
    if (refusal !== undefined) {
      clients.push({ client, name, shown, status: 'refused', reason: `${shown}: ${refusal}.` });
      continue;
    }
    let state = files.get(path);
    if (state === undefined) {
      const file = readConfigFile(
        path,
        shown,
        client.scope === 'project' ? project : (where.home ?? project),
        disk,
      );
      if (file.kind === 'refused') {
        clients.push({ client, name, shown, status: 'refused', reason: file.reason });
        continue;
      }
      const recorded = record?.configs.find((c) => c.path === path)?.entries ?? [];
      const bytes = file.kind === 'present' ? file.bytes : undefined;
      state = { plan: { path, shown, file, after: bytes ?? new Uint8Array(), entries: recorded }, bytes };
      files.set(path, state);
    }
    const outcome = planClient(request, shown, state);
    clients.push(outcome);
  }
  return { clients, files: [...files.values()].map((s) => s.plan) };
}

/** Why a client's entry cannot be written at all, whatever its file holds. */
function findRequestRefusal(request: ClientRequest): string | undefined {
  const { client, previousName, name } = request;
  if (previousName !== undefined && client.projectFiles?.some((f) => f.includes('{name}'))) {
    return `${client.label}'s files are named after the entry ("${previousName}"), so --name cannot move them: run \`${RUN_PREFIX} uninstall --client ${client.id}\`, then install again with --name ${name}`;
  }
  if (client.entryNames !== undefined && !client.entryNames.pattern.test(name)) {
    return `${client.label} keeps an entry under a name of ${client.entryNames.rule} only, and would save "${name}" as a second entry: pass --name NAME with such a name`;
  }
  return findSubstitution(client, request.owned);
}

/** Whether the plan changes the file's bytes. */
export function isChanged(plan: FilePlan): boolean {
  return !isSameBytes(plan.after, plan.file.kind === 'present' ? plan.file.bytes : undefined);
}

/** Plans one client on the current bytes of its file, updating them and the owned entries in place. */
function planClient(
  request: ClientRequest,
  shown: string,
  state: { plan: FilePlan; bytes: Uint8Array | undefined },
): ClientOutcome {
  const { client, name, owned } = request;
  const format = readFormat(client);
  const spec = buildEntrySpec(client, name, shown);
  const base = { client, name, shown };
  const entries = [...state.plan.entries];
  const isOurs = (entryName: string, entry: Readonly<Record<string, unknown>>) =>
    entries.some(
      (e) =>
        e.table === client.serversKey &&
        e.name === entryName &&
        e.digest === buildEntryDigest(entry, client.ownedFields),
    );
  let bytes = state.bytes;
  let renamedFrom: string | undefined;

  // A `--name` change: the entry under the old name goes, when it is still the one companion wrote.
  if (request.previousName !== undefined && bytes !== undefined) {
    const old = { ...spec, key: request.previousName };
    const read = format.read(decodeConfig(bytes), old);
    if (read.status === 'found' && isOurs(request.previousName, read.entry)) {
      const removed = format.remove(decodeConfig(bytes), old);
      if (!removed.ok) return { ...base, status: 'refused', reason: removed.reason };
      bytes = removed.bytes;
      renamedFrom = request.previousName;
    }
  }

  const config = bytes === undefined ? undefined : decodeConfig(bytes);
  const read: EntryRead = config === undefined ? { status: 'missing' } : format.read(config, spec);
  if (read.status === 'invalid') return { ...base, status: 'refused', reason: read.reason };
  const wanted = buildEntryDigest(owned, client.ownedFields);
  let status: ClientOutcome['status'] = 'created';
  let foreign = false;
  if (read.status === 'found') {
    const identical = buildEntryDigest(read.entry, client.ownedFields) === wanted;
    if (isOurs(name, read.entry)) status = identical ? 'unchanged' : 'updated';
    else if (identical) {
      status = 'unchanged';
      foreign = true;
    } else {
      return {
        ...base,
        status: 'refused',
        reason: `${shown} already has an entry "${name}" that runs \`${formatEntryCommand(readEntryLaunch(client, read.entry), read.entry)}\`, which companion install did not write. It never changes an entry it did not write: pass --name NAME to add this server under another name, or rename or remove that entry, then run again.`,
      };
    }
  }
  if (status !== 'unchanged') {
    const edited = format.set(config, spec, owned);
    if (!edited.ok) return { ...base, status: 'refused', reason: edited.reason };
    bytes = edited.bytes;
  }
  const kept = entries.filter(
    (e) => !(e.table === client.serversKey && (e.name === name || e.name === renamedFrom)),
  );
  state.plan = {
    ...state.plan,
    after: bytes ?? new Uint8Array(),
    entries: foreign ? kept : [...kept, { table: client.serversKey, name, digest: wanted }],
  };
  state.bytes = bytes;
  return {
    ...base,
    status: status === 'unchanged' && renamedFrom !== undefined ? 'updated' : status,
    ...(foreign ? { foreign } : {}),
    ...(renamedFrom === undefined ? {} : { renamedFrom }),
  };
}

/** A config file written by this run, with where its backup went. */
export interface WrittenFile {
  readonly plan: FilePlan;
  /** Project-relative path of the backup of the bytes it replaced; undefined for a file created. */
  readonly backup?: string;
}

/** Writes each planned file, a backup of its old bytes first, through the journal. */
export function applyConfigPlan(
  plan: ConfigPlan,
  project: string,
  stamp: string,
  journal: Journal,
): WrittenFile[] {
  const written: WrittenFile[] = [];
  for (const file of plan.files) {
    if (!isChanged(file)) continue;
    let backup: string | undefined;
    if (file.file.kind === 'present') {
      backup = `${BACKUP_DIR}/${stamp}/${file.shown.replace(/^~\//, 'home/').replaceAll('/', '__')}`;
      journal.writeFile(join(project, ...backup.split('/')), file.file.bytes, undefined, { mode: 0o600 });
      journal.writeFile(file.file.target, file.after, file.file.bytes, { keep: file.file.ownership });
    } else {
      journal.writeFile(file.file.target, file.after, undefined);
    }
    written.push(backup === undefined ? { plan: file } : { plan: file, backup });
  }
  return written;
}

/**
 * The record of every config after the run: a file written gets its new digest and, the first time, its
 * original (absent, or the backup); a file in play but unchanged keeps its record with the entries it now has;
 * a file out of play keeps its record as it was.
 */
export function buildConfigRecords(
  plan: ConfigPlan,
  written: readonly WrittenFile[],
  previous: readonly ConfigRecord[],
): ConfigRecord[] {
  const records = new Map(previous.map((r) => [r.path, r]));
  for (const file of plan.files) {
    const old = records.get(file.path);
    if (old !== undefined) records.set(file.path, { ...old, entries: file.entries });
  }
  for (const { plan: file, backup } of written) {
    const before = file.file.kind === 'present' ? file.file.bytes : undefined;
    const old = records.get(file.path);
    const original: ConfigRecord['original'] =
      old?.original ??
      (before === undefined || backup === undefined
        ? { absent: true }
        : { backup, digest: digestBytes(before) });
    // Restoring the original loses nothing only while every write started from companion's own last bytes.
    const asLeft =
      before === undefined
        ? old !== undefined && 'absent' in old.original
        : digestBytes(before) === old?.written;
    const pristine = old === undefined ? true : old.pristine && asLeft;
    records.set(file.path, {
      path: file.path,
      entries: file.entries,
      written: digestBytes(file.after),
      original,
      pristine,
    });
  }
  return [...records.values()];
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
