/**
 * `companion install` and `uninstall` against the messy projects and home directories users have, through the
 * real built CLI: entries of other programs under our name in every client's config, a skills directory that
 * is a symlink into the content, read-only / symlinked / dangling / duplicate-keyed / non-UTF-8 configs, a
 * failure on the second of two clients, a root-run install, and the whole install → re-install → uninstall
 * cycle. Each shows what was refused or written, that nothing was lost (bytes and modes compared), and what the
 * user was told.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLIENT_IDS, readClient } from '../../src/install/clients.js';
import { repoRoot } from '../helpers/run-cli.js';
import { createSandbox, listFiles, readText, readTree, type Sandbox } from '../install/helpers.js';

let box: Sandbox;
beforeEach(() => {
  box = createSandbox();
});
afterEach(() => box.cleanup());

/** Where each client keeps its config in the sandbox. */
const CONFIG: Record<(typeof CLIENT_IDS)[number], string> = {
  'claude-code': 'project/.mcp.json',
  'claude-desktop': 'home/.config/Claude/claude_desktop_config.json',
  vscode: 'project/.vscode/mcp.json',
  cursor: 'project/.cursor/mcp.json',
  codex: 'project/.codex/config.toml',
  'codex-user': 'home/.codex/config.toml',
  gemini: 'project/.gemini/settings.json',
  goose: 'home/.config/goose/config.yaml',
  opencode: 'project/opencode.json',
  'copilot-cli': 'project/.mcp.json',
  windsurf: 'home/.codeium/windsurf/mcp_config.json',
  antigravity: 'project/.agents/plugins/fixture/mcp_config.json',
  generic: 'project/.mcp.json',
};

/** Entries of other programs that the old basename guess took for companion's. */
const FOREIGN = [
  { command: 'uvx', args: ['companion'] },
  { command: 'npx', args: ['-y', '@acme/companion'] },
  { command: 'docker', args: ['run', '-i', 'ghcr.io/acme/companion:latest'] },
  { command: '/Applications/Companion.app/Contents/MacOS/companion', args: [] },
  { command: 'node', args: ['/srv/acme/server.js', '--data', '/home/me/companion'] },
];

/** Plants a foreign entry named `fixture` in `client`'s config, in the client's own format and shape. */
function plantForeign(client: (typeof CLIENT_IDS)[number], index: number): string {
  const entry = FOREIGN[index % FOREIGN.length]!;
  const { serversKey, format } = readClient(client);
  const shaped = client === 'opencode' ? { type: 'local', command: [entry.command, ...entry.args] } : entry;
  const text =
    format === 'toml'
      ? `# mine\n[mcp_servers.fixture]\ncommand = ${JSON.stringify(entry.command)}\nargs = ${JSON.stringify(entry.args)}\n`
      : format === 'yaml'
        ? `# mine\nextensions:\n  fixture:\n    enabled: true\n    type: stdio\n    name: fixture\n    cmd: ${JSON.stringify(entry.command)}\n    args: ${JSON.stringify(entry.args)}\n`
        : `{\n  // mine\n  "${serversKey}": { "fixture": ${JSON.stringify(shaped)} }\n}\n`;
  box.temp.write(CONFIG[client], text);
  return text;
}

const asRoot = process.getuid?.() === 0;
const runuser = ['/usr/sbin/runuser', '/sbin/runuser', '/usr/bin/runuser'].find((p) => fs.existsSync(p));
const nobody = spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' });
const nobodyUid = nobody.status === 0 ? Number(nobody.stdout.trim()) : undefined;

describe('install refuses entries it did not write', () => {
  it('in every client’s config, whatever the foreign entry runs, and writes nothing anywhere', async () => {
    for (const [index, client] of CLIENT_IDS.entries()) {
      box.temp.remove('project');
      box.temp.remove('home');
      fs.mkdirSync(box.project);
      fs.mkdirSync(box.home);
      const text = plantForeign(client, index);
      const project = readTree(box.project);
      const home = readTree(box.home);
      const result = await box.cli('install', '--root', box.root, '--client', client);
      expect(result.code, client).toBe(1);
      const entry = FOREIGN[index % FOREIGN.length]!;
      expect(result.stdout, client).toContain(
        `that runs \`${[entry.command, ...entry.args].join(' ')}\`, which companion install did not write. It never changes an entry it did not write: pass --name NAME`,
      );
      expect(result.stdout).toContain('Nothing was installed');
      expect(readText(box.temp.path(CONFIG[client])), client).toBe(text);
      expect(readTree(box.project), client).toEqual(project);
      expect(readTree(box.home), client).toEqual(home);
    }
  });

  it('installs beside it under --name, and uninstall leaves the foreign entry byte for byte', async () => {
    const text = plantForeign('codex', 0);
    const result = await box.cli(
      'install',
      '--root',
      box.root,
      '--client',
      'codex',
      '--name',
      'fixture-docs',
    );
    expect(result.code).toBe(0);
    expect(readText(box.inProject('.codex/config.toml'))).toMatch(
      /^# mine\n\[mcp_servers\.fixture\]\n[\s\S]*\n\[mcp_servers\.fixture-docs\]\n/,
    );
    const gone = await box.cli('uninstall');
    expect(gone.stdout).toContain('Restored .codex/config.toml as it was before install, byte for byte.');
    expect(readText(box.inProject('.codex/config.toml'))).toBe(text);
  });
});

describe('install never writes into content', () => {
  it('refuses a skills directory that is a symlink into the content, and loses none of the author’s files', async () => {
    box.temp.write('content/skills/alpha/.notes.md', 'private notes\n');
    box.temp.write('content/skills/alpha/todo.md~', 'a backup\n');
    box.temp.write('content/skills/alpha/my notes.md', 'spaces\n');
    fs.chmodSync(box.temp.path('content/skills/alpha/SKILL.md'), 0o755);
    box.temp.symlink('../../content/skills', 'project/.claude/skills');
    const content = readTree(box.root);
    const project = readTree(box.project);
    const result = await box.cli('install', '--root', box.root, '--client', 'claude-code');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `Refused .claude/skills: .claude/skills resolves to ${fs.realpathSync(box.root)}/skills, inside the content it would publish`,
    );
    expect(result.stdout).toContain('install never writes into content');
    expect(readTree(box.root)).toEqual(content);
    expect(readTree(box.project)).toEqual(project);
  });

  it('refuses a skills directory that holds the content root', async () => {
    box.temp.symlink('../..', 'project/.agents/skills');
    const result = await box.cli('install', '--root', box.root, '--client', 'generic');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`which holds the content root ${fs.realpathSync(box.root)}`);
    expect(fs.existsSync(box.inProject('.mcp.json'))).toBe(false);
  });

  it('publishes scripts with their executable bit, and every file with its source’s mode', async () => {
    box.temp.write('content/skills/alpha/scripts/run.sh', '#!/bin/sh\necho hi\n');
    fs.chmodSync(box.temp.path('content/skills/alpha/scripts/run.sh'), 0o755);
    fs.chmodSync(box.temp.path('content/skills/alpha/references/checklist.md'), 0o600);
    expect((await box.cli('install', '--root', box.root, '--client', 'claude-code')).code).toBe(0);
    const mode = (path: string) => (fs.statSync(box.inProject(path)).mode & 0o777).toString(8);
    expect(mode('.claude/skills/alpha/scripts/run.sh')).toBe('755');
    expect(mode('.claude/skills/alpha/references/checklist.md')).toBe('600');
    expect(mode('.claude/skills/alpha/SKILL.md')).toBe('644');
    const run = spawnSync(box.inProject('.claude/skills/alpha/scripts/run.sh'), { encoding: 'utf8' });
    expect(run.stdout).toBe('hi\n');
  });
});

describe('install refuses configs it cannot change safely', () => {
  it('a read-only config: refused, bytes and mode kept', async () => {
    const text = '{ "mcpServers": {} }\n';
    box.temp.write('project/.mcp.json', text);
    fs.chmodSync(box.inProject('.mcp.json'), 0o444);
    const result = await box.cli('install', '--root', box.root, '--client', 'claude-code');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'Refused Claude Code: .mcp.json is read-only (mode 0444); companion install does not change a file you made read-only.',
    );
    expect(readText(box.inProject('.mcp.json'))).toBe(text);
    expect(fs.statSync(box.inProject('.mcp.json')).mode & 0o777).toBe(0o444);
  });

  it('a dangling symlink: refused, and it stays a link', async () => {
    box.temp.symlink('dotfiles/mcp.json', 'project/.mcp.json');
    const result = await box.cli('install', '--root', box.root, '--client', 'claude-code');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'Refused Claude Code: .mcp.json is a symlink to dotfiles/mcp.json, which does not exist; companion install does not replace a link with a file.',
    );
    expect(fs.lstatSync(box.inProject('.mcp.json')).isSymbolicLink()).toBe(true);
    expect(fs.existsSync(box.inProject('dotfiles'))).toBe(false);
  });

  it('a symlink out of the project: refused, its target untouched', async () => {
    box.temp.write('shared/team-mcp.json', '{ "mcpServers": {} }\n');
    box.temp.symlink(box.temp.path('shared/team-mcp.json'), 'project/.mcp.json');
    const result = await box.cli('install', '--root', box.root, '--client', 'claude-code');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `is a symlink to ${box.temp.path('shared/team-mcp.json')}, outside ${box.project}`,
    );
    expect(readText(box.temp.path('shared/team-mcp.json'))).toBe('{ "mcpServers": {} }\n');
  });

  it('a symlink that stays home (a dotfile manager’s) is written through, and stays a link with its mode', async () => {
    box.temp.write('home/dotfiles/codex.toml', '# my codex\nmodel = "o3"\n');
    fs.chmodSync(box.temp.path('home/dotfiles/codex.toml'), 0o600);
    box.temp.symlink('../dotfiles/codex.toml', 'home/.codex/config.toml');
    const result = await box.cli('install', '--root', box.root, '--client', 'codex-user');
    expect(result.code).toBe(0);
    expect(fs.readlinkSync(box.temp.path('home/.codex/config.toml'))).toBe('../dotfiles/codex.toml');
    expect(readText(box.temp.path('home/dotfiles/codex.toml'))).toMatch(
      /^# my codex\nmodel = "o3"\n\n\[mcp_servers\.fixture\]\n/,
    );
    expect(fs.statSync(box.temp.path('home/dotfiles/codex.toml')).mode & 0o777).toBe(0o600);
    expect(result.stdout).toMatch(
      /Backed up ~\/\.codex\/config\.toml to \.companion\/backups\/[^/]+\/home__\.codex__config\.toml/,
    );
  });

  it('duplicate keys for the section it would write: refused, and doctor says why', async () => {
    const text = '{\n  "mcpServers": { "other": { "command": "x" } },\n  "mcpServers": {}\n}\n';
    box.temp.write('project/.mcp.json', text);
    const result = await box.cli('install', '--root', box.root, '--client', 'claude-code');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'Refused Claude Code: .mcp.json defines "mcpServers" more than once (line 2 and line 3); hosts read only the last one.',
    );
    expect(readText(box.inProject('.mcp.json'))).toBe(text);
    const doctor = await box.doctor('--root', box.root);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain('  fix   .mcp.json defines "mcpServers" more than once');
    // Codex's TOML: a duplicate table is invalid TOML.
    box.temp.write('project/.codex/config.toml', '[mcp_servers.fixture]\n[mcp_servers.fixture]\n');
    const toml = await box.cli('install', '--root', box.root, '--client', 'codex');
    expect(toml.stdout).toContain('Refused Codex: .codex/config.toml is not valid TOML (');
  });

  it('bytes that are not UTF-8 elsewhere in a config survive install and uninstall', async () => {
    const json = Buffer.concat([
      Buffer.from('{\n  // caf'),
      Buffer.from([0xe9, 0xff]),
      Buffer.from('\n  "mcpServers": {\n    "other": { "command": "/opt/'),
      Buffer.from([0xe9]),
      Buffer.from('" }\n  }\n}\n'),
    ]);
    const toml = Buffer.concat([
      Buffer.from('# r'),
      Buffer.from([0xe9, 0x73, 0x75, 0x6d, 0xe9]),
      Buffer.from('\nmodel = "o3"\n'),
    ]);
    box.temp.write('project/.mcp.json', json);
    box.temp.write('project/.codex/config.toml', toml);
    expect((await box.cli('install', '--root', box.root, '--client', 'claude-code,codex')).code).toBe(0);
    const afterJson = fs.readFileSync(box.inProject('.mcp.json'));
    const cut = json.indexOf('" }') + 3;
    expect(afterJson.subarray(0, cut).equals(json.subarray(0, cut))).toBe(true);
    expect(afterJson.includes(Buffer.from('\ufffd'))).toBe(false);
    expect(fs.readFileSync(box.inProject('.codex/config.toml')).subarray(0, toml.length).equals(toml)).toBe(
      true,
    );
    expect((await box.cli('uninstall')).code).toBe(0);
    expect(fs.readFileSync(box.inProject('.mcp.json')).equals(json)).toBe(true);
    expect(fs.readFileSync(box.inProject('.codex/config.toml')).equals(toml)).toBe(true);
  });
});

describe('install is all-or-nothing across clients', () => {
  it('a failure on the second client undoes the first, byte for byte, and says what failed', async () => {
    const mine = '{\n  "mcpServers": {\n    "other": { "command": "uvx", "args": ["other"] }\n  }\n}\n';
    box.temp.write('project/.mcp.json', mine);
    // A path component that is a file: creating .cursor/mcp.json fails even for root.
    box.temp.write('project/.cursor', 'not a directory\n');
    const before = readTree(box.project);
    const result = await box.cli('install', '--root', box.root, '--client', 'claude-code,cursor');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^Could not finish: cannot create .*\/project\/\.cursor: .*\/project\/\.cursor is a file, not a directory\.\n/,
    );
    expect(result.stdout).toMatch(
      /Undid everything this run had written \(\d+ changes\): every file is as it was before\. Nothing was installed\./,
    );
    expect(readTree(box.project)).toEqual(before);
    expect(readText(box.inProject('.mcp.json'))).toBe(mine);
  });

  it('a refusal found while planning writes nothing at all', async () => {
    box.temp.write('project/.cursor/skills', 'a file where a directory belongs\n');
    const before = readTree(box.project);
    const result = await box.cli('install', '--root', box.root, '--client', 'claude-code,cursor');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Refused .cursor/skills: .cursor/skills is not a directory.');
    expect(readTree(box.project)).toEqual(before);
    // And a refused install records nothing: doctor does not call anything fresh or unchanged.
    const doctor = await box.doctor('--root', box.root);
    expect(doctor.stdout).not.toContain('ok    The content has not changed');
  });

  it.runIf(asRoot && runuser !== undefined && nobodyUid !== undefined)(
    'a write refused by permissions (EACCES, as nobody) on the second client rolls back the first',
    async () => {
      const mine = '{ "mcpServers": { "other": { "command": "x" } } }\n';
      box.temp.write('project/.mcp.json', mine);
      fs.mkdirSync(box.inProject('.cursor'));
      for (const path of [box.temp.root, box.project, box.home, box.inProject('.mcp.json')]) {
        fs.chownSync(path, nobodyUid!, nobodyUid!);
      }
      fs.chmodSync(box.temp.root, 0o755);
      // .cursor stays root's and unwritable for nobody.
      fs.chmodSync(box.inProject('.cursor'), 0o755);
      const before = readTree(box.project);
      const child = spawnSync(
        runuser!,
        [
          '-u',
          'nobody',
          '--',
          process.execPath,
          join(repoRoot, 'bin', 'companion.js'),
          'install',
          '--root',
          box.root,
          '--client',
          'claude-code,cursor',
        ],
        {
          cwd: box.project,
          encoding: 'utf8',
          env: { PATH: process.env.PATH, HOME: box.home },
          timeout: 15_000,
        },
      );
      expect(child.stderr).toBe('');
      expect(child.status).toBe(1);
      expect(child.stdout).toMatch(/^Could not finish: EACCES: permission denied/);
      expect(child.stdout).toContain('Nothing was installed.');
      expect(readTree(box.project)).toEqual(before);
    },
  );
});

describe('install keeps a config’s owner when run as root', () => {
  it.runIf(asRoot && nobodyUid !== undefined)(
    'an existing config keeps its owner and mode; files it creates get the owner of their directory',
    async () => {
      box.temp.write('project/.mcp.json', '{ "mcpServers": {} }\n');
      fs.chmodSync(box.inProject('.mcp.json'), 0o640);
      for (const path of [box.project, box.inProject('.mcp.json')])
        fs.chownSync(path, nobodyUid!, nobodyUid!);
      const result = await box.cli('install', '--root', box.root, '--client', 'claude-code,vscode');
      expect(result.code).toBe(0);
      const stats = fs.statSync(box.inProject('.mcp.json'));
      expect([stats.uid, stats.mode & 0o777]).toEqual([nobodyUid, 0o640]);
      for (const path of [
        '.vscode',
        '.vscode/mcp.json',
        '.claude/skills/alpha/SKILL.md',
        '.companion/state.json',
      ]) {
        expect(fs.statSync(box.inProject(path)).uid, path).toBe(nobodyUid);
      }
    },
  );
});

describe('install → re-install → uninstall', () => {
  /** A project and home as people have them: other servers, comments, CRLF, odd modes, their own skills. */
  function plantUserFiles(): void {
    box.temp.write(
      'project/.mcp.json',
      '{\r\n\t// team servers\r\n\t"mcpServers": {\r\n\t\t"other": {"command": "uvx", "args": ["other"]}\r\n\t}\r\n}\r\n',
    );
    fs.chmodSync(box.inProject('.mcp.json'), 0o640);
    box.temp.write('project/.vscode/mcp.json', '{ "servers": {}, "inputs": [] }');
    box.temp.write('project/.vscode/settings.json', '{ "editor.tabSize": 2 }\n');
    box.temp.write(
      'project/.codex/config.toml',
      'model = "o3" # mine\n\n[mcp_servers.other]\ncommand = "uvx"\n',
    );
    box.temp.write('project/.claude/skills/my-own/SKILL.md', '---\nname: my-own\n---\nmine\n');
    box.temp.write('project/.agents/skills/.keep', '');
    box.temp.write(
      'home/.config/Claude/claude_desktop_config.json',
      '{\n  "mcpServers": {},\n  "globalShortcut": "Ctrl+Space"\n}\n',
    );
    box.temp.write('home/.codex/config.toml', '[profiles.fast]\nmodel = "gpt-5"\n');
  }

  it('leaves every user byte and mode as it was, and removes everything install wrote', async () => {
    plantUserFiles();
    const project = readTree(box.project);
    const home = readTree(box.home);
    const content = readTree(box.root);

    const first = await box.cli('install', '--root', box.root, '--client', CLIENT_IDS.join(','));
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    for (const shown of ['.mcp.json', '.vscode/mcp.json', '.codex/config.toml']) {
      expect(first.stdout).toMatch(
        new RegExp(`Backed up ${shown.replaceAll('.', '\\.')} to \\.companion/backups/`),
      );
    }
    const mine = (tree: Record<string, string>) =>
      Object.entries(tree).filter(
        ([path]) => path.startsWith('.claude/skills/my-own/') || path.startsWith('.vscode/settings'),
      );
    expect(mine(readTree(box.project))).toEqual(mine(project));
    const installed = { project: readTree(box.project), home: readTree(box.home) };

    const again = await box.cli('install');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Nothing changed: everything was already in place.');
    expect(readTree(box.project)).toEqual(installed.project);
    expect(readTree(box.home)).toEqual(installed.home);

    const gone = await box.cli('uninstall');
    expect(gone.stderr).toBe('');
    expect(gone.code).toBe(0);
    expect(gone.stdout).toContain('Restored .mcp.json as it was before install, byte for byte.');
    expect(gone.stdout).toContain(
      'Deleted .cursor/mcp.json: install had created it, and it holds nothing else.',
    );
    expect(gone.stdout).toContain('Removed .companion/: nothing install wrote is left.');
    expect(readTree(box.project)).toEqual(project);
    expect(readTree(box.home)).toEqual(home);
    expect(readTree(box.root)).toEqual(content);
  });

  it('after the user changed things: removes only its own, leaves theirs, and says what it left', async () => {
    plantUserFiles();
    expect((await box.cli('install', '--root', box.root, '--client', 'claude-code,codex,cursor')).code).toBe(
      0,
    );
    // The user adds a server to .mcp.json, edits companion's own Codex entry, and adds a file to a copy.
    const mcp = readText(box.inProject('.mcp.json')).replace(
      '"other": {',
      '"mine": {"command": "x"},\r\n\t\t"other": {',
    );
    box.temp.write('project/.mcp.json', mcp);
    box.temp.write(
      'project/.codex/config.toml',
      readText(box.inProject('.codex/config.toml')).replace(
        'command = "node"',
        'command = "/usr/local/bin/node"',
      ),
    );
    box.temp.write('project/.claude/skills/alpha/my-notes.md', 'notes\n');

    const gone = await box.cli('uninstall');
    expect(gone.code).toBe(1);
    expect(gone.stdout).toContain(
      'Removed "fixture" from .mcp.json; the rest of it stays as it is now (it changed since install).',
    );
    expect(gone.stdout).toContain(
      'Left .codex/config.toml as it is: "fixture" changed since install wrote it. Remove the entry by hand if you do not need it.',
    );
    expect(gone.stdout).toContain(
      'Kept .claude/skills/alpha: it holds files companion did not write or that changed since (my-notes.md); remove it by hand if you do not need it.',
    );
    expect(gone.stdout).toContain(
      'Removed the record; the backups of your configs stay in .companion/backups/.',
    );
    expect(readText(box.inProject('.mcp.json'))).toBe(
      '{\r\n\t// team servers\r\n\t"mcpServers": {\r\n\t\t"mine": {"command": "x"},\r\n\t\t"other": {"command": "uvx", "args": ["other"]}\r\n\t}\r\n}\r\n',
    );
    expect(readText(box.inProject('.codex/config.toml'))).toContain('command = "/usr/local/bin/node"');
    expect(listFiles(box.inProject('.claude/skills'))).toEqual(['alpha/my-notes.md', 'my-own/SKILL.md']);
  });

  it('uninstalls one client and keeps the others, shared skills directories included', async () => {
    expect((await box.cli('install', '--root', box.root, '--client', 'codex,generic,cursor')).code).toBe(0);
    const gone = await box.cli('uninstall', '--client', 'codex');
    expect(gone.code).toBe(0);
    expect(gone.stdout).toContain(
      'Deleted .codex/config.toml: install had created it, and it holds nothing else.',
    );
    expect(gone.stdout).toContain(
      'Still installed for Generic host, Cursor (.companion/state.json keeps them).',
    );
    // .agents/skills also serves the generic setup: its copies stay.
    expect(listFiles(box.inProject('.agents/skills'))).toContain('alpha/SKILL.md');
    expect(fs.existsSync(box.inProject('.codex'))).toBe(false);
    const doctor = await box.doctor();
    expect(doctor.stdout).not.toContain('Codex —');
    const rest = await box.cli('uninstall');
    expect(rest.code).toBe(0);
    expect(readTree(box.project)).toEqual({});
  });

  it('says so when nothing was installed, and refuses to guess from an older record', async () => {
    const nothing = await box.cli('uninstall');
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toBe(
      'Nothing to uninstall: nothing is recorded as installed in this project (no .companion/state.json).\n',
    );
    box.temp.write(
      'project/.companion/state.json',
      JSON.stringify({
        version: 1,
        server: 'fixture',
        root: box.root,
        clients: ['claude-code'],
        skills: [],
        digest: 'x',
        directories: [],
      }),
    );
    const legacy = await box.cli('uninstall');
    expect(legacy.code).toBe(1);
    expect(legacy.stdout).toContain('was written by an older companion that did not record what it wrote');
  });
});
