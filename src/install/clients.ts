/**
 * The hosts `companion install`, `uninstall` and `doctor` know, one definition each: where the host keeps its MCP
 * configuration and its skills, the shape of the entry it reads, which of the entry's fields companion owns, and
 * what the host is known not to support. Adding a host is one entry here (plus, for a new file format, one
 * adapter beside `json-config.ts`, `toml-config.ts` and `yaml-config.ts`).
 *
 * Every fact cites where it was read. Sources of the first seven: `../shared/reference/typo3-dev-companion.md` §1.8
 * (the reference installer's client table), `mcp-protocol-sdk.md` §2.8 (skills directories), `peers.md` §1.5 (host
 * support); of the others, the host's own documentation or source, named at its definition.
 *
 * Longer than ~400 lines on purpose: it is a table, one cited definition per host, and adding a host is adding one
 * entry here.
 */
import { lstatSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { formatNumberWord } from '../core/plural.js';
import { RUN_PREFIX } from '../core/product.js';
import { TOOL_NAMES, TOOLS } from '../core/tools/index.js';

/** Every client id `--client` accepts, in the order usage lists them. */
export const CLIENT_IDS = [
  'claude-code',
  'claude-desktop',
  'vscode',
  'cursor',
  'codex',
  'codex-user',
  'gemini',
  'goose',
  'opencode',
  'copilot-cli',
  'windsurf',
  'antigravity',
  'generic',
] as const;

export type ClientId = (typeof CLIENT_IDS)[number];

/** A host's known gap and what to do about it, as `companion doctor` prints it. */
export interface HostLimitation {
  readonly lacks: string;
  readonly todo: string;
}

/**
 * How a host's entry spells a server: the field names it reads and the constant fields beside them. An entry is
 * either a command (`command` + `args`, or one array when `args` is absent) or a URL.
 */
export interface EntryShape {
  /** The field holding the command: `command` (Goose: `cmd`). */
  readonly command: string;
  /** The field holding the arguments; absent when `command` holds one array of both (OpenCode). */
  readonly args?: string;
  /** The field holding a Streamable HTTP URL, when the host's config takes one (`url`, `httpUrl`, `uri`, `serverUrl`). */
  readonly url?: string;
  /** Constant fields of a command entry: `{ type: 'stdio' }`, `{ type: 'local' }`. */
  readonly stdio?: Readonly<Record<string, unknown>>;
  /** Constant fields of a URL entry: `{ type: 'http' }`, `{ type: 'remote' }`. */
  readonly remote?: Readonly<Record<string, unknown>>;
  /** A field that repeats the entry's name inside it (Goose's `name`). */
  readonly name?: string;
  /** A field set to the project directory, where the host would otherwise start the server elsewhere (`cwd`). */
  readonly cwd?: string;
}

/** A file a client needs beside its config, written whole and owned by digest (Antigravity's plugin manifest). */
export interface ClientFileSpec {
  /** Project-relative posix path. */
  readonly path: string;
  readonly text: string;
}

interface ClientFields {
  readonly id: ClientId;
  /** How messages name the host. */
  readonly label: string;
  /** `project`: a file below `--project`; `user`: a file below HOME. */
  readonly scope: 'project' | 'user';
  /**
   * The project-relative config file of a project-scoped client: the first of these that exists, else the first.
   * `{name}` stands for the entry name (Antigravity's plugin directory is named after it).
   */
  readonly projectFiles?: readonly string[];
  /** The config file of a user-scoped client, or undefined when no home is known. */
  readonly userFile?: (where: HomeContext) => string | undefined;
  /** The user-level file as the usage text and `doctor` name it (`~/.codex/config.toml`). */
  readonly userFileShown?: string;
  readonly format: 'json' | 'toml' | 'yaml';
  /** The table that holds the servers: `mcpServers`, `servers`, `mcp_servers`, `mcp`, `extensions`. */
  readonly serversKey: string;
  readonly entry: EntryShape;
  /** Fields written when companion creates the entry and never owned after (Goose's required `enabled: true`). */
  readonly createdWith?: Readonly<Record<string, unknown>>;
  /**
   * Values the host writes into an entry on its own when it saves its config (Goose fills in `envs: {}` …): an
   * entry holding these beside its owned fields still counts as companion's when uninstall takes it back.
   */
  readonly hostDefaults?: Readonly<Record<string, unknown>>;
  /** The entry names the host keeps as written, when it is stricter than install's own rule. */
  readonly entryNames?: { readonly pattern: RegExp; readonly rule: string };
  /** Files beside the config that the host needs (Antigravity's `plugin.json` and the directory's `.gitignore`). */
  readonly files?: (name: string, server: string) => readonly ClientFileSpec[];
  /** The config sits in a directory that keeps itself out of git, so absolute paths in it are no concern. */
  readonly ignoredByGit?: boolean;
  /** Project-relative skills directory (posix), or undefined when the host reads none from a directory. */
  readonly skillsDir?: string;
  /** Why there is no skills directory, said instead of publishing. */
  readonly noSkillsDir?: string;
  /** Whether the host expands `${workspaceFolder}` in entries, so project paths need not be absolute. */
  readonly expandsWorkspaceFolder: boolean;
  /**
   * What the host substitutes in entry strings (`$VAR`, `{env:VAR}`): a path holding it would not reach the server
   * as written, so install refuses it.
   */
  readonly substitutes?: { readonly pattern: RegExp; readonly what: string };
  /**
   * False for GUI apps started from a desktop session, whose PATH often lacks the user's node (nvm, Homebrew):
   * they get node's absolute path.
   */
  readonly inheritsShellPath: boolean;
  /** Skill descriptions longer than this are cut or refused by the host. */
  readonly descriptionLimit?: number;
  /** What is left for the user after a write, printed once per client that changed. */
  readonly remaining: string;
  /** What the host is known not to support; empty when it supports everything companion relies on. */
  readonly limitations: readonly HostLimitation[];
  /** Settings of the host that decide, by entry name, whether it starts a configured server at all. */
  readonly serverFilters?: ServerFilters;
}

/**
 * Lists of entry names in a host's settings that gate which configured servers it starts (Gemini CLI's
 * `mcp.allowed` and `mcp.excluded`). `doctor` reads them; install never writes them: they are the user's policy.
 */
export interface ServerFilters {
  /** Key path of the allowlist: when present (even empty), only the servers it names start. */
  readonly allowed: readonly string[];
  /** Key path of the denylist: the servers it names never start. */
  readonly excluded: readonly string[];
  /** The other settings files the host merges with the one install edits, as read and as shown. */
  readonly alsoIn: (where: HomeContext) => readonly { readonly path: string; readonly shown: string }[];
}

export interface ClientDefinition extends ClientFields {
  /** The entry fields companion writes and may rewrite or remove; every other field is the user's. */
  readonly ownedFields: readonly string[];
  /** Whether its config file takes a URL entry (Streamable HTTP) at all. */
  readonly takesUrl: boolean;
}

/** A definition with the fields derived from its entry shape. */
function define(fields: ClientFields): ClientDefinition {
  const { entry } = fields;
  const owned = [
    ...Object.keys(entry.stdio ?? {}),
    ...(entry.name === undefined ? [] : [entry.name]),
    entry.command,
    ...(entry.args === undefined ? [] : [entry.args]),
    ...(entry.url === undefined ? [] : [entry.url]),
    ...Object.keys(entry.remote ?? {}),
    ...(entry.cwd === undefined ? [] : [entry.cwd]),
  ];
  return { ...fields, ownedFields: [...new Set(owned)], takesUrl: entry.url !== undefined };
}

/** The shape Claude Code, VS Code and the generic `.mcp.json` share. */
const TYPED_ENTRY: EntryShape = {
  command: 'command',
  args: 'args',
  url: 'url',
  stdio: { type: 'stdio' },
  remote: { type: 'http' },
};

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

/** What Goose writes into an extension entry when it saves it (`enabled` is seeded by install). */
const GOOSE_DEFAULTS = {
  envs: {},
  env_keys: [],
  available_tools: [],
  bundled: null,
  headers: {},
  socket: null,
  cwd: null,
};

const CLIENTS: Readonly<Record<ClientId, ClientDefinition>> = {
  'claude-code': define({
    id: 'claude-code',
    label: 'Claude Code',
    scope: 'project',
    projectFiles: ['.mcp.json'],
    format: 'json',
    serversKey: 'mcpServers',
    entry: TYPED_ENTRY,
    skillsDir: '.claude/skills',
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
  }),
  'claude-desktop': define({
    id: 'claude-desktop',
    label: 'Claude Desktop',
    scope: 'user',
    // `~/Library/Application Support/Claude/` (macOS), `%APPDATA%\Claude\` (Windows), else the XDG config home.
    userFile: ({ home, env, platform }) => {
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
    },
    userFileShown: 'Claude Desktop’s claude_desktop_config.json',
    format: 'json',
    serversKey: 'mcpServers',
    // Its config file holds stdio commands only and no `type`; remote servers are added in its UI.
    entry: { command: 'command', args: 'args' },
    noSkillsDir: `Claude Desktop reads no skills directory: it gets the skills from the server itself (the ${TOOLS.load} tool), or from a zip uploaded in its settings.`,
    expandsWorkspaceFolder: false,
    inheritsShellPath: false,
    remaining:
      'Quit Claude Desktop completely (tray or menu bar → Quit; closing the window is not enough) and start it again: it reads its configuration only at start.',
    limitations: [
      {
        lacks:
          'Claude Desktop does not support resource templates: skill files other than SKILL.md (references/…) are not offered in its picker.',
        todo: `Let the model fetch them with the ${TOOLS.load} tool.`,
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
  }),
  vscode: define({
    id: 'vscode',
    label: 'VS Code',
    scope: 'project',
    projectFiles: ['.vscode/mcp.json'],
    format: 'json',
    serversKey: 'servers',
    entry: TYPED_ENTRY,
    skillsDir: '.github/skills',
    expandsWorkspaceFolder: true,
    inheritsShellPath: true,
    remaining:
      'VS Code asks you to trust the server the first time it starts; the command "MCP: List Servers" shows and starts it.',
    limitations: [],
  }),
  cursor: define({
    id: 'cursor',
    label: 'Cursor',
    scope: 'project',
    projectFiles: ['.cursor/mcp.json'],
    format: 'json',
    serversKey: 'mcpServers',
    // Cursor tells a remote server by its `url`, with no `type`.
    entry: { command: 'command', args: 'args', url: 'url', stdio: { type: 'stdio' } },
    skillsDir: '.cursor/skills',
    expandsWorkspaceFolder: true,
    inheritsShellPath: true,
    remaining: 'Cursor lists the server in Settings → MCP; turn it on there if it shows as disabled.',
    limitations: [
      {
        lacks: 'Cursor does not offer MCP resources (they are not in its support matrix).',
        todo: `Rely on the ${TOOLS.load} and ${TOOLS.lookup} tools and on the copies in .cursor/skills; do not expect to attach resources.`,
      },
    ],
  }),
  codex: define({
    id: 'codex',
    label: 'Codex',
    scope: 'project',
    projectFiles: ['.codex/config.toml'],
    format: 'toml',
    serversKey: 'mcp_servers',
    entry: { command: 'command', args: 'args', url: 'url' },
    skillsDir: '.agents/skills',
    expandsWorkspaceFolder: false,
    inheritsShellPath: true,
    descriptionLimit: 1024,
    remaining:
      'Codex reads a project’s .codex/config.toml only when you trust the project; `codex mcp list` shows whether it sees the server.',
    limitations: CODEX_LIMITATIONS,
  }),
  'codex-user': define({
    id: 'codex-user',
    label: 'Codex (user configuration)',
    scope: 'user',
    userFile: ({ home, env }) => {
      if (env.CODEX_HOME) return join(env.CODEX_HOME, 'config.toml');
      return home === undefined ? undefined : join(home, '.codex', 'config.toml');
    },
    userFileShown: '~/.codex/config.toml',
    format: 'toml',
    serversKey: 'mcp_servers',
    entry: { command: 'command', args: 'args', url: 'url' },
    skillsDir: '.agents/skills',
    expandsWorkspaceFolder: false,
    inheritsShellPath: true,
    descriptionLimit: 1024,
    remaining: 'Start a new Codex session to pick up the server; `codex mcp list` shows it.',
    limitations: CODEX_LIMITATIONS,
  }),
  // Gemini CLI (google-gemini/gemini-cli@5411f11). The project's `.gemini/settings.json`, JSON with comments
  // (docs/reference/configuration.md "Settings files"; packages/cli/src/config/settings.ts parses it with
  // strip-json-comments). `mcpServers` entries take `command`, `args`, `env`, `cwd`, and `httpUrl` for Streamable
  // HTTP (`url` alone means SSE; docs/tools/mcp-server.md "Configuration properties"). Every string of the file may
  // name `$VAR` or `${VAR}` and is expanded on load (configuration.md "Note on environment variables in settings");
  // `${workspacePath}` exists for extensions only (docs/extensions/reference.md). Skills: `.gemini/skills` or its
  // `.agents/skills` alias, which wins within a tier, and a skill found in both raises "Skill conflict detected"
  // (docs/cli/skills.md "Discovery tiers"; packages/core/src/skills/skillManager.ts) — so `.agents/skills`, the
  // directory Codex, Goose and the generic setup fill too. It handles tools/resources/prompts list_changed and
  // fetches resources/list, never resources/templates/list (packages/core/src/tools/mcp-client.ts).
  gemini: define({
    id: 'gemini',
    label: 'Gemini CLI',
    scope: 'project',
    projectFiles: ['.gemini/settings.json'],
    format: 'json',
    serversKey: 'mcpServers',
    entry: { command: 'command', args: 'args', url: 'httpUrl' },
    skillsDir: '.agents/skills',
    expandsWorkspaceFolder: false,
    substitutes: { pattern: /\$(?:[A-Za-z_]|\{)/, what: 'a `$` that starts a variable' },
    inheritsShellPath: true,
    remaining:
      'Gemini CLI starts a project’s servers and reads its skills only in a trusted folder (`gemini trust`); `/mcp` shows the server and `/skills list` the skills.',
    limitations: [
      {
        lacks:
          'Gemini CLI starts the stdio servers of .gemini/settings.json and reads .agents/skills only in a folder you trust.',
        todo: 'Trust the project when Gemini CLI asks, or run `gemini trust` in it.',
      },
      {
        lacks:
          'Gemini CLI lists resources but not resource templates: skill files other than SKILL.md are not offered as resources.',
        todo: `The copies in .agents/skills hold every file, and the ${TOOLS.load} tool hands them over.`,
      },
      {
        lacks: 'Gemini CLI reads skills when a session starts.',
        todo: 'After a refresh of the copies, run `/skills reload` (or start a new session).',
      },
    ],
    // packages/cli/src/config/config.ts: `settings.mcp.allowed`, when set, keeps only the servers it names (an
    // empty list keeps none); `settings.mcp.excluded` drops the servers it names. Both may sit in the user's
    // settings as well as the project's (docs/reference/configuration.md "Settings files").
    serverFilters: {
      allowed: ['mcp', 'allowed'],
      excluded: ['mcp', 'excluded'],
      alsoIn: ({ home }) =>
        home === undefined
          ? []
          : [{ path: join(home, '.gemini', 'settings.json'), shown: '~/.gemini/settings.json' }],
    },
  }),
  // Goose (aaif-goose/goose, formerly block/goose). `config.yaml` in Goose's config directory: `$GOOSE_PATH_ROOT/config`,
  // else `%APPDATA%\Block\goose\config` on Windows and `$XDG_CONFIG_HOME/goose` or `~/.config/goose` elsewhere
  // (crates/goose/src/config/paths.rs, etcetera's app strategy; documentation/docs/guides/config-files.md). There is
  // no project file. Servers are the `extensions` map, keyed by the extension's name, each `enabled` (required)
  // plus the fields of its `type`: `stdio` with `name`, `description`, `cmd`, `args`, `envs`, `env_keys`, `timeout`
  // (seconds), or `streamable_http` with `uri` (crates/goose/src/agents/extension.rs `ExtensionConfig`;
  // config/extensions.rs `ExtensionEntry`). When Goose saves an entry it writes it back whole from that struct, its
  // defaults included. It expands variables only in `uri` and `headers` (extension.rs `resolve`). Skills: project
  // `.agents/skills` first, then `.goose/skills` and `.claude/skills`, first name wins
  // (crates/goose/src/skills/mod.rs `all_skill_dirs`). "Changes to config files require restarting goose"
  // (config-files.md); the Desktop app reads the same file.
  goose: define({
    id: 'goose',
    label: 'Goose',
    scope: 'user',
    userFile: ({ home, env, platform }) => {
      const root = env.GOOSE_PATH_ROOT;
      if (root !== undefined && isAbsolute(root)) return join(root, 'config', 'config.yaml');
      if (platform === 'win32') {
        const appData = env.APPDATA ?? (home === undefined ? undefined : join(home, 'AppData', 'Roaming'));
        return appData === undefined ? undefined : join(appData, 'Block', 'goose', 'config', 'config.yaml');
      }
      const config = env.XDG_CONFIG_HOME || (home === undefined ? undefined : join(home, '.config'));
      return config === undefined ? undefined : join(config, 'goose', 'config.yaml');
    },
    userFileShown: '~/.config/goose/config.yaml',
    format: 'yaml',
    serversKey: 'extensions',
    entry: {
      command: 'cmd',
      args: 'args',
      url: 'uri',
      name: 'name',
      stdio: {
        type: 'stdio',
        description: 'Skills and knowledge documents served by companion',
        timeout: 300,
      },
      remote: {
        type: 'streamable_http',
        description: 'Skills and knowledge documents served by companion',
        timeout: 300,
      },
    },
    createdWith: { enabled: true },
    hostDefaults: GOOSE_DEFAULTS,
    // Goose saves an entry under `name_to_key(name)`: lowercase, `_` for other characters (config/extensions.rs).
    entryNames: { pattern: /^[a-z0-9_-]+$/, rule: 'lowercase letters, digits, "_" and "-"' },
    skillsDir: '.agents/skills',
    expandsWorkspaceFolder: false,
    inheritsShellPath: false,
    remaining:
      'Restart Goose (Desktop, or a new `goose session`) to load the extension; `goose info -v` shows the configuration it read.',
    limitations: [
      {
        lacks: 'Goose reads config.yaml only when it starts.',
        todo: 'Restart Goose after an install; a running session keeps the extensions it started with.',
      },
      {
        lacks:
          'Goose rewrites config.yaml itself when you change extensions in its settings, without your comments and with its own defaults in each entry.',
        todo: 'Nothing to do: companion still knows its entry by its owned fields, and uninstall then removes only that entry.',
      },
      {
        lacks: 'Goose reads MCP resources only through its own list and read tools, with no picker.',
        todo: `Ask for a document by its id, or rely on the ${TOOLS.load} and ${TOOLS.lookup} tools and the copies in .agents/skills.`,
      },
    ],
  }),
  // OpenCode (anomalyco/opencode, formerly sst/opencode). The project's `opencode.json` or `opencode.jsonc`, both JSON
  // with comments, found from the working directory up to the git worktree (packages/web/src/content/docs/config.mdx
  // "Format", "Per project"; packages/opencode/src/config/paths.ts). Servers sit under `mcp`: `{ type: "local",
  // command: [command, ...args], environment, enabled, timeout }` or `{ type: "remote", url, headers, enabled }`
  // (packages/opencode/src/config/mcp.ts; docs/mcp-servers.mdx). `timeout` is the milliseconds it waits for a
  // server's tools, 5000 by default. It substitutes `{env:NAME}` and `{file:path}` in the whole file (config.mdx
  // "Variables"); no workspace variable. Skills: `.opencode/skills` (or `.claude/skills`, `.agents/skills`), names
  // `^[a-z0-9]+(-[a-z0-9]+)*$`, descriptions of 1–1024 characters (docs/skills.mdx). Servers of project config files
  // need approval (`opencode mcp approve`), again whenever their definition changes (mcp-servers.mdx "Project server
  // approval").
  opencode: define({
    id: 'opencode',
    label: 'OpenCode',
    scope: 'project',
    projectFiles: ['opencode.json', 'opencode.jsonc'],
    format: 'json',
    serversKey: 'mcp',
    entry: { command: 'command', url: 'url', stdio: { type: 'local' }, remote: { type: 'remote' } },
    skillsDir: '.opencode/skills',
    expandsWorkspaceFolder: false,
    substitutes: { pattern: /\{(?:env|file):/, what: '`{env:` or `{file:`' },
    inheritsShellPath: true,
    descriptionLimit: 1024,
    remaining:
      'OpenCode asks you to approve a server from a project’s opencode.json (`opencode mcp approve NAME`), again after install changes it; `opencode mcp list` shows it.',
    limitations: [
      {
        lacks: 'OpenCode waits 5 seconds for a server’s tools by default.',
        todo: 'On a large content repository, add `"timeout": 20000` (milliseconds) to the entry: it is your field, and install keeps it.',
      },
      {
        lacks: 'OpenCode’s documentation describes MCP tools only, not resources or prompts.',
        todo: `Rely on the ${TOOLS.load} and ${TOOLS.lookup} tools and on the copies in .opencode/skills.`,
      },
      {
        lacks: 'OpenCode refuses skills whose description is longer than 1024 characters.',
        todo: `Keep every description within 1024 characters (\`${RUN_PREFIX} check\` warns about longer ones).`,
      },
    ],
  }),
  // GitHub Copilot CLI (github/docs content/copilot/how-tos/copilot-cli/customize-copilot/add-mcp-servers.md). Besides
  // `~/.copilot/mcp-config.json` it reads a project's `.mcp.json` ("local or per-checkout configuration") and
  // `.github/mcp.json` ("shared configuration that is committed"), `mcpServers` in both, entries `{ type: "local" |
  // "stdio", command, args, env, tools }` or `{ type: "http", url, headers, tools }`, `tools` defaulting to all.
  // Install writes machine-specific paths, so `.mcp.json`, the file Claude Code and the generic setup share: one
  // `{ type: "stdio" }` entry serves all three. Project servers load only in a trusted folder and not in prompt mode
  // (`copilot -p`) unless GITHUB_COPILOT_PROMPT_MODE_WORKSPACE_MCP=true (same page). Skills: `.github/skills`,
  // `.agents/skills` or `.claude/skills` (data/reusables/copilot/creating-adding-skills.md). It supports MCP tools
  // only (github/copilot-cli#1518 "Currently, Copilot only supports tools", #1803, both open).
  'copilot-cli': define({
    id: 'copilot-cli',
    label: 'GitHub Copilot CLI',
    scope: 'project',
    projectFiles: ['.mcp.json'],
    format: 'json',
    serversKey: 'mcpServers',
    entry: TYPED_ENTRY,
    skillsDir: '.github/skills',
    expandsWorkspaceFolder: false,
    inheritsShellPath: true,
    remaining:
      'Copilot CLI loads .mcp.json only in a folder you trust (it asks on first launch); `/mcp show` lists the server and `/skills list` the skills.',
    limitations: [
      {
        lacks:
          'Copilot CLI loads a project’s .mcp.json only in a trusted folder, and not in prompt mode (`copilot -p`).',
        todo: 'Trust the folder when it asks; for `copilot -p`, set GITHUB_COPILOT_PROMPT_MODE_WORKSPACE_MCP=true.',
      },
      {
        lacks: 'Copilot CLI supports MCP tools only: no resources and no prompts.',
        todo: `Rely on the ${TOOLS.load} and ${TOOLS.lookup} tools and on the copies in .github/skills (\`/skills reload\` after a refresh).`,
      },
    ],
  }),
  // Windsurf (docs.windsurf.com/windsurf/cascade/mcp). One file for the user, `~/.codeium/windsurf/mcp_config.json`
  // (`%USERPROFILE%\.codeium\windsurf\` on Windows), "the same schema as the config file for Claude Desktop":
  // `mcpServers` entries with `command`, `args`, `env`, a remote one with `serverUrl` (or `url`) and `headers`.
  // It interpolates `${env:NAME}` and `${file:path}` in command, args, env, serverUrl, url and headers ("Config
  // Interpolation"). Cascade takes at most 100 tools in all, and a new server needs the refresh button of its MCP
  // panel. Skills: `.windsurf/skills/<name>/` in the workspace (docs.windsurf.com/windsurf/cascade/skills).
  windsurf: define({
    id: 'windsurf',
    label: 'Windsurf',
    scope: 'user',
    userFile: ({ home }) =>
      home === undefined ? undefined : join(home, '.codeium', 'windsurf', 'mcp_config.json'),
    userFileShown: '~/.codeium/windsurf/mcp_config.json',
    format: 'json',
    serversKey: 'mcpServers',
    entry: { command: 'command', args: 'args', url: 'serverUrl' },
    skillsDir: '.windsurf/skills',
    expandsWorkspaceFolder: false,
    substitutes: { pattern: /\$\{(?:env|file):/, what: '`${env:` or `${file:`' },
    inheritsShellPath: false,
    remaining:
      'Press the refresh button in Windsurf’s MCP panel (Cascade → MCP servers), or restart Windsurf, to start the server.',
    limitations: [
      {
        lacks: 'Windsurf’s Cascade takes at most 100 tools from all servers together.',
        todo: `companion adds ${formatNumberWord(TOOL_NAMES.length)}; if you reach the limit, turn off tools you do not need in the MCP panel.`,
      },
      {
        lacks: 'Windsurf’s documentation describes MCP tools only, not resources or prompts.',
        todo: `Rely on the ${TOOLS.load} and ${TOOLS.lookup} tools and on the copies in .windsurf/skills.`,
      },
    ],
  }),
  // Antigravity. It reads no `.mcp.json`. TYPO3/dev-companion's install decision D-DIS-032 (2026-10-06, "Antigravity
  // gets a workspace plugin that starts the server in the project") read antigravity.google/docs/plugins and
  // /docs/mcp and measured a working plugin in `agy -p`: a workspace plugin is a directory in `.agents/plugins/`
  // whose `plugin.json` manifest (required; `name` required, `$schema`
  // https://antigravity.google/schemas/v1/plugin.json) sits beside an `mcp_config.json` of `mcpServers` entries with
  // `command`, `args`, `env`, `cwd`; without `cwd` the server starts in the plugin directory. No `type`, and no
  // variable for the project root. The directory is companion's whole and ignores itself, so its absolute paths
  // never reach git. Skills: `.agents/skills` (TYPO3's installer). Not confirmed here: a URL field (third-party
  // pages say `serverUrl`), so install writes the command only; and whether Antigravity asks to trust the plugin.
  antigravity: define({
    id: 'antigravity',
    label: 'Antigravity',
    scope: 'project',
    projectFiles: ['.agents/plugins/{name}/mcp_config.json'],
    format: 'json',
    serversKey: 'mcpServers',
    entry: { command: 'command', args: 'args', cwd: 'cwd' },
    files: (name, server) => [
      {
        path: `.agents/plugins/${name}/plugin.json`,
        text: `${JSON.stringify({ $schema: 'https://antigravity.google/schemas/v1/plugin.json', name }, null, 2)}\n`,
      },
      {
        path: `.agents/plugins/${name}/.gitignore`,
        text: `# Written by companion install: the workspace plugin that starts the server ${JSON.stringify(server)} for Antigravity. \`npx companion uninstall\` removes it.\n*\n`,
      },
    ],
    ignoredByGit: true,
    skillsDir: '.agents/skills',
    expandsWorkspaceFolder: false,
    inheritsShellPath: false,
    remaining:
      'Start a new Antigravity session in this project: it loads the workspace plugin in .agents/plugins/ and its server.',
    limitations: [
      {
        lacks:
          'Antigravity reads its server from a workspace plugin that names this project’s absolute path (cwd), so the plugin holds on this machine only.',
        todo: `It keeps itself out of git; on another machine, run \`${RUN_PREFIX} install --client antigravity\` there.`,
      },
      {
        lacks: 'companion does not know whether Antigravity offers MCP resources, templates or list_changed.',
        todo: `Rely on the ${TOOLS.load} and ${TOOLS.lookup} tools and on the copies in .agents/skills; start a new session after changing the content.`,
      },
    ],
  }),
  generic: define({
    id: 'generic',
    label: 'Generic host',
    scope: 'project',
    projectFiles: ['.mcp.json'],
    format: 'json',
    serversKey: 'mcpServers',
    entry: TYPED_ENTRY,
    skillsDir: '.agents/skills',
    expandsWorkspaceFolder: false,
    inheritsShellPath: true,
    remaining:
      'Point your host at .mcp.json (mcpServers) and .agents/skills if it does not read them on its own.',
    limitations: [],
  }),
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
 * The absolute path of `client`'s MCP configuration file for the entry `name`, or undefined for a user-level
 * client when no home is known. Of a project client's files, the first that exists (a dangling link counts, to be
 * refused rather than passed by), else the first.
 */
export function buildConfigPath(
  client: ClientDefinition,
  project: string,
  where: HomeContext,
  name: string,
): string | undefined {
  if (client.scope === 'user') return client.userFile!(where);
  const paths = client.projectFiles!.map((file) =>
    join(project, ...file.replaceAll('{name}', name).split('/')),
  );
  return paths.find(existsAsEntry) ?? paths[0];
}

/** The config files a client may use, project-relative or `~/…`, as usage and doctor name them. */
export function formatConfigFiles(client: ClientDefinition): string {
  if (client.scope === 'user') return client.userFileShown!;
  return client.projectFiles!.map((f) => f.replaceAll('{name}', 'NAME')).join(' or ');
}

/** Every config file `doctor` looks for, once each: the project's, then the user's, in the order of the clients. */
export function listConfigFiles(): string[] {
  const clients = CLIENT_IDS.map(readClient);
  const ordered = [
    ...clients.filter((c) => c.scope === 'project'),
    ...clients.filter((c) => c.scope === 'user'),
  ];
  return [...new Set(ordered.map(formatConfigFiles))];
}

function existsAsEntry(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
