/**
 * The hosts `companion install` and `companion doctor` know: where each keeps its MCP configuration and its
 * skills, which entry fields companion owns there, and what each host is known not to support.
 *
 * Sources: `../shared/reference/typo3-dev-companion.md` §1.8 (the reference installer's client table),
 * `mcp-protocol-sdk.md` §2.8 (skills directories), `peers.md` §1.5 (host support).
 */
import { join } from 'node:path';
import { RUN_PREFIX } from '../core/product.js';

/** Every client id `--client` accepts, in the order usage lists them. */
export const CLIENT_IDS = [
  'claude-code',
  'claude-desktop',
  'vscode',
  'cursor',
  'codex',
  'codex-user',
  'generic',
] as const;

export type ClientId = (typeof CLIENT_IDS)[number];

/** A host's known gap and what to do about it, as `companion doctor` prints it. */
export interface HostLimitation {
  readonly lacks: string;
  readonly todo: string;
}

export interface ClientDefinition {
  readonly id: ClientId;
  /** How messages name the host. */
  readonly label: string;
  /** `project`: a file below `--project`; `user`: a file below HOME (`buildConfigPath` knows where). */
  readonly scope: 'project' | 'user';
  /** The project-relative config file, for project-scoped clients. */
  readonly projectFile?: string;
  readonly format: 'json' | 'toml';
  /** The table that holds the servers: `mcpServers`, `servers`, `mcp_servers`. */
  readonly serversKey: string;
  /** Project-relative skills directory (posix), or undefined when the host reads none from a directory. */
  readonly skillsDir?: string;
  /** Why there is no skills directory, said instead of publishing. */
  readonly noSkillsDir?: string;
  /** The entry fields companion writes and may rewrite or remove; every other field is the user's. */
  readonly ownedFields: readonly string[];
  /** Whether the entry carries `type: "stdio"` / `type: "http"`. */
  readonly typeField: boolean;
  /** Whether its config file takes a URL entry (Streamable HTTP) at all. */
  readonly takesUrl: boolean;
  /** Whether the host expands `${workspaceFolder}` in entries, so project paths need not be absolute. */
  readonly expandsWorkspaceFolder: boolean;
  /**
   * False for GUI apps started from a desktop session, whose PATH often lacks the user's node (nvm, Homebrew):
   * they get node's absolute path.
   */
  readonly inheritsShellPath: boolean;
  /** What is left for the user after a write, printed once per client that changed. */
  readonly remaining: string;
  /** What the host is known not to support; empty when it supports everything companion relies on. */
  readonly limitations: readonly HostLimitation[];
}

const CODEX_LIMITATIONS: readonly HostLimitation[] = [
  {
    lacks:
      'Codex does not handle list_changed: a running session keeps the tools and resources it started with.',
    todo: 'Start a new Codex session after changing the content.',
  },
  {
    lacks: 'Codex cuts skill descriptions at 1024 characters.',
    todo: `Keep every description within 1024 characters (\`${RUN_PREFIX} check\` warns about longer ones).`,
  },
];

const CLIENTS: Readonly<Record<ClientId, ClientDefinition>> = {
  'claude-code': {
    id: 'claude-code',
    label: 'Claude Code',
    scope: 'project',
    projectFile: '.mcp.json',
    format: 'json',
    serversKey: 'mcpServers',
    skillsDir: '.claude/skills',
    ownedFields: ['type', 'command', 'args', 'url'],
    typeField: true,
    takesUrl: true,
    expandsWorkspaceFolder: false,
    inheritsShellPath: true,
    remaining:
      'Claude Code asks you to approve the servers in .mcp.json the first time it starts in this project; `/mcp` shows whether the server is connected.',
    limitations: [
      {
        lacks:
          'Claude Code handles list_changed only since 2.1.0, and tools added mid-turn appear only on the next turn (some versions ignored tools/list_changed on stdio).',
        todo: 'Keep Claude Code at 2.1.0 or later; after a change, send the next message, and reconnect with `/mcp` if the tools still look old. The copies in .claude/skills reload on their own (or run `/reload-skills`).',
      },
    ],
  },
  'claude-desktop': {
    id: 'claude-desktop',
    label: 'Claude Desktop',
    scope: 'user',
    format: 'json',
    serversKey: 'mcpServers',
    noSkillsDir:
      'Claude Desktop reads no skills directory: it gets the skills from the server itself (the skill_load tool), or from a zip uploaded in its settings.',
    // Its config file holds stdio commands only and no `type`; remote servers are added in its UI.
    ownedFields: ['command', 'args'],
    typeField: false,
    takesUrl: false,
    expandsWorkspaceFolder: false,
    inheritsShellPath: false,
    remaining:
      'Quit Claude Desktop completely (tray or menu bar → Quit; closing the window is not enough) and start it again: it reads its configuration only at start.',
    limitations: [
      {
        lacks:
          'Claude Desktop does not support resource templates: skill files other than SKILL.md (references/…) are not offered in its picker.',
        todo: 'Let the model fetch them with the skill_load tool.',
      },
      {
        lacks: 'Claude Desktop does not handle list_changed: it does not see content changes while it runs.',
        todo: 'Restart it after changing the content.',
      },
      {
        lacks:
          'Claude Desktop reads its configuration only at start, and closing its window does not quit it.',
        todo: `After \`${RUN_PREFIX} install\`, quit it fully (tray or menu bar → Quit) and start it again.`,
      },
    ],
  },
  vscode: {
    id: 'vscode',
    label: 'VS Code',
    scope: 'project',
    projectFile: '.vscode/mcp.json',
    format: 'json',
    serversKey: 'servers',
    skillsDir: '.github/skills',
    ownedFields: ['type', 'command', 'args', 'url'],
    typeField: true,
    takesUrl: true,
    expandsWorkspaceFolder: true,
    inheritsShellPath: true,
    remaining:
      'VS Code asks you to trust the server the first time it starts; the command "MCP: List Servers" shows and starts it.',
    limitations: [],
  },
  cursor: {
    id: 'cursor',
    label: 'Cursor',
    scope: 'project',
    projectFile: '.cursor/mcp.json',
    format: 'json',
    serversKey: 'mcpServers',
    skillsDir: '.cursor/skills',
    ownedFields: ['type', 'command', 'args', 'url'],
    typeField: true,
    takesUrl: true,
    expandsWorkspaceFolder: true,
    inheritsShellPath: true,
    remaining: 'Cursor lists the server in Settings → MCP; turn it on there if it shows as disabled.',
    limitations: [
      {
        lacks: 'Cursor does not offer MCP resources (they are not in its support matrix).',
        todo: 'Rely on the skill_load and document_lookup tools and on the copies in .cursor/skills; do not expect to attach resources.',
      },
    ],
  },
  codex: {
    id: 'codex',
    label: 'Codex',
    scope: 'project',
    projectFile: '.codex/config.toml',
    format: 'toml',
    serversKey: 'mcp_servers',
    skillsDir: '.agents/skills',
    ownedFields: ['command', 'args', 'url'],
    typeField: false,
    takesUrl: true,
    expandsWorkspaceFolder: false,
    inheritsShellPath: true,
    remaining:
      'Codex reads a project’s .codex/config.toml only when you trust the project; `codex mcp list` shows whether it sees the server.',
    limitations: CODEX_LIMITATIONS,
  },
  'codex-user': {
    id: 'codex-user',
    label: 'Codex (user configuration)',
    scope: 'user',
    format: 'toml',
    serversKey: 'mcp_servers',
    skillsDir: '.agents/skills',
    ownedFields: ['command', 'args', 'url'],
    typeField: false,
    takesUrl: true,
    expandsWorkspaceFolder: false,
    inheritsShellPath: true,
    remaining: 'Start a new Codex session to pick up the server; `codex mcp list` shows it.',
    limitations: CODEX_LIMITATIONS,
  },
  generic: {
    id: 'generic',
    label: 'Generic host',
    scope: 'project',
    projectFile: '.mcp.json',
    format: 'json',
    serversKey: 'mcpServers',
    skillsDir: '.agents/skills',
    ownedFields: ['type', 'command', 'args', 'url'],
    typeField: true,
    takesUrl: true,
    expandsWorkspaceFolder: false,
    inheritsShellPath: true,
    remaining:
      'Point your host at .mcp.json (mcpServers) and .agents/skills if it does not read them on its own.',
    limitations: [],
  },
};

/** The definition of `id`. */
export function readClient(id: ClientId): ClientDefinition {
  return CLIENTS[id];
}

export function isClientId(value: string): value is ClientId {
  return (CLIENT_IDS as readonly string[]).includes(value);
}

/** Reads `--client` values (repeated, or separated by commas); answers the first name that is no client. */
export function parseClientIds(
  values: readonly string[] | undefined,
): { readonly clients: ClientId[] } | { readonly unknown: string } {
  const clients: ClientId[] = [];
  for (const name of (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim())) {
    if (!isClientId(name)) return { unknown: name };
    clients.push(name);
  }
  return { clients };
}

/** Where user-level files live, taken from the command's environment (never the real process's). */
export interface HomeContext {
  /** `HOME` (or `USERPROFILE`); undefined when neither is set, which leaves user-level clients unreachable. */
  readonly home: string | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly platform: NodeJS.Platform;
}

/** The home directory from a command's environment. */
export function readHome(env: NodeJS.ProcessEnv): string | undefined {
  const home = env.HOME ?? env.USERPROFILE;
  return home === undefined || home === '' ? undefined : home;
}

/**
 * The absolute path of `client`'s MCP configuration file, or undefined for a user-level client when no home is
 * known. Claude Desktop: `~/Library/Application Support/Claude/` (macOS), `%APPDATA%\Claude\` (Windows),
 * `$XDG_CONFIG_HOME/Claude/` or `~/.config/Claude/` (elsewhere). Codex: `$CODEX_HOME` or `~/.codex`.
 */
export function buildConfigPath(
  client: ClientDefinition,
  project: string,
  where: HomeContext,
): string | undefined {
  if (client.scope === 'project') return join(project, ...client.projectFile!.split('/'));
  const { home, env, platform } = where;
  if (client.id === 'codex-user') {
    if (env.CODEX_HOME) return join(env.CODEX_HOME, 'config.toml');
    return home === undefined ? undefined : join(home, '.codex', 'config.toml');
  }
  if (platform === 'darwin') {
    return home === undefined
      ? undefined
      : join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  }
  if (platform === 'win32') {
    const appData = env.APPDATA ?? (home === undefined ? undefined : join(home, 'AppData', 'Roaming'));
    return appData === undefined ? undefined : join(appData, 'Claude', 'claude_desktop_config.json');
  }
  const config = env.XDG_CONFIG_HOME || (home === undefined ? undefined : join(home, '.config'));
  return config === undefined ? undefined : join(config, 'Claude', 'claude_desktop_config.json');
}
