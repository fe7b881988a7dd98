/** What `companion doctor` prints: the project, each host's checks, the published copies, what needs action. Pure. */
import { formatList } from '../../core/names.js';
import { RUN_PREFIX } from '../../core/product.js';
import { listConfigFiles } from '../clients.js';
import type { CheckLevel, DoctorCheck, DoctorReport } from '../doctor.js';
import { RECORD_FILE } from '../record.js';

const MARKS: Readonly<Record<CheckLevel, string>> = { ok: 'ok  ', fix: 'fix ', note: 'note' };

export function formatDoctorReport(report: DoctorReport): string {
  const out: string[] = [
    `Project ${report.project}`,
    `Content root ${report.root}: server "${report.server}", ${report.skills.length} published skill${report.skills.length === 1 ? '' : 's'}${report.skills.length > 0 ? ` (${report.skills.join(', ')})` : ''}.`,
  ];
  const block = (title: string, checks: readonly DoctorCheck[]) => {
    out.push('', title, ...checks.map((c) => `  ${MARKS[c.level]}  ${c.text}`));
  };
  if (report.hosts.length === 0) {
    out.push(
      '',
      `No host configuration found (looked for ${formatList(listConfigFiles())}): run \`${RUN_PREFIX} install --client NAME\`.`,
    );
  }
  for (const host of report.hosts) block(`${host.label} — ${host.shown}`, host.checks);
  if (report.publication.length > 0) block(`Published copies — ${RECORD_FILE}`, report.publication);
  const fixes = report.fixes + (report.hosts.length === 0 ? 1 : 0);
  out.push(
    '',
    fixes === 0
      ? 'Everything is in place.'
      : `${fixes} thing${fixes === 1 ? ' needs' : 's need'} action (marked fix).`,
  );
  return `${out.join('\n')}\n`;
}
