/**
 * Applying an install plan: everything or nothing. Every write goes through one journal over the `InstallFs`
 * it is given (the real disk in the CLI, a recording one in tests): each config's backup before its edit, the
 * files beside configs, the skills copies, then the record. A failure rolls back everything this run wrote.
 */
import { join } from 'node:path';
import { applyClientFiles } from './client-files.js';
import { applyConfigPlan, buildConfigRecords, isChanged } from './config-plan.js';
import type { InstallReport } from './install.js';
import { type InstallFs, readBytesIfExists } from './install-fs.js';
import type { InstallPlan } from './install-plan.js';
import { createJournal, type Journal } from './journal.js';
import { applyDirectoryPlan } from './publish-skills.js';
import { formatInstallRecord, type InstallRecord, RECORD_DIR, RECORD_FILE } from './record.js';
import { isSameBytes } from './write-file.js';

/** Writes what `plan` says through `fs`; `stamp` names this run's backup directory. */
export function applyInstall(plan: InstallPlan, fs: InstallFs, stamp: string): InstallReport {
  const { project, summary } = plan;
  if (plan.refused) {
    return {
      ...summary,
      backups: [],
      filesWritten: [],
      recordWritten: false,
      refused: true,
      changed: false,
      failed: true,
    };
  }
  const journal = createJournal(fs);
  let written: ReturnType<typeof applyConfigPlan> = [];
  let recordWritten = false;
  try {
    written = applyConfigPlan(plan.configs, project, stamp, journal);
    for (const files of plan.clientFiles.values()) applyClientFiles(files, journal);
    for (const directory of plan.directories) applyDirectoryPlan(directory, journal);
    const complete: InstallRecord = {
      ...plan.record,
      configs: buildConfigRecords(plan.configs, written, plan.previous?.configs ?? []),
      created: [...new Set([...(plan.previous?.created ?? []), ...journal.createdDirectories])],
    };
    recordWritten = writeRecord(project, complete, journal, fs);
  } catch (error) {
    const rollback = journal.rollback();
    return {
      ...summary,
      backups: [],
      filesWritten: [],
      recordWritten: false,
      refused: false,
      aborted: { reason: (error as Error).message, rollback },
      changed: rollback.failed.length > 0,
      failed: true,
    };
  }

  const filesWritten = [...plan.clientFiles.values()].flatMap((p) => p.written);
  const changed =
    recordWritten ||
    plan.configs.files.some(isChanged) ||
    filesWritten.length > 0 ||
    summary.directories.some((d) => d.published.length > 0 || d.removed.length > 0);
  const failed = summary.directories.some((d) => d.conflicts.length > 0 || d.userFiles.length > 0);
  return {
    ...summary,
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
function writeRecord(project: string, record: InstallRecord, journal: Journal, fs: InstallFs): boolean {
  let wrote = false;
  for (const [path, text] of [
    [RECORD_FILE, formatInstallRecord(record)],
    [`${RECORD_DIR}/.gitignore`, '*\n'],
  ] as const) {
    const absolute = join(project, ...path.split('/'));
    const before = readBytesIfExists(absolute, fs);
    const bytes = new Uint8Array(Buffer.from(text, 'utf8'));
    if (isSameBytes(before, bytes)) continue;
    journal.writeFile(absolute, bytes, before);
    wrote = true;
  }
  return wrote;
}
