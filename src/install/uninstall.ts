/**
 * `companion uninstall`'s work: take back exactly what the record says install wrote, for the chosen clients
 * (all recorded ones by default), and nothing else. A config still as install left it, and never changed by
 * the user between installs, gets its original bytes back (or is deleted when install created it); otherwise
 * only companion's entry is removed from it, by range, and only when it still has the recorded digest and
 * nothing the user added. Published files go when they still hold the bytes install wrote; whatever the user
 * added or changed stays, and the report says so. Planned first, all-or-nothing, rolled back on a failure.
 */
import fs from 'node:fs';
import { join } from 'node:path';
import { buildConfigPath, type ClientId, type HomeContext, isClientId, readClient } from './clients.js';
import { decodeConfig, digestBytes } from './config-bytes.js';
import { buildEntryDigest, listForeignFields } from './config-entry.js';
import { readConfigFile } from './config-file.js';
import { formatShownPath, readFormat } from './config-plan.js';
import { readContentArea } from './install.js';
import { createJournal, type Journal, type RollbackReport } from './journal.js';
import { applyDirectoryPlan, type DirectoryPlan, planSkillsDirectory } from './publish-skills.js';
import {
  BACKUP_DIR,
  type ConfigRecord,
  formatInstallRecord,
  type InstallRecord,
  RECORD_DIR,
  RECORD_FILE,
  readInstallRecord,
} from './record.js';
import { readBytesIfExists, readOwnership } from './write-file.js';

export interface UninstallInput {
  readonly project: string;
  /** The clients `--client` named; empty means every recorded one. */
  readonly clients: readonly ClientId[];
  readonly where: HomeContext;
}

/** What happened to one config file. */
export interface ConfigTakeBack {
  readonly shown: string;
  readonly outcome: 'restored' | 'deleted' | 'removed' | 'left' | 'gone';
  /** The entry names concerned. */
  readonly names: readonly string[];
  readonly reason?: string;
}

export interface UninstallReport {
  /** `nothing`: no record to act on (`reason` says why); `refused`: planning found a reason not to write. */
  readonly status: 'nothing' | 'refused' | 'aborted' | 'done';
  readonly reason?: string;
  /** Named clients the record does not know. */
  readonly unknown: readonly string[];
  readonly clients: readonly string[];
  readonly configs: readonly ConfigTakeBack[];
  readonly directories: readonly {
    readonly shown: string;
    readonly removed: readonly string[];
    readonly kept: readonly { readonly id: string; readonly reason: string }[];
  }[];
  /** Clients that stay installed. */
  readonly remaining: readonly string[];
  /** The record was removed with `.companion/` (everything taken back), else rewritten. */
  readonly recordRemoved: boolean;
  /** Backups kept because some config could not get its original bytes back. */
  readonly backupsKept: boolean;
  readonly refusals: readonly string[];
  readonly aborted?: { readonly reason: string; readonly rollback: RollbackReport };
  /** Something was left or refused: exit 1. */
  readonly failed: boolean;
}

type Step = (journal: Journal) => void;

export function uninstall(input: UninstallInput): UninstallReport {
  const { project, where } = input;
  const empty = {
    unknown: [],
    clients: [],
    configs: [],
    directories: [],
    remaining: [],
    recordRemoved: false,
    backupsKept: false,
    refusals: [],
  };
  const read = readInstallRecord(project);
  if (read.status === 'absent') {
    return {
      ...empty,
      status: 'nothing',
      reason: `nothing is recorded as installed in this project (no ${RECORD_FILE})`,
      failed: false,
    };
  }
  if (read.status !== 'ok') {
    const reason =
      read.status === 'legacy'
        ? `${RECORD_FILE} was written by an older companion that did not record what it wrote, so nothing can be told apart from your own; remove the entries and copies by hand`
        : `${read.reason}; nothing can be removed safely without it`;
    return { ...empty, status: 'nothing', reason, failed: true };
  }
  const record = read.record;
  const recordedIds = record.clients.map((c) => c.id);
  const unknown = input.clients.filter((id) => !recordedIds.includes(id));
  const selected =
    input.clients.length === 0 ? recordedIds : input.clients.filter((id) => recordedIds.includes(id));
  const remaining = record.clients.filter((c) => !selected.includes(c.id));

  // Entries to take back: each selected client's, unless a remaining client uses the same one.
  const steps: Step[] = [];
  const refusals: string[] = [];
  const configs: ConfigTakeBack[] = [];
  const keptConfigs: ConfigRecord[] = [];
  let allRestored = true;
  const byPath = new Map<
    string,
    { table: string; name: string; ownedFields: readonly string[]; client: ClientId }[]
  >();
  const keep = new Set<string>();
  for (const c of record.clients) {
    if (!isClientId(c.id)) continue;
    const client = readClient(c.id);
    const path = buildConfigPath(client, project, where);
    if (path === undefined) continue;
    const key = `${path}\0${client.serversKey}\0${c.name}`;
    if (!selected.includes(c.id)) {
      keep.add(key);
      continue;
    }
    const list = byPath.get(path) ?? [];
    if (!list.some((e) => e.table === client.serversKey && e.name === c.name)) {
      list.push({ table: client.serversKey, name: c.name, ownedFields: client.ownedFields, client: c.id });
    }
    byPath.set(path, list);
  }
  for (const config of record.configs) {
    const wanted = (byPath.get(config.path) ?? []).filter(
      (e) => !keep.has(`${config.path}\0${e.table}\0${e.name}`),
    );
    const ours = config.entries.filter((e) => wanted.some((w) => w.table === e.table && w.name === e.name));
    const stays = config.entries.filter((e) => !ours.includes(e));
    if (ours.length === 0) {
      keepConfig(config, stays);
      continue;
    }
    const client = readClient(wanted[0]!.client);
    const shown = formatShownPath(config.path, project, where.home);
    const names = ours.map((e) => e.name);
    const file = readConfigFile(
      config.path,
      shown,
      client.scope === 'project' ? project : (where.home ?? project),
    );
    if (file.kind === 'refused') {
      refusals.push(file.reason);
      continue;
    }
    if (file.kind === 'absent') {
      configs.push({ shown, outcome: 'gone', names, reason: 'the file is gone' });
      continue;
    }
    // As install left it, never changed by anyone else since the first install: the original comes back.
    if (stays.length === 0 && config.pristine && digestBytes(file.bytes) === config.written) {
      if ('absent' in config.original) {
        const { target, bytes, ownership } = file;
        steps.push((journal) => journal.deleteFile(target, bytes, ownership));
        configs.push({ shown, outcome: 'deleted', names });
        continue;
      }
      const backup = readBytesIfExists(join(project, ...config.original.backup.split('/')));
      if (backup !== undefined && digestBytes(backup) === config.original.digest) {
        const { target, bytes, ownership } = file;
        steps.push((journal) => journal.writeFile(target, backup, bytes, { keep: ownership }));
        configs.push({ shown, outcome: 'restored', names });
        continue;
      }
    }
    allRestored = false;
    // Changed since: take out only companion's entries, by range, when they are still what it wrote.
    const format = readFormat(client);
    let bytes = file.bytes;
    const removed: string[] = [];
    const left: string[] = [];
    const leftEntries = [...stays];
    for (const entry of ours) {
      const spec = {
        serversKey: entry.table,
        key: entry.name,
        ownedFields: wanted.find((w) => w.name === entry.name)!.ownedFields,
        shownPath: shown,
      };
      const found = format.read(decodeConfig(bytes), spec);
      if (found.status === 'missing') continue;
      if (found.status === 'invalid') {
        refusals.push(found.reason);
        continue;
      }
      const added = listForeignFields(found.entry, spec.ownedFields);
      if (buildEntryDigest(found.entry, spec.ownedFields) !== entry.digest || added.length > 0) {
        left.push(
          added.length > 0
            ? `"${entry.name}" holds ${added.join(', ')}, which you added`
            : `"${entry.name}" changed since install wrote it`,
        );
        continue;
      }
      const result = format.remove(decodeConfig(bytes), spec);
      if (!result.ok) {
        refusals.push(result.reason);
        continue;
      }
      bytes = result.bytes;
      removed.push(entry.name);
    }
    if (removed.length > 0) {
      const { target, ownership } = file;
      const before = file.bytes;
      const after = bytes;
      steps.push((journal) => journal.writeFile(target, after, before, { keep: ownership }));
      configs.push({ shown, outcome: 'removed', names: removed });
    }
    if (left.length > 0) configs.push({ shown, outcome: 'left', names: [], reason: left.join('; ') });
    if (removed.length === 0 && left.length === 0)
      configs.push({ shown, outcome: 'gone', names, reason: 'the entry is no longer there' });
    if (leftEntries.length > 0) keepConfig(config, leftEntries);
  }
  function keepConfig(config: ConfigRecord, entries: ConfigRecord['entries']): void {
    if (entries.length > 0) keptConfigs.push({ ...config, entries });
  }

  // Skills directories only selected clients use: every recorded copy goes, as far as it is companion's.
  const stillUsed = new Set(
    remaining.flatMap((c) => (isClientId(c.id) ? [readClient(c.id).skillsDir ?? ''] : [])),
  );
  const selectedDirs = new Set(
    selected.flatMap((id) => (isClientId(id) ? [readClient(id).skillsDir ?? ''] : [])),
  );
  const content = readContentArea(record.root);
  const plans: DirectoryPlan[] = [];
  const keptDirectories = record.directories.filter(
    (d) => stillUsed.has(d.path) || !selectedDirs.has(d.path),
  );
  for (const directory of record.directories) {
    if (keptDirectories.includes(directory)) continue;
    const plan = planSkillsDirectory({
      absolute: join(project, ...directory.path.split('/')),
      shown: directory.path,
      server: record.server,
      skills: [],
      recorded: directory,
      content,
    });
    if (plan.outcome.refused !== undefined) refusals.push(`${directory.path}: ${plan.outcome.refused}`);
    plans.push(plan);
  }

  const base = { unknown, clients: selected, configs, remaining: remaining.map((c) => c.id), refusals };
  const directories = plans.map((p) => ({
    shown: p.outcome.shown,
    removed: p.outcome.removed,
    kept: p.outcome.kept,
  }));
  if (refusals.length > 0) {
    return {
      ...base,
      status: 'refused',
      directories,
      recordRemoved: false,
      backupsKept: false,
      failed: true,
    };
  }

  const everything = remaining.length === 0;
  const journal = createJournal();
  try {
    for (const step of steps) step(journal);
    for (const plan of plans) applyDirectoryPlan(plan, journal);
    // Directories install created that nothing fills any more, deepest first.
    const created = [...record.created].sort((a, b) => b.length - a.length);
    const removed = new Set(created.filter((dir) => journal.removeEmptyDirectory(dir)));
    if (everything) {
      removeRecord(project, allRestored && keptConfigs.length === 0, journal);
      for (const dir of created) if (!removed.has(dir)) journal.removeEmptyDirectory(dir);
    } else {
      const next: InstallRecord = {
        ...record,
        clients: remaining,
        configs: keptConfigs,
        directories: [...keptDirectories, ...plans.map((p) => p.record).filter((d) => d.skills.length > 0)],
        created: record.created.filter((dir) => !removed.has(dir)),
      };
      const path = join(project, ...RECORD_FILE.split('/'));
      const bytes = new Uint8Array(Buffer.from(formatInstallRecord(next), 'utf8'));
      journal.writeFile(path, bytes, readBytesIfExists(path));
    }
  } catch (error) {
    const rollback = journal.rollback();
    return {
      ...base,
      status: 'aborted',
      directories,
      recordRemoved: false,
      backupsKept: false,
      aborted: { reason: (error as Error).message, rollback },
      failed: true,
    };
  }
  const failed = configs.some((c) => c.outcome === 'left') || directories.some((d) => d.kept.length > 0);
  return {
    ...base,
    status: 'done',
    directories,
    recordRemoved: everything,
    backupsKept: everything && !(allRestored && keptConfigs.length === 0),
    failed,
  };
}

/** Removes the record, its `.gitignore` and, when nothing needs them any more, the backups. */
function removeRecord(project: string, dropBackups: boolean, journal: Journal): void {
  const files = [RECORD_FILE, `${RECORD_DIR}/.gitignore`];
  const backups = join(project, ...BACKUP_DIR.split('/'));
  const dirs: string[] = [];
  if (dropBackups) {
    const walk = (dir: string) => {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.isFile()) files.push(path.slice(project.length + 1));
      }
      dirs.push(dir);
    };
    walk(backups);
  }
  for (const file of files) {
    const path = join(project, ...file.split(/[\\/]/));
    const bytes = readBytesIfExists(path);
    if (bytes === undefined) continue;
    journal.deleteFile(path, bytes, readOwnership(path));
  }
  for (const dir of dirs) journal.removeEmptyDirectory(dir);
  journal.removeEmptyDirectory(join(project, RECORD_DIR));
}

/** What `companion uninstall` prints. Pure. */
export function formatUninstallReport(report: UninstallReport): string {
  const out: string[] = [];
  for (const id of report.unknown) {
    out.push(
      `${isClientId(id) ? readClient(id).label : id} was not installed here (${RECORD_FILE} does not name it): nothing to take back for it.`,
    );
  }
  if (report.status === 'nothing') {
    out.push(`Nothing to uninstall: ${report.reason}.`);
    return `${out.join('\n')}\n`;
  }
  if (report.status === 'refused') {
    for (const refusal of report.refusals) out.push(`Refused: ${refusal}`);
    out.push(
      '',
      'Nothing was changed: uninstall takes back everything or nothing. Fix what is refused above, then run again.',
    );
    return `${out.join('\n')}\n`;
  }
  if (report.status === 'aborted') {
    const { reason, rollback } = report.aborted!;
    out.push(`Could not finish: ${reason}.`);
    out.push(
      rollback.failed.length === 0
        ? 'Undid everything this run had changed: every file is as it was before.'
        : `Undid what it could; these could not be put back: ${rollback.failed.map((f) => `${f.path} (${f.reason})`).join(', ')}.`,
    );
    return `${out.join('\n')}\n`;
  }
  for (const config of report.configs) {
    const names = config.names.map((n) => `"${n}"`).join(', ');
    switch (config.outcome) {
      case 'restored':
        out.push(`Restored ${config.shown} as it was before install, byte for byte.`);
        break;
      case 'deleted':
        out.push(`Deleted ${config.shown}: install had created it, and it holds nothing else.`);
        break;
      case 'removed':
        out.push(
          `Removed ${names} from ${config.shown}; the rest of it stays as it is now (it changed since install).`,
        );
        break;
      case 'left':
        out.push(
          `Left ${config.shown} as it is: ${config.reason}. Remove the entry by hand if you do not need it.`,
        );
        break;
      case 'gone':
        out.push(`Nothing to remove from ${config.shown}: ${config.reason}.`);
        break;
    }
  }
  for (const dir of report.directories) {
    if (dir.removed.length > 0) out.push(`Removed ${dir.removed.join(', ')} from ${dir.shown}.`);
    for (const kept of dir.kept) {
      out.push(
        `Kept ${dir.shown}/${kept.id}: ${kept.reason.replace(/^it is no longer published, but /, '')}; remove it by hand if you do not need it.`,
      );
    }
  }
  if (report.recordRemoved) {
    out.push(
      report.backupsKept
        ? `Removed the record; the backups of your configs stay in ${BACKUP_DIR}/.`
        : `Removed ${RECORD_DIR}/: nothing install wrote is left.`,
    );
  } else if (report.remaining.length > 0) {
    out.push(
      `Still installed for ${report.remaining.map((id) => (isClientId(id) ? readClient(id).label : id)).join(', ')} (${RECORD_FILE} keeps them).`,
    );
  }
  return `${out.join('\n')}\n`;
}
