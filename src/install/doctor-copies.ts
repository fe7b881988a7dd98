/**
 * What `companion doctor` says of the published copies: each skills directory against the publication (bytes and
 * modes on disk, copies no longer published, copies that are not companion's) and the install record against the
 * content. Reads only.
 */
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_PREFIX } from '../core/product.js';
import { type ClientDefinition, isClientId, readClient } from './clients.js';
import type { DoctorCheck, DoctorInput } from './doctor.js';
import { compareCodePoints, type Publication, type PublishedFile } from './publication.js';
import { buildCopyFiles, readCopyOwner } from './publish-skills.js';
import { type InstallRecord, RECORD_FILE, type readInstallRecord } from './record.js';
import { isSamePath } from './server-entry.js';
import { isSameBytes } from './write-file.js';

/** The check of the client's skills directory; `cache` holds one per directory (clients may share one). */
export function checkSkills(
  client: ClientDefinition,
  input: DoctorInput,
  publication: Publication,
  record: InstallRecord | undefined,
  cache: Map<string, DoctorCheck>,
): DoctorCheck[] {
  if (client.skillsDir === undefined) return [{ level: 'note', text: client.noSkillsDir ?? '' }];
  const dir = client.skillsDir;
  let check = cache.get(dir);
  if (check === undefined) {
    check = checkSkillsDirectory(dir, input, publication, record);
    cache.set(dir, check);
  }
  return [check];
}

/**
 * Compares one skills directory with the publication: the bytes and modes on disk (files the user added to a
 * copy do not make it stale), copies of skills no longer published, and the record's digest.
 */
function checkSkillsDirectory(
  dir: string,
  input: DoctorInput,
  publication: Publication,
  record: InstallRecord | undefined,
): DoctorCheck {
  const server = input.catalog.server.name;
  const absolute = join(input.project, ...dir.split('/'));
  const recordedDir = record?.directories.find((d) => d.path === dir);
  const recordedIds = new Set(recordedDir?.skills.map((s) => s.id) ?? []);
  const changed: string[] = [];
  const missing: string[] = [];
  const foreign: string[] = [];
  const fresh: string[] = [];
  for (const skill of publication.skills) {
    const target = join(absolute, skill.id);
    if (!existsSync(target)) missing.push(skill.id);
    else if (!recordedIds.has(skill.id) && readCopyOwner(target) !== server) foreign.push(skill.id);
    else if (isFreshCopy(target, buildCopyFiles(skill, server))) fresh.push(skill.id);
    else changed.push(skill.id);
  }
  const wanted = new Set(publication.skills.map((s) => s.id));
  const leftovers = [
    ...new Set([
      ...[...recordedIds].filter((id) => existsSync(join(absolute, id))),
      ...listNames(absolute).filter((name) => readCopyOwner(join(absolute, name)) === server),
    ]),
  ]
    .filter((id) => !wanted.has(id))
    .sort(compareCodePoints);
  const recordStale = recordedDir !== undefined && recordedDir.digest !== publication.digest;

  if (publication.skills.length === 0 && leftovers.length === 0) {
    return { level: 'ok', text: `The content publishes no skills, and ${dir} holds none of them.` };
  }
  if (fresh.length === publication.skills.length && leftovers.length === 0 && !recordStale) {
    return { level: 'ok', text: `${dir} holds fresh copies of ${fresh.join(', ')}.` };
  }
  if (fresh.length === 0 && changed.length === 0 && leftovers.length === 0 && foreign.length === 0) {
    return { level: 'fix', text: `${dir} holds no published copies: run \`${RUN_PREFIX} install\`.` };
  }
  const reasons = [
    ...changed.map((id) => `${id} changed`),
    ...missing.map((id) => `${id} missing`),
    ...leftovers.map((id) => `${id} no longer published`),
  ];
  if (reasons.length === 0 && recordStale) reasons.push(`${RECORD_FILE} predates the content`);
  const parts: string[] = [];
  if (reasons.length > 0)
    parts.push(`The copies in ${dir} are stale (${reasons.join(', ')}): run \`${RUN_PREFIX} install\`.`);
  if (foreign.length > 0) {
    parts.push(
      `${foreign.map((id) => `${dir}/${id}`).join(', ')} ${foreign.length === 1 ? 'is' : 'are'} not companion's copy: move ${foreign.length === 1 ? 'it' : 'them'} away, then run \`${RUN_PREFIX} install\`.`,
    );
  }
  return { level: 'fix', text: parts.join(' ') };
}

/** Whether every file of a copy is on disk as published (bytes and mode), other files there aside. */
function isFreshCopy(dir: string, files: readonly PublishedFile[]): boolean {
  return files.every((file) => {
    const path = join(dir, ...file.path.split('/'));
    try {
      const stats = lstatSync(path);
      return (
        stats.isFile() && (stats.mode & 0o777) === file.mode && isSameBytes(readFileSync(path), file.bytes)
      );
    } catch {
      return false;
    }
  });
}

/** The install record against the content this doctor run checked. */
export function checkRecord(
  read: ReturnType<typeof readInstallRecord>,
  record: InstallRecord | undefined,
  server: string,
  publication: Publication,
  root: string,
  anyHost: boolean,
): DoctorCheck[] {
  if (read.status === 'absent') {
    return anyHost
      ? [
          {
            level: 'fix',
            text: `Nothing is recorded as published in this project: run \`${RUN_PREFIX} install\`.`,
          },
        ]
      : [];
  }
  if (read.status === 'invalid')
    return [{ level: 'fix', text: `${read.reason}: run \`${RUN_PREFIX} install\`.` }];
  if (read.status === 'legacy') {
    return [
      {
        level: 'fix',
        text: `${RECORD_FILE} was written by an older companion that did not record what it wrote: run \`${RUN_PREFIX} install\`.`,
      },
    ];
  }
  if (record === undefined) {
    return [
      {
        level: 'note',
        text: `${RECORD_FILE} belongs to the server "${read.record.server}", not "${server}"; run \`${RUN_PREFIX} install\` to publish this one.`,
      },
    ];
  }
  const checks: DoctorCheck[] = [];
  if (!isSamePathOrEqual(record.root, root)) {
    checks.push({
      level: 'note',
      text: `The last install published from ${record.root}; doctor checked ${root}.`,
    });
  }
  if (record.digest === publication.digest) {
    // "Not changed" is only worth saying about copies that exist: a client with a skills directory and no
    // complete copy recorded means the last install published nothing, whatever the digest says.
    const expectsCopies =
      publication.skills.length > 0 &&
      record.clients.some((c) => isClientId(c.id) && readClient(c.id).skillsDir !== undefined);
    const published = record.directories.some((d) => d.skills.some((s) => s.complete));
    checks.push(
      expectsCopies && !published
        ? {
            level: 'fix',
            text: `The last install published none of the ${publication.skills.length} skill${publication.skills.length === 1 ? '' : 's'} into this project: run \`${RUN_PREFIX} install\`.`,
          }
        : { level: 'ok', text: 'The content has not changed since the last install.' },
    );
    return checks;
  }
  const now = new Set(publication.skills.map((s) => s.id));
  const before = new Set(record.skills);
  const added = [...now].filter((id) => !before.has(id));
  const gone = [...before].filter((id) => !now.has(id));
  const detail = [
    ...(added.length > 0 ? [`new: ${added.join(', ')}`] : []),
    ...(gone.length > 0 ? [`no longer published: ${gone.join(', ')}`] : []),
  ];
  checks.push({
    level: 'fix',
    text: `The content changed since the last install${detail.length > 0 ? ` (${detail.join('; ')})` : ''}: run \`${RUN_PREFIX} install\`.`,
  });
  return checks;
}

function isSamePathOrEqual(a: string, b: string): boolean {
  return a === b || isSamePath(a, b);
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
