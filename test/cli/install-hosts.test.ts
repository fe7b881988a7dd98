/**
 * The hosts added from their own documentation — Gemini CLI, Goose, OpenCode, GitHub Copilot CLI, Windsurf and
 * Antigravity — each on a fake home and project that already hold the user's own configuration (comments, key
 * order, other servers): a first install writes the host's own entry shape and keeps every byte of the user's,
 * publishes the skills with references/base.md, a second run changes nothing and says so, doctor says what the host
 * cannot do, and uninstall gives back both trees byte for byte. Then what each host needs of its own.
 */
import fs from 'node:fs';
import { parse as parseJsonc } from 'jsonc-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { ClientId } from '../../src/install/clients.js';
import { OWN_BIN } from '../../src/install/server-entry.js';
import { GOOSE_CONFIG } from '../install/config-text.js';
import {
  createSandbox,
  listFiles,
  readText,
  readTree,
  readTreeState,
  type Sandbox,
} from '../install/helpers.js';

let box: Sandbox;
beforeEach(() => {
  box = createSandbox();
});
afterEach(() => box.cleanup());

const DESCRIPTION = 'Skills and knowledge documents served by companion';
const ALPHA = ['.gitignore', 'SKILL.md', 'references/base.md', 'references/checklist.md'];

interface HostCase {
  readonly id: ClientId;
  readonly label: string;
  /** The config as the sandbox names it (`project/…` or `home/…`), and what the user had in it. */
  readonly config: string;
  readonly mine?: string;
  readonly read: (text: string) => Record<string, unknown>;
  /** The servers table and our entry, as the host reads them after install (`root` is the content root). */
  readonly table: string;
  readonly entry: (root: string, project: string) => Record<string, unknown>;
  readonly skillsDir: string;
  /** Lines doctor prints for the host beside the entry and skills checks. */
  readonly notes: readonly string[];
}

/** Reads JSON or JSONC (a hand-edited config may carry comments). */
// biome-ignore lint/suspicious/noExplicitAny: test reads of arbitrary config documents
type Json = any;

const json = (text: string) => parseJsonc(text) as Record<string, unknown>;
const stdio = (root: string) => [OWN_BIN, 'serve', '--root', root];

const HOSTS: readonly HostCase[] = [
  {
    id: 'gemini',
    label: 'Gemini CLI',
    config: 'project/.gemini/settings.json',
    mine: `{
  // my Gemini CLI settings
  "theme": "Dracula",
  "mcpServers": {
    "git": { "command": "uvx", "args": ["mcp-server-git"] }
  },
  "mcp": { "allowed": ["git", "fixture"] }
}
`,
    read: json,
    table: 'mcpServers',
    entry: (root) => ({ command: 'node', args: stdio(root) }),
    skillsDir: '.agents/skills',
    notes: ['reads .agents/skills only in a folder you trust', '`/skills reload`'],
  },
  {
    id: 'goose',
    label: 'Goose',
    config: 'home/.config/goose/config.yaml',
    mine: GOOSE_CONFIG,
    read: (text) => parseYaml(text) as Record<string, unknown>,
    table: 'extensions',
    entry: (root) => ({
      enabled: true,
      type: 'stdio',
      name: 'fixture',
      cmd: process.execPath,
      args: stdio(root),
      description: DESCRIPTION,
      timeout: 300,
    }),
    skillsDir: '.agents/skills',
    notes: ['Goose reads config.yaml only when it starts', 'Goose rewrites config.yaml itself'],
  },
  {
    id: 'opencode',
    label: 'OpenCode',
    // The project has an opencode.jsonc: install writes there, never a second file beside it.
    config: 'project/opencode.jsonc',
    mine: `{
  "$schema": "https://opencode.ai/config.json",
  // models
  "model": "anthropic/claude-sonnet-4-5",
  "mcp": {
    "context7": { "type": "remote", "url": "https://mcp.context7.com/mcp", },
  },
}
`,
    read: json,
    table: 'mcp',
    entry: (root) => ({ type: 'local', command: ['node', ...stdio(root)] }),
    skillsDir: '.opencode/skills',
    notes: ['OpenCode waits 5 seconds', 'describes MCP tools only'],
  },
  {
    id: 'copilot-cli',
    label: 'GitHub Copilot CLI',
    config: 'project/.mcp.json',
    mine: '{\r\n  "mcpServers": {\r\n    "playwright": { "type": "local", "command": "npx", "args": ["@playwright/mcp@latest"], "tools": ["*"] }\r\n  }\r\n}\r\n',
    read: json,
    table: 'mcpServers',
    entry: (root) => ({ type: 'stdio', command: 'node', args: stdio(root) }),
    skillsDir: '.github/skills',
    notes: ['only in a trusted folder', 'supports MCP tools only'],
  },
  {
    id: 'windsurf',
    label: 'Windsurf',
    config: 'home/.codeium/windsurf/mcp_config.json',
    mine: `{
  "mcpServers": {
    "github": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "\${env:GH_TOKEN}" }
    }
  }
}
`,
    read: json,
    table: 'mcpServers',
    entry: (root) => ({ command: process.execPath, args: stdio(root) }),
    skillsDir: '.windsurf/skills',
    notes: ['at most 100 tools'],
  },
  {
    id: 'antigravity',
    label: 'Antigravity',
    config: 'project/.agents/plugins/fixture/mcp_config.json',
    read: json,
    table: 'mcpServers',
    entry: (root, project) => ({ command: process.execPath, args: stdio(root), cwd: project }),
    skillsDir: '.agents/skills',
    notes: ['names this project’s absolute path (cwd)'],
  },
];

/** Whether every byte of `before` is in `after`, in order: what was the user's is all still there. */
function isKeptIn(before: string, after: string): boolean {
  let at = 0;
  for (const char of after) if (at < before.length && char === before[at]) at++;
  return at === before.length;
}

/** Other things of the user's in the project and the home directory, which every run must leave alone. */
function plantNeighbours(): void {
  box.temp.write('project/.agents/plugins/other/plugin.json', '{ "name": "other" }\n');
  box.temp.write('project/.agents/skills/my-own/SKILL.md', '---\nname: my-own\n---\nmine\n');
  box.temp.write('project/.opencode/agents/review.md', 'an agent of mine\n');
  box.temp.write('home/.gemini/settings.json', '{ "theme": "Dracula" }\n');
}

describe.each(HOSTS)('companion install --client $id', (host) => {
  it('writes the host’s own entry beside the user’s, publishes the skills, changes nothing twice, and uninstalls to the byte', async () => {
    plantNeighbours();
    if (host.mine !== undefined) box.temp.write(host.config, host.mine);
    const project = readTree(box.project);
    const home = readTree(box.home);

    const first = await box.install('--root', box.root, '--client', host.id);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const shown = host.config.replace(/^project\//, '').replace(/^home\//, '~/');
    expect(first.stdout).toContain(`Configured "fixture" for ${host.label} in ${shown}.\n`);
    expect(first.stdout).toContain(`Published alpha, beta into ${host.skillsDir}.\n`);
    if (host.mine !== undefined) {
      expect(first.stdout).toMatch(
        new RegExp(`Backed up ${shown.replaceAll('.', '\\.')} to \\.companion/backups/`),
      );
    }

    // The entry, in the host's shape, and everything else of the user's as it was.
    const after = readText(box.temp.path(host.config));
    const document = host.read(after);
    const table = document[host.table] as Record<string, unknown>;
    expect(table.fixture).toEqual(host.entry(box.root, box.project));
    if (host.mine !== undefined) {
      expect(isKeptIn(host.mine, after), after).toBe(true);
      const mine = host.read(host.mine);
      const { fixture: _ours, ...rest } = table;
      expect({ ...document, [host.table]: rest }).toEqual(mine);
    }
    expect(listFiles(box.inProject(`${host.skillsDir}/alpha`))).toEqual(ALPHA);
    expect(readText(box.inProject(`${host.skillsDir}/alpha/references/base.md`))).toBe(
      readText(`${box.root}/skills/base.md`),
    );
    for (const neighbour of ['.agents/plugins/other/plugin.json', '.agents/skills/my-own/SKILL.md']) {
      expect(readTree(box.project)[neighbour]).toBe(project[neighbour]);
    }

    // doctor: the entry is fine, the copies are fresh, and it says what the host cannot do.
    const doctor = await box.doctor();
    expect(doctor.stdout).toContain(
      `${host.label} — ${shown}\n  ok    "fixture" runs \`companion serve\` on this content root.\n`,
    );
    expect(doctor.stdout).toContain(`  ok    ${host.skillsDir} holds fresh copies of alpha, beta.\n`);
    for (const note of host.notes) expect(doctor.stdout).toContain(note);
    expect(doctor.code).toBe(0);

    // A second run: nothing to change, nothing touched.
    const projectState = readTreeState(box.project);
    const homeState = readTreeState(box.home);
    const again = await box.install();
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Reused "fixture" for ${host.label} in ${shown}: unchanged.\n`);
    expect(again.stdout.endsWith('Nothing changed: everything was already in place.\n')).toBe(true);
    expect(readTreeState(box.project)).toEqual(projectState);
    expect(readTreeState(box.home)).toEqual(homeState);

    // Uninstall: both trees as they were, byte for byte and mode for mode.
    const gone = await box.uninstall();
    expect(gone.stderr).toBe('');
    expect(gone.code).toBe(0);
    expect(gone.stdout).toContain(
      host.mine === undefined
        ? `Deleted ${shown}: install had created it, and it holds nothing else.`
        : `Restored ${shown} as it was before install, byte for byte.`,
    );
    expect(readTree(box.project)).toEqual(project);
    expect(readTree(box.home)).toEqual(home);
  });

  it('refuses an entry of the same name that it did not write, and writes nothing', async () => {
    const foreign =
      host.id === 'goose'
        ? 'extensions:\n  fixture:\n    enabled: true\n    type: stdio\n    name: fixture\n    cmd: uvx\n    args: [fixture-mcp]\n'
        : `{ "${host.table}": { "fixture": ${host.id === 'opencode' ? '{ "type": "local", "command": ["uvx", "fixture-mcp"] }' : '{ "command": "uvx", "args": ["fixture-mcp"] }'} } }\n`;
    box.temp.write(host.config, foreign);
    const project = readTree(box.project);
    const result = await box.install('--root', box.root, '--client', host.id);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('that runs `uvx fixture-mcp`, which companion install did not write.');
    expect(readText(box.temp.path(host.config))).toBe(foreign);
    expect(readTree(box.project)).toEqual(project);
  });
});

describe('what each new host needs of its own', () => {
  it('Goose: an entry Goose rewrote with its own defaults is still companion’s to refresh and to take back', async () => {
    box.temp.write('home/.config/goose/config.yaml', 'GOOSE_MODE: auto\n');
    expect((await box.install('--root', box.root, '--client', 'goose')).code).toBe(0);
    // What Goose writes when it saves the entry: its struct, defaults included, comments and quoting its own.
    const ours = (parseYaml(readText(box.temp.path('home/.config/goose/config.yaml'))) as Json).extensions
      .fixture;
    box.temp.write(
      'home/.config/goose/config.yaml',
      [
        'GOOSE_MODE: auto',
        'extensions:',
        '  fixture:',
        '    enabled: true',
        '    type: stdio',
        '    name: fixture',
        `    description: ${ours.description}`,
        `    cmd: ${ours.cmd}`,
        '    args:',
        ...ours.args.map((a: string) => `    - '${a}'`),
        '    envs: {}',
        '    env_keys: []',
        '    timeout: 300',
        '    bundled: null',
        '    available_tools: []',
        '',
      ].join('\n'),
    );
    const again = await box.install();
    expect(again.stdout).toContain('Reused "fixture" for Goose in ~/.config/goose/config.yaml: unchanged.');
    const gone = await box.uninstall();
    expect(gone.code).toBe(0);
    expect(gone.stdout).toContain('Removed "fixture" from ~/.config/goose/config.yaml');
    expect(readText(box.temp.path('home/.config/goose/config.yaml'))).toBe('GOOSE_MODE: auto\nextensions:\n');
  });

  it('Goose: turned off in Goose, the entry stays companion’s, and doctor says so', async () => {
    await box.install('--root', box.root, '--client', 'goose');
    const path = box.temp.path('home/.config/goose/config.yaml');
    box.temp.write(
      'home/.config/goose/config.yaml',
      readText(path).replace('enabled: true', 'enabled: false'),
    );
    const again = await box.install();
    expect(again.stdout).toContain('Reused "fixture" for Goose in ~/.config/goose/config.yaml: unchanged.');
    const doctor = await box.doctor();
    expect(doctor.stdout).toContain(
      'fix   The entry "fixture" is turned off in ~/.config/goose/config.yaml (enabled = false)',
    );
  });

  it('Antigravity: a workspace plugin of companion’s own, which another plugin of that name refuses', async () => {
    expect((await box.install('--root', box.root, '--client', 'antigravity')).stdout).toContain(
      'Wrote .agents/plugins/fixture/plugin.json, .agents/plugins/fixture/.gitignore.',
    );
    expect(JSON.parse(readText(box.inProject('.agents/plugins/fixture/plugin.json')))).toEqual({
      $schema: 'https://antigravity.google/schemas/v1/plugin.json',
      name: 'fixture',
    });
    expect(readText(box.inProject('.agents/plugins/fixture/.gitignore'))).toMatch(/\n\*\n$/);
    // The plugin keeps itself out of git: no "absolute paths on this machine" warning for it.
    const other = createSandboxWithPlugin();
    try {
      const refused = await other.install('--root', other.root, '--client', 'antigravity');
      expect(refused.code).toBe(1);
      expect(refused.stdout).toContain(
        'Refused Antigravity: .agents/plugins/fixture/plugin.json exists and companion install did not write it, or it changed since; it never replaces a file it did not write. Pass --name NAME',
      );
      expect(listFiles(other.project)).toEqual(['.agents/plugins/fixture/plugin.json']);
      const named = await other.install(
        '--root',
        other.root,
        '--client',
        'antigravity',
        '--name',
        'fixture-docs',
      );
      expect(named.code).toBe(0);
      expect(
        JSON.parse(readText(other.inProject('.agents/plugins/fixture-docs/mcp_config.json'))),
      ).toHaveProperty(['mcpServers', 'fixture-docs', 'cwd'], other.project);
      // A later --name change cannot move the plugin: the files are named after the entry.
      const moved = await other.install('--name', 'fixture-other');
      expect(moved.code).toBe(1);
      expect(moved.stdout).toContain(
        '--name cannot move them: run `npx companion uninstall --client antigravity`',
      );
      expect((await other.uninstall()).code).toBe(0);
      expect(listFiles(other.project)).toEqual(['.agents/plugins/fixture/plugin.json']);
    } finally {
      other.cleanup();
    }
  });

  it('Antigravity: doctor notices a plugin manifest that is gone, and uninstall keeps one the user changed', async () => {
    await box.install('--root', box.root, '--client', 'antigravity');
    box.temp.remove('project/.agents/plugins/fixture/plugin.json');
    const doctor = await box.doctor();
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(
      'fix   .agents/plugins/fixture/plugin.json is missing or changed, and Antigravity needs it to load the server: run `npx companion install --client antigravity`.',
    );
    expect((await box.install()).stdout).toContain('Wrote .agents/plugins/fixture/plugin.json.');
    box.temp.write('project/.agents/plugins/fixture/plugin.json', '{ "name": "fixture", "mine": true }\n');
    const gone = await box.uninstall();
    expect(gone.code).toBe(1);
    expect(gone.stdout).toContain(
      'Kept .agents/plugins/fixture/plugin.json: it changed since install wrote it; remove it by hand if you do not need it.',
    );
    expect(listFiles(box.project).filter((f) => !f.startsWith('.companion/'))).toEqual([
      '.agents/plugins/fixture/plugin.json',
    ]);
  });

  it('GitHub Copilot CLI shares .mcp.json with Claude Code: one entry, which stays while either is installed', async () => {
    const result = await box.install('--root', box.root, '--client', 'claude-code,copilot-cli');
    expect(result.stdout).toContain('Reused "fixture" for GitHub Copilot CLI in .mcp.json: unchanged.');
    expect(Object.keys((json(readText(box.inProject('.mcp.json'))) as Json).mcpServers)).toEqual(['fixture']);
    const doctor = await box.doctor();
    expect(doctor.stdout).toContain('Claude Code / GitHub Copilot CLI — .mcp.json');
    expect((await box.uninstall('--client', 'copilot-cli')).code).toBe(0);
    expect((json(readText(box.inProject('.mcp.json'))) as Json).mcpServers).toHaveProperty('fixture');
    expect(fs.existsSync(box.inProject('.github/skills'))).toBe(false);
    expect(fs.existsSync(box.inProject('.claude/skills/alpha/SKILL.md'))).toBe(true);
  });

  it('URL entries in each host’s own field, and the command where the host takes no URL companion knows', async () => {
    const result = await box.install(
      '--root',
      box.root,
      '--client',
      'gemini,goose,opencode,windsurf,antigravity',
      '--url',
    );
    expect(result.code).toBe(0);
    const url = 'http://127.0.0.1:3917/mcp';
    expect((json(readText(box.inProject('.gemini/settings.json'))) as Json).mcpServers.fixture).toEqual({
      httpUrl: url,
    });
    expect((json(readText(box.inProject('opencode.json'))) as Json).mcp.fixture).toEqual({
      type: 'remote',
      url,
    });
    expect(
      (json(readText(`${box.home}/.codeium/windsurf/mcp_config.json`)) as Json).mcpServers.fixture,
    ).toEqual({
      serverUrl: url,
    });
    expect((parseYaml(readText(`${box.home}/.config/goose/config.yaml`)) as Json).extensions.fixture).toEqual(
      {
        enabled: true,
        type: 'streamable_http',
        name: 'fixture',
        uri: url,
        description: DESCRIPTION,
        timeout: 300,
      },
    );
    expect(result.stdout).toContain(
      'Antigravity takes no URL in its configuration file: wrote the stdio command instead.',
    );
  });

  it('Goose: refuses an entry name Goose would save under another key', async () => {
    const result = await box.install('--root', box.root, '--client', 'goose', '--name', 'Fixture.Docs');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'Refused Goose: ~/.config/goose/config.yaml: Goose keeps an entry under a name of lowercase letters, digits, "_" and "-" only, and would save "Fixture.Docs" as a second entry: pass --name NAME with such a name.',
    );
    expect(listFiles(box.home)).toEqual([]);
  });

  it('names a foreign entry that runs no command it can read by what it holds', async () => {
    box.temp.write(
      'project/.gemini/settings.json',
      '{ "mcpServers": { "fixture": { "url": "https://example.com/sse" } } }\n',
    );
    const result = await box.install('--root', box.root, '--client', 'gemini');
    expect(result.stdout).toContain(
      'already has an entry "fixture" that runs `{"url":"https://example.com/sse"}`',
    );
  });

  it('refuses a project path that Gemini CLI would expand as a variable, and writes nothing', async () => {
    const root = box.temp.path('my$WORK/content');
    fs.cpSync(box.root, root, { recursive: true });
    const result = await box.install('--root', root, '--client', 'gemini,claude-code');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Refused Gemini CLI: .gemini/settings.json: the entry would name');
    expect(result.stdout).toContain('Gemini CLI substitutes that in its configuration');
    expect(listFiles(box.project)).toEqual([]);
  });

  it('finds Gemini CLI and OpenCode by their project directories when no --client is given', async () => {
    box.temp.write('project/.gemini/GEMINI.md', 'notes\n');
    box.temp.write('project/.opencode/agents/a.md', 'agent\n');
    const result = await box.install('--root', box.root);
    expect(result.stdout.split('\n')[0]).toBe(
      'No --client given: installing for Gemini CLI, OpenCode (found .gemini/, .opencode/).',
    );
  });

  it('works through the real CLI: install, re-install and uninstall of every new host at once', async () => {
    plantNeighbours();
    for (const host of HOSTS) if (host.mine !== undefined) box.temp.write(host.config, host.mine);
    const project = readTree(box.project);
    const home = readTree(box.home);
    const ids = HOSTS.map((h) => h.id).join(',');
    const first = await box.cli('install', '--root', box.root, '--client', ids);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const again = await box.cli('install');
    expect(again.stdout).toContain('Nothing changed: everything was already in place.');
    const gone = await box.cli('uninstall');
    expect(gone.code).toBe(0);
    expect(readTree(box.project)).toEqual(project);
    expect(readTree(box.home)).toEqual(home);
  });
});

/** A second sandbox whose project already holds another workspace plugin named `fixture`. */
function createSandboxWithPlugin(): Sandbox {
  const other = createSandbox();
  other.temp.write(
    'project/.agents/plugins/fixture/plugin.json',
    '{ "name": "fixture", "author": "someone else" }\n',
  );
  return other;
}
