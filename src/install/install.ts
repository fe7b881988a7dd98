/**
 * `companion install`'s work, apart from argument parsing: configure each chosen host to start this server,
 * publish the skills into every skills directory in play, and record what was written. It is all-or-nothing:
 * every change is planned first, reading only (`install-plan.ts`); when any client or skills directory is
 * refused, nothing is written; otherwise every write goes through one journal (`install-apply.ts`), and a
 * failure rolls back everything this run wrote. A second run finds nothing to change and touches nothing. What
 * it prints is `report/format-install.ts`'s.
 */

import type { Catalog } from '../core/types.js';
import type { ClientDefinition, ClientId, HomeContext } from './clients.js';
import type { ClientOutcome } from './config-plan.js';
import { applyInstall } from './install-apply.js';
import { type InstallFs, nodeInstallFs } from './install-fs.js';
import { planInstall } from './install-plan.js';
import type { RollbackReport } from './journal.js';
import type { DirectoryOutcome } from './publish-skills.js';

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

/** Plans, then writes everything or nothing through `fs`. Never throws for what it finds on disk. */
export function publishInstall(input: InstallInput, fs: InstallFs = nodeInstallFs): InstallReport {
  const stamp = (input.now ?? new Date()).toISOString().replaceAll(':', '-');
  return applyInstall(planInstall(input, fs), fs, stamp);
}
