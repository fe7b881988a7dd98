import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { parse as parseJsonc } from 'jsonc-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OWN_BIN } from '../../src/install/server-entry.js';
import { runCli } from '../helpers/run-cli.js';
import { createSandbox, listFiles, readText, readTreeState, type Sandbox } from '../install/helpers.js';

const ALL = 'claude-code,claude-desktop,vscode,cursor,codex,codex-user,generic';
const MARKER =
  '# Published by companion install for the server "fixture". Edit the skill in its content repository: install refreshes the files it wrote here and leaves the ones you add or change.\n*\n';
const ALPHA = ['.gitignore', 'SKILL.md', 'references/base.md', 'references/checklist.md'];
const BETA = ['.gitignore', 'SKILL.md', 'references/base.md'];

let box: Sandbox;
beforeEach(() => {
  box = createSandbox();
});
afterEach(() => box.cleanup());

/** Reads JSON or JSONC (a hand-edited config may carry comments). */
// biome-ignore lint/suspicious/noExplicitAny: test reads of arbitrary config JSON
type Json = any;

function readJson(path: string): Record<string, Json> {
  return parseJsonc(readText(path)) as Record<string, Json>;
}

function stdioArgs(root: string): string[] {
  return [OWN_BIN, 'serve', '--root', root];
}

describe('companion install: a fresh install', () => {
  it('configures every client and publishes the skills into each skills directory once', async () => {
    const result = await box.install('--root', box.root, '--client', ALL);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`Configured "fixture" for Claude Code in .mcp.json.
Configured "fixture" for Claude Desktop in ~/.config/Claude/claude_desktop_config.json.
Configured "fixture" for VS Code in .vscode/mcp.json.
Configured "fixture" for Cursor in .cursor/mcp.json.
Configured "fixture" for Codex in .codex/config.toml.
Configured "fixture" for Codex (user configuration) in ~/.codex/config.toml.
Reused "fixture" for Generic host in .mcp.json: unchanged.
Published alpha, beta into .claude/skills.
Published alpha, beta into .github/skills.
Published alpha, beta into .cursor/skills.
Published alpha, beta into .agents/skills.
Claude Desktop reads no skills directory: it gets the skills from the server itself (the skill_load tool), or from a zip uploaded in its settings.
Recorded what was written in .companion/state.json.

Left to do:
  Claude Code asks you to approve the servers in .mcp.json the first time it starts in this project; \`/mcp\` shows whether the server is connected.
  Quit Claude Desktop completely (tray or menu bar → Quit; closing the window is not enough) and start it again: it reads its configuration only at start.
  VS Code asks you to trust the server the first time it starts; the command "MCP: List Servers" shows and starts it.
  Cursor lists the server in Settings → MCP; turn it on there if it shows as disabled.
  Codex reads a project’s .codex/config.toml only when you trust the project; \`codex mcp list\` shows whether it sees the server.
  Start a new Codex session to pick up the server; \`codex mcp list\` shows it.
  .mcp.json, .vscode/mcp.json, .cursor/mcp.json, .codex/config.toml name absolute paths on this machine: keep them out of git, or have each machine run \`npx companion install\`.
`);

    // The entries, keyed by the catalog's server name.
    const stdio = { type: 'stdio', command: 'node', args: stdioArgs(box.root) };
    expect(readJson(box.inProject('.mcp.json'))).toEqual({ mcpServers: { fixture: stdio } });
    expect(readJson(box.inProject('.vscode/mcp.json'))).toEqual({ servers: { fixture: stdio } });
    expect(readJson(box.inProject('.cursor/mcp.json'))).toEqual({ mcpServers: { fixture: stdio } });
    expect(readJson(`${box.home}/.config/Claude/claude_desktop_config.json`)).toEqual({
      mcpServers: { fixture: { command: process.execPath, args: stdioArgs(box.root) } },
    });
    const toml = `[mcp_servers.fixture]\ncommand = "node"\nargs = ${JSON.stringify(stdioArgs(box.root)).replaceAll('","', '", "')}\n`;
    expect(readText(box.inProject('.codex/config.toml'))).toBe(toml);
    expect(readText(`${box.home}/.codex/config.toml`)).toBe(toml);

    // Every skills directory holds both published skills (not the draft), each with its .gitignore.
    for (const dir of ['.claude/skills', '.github/skills', '.cursor/skills', '.agents/skills']) {
      expect(listFiles(box.inProject(dir)), dir).toEqual([
        ...ALPHA.map((p) => `alpha/${p}`),
        ...BETA.map((p) => `beta/${p}`),
      ]);
      expect(readText(box.inProject(`${dir}/alpha/.gitignore`))).toBe(MARKER);
    }
    expect(listFiles(box.home).sort()).toEqual([
      '.codex/config.toml',
      '.config/Claude/claude_desktop_config.json',
    ]);

    // The record names every entry written (by the digest of its owned fields), every file published (by the
    // digest of its bytes, with its mode), and that every config was created here (nothing to back up).
    const record = readJson(box.inProject('.companion/state.json'));
    expect(record).toMatchObject({
      version: 2,
      server: 'fixture',
      root: box.root,
      clients: ALL.split(',').map((id) => ({ id, name: 'fixture' })),
      skills: ['alpha', 'beta'],
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(
      record.configs.map((c: Json) => [
        c.path.replace(box.project, '<p>').replace(box.home, '<h>'),
        c.original,
        c.pristine,
      ]),
    ).toEqual([
      ['<p>/.mcp.json', { absent: true }, true],
      ['<h>/.config/Claude/claude_desktop_config.json', { absent: true }, true],
      ['<p>/.vscode/mcp.json', { absent: true }, true],
      ['<p>/.cursor/mcp.json', { absent: true }, true],
      ['<p>/.codex/config.toml', { absent: true }, true],
      ['<h>/.codex/config.toml', { absent: true }, true],
    ]);
    for (const config of record.configs) {
      expect(config.entries).toEqual([
        {
          table: expect.any(String),
          name: 'fixture',
          digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        },
      ]);
    }
    expect(record.directories.map((d: Json) => d.path)).toEqual([
      '.agents/skills',
      '.claude/skills',
      '.cursor/skills',
      '.github/skills',
    ]);
    for (const directory of record.directories) {
      expect(directory.digest).toBe(record.digest);
      expect(
        directory.skills.map((skill: Json) => [
          skill.id,
          skill.complete,
          skill.files.map((f: Json) => f.path),
        ]),
      ).toEqual([
        ['alpha', true, ALPHA],
        ['beta', true, BETA],
      ]);
    }
    expect(readText(box.inProject('.companion/.gitignore'))).toBe('*\n');
  });

  it('writes references/base.md from skills/base.md, and every other file from its source, byte for byte', async () => {
    await box.install('--root', box.root, '--client', 'claude-code');
    const base = readFileSync(`${box.root}/skills/base.md`);
    expect(readFileSync(box.inProject('.claude/skills/alpha/references/base.md')).equals(base)).toBe(true);
    expect(readFileSync(box.inProject('.claude/skills/beta/references/base.md')).equals(base)).toBe(true);
    expect(
      readFileSync(box.inProject('.claude/skills/alpha/references/checklist.md')).equals(
        readFileSync(`${box.root}/skills/alpha/references/checklist.md`),
      ),
    ).toBe(true);
    expect(
      readFileSync(box.inProject('.claude/skills/alpha/SKILL.md')).equals(
        readFileSync(`${box.root}/skills/alpha/SKILL.md`),
      ),
    ).toBe(true);
  });

  it('keeps everything it wrote but the config files out of git', async () => {
    execFileSync('git', ['init', '-q'], { cwd: box.project });
    expect((await box.install('--root', box.root, '--client', ALL)).code).toBe(0);
    const status = execFileSync('git', ['status', '--porcelain', '-uall'], {
      cwd: box.project,
      encoding: 'utf8',
    });
    // The copies and the record ignore themselves; the hosts' config files are the user's to commit or not.
    expect(status.split('\n').filter(Boolean).sort()).toEqual([
      '?? .codex/config.toml',
      '?? .cursor/mcp.json',
      '?? .mcp.json',
      '?? .vscode/mcp.json',
    ]);
  });

  it('publishes once into a directory that two names lead to (a symlinked skills directory)', async () => {
    box.temp.write('project/.agents/skills/.keep', '');
    box.temp.symlink('../.agents/skills', 'project/.claude/skills');
    const result = await box.install('--root', box.root, '--client', 'claude-code,generic');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Published alpha, beta into .claude/skills.\n');
    expect(result.stdout).not.toContain('.agents/skills:');
    expect(listFiles(box.inProject('.agents/skills'))).toEqual([
      '.keep',
      ...ALPHA.map((p) => `alpha/${p}`),
      ...BETA.map((p) => `beta/${p}`),
    ]);
  });

  it('chooses the clients from the project’s directories when none is named, else the generic setup', async () => {
    const generic = await box.install('--root', box.root);
    expect(generic.stdout.split('\n')[0]).toBe(
      'No --client given and no host directory found: installing the generic setup (.mcp.json and .agents/skills).',
    );
    expect(listFiles(box.inProject('.agents/skills'))).toContain('alpha/SKILL.md');

    box.temp.write('project/.cursor/rules.md', '');
    box.temp.write('project/.vscode/settings.json', '{}');
    box.temp.remove('project/.companion');
    const detected = await box.install('--root', box.root);
    expect(detected.stdout.split('\n')[0]).toBe(
      'No --client given: installing for VS Code, Cursor (found .vscode/, .cursor/).',
    );
  });
});

describe('companion install: a second run', () => {
  it('changes nothing, says so, and leaves every byte and mtime alone', async () => {
    expect((await box.install('--root', box.root, '--client', ALL)).code).toBe(0);
    const project = readTreeState(box.project);
    const home = readTreeState(box.home);

    const again = await box.install();
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
    expect(
      again.stdout,
    ).toBe(`No --client given: refreshing Claude Code, Claude Desktop, VS Code, Cursor, Codex, Codex (user configuration), Generic host.
Reused "fixture" for Claude Code in .mcp.json: unchanged.
Reused "fixture" for Claude Desktop in ~/.config/Claude/claude_desktop_config.json: unchanged.
Reused "fixture" for VS Code in .vscode/mcp.json: unchanged.
Reused "fixture" for Cursor in .cursor/mcp.json: unchanged.
Reused "fixture" for Codex in .codex/config.toml: unchanged.
Reused "fixture" for Codex (user configuration) in ~/.codex/config.toml: unchanged.
Reused "fixture" for Generic host in .mcp.json: unchanged.
Reused alpha, beta in .claude/skills: unchanged.
Reused alpha, beta in .github/skills: unchanged.
Reused alpha, beta in .cursor/skills: unchanged.
Reused alpha, beta in .agents/skills: unchanged.
Claude Desktop reads no skills directory: it gets the skills from the server itself (the skill_load tool), or from a zip uploaded in its settings.

Nothing changed: everything was already in place.
`);
    expect(readTreeState(box.project)).toEqual(project);
    expect(readTreeState(box.home)).toEqual(home);
  });

  it('refreshes a copy when the content changed, and leaves a file edited by hand or added, saying so', async () => {
    await box.install('--root', box.root, '--client', 'claude-code');
    box.temp.write('content/skills/alpha/references/checklist.md', 'A new checklist.\n');
    box.temp.write('project/.claude/skills/beta/SKILL.md', 'edited by hand\n');
    box.temp.write('project/.claude/skills/beta/notes.md', 'an extra file\n');
    const result = await box.install();
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Published alpha into .claude/skills (beta unchanged).\n');
    expect(result.stdout).toContain(
      'Kept .claude/skills/beta/SKILL.md: it changed since companion published it, or companion never wrote it. The copy of beta is not what the server publishes until you move it away and run install again.\n',
    );
    expect(readText(box.inProject('.claude/skills/alpha/references/checklist.md'))).toBe(
      'A new checklist.\n',
    );
    expect(readText(box.inProject('.claude/skills/beta/SKILL.md'))).toBe('edited by hand\n');
    expect(readText(box.inProject('.claude/skills/beta/notes.md'))).toBe('an extra file\n');
    // The edited file is no longer companion's: the record lets it go, and the copy is not complete.
    const beta = readJson(box.inProject('.companion/state.json')).directories[0].skills[1];
    expect(beta.complete).toBe(false);
    expect(beta.files.map((f: Json) => f.path)).toEqual(['.gitignore', 'references/base.md']);
    // Once the user moves the file away, install writes it again.
    box.temp.remove('project/.claude/skills/beta/SKILL.md');
    const again = await box.install();
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Published beta into .claude/skills (alpha unchanged).\n');
  });
});

describe('companion install: entries it did not write', () => {
  it('keeps a foreign entry under another key exactly as it was', async () => {
    const before = `{
  // mine
  "mcpServers": {
    "other": { "command": "uvx", "args": ["other-mcp"], "env": { "TOKEN": "x" } }
  }
}
`;
    box.temp.write('project/.mcp.json', before);
    expect((await box.install('--root', box.root, '--client', 'claude-code')).code).toBe(0);
    const after = readText(box.inProject('.mcp.json'));
    expect(
      after.startsWith(`{
  // mine
  "mcpServers": {
    "other": { "command": "uvx", "args": ["other-mcp"], "env": { "TOKEN": "x" } },
    "fixture": {`),
    ).toBe(true);
  });

  it('refuses a foreign entry under our key, writes nothing for any client, and takes --name', async () => {
    const foreign = '{ "mcpServers": { "fixture": { "command": "uvx", "args": ["fixture-mcp"] } } }\n';
    box.temp.write('project/.mcp.json', foreign);
    const result = await box.install('--root', box.root, '--client', 'claude-code,cursor');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      'Refused Claude Code: .mcp.json already has an entry "fixture" that runs `uvx fixture-mcp`, which companion install did not write. It never changes an entry it did not write: pass --name NAME to add this server under another name, or rename or remove that entry, then run again.\n\nNothing was installed: install changes every host or none. Fix what is refused above, or leave those clients out (--client), then run again.\n',
    );
    expect(readText(box.inProject('.mcp.json'))).toBe(foreign);
    expect(listFiles(box.project)).toEqual(['.mcp.json']);

    const named = await box.install(
      '--root',
      box.root,
      '--client',
      'claude-code,cursor',
      '--name',
      'fixture-2',
    );
    expect(named.code).toBe(0);
    expect(named.stdout).toContain('Configured "fixture-2" for Claude Code in .mcp.json.\n');
    expect(readJson(box.inProject('.mcp.json')).mcpServers).toEqual({
      fixture: { command: 'uvx', args: ['fixture-mcp'] },
      'fixture-2': { type: 'stdio', command: 'node', args: stdioArgs(box.root) },
    });
    // The name is remembered: a plain refresh keeps using it.
    const again = await box.install();
    expect(again.stdout).toContain('Reused "fixture-2" for Claude Code in .mcp.json: unchanged.\n');
  });

  it('keeps fields it does not own (env, disabled, comments) while rewriting its own', async () => {
    await box.install('--root', box.root, '--client', 'claude-code');
    const written = readText(box.inProject('.mcp.json'));
    box.temp.write(
      'project/.mcp.json',
      written.replace(
        '"type": "stdio",',
        '"type": "stdio",\n      "env": { "DEBUG": "1" }, // added by hand\n      "disabled": false,',
      ),
    );
    box.temp.write('moved/placeholder', '');
    cpSync(box.root, box.temp.path('moved/content'), { recursive: true });
    const result = await box.install('--root', box.temp.path('moved/content'));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Configured "fixture" for Claude Code in .mcp.json.\n');
    expect(result.stdout).toMatch(
      /^Backed up \.mcp\.json to \.companion\/backups\/[^/]+\/\.mcp\.json before changing it\.$/m,
    );
    const after = readText(box.inProject('.mcp.json'));
    expect(after).toContain('"env": { "DEBUG": "1" }, // added by hand\n      "disabled": false,');
    expect(readJson(box.inProject('.mcp.json')).mcpServers.fixture).toEqual({
      type: 'stdio',
      command: 'node',
      args: stdioArgs(box.temp.path('moved/content')),
      env: { DEBUG: '1' },
      disabled: false,
    });
  });

  it('rewrites only its own value of Codex’s TOML, keeping other tables, keys and comments', async () => {
    await box.install('--root', box.root, '--client', 'codex');
    const ours = readText(box.inProject('.codex/config.toml'));
    const before = `model = "o3" # the model

[mcp_servers.other]
command = "uvx"
args = [
  "other-mcp",
]

${ours.replace('command = "node"', 'command = "node" # started by node').replace(/args = (\[.*\])/, 'args = $1\nstartup_timeout_sec = 30')}
[mcp_servers.fixture.env]
DEBUG = "1"

[profiles.fast]
model = "gpt-5"
`;
    box.temp.write('project/.codex/config.toml', before);
    cpSync(box.root, box.temp.path('moved'), { recursive: true });
    const result = await box.install('--root', box.temp.path('moved'));
    expect(result.code).toBe(0);
    expect(readText(box.inProject('.codex/config.toml'))).toBe(
      before.replace(
        JSON.stringify(stdioArgs(box.root)).replaceAll('","', '", "'),
        JSON.stringify(stdioArgs(box.temp.path('moved'))).replaceAll('","', '", "'),
      ),
    );
  });

  it('rewrites its own Codex value by its range when the user spread it over several lines', async () => {
    await box.install('--root', box.root, '--client', 'codex');
    const spread = readText(box.inProject('.codex/config.toml')).replace(
      /args = \[(.*)\]/,
      (_match, inner: string) => `args = [\n  ${inner.split(', ').join(',\n  ')},\n]`,
    );
    box.temp.write('project/.codex/config.toml', spread);
    cpSync(box.root, box.temp.path('moved'), { recursive: true });
    const result = await box.install('--root', box.temp.path('moved'));
    expect(result.code).toBe(0);
    expect(readText(box.inProject('.codex/config.toml'))).toBe(
      `[mcp_servers.fixture]\ncommand = "node"\nargs = ${JSON.stringify(stdioArgs(box.temp.path('moved'))).replaceAll('","', '", "')}\n`,
    );
  });

  it('never replaces a skill directory it did not publish', async () => {
    box.temp.write('project/.claude/skills/alpha/SKILL.md', 'my own alpha\n');
    const result = await box.install('--root', box.root, '--client', 'claude-code');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'Published beta into .claude/skills.\nSkipped alpha in .claude/skills: .claude/skills/alpha exists and was not published by companion (it has no companion .gitignore). Move it away, then run install again.\n',
    );
    expect(readText(box.inProject('.claude/skills/alpha/SKILL.md'))).toBe('my own alpha\n');
    expect(
      readJson(box.inProject('.companion/state.json')).directories.map((d: Json) => [
        d.path,
        d.skills.map((skill: Json) => skill.id),
      ]),
    ).toEqual([['.claude/skills', ['beta']]]);
  });
});

describe('companion install: skills no longer published', () => {
  it('removes the copy of a skill whose directory was deleted from the content', async () => {
    await box.install('--root', box.root, '--client', 'claude-code,codex');
    box.temp.remove('content/skills/beta');
    box.temp.write(
      'content/knowledge/server-scope.json',
      readText(`${box.root}/knowledge/server-scope.json`).replace('"skills": ["beta"]', '"skills": []'),
    );
    const result = await box.install();
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Removed stale .claude/skills/beta.\n');
    expect(result.stdout).toContain('Removed stale .agents/skills/beta.\n');
    expect(listFiles(box.inProject('.claude/skills'))).toEqual(ALPHA.map((p) => `alpha/${p}`));
    expect(readJson(box.inProject('.companion/state.json')).skills).toEqual(['alpha']);
  });

  it('removes the copy of a skill marked draft, and publishes a draft once it is published', async () => {
    await box.install('--root', box.root, '--client', 'cursor');
    const alpha = readText(`${box.root}/skills/alpha/SKILL.md`);
    box.temp.write(
      'content/skills/alpha/SKILL.md',
      alpha.replace('version: "1.0"', 'version: "1.0"\n  companion-status: draft'),
    );
    box.temp.write(
      'content/skills/gamma/SKILL.md',
      readText(`${box.root}/skills/gamma/SKILL.md`).replace(/metadata:\n.*\n/, ''),
    );
    const result = await box.install();
    expect(result.stdout).toContain(
      'Published gamma into .cursor/skills (beta unchanged).\nRemoved stale .cursor/skills/alpha.\n',
    );
    expect(listFiles(box.inProject('.cursor/skills'))).toEqual([
      ...BETA.map((p) => `beta/${p}`),
      ...BETA.map((p) => `gamma/${p}`),
    ]);
  });

  it('removes only its own files from a stale copy, keeping what the user added or changed', async () => {
    await box.install('--root', box.root, '--client', 'claude-code');
    box.temp.write('project/.claude/skills/beta/notes.md', 'mine\n');
    box.temp.write('project/.claude/skills/beta/references/base.md', 'changed by hand\n');
    box.temp.remove('content/skills/beta');
    box.temp.write(
      'content/knowledge/server-scope.json',
      readText(`${box.root}/knowledge/server-scope.json`).replace('"skills": ["beta"]', '"skills": []'),
    );
    const result = await box.install();
    expect(result.stdout).toContain(
      'Kept .claude/skills/beta: it is no longer published, but it holds files companion did not write or that changed since (notes.md, references/base.md); remove it by hand if you do not need it.\n',
    );
    expect(listFiles(box.inProject('.claude/skills/beta'))).toEqual(['notes.md', 'references/base.md']);
    expect(readText(box.inProject('.claude/skills/beta/references/base.md'))).toBe('changed by hand\n');
  });
});

describe('companion install: --url and --stdio', () => {
  it('points hosts that take a URL at companion dev, keeps doing so, and switches back with --stdio', async () => {
    const url = 'http://127.0.0.1:3917/mcp';
    const first = await box.install(
      '--root',
      box.root,
      '--client',
      'claude-code,claude-desktop,cursor,codex',
      '--url',
    );
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      'Claude Desktop takes no URL in its configuration file: wrote the stdio command instead.\n',
    );
    expect(first.stdout).toContain(`  ${url} answers only while \`companion dev\` runs.\n`);
    expect(readJson(box.inProject('.mcp.json')).mcpServers.fixture).toEqual({ type: 'http', url });
    expect(readJson(box.inProject('.cursor/mcp.json')).mcpServers.fixture).toEqual({ url });
    expect(readText(box.inProject('.codex/config.toml'))).toBe(`[mcp_servers.fixture]\nurl = "${url}"\n`);

    const kept = await box.install();
    expect(kept.stdout).toContain(
      `Keeping hosts pointed at ${url}, as the last install did (--stdio switches back).\n`,
    );
    expect(kept.stdout).toContain('Nothing changed');

    const back = await box.install('--stdio');
    expect(back.code).toBe(0);
    expect(readJson(box.inProject('.mcp.json')).mcpServers.fixture).toEqual({
      type: 'stdio',
      command: 'node',
      args: stdioArgs(box.root),
    });
    expect(readJson(box.inProject('.companion/state.json'))).not.toHaveProperty('url');
  });
});

describe('companion install: usage', () => {
  it('rejects an unknown client, --port without --url, and a root that is not a content repository', async () => {
    const unknown = await box.install('--client', 'emacs');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      "companion install: unknown client 'emacs': use claude-code, claude-desktop, vscode, cursor, codex, codex-user, gemini, goose, opencode, copilot-cli, windsurf, antigravity, generic",
    );
    expect((await box.install('--port', '4000')).code).toBe(2);
    expect((await box.install('--url', '--stdio')).code).toBe(2);
    const empty = await box.install('--root', box.home);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('is not a content repository');
    expect((await box.install('--root', `${box.home}/missing`)).code).toBe(2);
  });

  it('refuses user-level clients when HOME is not set', async () => {
    const { run } = await import('../../src/cli/commands/install.js');
    const { runCommand } = await import('../helpers/run-cli.js');
    const result = await runCommand(run, ['--root', box.root, '--client', 'claude-desktop'], {
      cwd: box.project,
      env: {},
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'Refused Claude Desktop: Claude Desktop keeps its configuration under your home directory, and HOME is not set.',
    );
  });
});

describe('companion install: the real CLI', () => {
  it('installs, then reinstalls without a change, through bin/companion.js', async () => {
    const env = { HOME: box.home, XDG_CONFIG_HOME: undefined, CODEX_HOME: undefined };
    const first = await runCli(['install', '--root', box.root, '--client', 'claude-code,vscode'], {
      cwd: box.project,
      env,
    });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Published alpha, beta into .claude/skills.\n');
    const before = readTreeState(box.project);
    const second = await runCli(['install', '--project', box.project], { cwd: box.home, env });
    expect(second.code).toBe(0);
    expect(second.stdout.endsWith('Nothing changed: everything was already in place.\n')).toBe(true);
    expect(readTreeState(box.project)).toEqual(before);
  });
});
