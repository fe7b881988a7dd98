/**
 * What `companion install` prints: how the clients were chosen, one line per thing done or reused, every
 * refusal with its reason, the backups made, and what is left for the user. Pure.
 */

import { RUN_PREFIX } from '../../core/product.js';
import { readClient } from '../clients.js';
import type { InstallReport } from '../install.js';
import { RECORD_FILE } from '../record.js';

export function formatInstallReport(report: InstallReport): string {
  const out: string[] = [];
  const key = (name: string) => `"${name}"`;
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

  if (report.refused) {
    for (const config of report.configs) {
      if (config.status === 'refused') out.push(`Refused ${config.client.label}: ${config.reason}`);
    }
    for (const dir of report.directories) {
      if (dir.refused !== undefined) out.push(`Refused ${dir.shown}: ${dir.refused}.`);
    }
    out.push(
      '',
      'Nothing was installed: install changes every host or none. Fix what is refused above, or leave those clients out (--client), then run again.',
    );
    return `${out.join('\n')}\n`;
  }
  if (report.aborted !== undefined) {
    const { reason, rollback } = report.aborted;
    out.push(`Could not finish: ${reason}.`);
    if (rollback.failed.length === 0) {
      out.push(
        `Undid everything this run had written (${rollback.undone.length} change${rollback.undone.length === 1 ? '' : 's'}): every file is as it was before. Nothing was installed.`,
      );
    } else {
      out.push('Undid what it could; these could not be put back:');
      for (const failure of rollback.failed) out.push(`  ${failure.path}: ${failure.reason}`);
    }
    return `${out.join('\n')}\n`;
  }

  for (const backup of report.backups)
    out.push(`Backed up ${backup.shown} to ${backup.backup} before changing it.`);
  for (const config of report.configs) {
    const label = config.client.label;
    if (config.renamedFrom !== undefined) {
      out.push(
        `Removed ${key(config.renamedFrom)} from ${config.shown}: ${label} now uses ${key(config.name)}.`,
      );
    }
    switch (config.status) {
      case 'created':
      case 'updated':
        out.push(`Configured ${key(config.name)} for ${label} in ${config.shown}.`);
        break;
      case 'unchanged':
        out.push(
          config.foreign
            ? `Reused ${key(config.name)} for ${label} in ${config.shown}: an identical entry was already there. companion did not write it, so uninstall will leave it.`
            : `Reused ${key(config.name)} for ${label} in ${config.shown}: unchanged.`,
        );
        break;
      case 'refused':
        break;
    }
    if (config.urlIgnored) {
      out.push(`${label} takes no URL in its configuration file: wrote the stdio command instead.`);
    }
  }

  if (report.filesWritten.length > 0) out.push(`Wrote ${report.filesWritten.join(', ')}.`);
  for (const dir of report.directories) {
    if (dir.published.length > 0) {
      const also = dir.unchanged.length > 0 ? ` (${dir.unchanged.join(', ')} unchanged)` : '';
      out.push(`Published ${dir.published.join(', ')} into ${dir.shown}${also}.`);
    } else if (dir.unchanged.length > 0) {
      out.push(`Reused ${dir.unchanged.join(', ')} in ${dir.shown}: unchanged.`);
    } else if (dir.conflicts.length === 0 && dir.removed.length === 0 && dir.kept.length === 0) {
      out.push(`No skills to publish into ${dir.shown}: the content publishes none.`);
    }
    for (const { id, files } of dir.userFiles) {
      const list = files.map((f) => `${dir.shown}/${id}/${f}`).join(', ');
      out.push(
        `Kept ${list}: ${files.length === 1 ? 'it' : 'they'} changed since companion published ${files.length === 1 ? 'it' : 'them'}, or companion never wrote ${files.length === 1 ? 'it' : 'them'}. The copy of ${id} is not what the server publishes until you move ${files.length === 1 ? 'it' : 'them'} away and run install again.`,
      );
    }
    for (const id of dir.removed) out.push(`Removed stale ${dir.shown}/${id}.`);
    for (const kept of dir.kept) {
      out.push(`Kept ${dir.shown}/${kept.id}: ${kept.reason}; remove it by hand if you do not need it.`);
    }
    for (const conflict of dir.conflicts) {
      out.push(
        `Skipped ${conflict.id} in ${dir.shown}: ${conflict.reason}. Move it away, then run install again.`,
      );
    }
  }
  for (const { text } of report.withoutSkillsDir) out.push(text);
  if (report.recordWritten) out.push(`Recorded what was written in ${RECORD_FILE}.`);

  const written = report.configs.filter((c) => c.status === 'created' || c.status === 'updated');
  const left = written.map((c) => c.client.remaining);
  const machineSpecific = [...new Set(written.filter((c) => c.machineSpecific).map((c) => c.shown))];
  if (machineSpecific.length > 0) {
    left.push(
      `${machineSpecific.join(', ')} name${machineSpecific.length === 1 ? 's' : ''} absolute paths on this machine: keep ${machineSpecific.length === 1 ? 'it' : 'them'} out of git, or have each machine run \`${RUN_PREFIX} install\`.`,
    );
  }
  if (report.url !== undefined && report.configs.some((c) => !c.urlIgnored)) {
    left.push(`${report.url} answers only while \`companion dev\` runs.`);
  }
  if (left.length > 0) out.push('', 'Left to do:', ...[...new Set(left)].map((line) => `  ${line}`));
  if (!report.changed && !report.failed) out.push('', 'Nothing changed: everything was already in place.');
  return `${out.join('\n')}\n`;
}
