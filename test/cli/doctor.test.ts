import { cpSync, existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { createSandbox, readText, type Sandbox } from '../install/helpers.js';

let box: Sandbox;
beforeEach(() => {
  box = createSandbox();
});
afterEach(() => box.cleanup());

/** Doctor's output with the sandbox's absolute paths replaced by <project>, <root> and <home>. */
async function doctor(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const result = await box.doctor(...args);
  const clean = (text: string) =>
    text.replaceAll(box.project, '<project>').replaceAll(box.root, '<root>').replaceAll(box.home, '<home>');
  return { code: result.code, stdout: clean(result.stdout), stderr: clean(result.stderr) };
}

const CLAUDE_CODE_NOTE =
  '  note  Claude Code handles list_changed only since 2.1.0, and tools added mid-turn appear only on the next turn (some versions ignored tools/list_changed on stdio). Keep Claude Code at 2.1.0 or later; after a change, send the next message, and reconnect with `/mcp` if the tools still look old. The copies in .claude/skills reload on their own (or run `/reload-skills`).';
const CURSOR_NOTE =
  '  note  Cursor does not offer MCP resources (they are not in its support matrix). Rely on the skill_load and document_lookup tools and on the copies in .cursor/skills; do not expect to attach resources.';
const HEADER = [
  'Project <project>',
  'Content root <root>: server "fixture", 2 published skills (alpha, beta).',
];

describe('companion doctor', () => {
  it('says everything is in place after a fresh install, and exits 0', async () => {
    await box.install('--root', box.root, '--client', 'claude-code,cursor');
    const result = await doctor();
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        ...HEADER,
        '',
        'Claude Code — .mcp.json',
        '  ok    "fixture" runs `companion serve` on this content root.',
        '  ok    .claude/skills holds fresh copies of alpha, beta.',
        CLAUDE_CODE_NOTE,
        '',
        'Cursor — .cursor/mcp.json',
        '  ok    "fixture" runs `companion serve` on this content root.',
        '  ok    .cursor/skills holds fresh copies of alpha, beta.',
        CURSOR_NOTE,
        '',
        'Published copies — .companion/state.json',
        '  ok    The content has not changed since the last install.',
        '',
        'Everything is in place.',
        '',
      ].join('\n'),
    );
  });

  it('reports what each host lacks: Claude Desktop, Codex, VS Code', async () => {
    await box.install('--root', box.root, '--client', 'claude-desktop,codex,vscode');
    const result = await doctor();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      [
        'Claude Desktop — ~/.config/Claude/claude_desktop_config.json',
        '  ok    "fixture" runs `companion serve` on this content root.',
        '  note  Claude Desktop reads no skills directory: it gets the skills from the server itself (the skill_load tool), or from a zip uploaded in its settings.',
        '  note  Claude Desktop does not support resource templates: skill files other than SKILL.md (references/…) are not offered in its picker. Let the model fetch them with the skill_load tool.',
        '  note  Claude Desktop does not handle list_changed: it does not see content changes while it runs. Restart it after changing the content.',
        '  note  Claude Desktop reads its configuration only at start, and closing its window does not quit it. After `npx companion install`, quit it fully (tray or menu bar → Quit) and start it again.',
      ].join('\n'),
    );
    expect(result.stdout).toContain(
      [
        'Codex — .codex/config.toml',
        '  ok    "fixture" runs `companion serve` on this content root.',
        '  ok    .agents/skills holds fresh copies of alpha, beta.',
        '  note  Codex does not handle list_changed: a running session keeps the tools and resources it started with. Start a new Codex session after changing the content.',
        '  note  Codex cuts skill descriptions at 1024 characters. Keep every description within 1024 characters (`npx companion check` warns about longer ones).',
      ].join('\n'),
    );
    expect(result.stdout).toContain(
      '  note  VS Code supports resources, templates and list_changed: nothing to work around.',
    );
  });

  it('finds stale copies after the content changes, and exits 1 until install runs again', async () => {
    await box.install('--root', box.root, '--client', 'claude-code');
    box.temp.write(
      'content/skills/beta/SKILL.md',
      `${readText(`${box.root}/skills/beta/SKILL.md`)}\nMore.\n`,
    );
    box.temp.write(
      'content/skills/gamma/SKILL.md',
      readText(`${box.root}/skills/gamma/SKILL.md`).replace(/metadata:\n.*\n/, ''),
    );
    const stale = await doctor();
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain(
      '  fix   The copies in .claude/skills are stale (beta changed, gamma missing): run `npx companion install`.\n',
    );
    expect(stale.stdout).toContain(
      [
        'Published copies — .companion/state.json',
        '  fix   The content changed since the last install (new: gamma): run `npx companion install`.',
        '',
        '2 things need action (marked fix).',
      ].join('\n'),
    );

    expect((await box.install()).code).toBe(0);
    expect((await doctor()).code).toBe(0);
  });

  it('after a refused install, says nothing is recorded, never that the content "has not changed"', async () => {
    box.temp.write(
      'project/.mcp.json',
      '{ "mcpServers": { "fixture": { "command": "uvx", "args": ["other"] } } }\n',
    );
    expect((await box.install('--root', box.root, '--client', 'claude-code')).code).toBe(1);
    expect(existsSync(box.inProject('.companion/state.json'))).toBe(false);
    const result = await doctor('--root', box.root);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      '  fix   .agents/skills holds no published copies: run `npx companion install`.',
    );
    expect(result.stdout).toContain(
      '  fix   Nothing is recorded as published in this project: run `npx companion install`.',
    );
    expect(result.stdout).not.toContain('has not changed');
  });

  it('after an install that could publish no skill, records none and does not call the copies unchanged', async () => {
    for (const id of ['alpha', 'beta']) box.temp.write(`project/.claude/skills/${id}/SKILL.md`, 'mine\n');
    expect((await box.install('--root', box.root, '--client', 'claude-code')).code).toBe(1);
    const record = JSON.parse(readText(box.inProject('.companion/state.json')));
    expect(record.skills).toEqual([]);
    expect(record.directories).toEqual([]);
    const result = await doctor();
    expect(result.stdout).toContain(
      '  fix   The last install published none of the 2 skills into this project: run `npx companion install`.',
    );
    expect(result.stdout).not.toContain('has not changed');
  });

  it('finds a copy edited by hand and a leftover of a skill no longer published', async () => {
    await box.install('--root', box.root, '--client', 'cursor');
    box.temp.write('project/.cursor/skills/alpha/SKILL.md', 'edited\n');
    box.temp.write(
      'project/.cursor/skills/old/.gitignore',
      readText(box.inProject('.cursor/skills/beta/.gitignore')),
    );
    const result = await doctor();
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      '  fix   The copies in .cursor/skills are stale (alpha changed, old no longer published): run `npx companion install`.\n',
    );
  });

  it('reports a missing entry, a wrong root, a disabled entry and a foreign one', async () => {
    await box.install('--root', box.root, '--client', 'claude-code,vscode,cursor,codex');
    box.temp.write('project/.mcp.json', '{ "mcpServers": {} }\n');
    const vscode = readText(box.inProject('.vscode/mcp.json'));
    box.temp.write('project/.vscode/mcp.json', vscode.replace(box.root, '/somewhere/else'));
    const cursor = JSON.parse(readText(box.inProject('.cursor/mcp.json')));
    cursor.mcpServers.fixture.disabled = true;
    box.temp.write('project/.cursor/mcp.json', JSON.stringify(cursor));
    box.temp.write(
      'project/.codex/config.toml',
      '[mcp_servers.fixture]\ncommand = "uvx"\nargs = ["fixture-mcp"]\n',
    );

    const result = await doctor();
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'Claude Code — .mcp.json\n  fix   .mcp.json has no entry "fixture", so Claude Code does not start this server: run `npx companion install --client claude-code` to add it.\n',
    );
    expect(result.stdout).toContain(
      'VS Code — .vscode/mcp.json\n  fix   "fixture" serves /somewhere/else, not this content root (<root>): run `npx companion install --client vscode`, with --root if needed.\n',
    );
    expect(result.stdout).toContain(
      'Cursor — .cursor/mcp.json\n  fix   The entry "fixture" is turned off in .cursor/mcp.json ("disabled": true): turn it on.\n',
    );
    expect(result.stdout).toContain(
      'Codex — .codex/config.toml\n  fix   "fixture" in .codex/config.toml runs `uvx fixture-mcp`, which is not companion; install will not touch it. Rename or remove it, then run `npx companion install --client codex`.\n',
    );
    expect(result.stdout.trimEnd().endsWith('4 things need action (marked fix).')).toBe(true);
  });

  it('checks against another root when asked, and takes the recorded root by default', async () => {
    await box.install('--root', box.root, '--client', 'claude-code');
    const other = box.temp.path('other-content');
    cpSync(box.root, other, { recursive: true });
    const result = await doctor('--root', other);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`"fixture" serves <root>, not this content root (${other})`);
    expect(result.stdout).toContain(
      `  note  The last install published from <root>; doctor checked ${other}.`,
    );
  });

  it('only notes a user-level config without our entry, but flags a project one', async () => {
    box.temp.write('home/.codex/config.toml', 'model = "o3"\n');
    await box.install('--root', box.root, '--client', 'claude-code');
    const result = await doctor();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'Codex (user configuration) — ~/.codex/config.toml\n  note  ~/.codex/config.toml has no entry "fixture", so Codex (user configuration) does not start this server: run `npx companion install --client codex-user` to add it.\n',
    );
  });

  it('says so when it finds no host configuration, and when nothing is recorded', async () => {
    const none = await doctor('--root', box.root);
    expect(none.code).toBe(1);
    expect(none.stdout).toBe(
      [
        ...HEADER,
        '',
        'No host configuration found (looked for .mcp.json, .vscode/mcp.json, .cursor/mcp.json, .codex/config.toml, .gemini/settings.json, opencode.json or opencode.jsonc, .agents/plugins/NAME/mcp_config.json, Claude Desktop’s claude_desktop_config.json, ~/.codex/config.toml, ~/.config/goose/config.yaml and ~/.codeium/windsurf/mcp_config.json): run `npx companion install --client NAME`.',
        '',
        '1 thing needs action (marked fix).',
        '',
      ].join('\n'),
    );
    box.temp.write('project/.mcp.json', '{ "mcpServers": { "other": { "command": "x" } } }');
    const unrecorded = await doctor('--root', box.root);
    expect(unrecorded.stdout).toContain(
      'Published copies — .companion/state.json\n  fix   Nothing is recorded as published in this project: run `npx companion install`.\n',
    );
  });

  it('says when Gemini CLI’s own server lists (mcp.allowed, mcp.excluded) keep it from starting the server', async () => {
    await box.install('--root', box.root, '--client', 'gemini');
    const fresh = await doctor();
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).not.toContain('mcp.allowed');

    // The user's allowlist, in the project's settings (with a comment, as Gemini CLI allows), and a denylist in
    // the user's own settings: each is named, by file, with what to change.
    const settings = readText(box.temp.path('project/.gemini/settings.json'));
    box.temp.write(
      'project/.gemini/settings.json',
      settings.replace(/\}\s*$/, ',\n  // only these\n  "mcp": { "allowed": ["git"] }\n}\n'),
    );
    box.temp.write('home/.gemini/settings.json', '{ "mcp": { "excluded": ["fixture", "other"] } }\n');
    const blocked = await doctor();
    expect(blocked.code).toBe(1);
    expect(blocked.stdout).toContain(
      '  fix   .gemini/settings.json sets mcp.allowed, and Gemini CLI starts only the servers it names: add "fixture" to it.\n',
    );
    expect(blocked.stdout).toContain(
      '  fix   ~/.gemini/settings.json lists "fixture" in mcp.excluded, so Gemini CLI never starts it: remove it from there.\n',
    );

    // An empty allowlist keeps every server out, so it is named too; a list that names the server says nothing.
    box.temp.write('home/.gemini/settings.json', '{ "mcp": { "allowed": [] } }\n');
    box.temp.write(
      'project/.gemini/settings.json',
      settings.replace(/\}\s*$/, ',\n  "mcp": { "allowed": ["fixture"] }\n}\n'),
    );
    const empty = await doctor();
    expect(empty.stdout).toContain('~/.gemini/settings.json sets mcp.allowed');
    expect(empty.stdout).not.toContain('  fix   .gemini/settings.json sets mcp.allowed');
    // doctor only reads: both files are as the user left them.
    expect(readText(box.temp.path('home/.gemini/settings.json'))).toBe('{ "mcp": { "allowed": [] } }\n');
  });

  it('exits 2 for a usage error or a root that is not content', async () => {
    expect((await doctor('--bogus')).code).toBe(2);
    const bad = await doctor('--root', box.home);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('companion doctor: <home> is not a content repository');
  });

  it('runs as the real CLI', async () => {
    const env = { HOME: box.home, XDG_CONFIG_HOME: undefined, CODEX_HOME: undefined };
    await runCli(['install', '--root', box.root, '--client', 'generic'], { cwd: box.project, env });
    const fresh = await runCli(['doctor'], { cwd: box.project, env });
    expect(fresh.stderr).toBe('');
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toContain('Generic host — .mcp.json\n');
    expect(fresh.stdout).toContain('  ok    .agents/skills holds fresh copies of alpha, beta.\n');
    box.temp.remove('project/.agents/skills/alpha');
    const broken = await runCli(['doctor', '--project', box.project], { cwd: box.home, env });
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('(alpha missing)');
  });
});
