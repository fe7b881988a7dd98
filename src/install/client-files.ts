/**
 * Files a client needs beside its config entry, which companion writes whole: Antigravity's workspace plugin
 * manifest and the plugin directory's `.gitignore`. Such a file is companion's when the record lists it with the
 * digest of its bytes as they are now, or when it already holds exactly what would be written. Anything else at
 * that path (another plugin's manifest, a file the user changed, a symlink) refuses the client: a host that reads
 * half of its files from companion and half from someone else is broken. Planning reads only.
 */
import { join } from 'node:path';
import type { ClientDefinition } from './clients.js';
import { digestBytes } from './config-bytes.js';
import { type InstallDisk, nodeInstallFs } from './install-fs.js';
import type { Journal } from './journal.js';
import { inspectFile } from './publish-skills.js';
import type { ClientFileRecord } from './record.js';
import type { FileOwnership } from './write-file.js';

export interface ClientFilesPlan {
  /** Why the files cannot be written, when they cannot. */
  readonly refused?: string;
  readonly writes: readonly {
    readonly path: string;
    readonly bytes: Uint8Array;
    readonly before?: Uint8Array;
  }[];
  /** What the record keeps for this client afterwards. */
  readonly records: readonly ClientFileRecord[];
  /** Project-relative paths written (new or changed). */
  readonly written: readonly string[];
}

/** The files `client` needs for the entry `name`, as they would be written. */
export function buildClientFiles(
  client: ClientDefinition,
  name: string,
  server: string,
): { readonly path: string; readonly bytes: Uint8Array }[] {
  return (client.files?.(name, server) ?? []).map((f) => ({
    path: f.path,
    bytes: new Uint8Array(Buffer.from(f.text, 'utf8')),
  }));
}

/** Plans writing `client`'s files for the entry `name`. Reads only. */
export function planClientFiles(
  client: ClientDefinition,
  name: string,
  server: string,
  project: string,
  recorded: readonly ClientFileRecord[],
  disk: InstallDisk = nodeInstallFs,
): ClientFilesPlan {
  const writes: { path: string; bytes: Uint8Array; before?: Uint8Array }[] = [];
  const records: ClientFileRecord[] = [];
  const written: string[] = [];
  for (const file of buildClientFiles(client, name, server)) {
    const digest = digestBytes(file.bytes);
    const found = inspectFile(project, file.path, disk);
    const path = join(project, ...file.path.split('/'));
    records.push({ client: client.id, path: file.path, digest });
    if (found.kind === 'absent') {
      writes.push({ path, bytes: file.bytes });
      written.push(file.path);
      continue;
    }
    const now = found.kind === 'file' ? digestBytes(found.bytes) : undefined;
    const ours =
      now !== undefined &&
      (now === digest ||
        recorded.some((r) => r.client === client.id && r.path === file.path && r.digest === now));
    if (!ours) {
      return {
        refused: `${file.path} exists and companion install did not write it${found.kind === 'blocked' ? ' (it is not a plain file)' : ', or it changed since'}; it never replaces a file it did not write. Pass --name NAME to use another name, or move it away, then run again`,
        writes: [],
        records: [],
        written: [],
      };
    }
    if (now !== digest && found.kind === 'file') {
      writes.push({ path, bytes: file.bytes, before: found.bytes });
      written.push(file.path);
    }
  }
  return { writes, records, written };
}

/** Writes a plan's files through the journal. */
export function applyClientFiles(plan: ClientFilesPlan, journal: Journal): void {
  for (const write of plan.writes) {
    journal.writeFile(write.path, write.bytes, write.before, { mode: 0o644 });
  }
}

/** What taking back one client's files does: deletes, and the files left because they changed. */
export interface ClientFilesTakeBack {
  readonly deletes: readonly {
    readonly path: string;
    readonly before: Uint8Array;
    readonly keep: FileOwnership;
  }[];
  readonly removed: readonly string[];
  readonly kept: readonly { readonly path: string; readonly reason: string }[];
}

/** Plans deleting the recorded files of the given clients that still hold the bytes install wrote. Reads only. */
export function planClientFilesTakeBack(
  recorded: readonly ClientFileRecord[],
  clients: readonly string[],
  project: string,
): ClientFilesTakeBack {
  const deletes: { path: string; before: Uint8Array; keep: FileOwnership }[] = [];
  const removed: string[] = [];
  const kept: { path: string; reason: string }[] = [];
  for (const file of recorded.filter((f) => clients.includes(f.client))) {
    const found = inspectFile(project, file.path);
    if (found.kind === 'absent') continue;
    if (found.kind === 'file' && digestBytes(found.bytes) === file.digest) {
      deletes.push({
        path: join(project, ...file.path.split('/')),
        before: found.bytes,
        keep: found.ownership,
      });
      removed.push(file.path);
    } else {
      kept.push({ path: file.path, reason: 'it changed since install wrote it' });
    }
  }
  return { deletes, removed, kept };
}
