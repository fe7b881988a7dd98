/**
 * `companion uninstall`'s work: take back exactly what the record says install wrote, for the chosen clients
 * (all recorded ones by default), and nothing else. A config still as install left it, and never changed by
 * the user between installs, gets its original bytes back (or is deleted when install created it); otherwise
 * only companion's entry is removed from it, by range, and only when it still has the recorded digest and
 * nothing the user added. Published files go when they still hold the bytes install wrote; whatever the user
 * added or changed stays, and the report says so. Planned first, all-or-nothing, rolled back on a failure.
 *
 * Longer than ~400 lines on purpose: the plan of every kind of take-back (a config's bytes, an entry, published
 * files, files beside a config) sits together, so that the all-or-nothing rule can be checked in one reading.
 */
import { join } from 'node:path';
import { planClientFilesTakeBack } from './client-files.js';
import {
  buildConfigPath,
  type ClientDefinition,
  type ClientId,
  type HomeContext,
  isClientId,
  readClient,
} from './clients.js';
import { decodeConfig, digestBytes } from './config-bytes.js';
import { buildEntryDigest, listForeignFields } from './config-entry.js';
import { type ConfigFile, readConfigFile } from './config-file.js';
import { buildEntrySpec, formatShownPath, readFormat } from './config-plan.js';
import { listFilesBelow, readBytesIfExists, readOwnership } from './install-fs.js';
import { readContentArea } from './install-plan.js';
import { createJournal, type Journal, type RollbackReport } from './journal.js';
import { applyDirectoryPlan, type DirectoryPlan, planSkillsDirectory } from './publish-skills.js';
import {
  BACKUP_DIR,
  type ClientRecord,
  type ConfigRecord,
  type EntryRecord,
  formatInstallRecord,
  type InstallRecord,
  RECORD_DIR,
  RECORD_FILE,
  readInstallRecord,
} from './record.js';

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
  /** Files written whole beside a config (Antigravity's plugin manifest): removed, or kept with why. */
  readonly files: {
    readonly removed: readonly string[];
    readonly kept: readonly { readonly path: string; readonly reason: string }[];
  };
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

/** The plan for the configs: the writes, what each file gets, what the record keeps. */
interface ConfigTakeBackPlan {
  readonly steps: Step[];
  readonly configs: ConfigTakeBack[];
  readonly kept: ConfigRecord[];
  readonly refusals: string[];
  /** Every config taken back got its original bytes (or was deleted): the backups are needed no more. */
  readonly allRestored: boolean;
}

export function uninstall(input: UninstallInput): UninstallReport {
  const { project, where } = input;
  const none = {
    unknown: [],
    clients: [],
    configs: [],
    directories: [],
    files: { removed: [], kept: [] },
    remaining: [],
    refusals: [],
  };
  const read = readInstallRecord(project);
  if (read.status === 'absent') {
    return {
      ...none,
      status: 'nothing',
      reason: `nothing is recorded as installed in this project (no ${RECORD_FILE})`,
      recordRemoved: false,
      backupsKept: false,
      failed: false,
    };
  }
  if (read.status !== 'ok') {
    const reason =
      read.status === 'legacy'
        ? `${RECORD_FILE} was written by an older companion that did not record what it wrote, so nothing can be told apart from your own; remove the entries and copies by hand`
        : `${read.reason}; nothing can be removed safely without it`;
    return { ...none, status: 'nothing', reason, recordRemoved: false, backupsKept: false, failed: true };
  }
  const record = read.record;
  const recordedIds = record.clients.map((c) => c.id);
  const unknown = input.clients.filter((id) => !recordedIds.includes(id));
  const selected =
    input.clients.length === 0 ? recordedIds : input.clients.filter((id) => recordedIds.includes(id));
  const remaining = record.clients.filter((c) => !selected.includes(c.id));
  const everything = remaining.length === 0;

  const configPlan = planConfigTakeBack(record, selected, project, where);
  const files = planClientFilesTakeBack(record.files ?? [], selected, project);
  const { plans, kept: keptDirectories } = planDirectoryTakeBack(record, remaining, everything, project);
  const refusals = [
    ...configPlan.refusals,
    ...plans.flatMap((p) =>
      p.outcome.refused === undefined ? [] : [`${p.outcome.shown}: ${p.outcome.refused}`],
    ),
  ];
  const base = {
    unknown,
    clients: selected,
    configs: configPlan.configs,
    directories: plans.map((p) => ({
      shown: p.outcome.shown,
      removed: p.outcome.removed,
      kept: p.outcome.kept,
    })),
    files: { removed: files.removed, kept: files.kept },
    remaining: remaining.map((c) => c.id),
    refusals,
  };
  if (refusals.length > 0) {
    return { ...base, status: 'refused', recordRemoved: false, backupsKept: false, failed: true };
  }

  const dropBackups = configPlan.allRestored && configPlan.kept.length === 0;
  const journal = createJournal();
  try {
    for (const step of configPlan.steps) step(journal);
    for (const file of files.deletes) journal.deleteFile(file.path, file.before, file.keep);
    for (const plan of plans) applyDirectoryPlan(plan, journal);
    // Directories install created that nothing fills any more, deepest first.
    const created = [...record.created].sort((a, b) => b.length - a.length);
    const removed = new Set(created.filter((dir) => journal.removeEmptyDirectory(dir)));
    if (everything) {
      removeRecord(project, dropBackups, journal);
      for (const dir of created) if (!removed.has(dir)) journal.removeEmptyDirectory(dir);
    } else {
      const next: InstallRecord = {
        ...record,
        clients: remaining,
        configs: configPlan.kept,
        directories: [...keptDirectories, ...plans.map((p) => p.record).filter((d) => d.skills.length > 0)],
        created: record.created.filter((dir) => !removed.has(dir)),
        files: [
          ...(record.files ?? []).filter((f) => !selected.includes(f.client)),
          ...(record.files ?? []).filter((f) => files.kept.some((k) => k.path === f.path)),
        ],
      };
      const path = join(project, ...RECORD_FILE.split('/'));
      journal.writeFile(
        path,
        new Uint8Array(Buffer.from(formatInstallRecord(next), 'utf8')),
        readBytesIfExists(path),
      );
    }
  } catch (error) {
    const rollback = journal.rollback();
    const aborted = { reason: (error as Error).message, rollback };
    return { ...base, status: 'aborted', recordRemoved: false, backupsKept: false, aborted, failed: true };
  }
  const failed =
    base.configs.some((c) => c.outcome === 'left') ||
    base.directories.some((d) => d.kept.length > 0) ||
    files.kept.length > 0;
  return {
    ...base,
    status: 'done',
    recordRemoved: everything,
    backupsKept: everything && !dropBackups,
    failed,
  };
}

/**
 * Plans taking back the entries of the selected clients, file by file (an entry a remaining client shares, as
 * Claude Code and the generic setup share `.mcp.json`, stays).
 */
function planConfigTakeBack(
  record: InstallRecord,
  selected: readonly string[],
  project: string,
  where: HomeContext,
): ConfigTakeBackPlan {
  const plan: ConfigTakeBackPlan = { steps: [], configs: [], kept: [], refusals: [], allRestored: true };
  let allRestored = true;
  const entriesOf = (clients: readonly ClientRecord[]) =>
    clients.flatMap((c) => {
      if (!isClientId(c.id)) return [];
      const client = readClient(c.id);
      const path = buildConfigPath(client, project, where, c.name);
      return path === undefined ? [] : [{ path, table: client.serversKey, name: c.name, client }];
    });
  const taken = entriesOf(record.clients.filter((c) => selected.includes(c.id)));
  const staying = entriesOf(record.clients.filter((c) => !selected.includes(c.id)));
  const same = (a: { table: string; name: string }, b: { table: string; name: string }) =>
    a.table === b.table && a.name === b.name;

  for (const config of record.configs) {
    const wanted = taken.filter(
      (t) => t.path === config.path && !staying.some((s) => s.path === t.path && same(s, t)),
    );
    const ours = config.entries.filter((e) => wanted.some((w) => same(w, e)));
    const stays = config.entries.filter((e) => !ours.includes(e));
    if (ours.length === 0) {
      if (stays.length > 0) plan.kept.push(config);
      continue;
    }
    const client = wanted[0]!.client;
    const shown = formatShownPath(config.path, project, where.home);
    const names = ours.map((e) => e.name);
    const file = readConfigFile(
      config.path,
      shown,
      client.scope === 'project' ? project : (where.home ?? project),
    );
    if (stays.length > 0) plan.kept.push({ ...config, entries: stays });
    if (file.kind === 'refused') {
      plan.refusals.push(file.reason);
      continue;
    }
    if (file.kind === 'absent') {
      plan.configs.push({ shown, outcome: 'gone', names, reason: 'the file is gone' });
      continue;
    }
    if (stays.length === 0 && restoreOriginal(config, file, project, shown, names, plan)) continue;
    allRestored = false;
    removeEntries(file, ours, client, shown, plan);
  }
  return { ...plan, allRestored };
}

/**
 * The file as install left it, and never changed by anyone between installs: the original comes back (the
 * backup's bytes, or no file). Answers false when that cannot be done and the entries must go by range.
 */
function restoreOriginal(
  config: ConfigRecord,
  file: Extract<ConfigFile, { kind: 'present' }>,
  project: string,
  shown: string,
  names: readonly string[],
  plan: ConfigTakeBackPlan,
): boolean {
  if (!config.pristine || digestBytes(file.bytes) !== config.written) return false;
  const { target, bytes, ownership } = file;
  if ('absent' in config.original) {
    plan.steps.push((journal) => journal.deleteFile(target, bytes, ownership));
    plan.configs.push({ shown, outcome: 'deleted', names });
    return true;
  }
  const backup = readBytesIfExists(join(project, ...config.original.backup.split('/')));
  if (backup === undefined || digestBytes(backup) !== config.original.digest) return false;
  plan.steps.push((journal) => journal.writeFile(target, backup, bytes, { keep: ownership }));
  plan.configs.push({ shown, outcome: 'restored', names });
  return true;
}

/** Takes companion's entries out of a file by range: each one still as install wrote it, with nothing added. */
function removeEntries(
  file: Extract<ConfigFile, { kind: 'present' }>,
  entries: readonly EntryRecord[],
  client: ClientDefinition,
  shown: string,
  plan: ConfigTakeBackPlan,
): void {
  const format = readFormat(client);
  const { ownedFields } = client;
  const hostValues = { ...client.hostDefaults, ...client.createdWith };
  let bytes = file.bytes;
  const removed: string[] = [];
  const left: string[] = [];
  for (const entry of entries) {
    const spec = { ...buildEntrySpec(client, entry.name, shown), serversKey: entry.table };
    const found = format.read(decodeConfig(bytes), spec);
    if (found.status === 'missing') continue;
    if (found.status === 'invalid') {
      plan.refusals.push(found.reason);
      return;
    }
    const added = listForeignFields(found.entry, ownedFields, hostValues);
    if (added.length > 0) left.push(`"${entry.name}" holds ${added.join(', ')}, which you added`);
    else if (buildEntryDigest(found.entry, ownedFields) !== entry.digest) {
      left.push(`"${entry.name}" changed since install wrote it`);
    } else {
      const result = format.remove(decodeConfig(bytes), spec);
      if (!result.ok) {
        plan.refusals.push(result.reason);
        return;
      }
      bytes = result.bytes;
      removed.push(entry.name);
    }
  }
  if (removed.length > 0) {
    const { target, ownership } = file;
    const before = file.bytes;
    const after = bytes;
    plan.steps.push((journal) => journal.writeFile(target, after, before, { keep: ownership }));
    plan.configs.push({ shown, outcome: 'removed', names: removed });
  }
  if (left.length > 0) plan.configs.push({ shown, outcome: 'left', names: [], reason: left.join('; ') });
  if (removed.length === 0 && left.length === 0) {
    plan.configs.push({
      shown,
      outcome: 'gone',
      names: entries.map((e) => e.name),
      reason: 'the entry is no longer there',
    });
  }
}

/**
 * Plans taking back the recorded copies in every skills directory no remaining client reads (all of them when
 * everything goes). A directory that now resolves into the content is refused: a file there with the bytes
 * install wrote may be the author's own.
 */
function planDirectoryTakeBack(
  record: InstallRecord,
  remaining: readonly ClientRecord[],
  everything: boolean,
  project: string,
): { plans: DirectoryPlan[]; kept: InstallRecord['directories'] } {
  const stillRead = new Set(remaining.flatMap((c) => (isClientId(c.id) ? [readClient(c.id).skillsDir] : [])));
  const kept = everything ? [] : record.directories.filter((d) => stillRead.has(d.path));
  const content = readContentArea(record.root);
  const plans = record.directories
    .filter((d) => !kept.includes(d))
    .map((directory) =>
      planSkillsDirectory({
        absolute: join(project, ...directory.path.split('/')),
        shown: directory.path,
        server: record.server,
        skills: [],
        recorded: directory,
        content,
      }),
    );
  return { plans, kept };
}

/** Removes the record, its `.gitignore` and, when nothing needs them any more, the backups. */
function removeRecord(project: string, dropBackups: boolean, journal: Journal): void {
  const files = [RECORD_FILE, `${RECORD_DIR}/.gitignore`];
  if (dropBackups)
    files.push(...listFilesBelow(join(project, ...BACKUP_DIR.split('/'))).map((f) => `${BACKUP_DIR}/${f}`));
  const dirs = new Set<string>();
  for (const file of files) {
    const path = join(project, ...file.split('/'));
    const bytes = readBytesIfExists(path);
    if (bytes === undefined) continue;
    journal.deleteFile(path, bytes, readOwnership(path));
    for (let dir = join(path, '..'); dir.length > project.length; dir = join(dir, '..')) dirs.add(dir);
  }
  for (const dir of [...dirs].sort((a, b) => b.length - a.length)) journal.removeEmptyDirectory(dir);
}

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
  if (report.files.removed.length > 0) out.push(`Removed ${report.files.removed.join(', ')}.`);
  for (const kept of report.files.kept) {
    out.push(`Kept ${kept.path}: ${kept.reason}; remove it by hand if you do not need it.`);
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
