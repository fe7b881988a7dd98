/**
 * The MCP configuration entry for this server: how to spell the command a host launches, how to tell an entry
 * companion wrote from someone else's, and where an existing entry points.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMAND_NAME, PACKAGE_NAME } from '../core/product.js';
import type { ClientDefinition } from './clients.js';
import { exists, type InstallDisk, nodeInstallFs } from './install-fs.js';

/**
 * The CLI entry point of the companion that is running now: `bin/companion.js` in the nearest directory above
 * this module that has one (this code runs from `src/install/`, `dist/install/` or a bundle chunk in
 * `dist/bundle/`, at different depths).
 */
export const OWN_BIN = findOwnBin(dirname(fileURLToPath(import.meta.url)));

function findOwnBin(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const bin = join(dir, 'bin', 'companion.js');
    if (existsSync(bin)) return bin;
    if (dirname(dir) === dir) return join(from, '..', '..', 'bin', 'companion.js');
  }
}

/** The variable VS Code and Cursor expand to the workspace (project) folder in an entry. */
export const WORKSPACE_FOLDER = `\${'workspaceFolder'}`;
/** The variable some hosts expand to the user's home directory. */
const USER_HOME = `\${'userHome'}`;

/** The `companion dev` URL when none is given. */
export const DEFAULT_URL = 'http://127.0.0.1:3917/mcp';

/** How the host starts companion. */
export type Launch =
  /** The project depends on companion: `npx --no companion`, portable across machines. */
  | { readonly kind: 'dependency'; readonly bin: string }
  /** Anything else: node with this absolute bin. */
  | { readonly kind: 'standalone'; readonly bin: string };

/**
 * Decides how hosts should start companion for `project`: through `npx` when the project lists `companion-mcp` in
 * its package.json and has it installed in node_modules (so npx resolves the project's own version and never
 * downloads a stranger package of the same name), else through node and `ownBin`.
 */
export function readLaunch(
  project: string,
  ownBin: string = OWN_BIN,
  disk: InstallDisk = nodeInstallFs,
): Launch {
  const installed = join(project, 'node_modules', PACKAGE_NAME, 'bin', 'companion.js');
  try {
    const manifest = JSON.parse(
      Buffer.from(disk.readFile(join(project, 'package.json'))).toString('utf8'),
    ) as Record<string, unknown>;
    const declared = ['dependencies', 'devDependencies', 'optionalDependencies'].some((field) => {
      const deps = manifest[field];
      return typeof deps === 'object' && deps !== null && Object.hasOwn(deps, PACKAGE_NAME);
    });
    if (declared && exists(installed, disk)) return { kind: 'dependency', bin: installed };
  } catch {
    // No package.json, or one that does not parse: not a dependency.
  }
  return { kind: 'standalone', bin: ownBin };
}

export interface EntryInput {
  /** Absolute project directory. */
  readonly project: string;
  /** Absolute content root. */
  readonly root: string;
  readonly launch: Launch;
  /** The entry's name, for hosts that repeat it inside the entry (Goose). */
  readonly name: string;
  /** Set for `--url`: the entry names this URL where the host takes one. */
  readonly url?: string;
  /** The absolute node binary, for hosts that do not inherit the shell's PATH. */
  readonly execPath: string;
}

/**
 * The owned fields of `client`'s entry, in the order they are written, spelled the way its host reads them. A
 * field of `client.ownedFields` that is absent here is removed from an existing entry (switching between stdio and
 * a URL drops the other's fields).
 */
export function buildServerEntry(client: ClientDefinition, input: EntryInput): Record<string, unknown> {
  const shape = client.entry;
  const named = shape.name === undefined ? {} : { [shape.name]: input.name };
  if (input.url !== undefined && shape.url !== undefined) {
    return { ...pickType(shape.remote), ...named, [shape.url]: input.url, ...pickRest(shape.remote) };
  }
  const root = spellPath(client, input.project, input.root);
  let command: string;
  let args: string[];
  if (input.launch.kind === 'dependency' && client.scope === 'project' && client.inheritsShellPath) {
    // `--no`: fail rather than download a package called companion when node_modules lacks it.
    command = 'npx';
    args = ['--no', COMMAND_NAME, 'serve', '--root', root];
  } else {
    command = client.inheritsShellPath ? 'node' : input.execPath;
    args = [spellPath(client, input.project, input.launch.bin), 'serve', '--root', root];
  }
  const run =
    shape.args === undefined
      ? { [shape.command]: [command, ...args] }
      : { [shape.command]: command, [shape.args]: args };
  const cwd = shape.cwd === undefined ? {} : { [shape.cwd]: input.project };
  return { ...pickType(shape.stdio), ...named, ...run, ...cwd, ...pickRest(shape.stdio) };
}

/** The `type` of a shape's constant fields, written first as hosts' own examples do; the others go last. */
function pickType(fields: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  return fields !== undefined && Object.hasOwn(fields, 'type') ? { type: fields.type } : {};
}

function pickRest(fields: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  const { type: _type, ...rest } = fields ?? {};
  return rest;
}

/** What an entry runs, whatever its host calls the fields: `{ command, args }` or `{ url }`. */
export interface EntryLaunch {
  readonly command?: unknown;
  readonly args?: readonly unknown[];
  readonly url?: unknown;
}

/** Reads an entry in `client`'s shape as the command and arguments it runs, or the URL it names. */
export function readEntryLaunch(
  client: ClientDefinition,
  entry: Readonly<Record<string, unknown>>,
): EntryLaunch {
  const shape = client.entry;
  const url = shape.url === undefined ? undefined : entry[shape.url];
  const raw = entry[shape.command];
  if (shape.args === undefined) {
    const parts = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
    return {
      ...(parts.length > 0 ? { command: parts[0], args: parts.slice(1) } : {}),
      ...(url === undefined ? {} : { url }),
    };
  }
  const args = entry[shape.args];
  return {
    ...(raw === undefined ? {} : { command: raw }),
    ...(Array.isArray(args) ? { args } : {}),
    ...(url === undefined ? {} : { url }),
  };
}

/**
 * A path in an owned field that the host would not pass on as written, because it substitutes variables there:
 * the reason to refuse, or undefined.
 */
export function findSubstitution(
  client: ClientDefinition,
  owned: Readonly<Record<string, unknown>>,
): string | undefined {
  const rule = client.substitutes;
  if (rule === undefined) return undefined;
  const strings = Object.values(owned).flatMap((v) => (Array.isArray(v) ? v : [v]));
  const hit = strings.find((v): v is string => typeof v === 'string' && rule.pattern.test(v));
  return hit === undefined
    ? undefined
    : `the entry would name ${hit}, which holds ${rule.what}: ${client.label} substitutes that in its configuration, so the server would not get the path as written. Move the project or the content to a path without it, or leave this client out`;
}

/** Whether the entry's paths are absolute, i.e. valid on this machine only. */
export function namesAbsolutePaths(entry: EntryLaunch): boolean {
  return [entry.command, ...(entry.args ?? [])].some((part) => typeof part === 'string' && isAbsolute(part));
}

/** `${workspaceFolder}/rel` for hosts that expand it and paths inside the project; else the absolute path. */
function spellPath(client: ClientDefinition, project: string, path: string): string {
  if (!client.expandsWorkspaceFolder) return path;
  const rel = relative(project, path);
  if (rel === '') return WORKSPACE_FOLDER;
  if (rel.startsWith('..') || isAbsolute(rel)) return path;
  return `${WORKSPACE_FOLDER}/${rel.split(sep).join('/')}`;
}

/**
 * True when an entry runs companion: its command or one of its arguments is companion's bin or package
 * (`companion`, `…/bin/companion.js`, `companion@1.2.3`). This is the test for "an entry companion wrote":
 * any other entry under the same key is someone else's and is never overwritten.
 */
export function namesCompanion(entry: EntryLaunch): boolean {
  return [entry.command, ...(entry.args ?? [])].some(
    (part) => typeof part === 'string' && isCompanionName(part),
  );
}

function isCompanionName(part: string): boolean {
  const base = part.split(/[\\/]/).pop() ?? '';
  const name = base
    .toLowerCase()
    .replace(/\.(c|m)?js$|\.cmd$|\.exe$|\.ps1$/, '')
    .replace(/@[^@]*$/, '');
  return name === COMMAND_NAME || name === PACKAGE_NAME;
}

/** One line naming what an entry runs, for messages; the entry itself (shortened) when it names no command. */
export function formatEntryCommand(entry: EntryLaunch, raw?: unknown): string {
  const { command, args, url } = entry;
  if (typeof url === 'string' && command === undefined) return url;
  const parts = [command, ...(args ?? [])].filter((p) => p !== undefined);
  if (parts.length === 0) {
    const text = JSON.stringify(raw) ?? '{}';
    return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  }
  return parts.map((p) => (typeof p === 'string' ? p : (JSON.stringify(p) ?? '…'))).join(' ');
}

/** Where an entry of ours points, as `companion doctor` judges it. */
export type EntryTarget =
  | { readonly kind: 'url'; readonly url: string }
  | {
      readonly kind: 'stdio';
      /** The absolute `--root`, or undefined when the entry passes none. */
      readonly root?: string;
      /** The absolute bin the entry runs, when it runs one by path. */
      readonly bin?: string;
      readonly npx: boolean;
    };

/**
 * Reads where an entry points. `${workspaceFolder}` and `${userHome}` are expanded, and relative paths are
 * taken relative to the project (where project hosts start their servers).
 */
export function readEntryTarget(entry: EntryLaunch, project: string, home?: string): EntryTarget {
  if (typeof entry.url === 'string' && entry.command === undefined) return { kind: 'url', url: entry.url };
  const args = (entry.args ?? []).filter((a): a is string => typeof a === 'string');
  const expand = (value: string): string => {
    let out = value.replaceAll(WORKSPACE_FOLDER, project);
    if (home !== undefined) out = out.replaceAll(USER_HOME, home);
    return resolve(project, out);
  };
  let root: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--root' && i + 1 < args.length) root = expand(args[i + 1]!);
    else if (arg.startsWith('--root=')) root = expand(arg.slice('--root='.length));
  }
  const binArg = args.find((a) => /companion\.(c|m)?js$/i.test(a));
  return {
    kind: 'stdio',
    ...(root === undefined ? {} : { root }),
    ...(binArg === undefined ? {} : { bin: expand(binArg) }),
    npx: typeof entry.command === 'string' && /(^|[\\/])npx(\.cmd)?$/.test(entry.command),
  };
}

/** Whether two paths name the same directory (through symlinks), falling back to plain comparison. */
export function isSamePath(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync.native(p);
    } catch {
      return resolve(p);
    }
  };
  return real(a) === real(b);
}
