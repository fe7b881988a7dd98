import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildConfigPath, CLIENT_IDS, readClient } from '../../src/install/clients.js';
import {
  buildServerEntry,
  findSubstitution,
  namesCompanion,
  OWN_BIN,
  readEntryLaunch,
  readEntryTarget,
  readLaunch,
  WORKSPACE_FOLDER as WF,
} from '../../src/install/server-entry.js';
import { repoRoot } from '../helpers/run-cli.js';
import { createTempProject, type TempProject } from '../helpers/temp-project.js';

const STANDALONE = { kind: 'standalone', bin: '/opt/companion/bin/companion.js' } as const;
const base = {
  project: '/p',
  root: '/p/content',
  launch: STANDALONE,
  name: 'fixture',
  execPath: '/usr/local/bin/node',
};

describe('buildServerEntry', () => {
  it('runs node with the absolute bin and root for hosts that expand nothing', () => {
    expect(buildServerEntry(readClient('claude-code'), base)).toEqual({
      type: 'stdio',
      command: 'node',
      args: ['/opt/companion/bin/companion.js', 'serve', '--root', '/p/content'],
    });
    expect(buildServerEntry(readClient('codex'), base)).toEqual({
      command: 'node',
      args: ['/opt/companion/bin/companion.js', 'serve', '--root', '/p/content'],
    });
  });

  it('spells project paths with the workspace folder variable for VS Code and Cursor', () => {
    const inside = {
      ...base,
      launch: { kind: 'standalone', bin: '/p/tools/companion/bin/companion.js' } as const,
    };
    for (const id of ['vscode', 'cursor'] as const) {
      expect(buildServerEntry(readClient(id), inside)).toEqual({
        type: 'stdio',
        command: 'node',
        args: [`${WF}/tools/companion/bin/companion.js`, 'serve', '--root', `${WF}/content`],
      });
    }
    expect(buildServerEntry(readClient('vscode'), { ...base, root: '/p' }).args).toEqual([
      '/opt/companion/bin/companion.js',
      'serve',
      '--root',
      WF,
    ]);
  });

  it('gives Claude Desktop the absolute node, since a desktop app may not have the shell PATH', () => {
    expect(buildServerEntry(readClient('claude-desktop'), base)).toEqual({
      command: '/usr/local/bin/node',
      args: ['/opt/companion/bin/companion.js', 'serve', '--root', '/p/content'],
    });
  });

  it('uses `npx --no companion` in project configs when the project depends on companion', () => {
    const launch = { kind: 'dependency', bin: '/p/node_modules/companion/bin/companion.js' } as const;
    expect(buildServerEntry(readClient('claude-code'), { ...base, launch })).toEqual({
      type: 'stdio',
      command: 'npx',
      args: ['--no', 'companion', 'serve', '--root', '/p/content'],
    });
    // A user-level config runs from anywhere: the project's installed bin, by path.
    expect(buildServerEntry(readClient('codex-user'), { ...base, launch }).args).toEqual([
      '/p/node_modules/companion/bin/companion.js',
      'serve',
      '--root',
      '/p/content',
    ]);
  });

  it('writes the URL for hosts that take one, and the command for Claude Desktop', () => {
    const url = 'http://127.0.0.1:3917/mcp';
    expect(buildServerEntry(readClient('claude-code'), { ...base, url })).toEqual({ type: 'http', url });
    expect(buildServerEntry(readClient('vscode'), { ...base, url })).toEqual({ type: 'http', url });
    expect(buildServerEntry(readClient('cursor'), { ...base, url })).toEqual({ url });
    expect(buildServerEntry(readClient('codex'), { ...base, url })).toEqual({ url });
    expect(buildServerEntry(readClient('claude-desktop'), { ...base, url })).toHaveProperty('command');
  });
});

describe('buildServerEntry for the hosts of each shape', () => {
  const args = ['/opt/companion/bin/companion.js', 'serve', '--root', '/p/content'];
  const url = 'http://127.0.0.1:3917/mcp';

  it('spells each host’s own fields', () => {
    expect(buildServerEntry(readClient('gemini'), base)).toEqual({ command: 'node', args });
    expect(buildServerEntry(readClient('gemini'), { ...base, url })).toEqual({ httpUrl: url });
    expect(buildServerEntry(readClient('opencode'), base)).toEqual({
      type: 'local',
      command: ['node', ...args],
    });
    expect(buildServerEntry(readClient('opencode'), { ...base, url })).toEqual({ type: 'remote', url });
    expect(buildServerEntry(readClient('copilot-cli'), base)).toEqual(
      buildServerEntry(readClient('claude-code'), base),
    );
    // Desktop apps get node's absolute path.
    expect(buildServerEntry(readClient('windsurf'), base)).toEqual({ command: '/usr/local/bin/node', args });
    expect(buildServerEntry(readClient('windsurf'), { ...base, url })).toEqual({ serverUrl: url });
    expect(buildServerEntry(readClient('goose'), base)).toEqual({
      type: 'stdio',
      name: 'fixture',
      cmd: '/usr/local/bin/node',
      args,
      description: 'Skills and knowledge documents served by companion',
      timeout: 300,
    });
    expect(buildServerEntry(readClient('goose'), { ...base, url })).toEqual({
      type: 'streamable_http',
      name: 'fixture',
      uri: url,
      description: 'Skills and knowledge documents served by companion',
      timeout: 300,
    });
    expect(buildServerEntry(readClient('antigravity'), base)).toEqual({
      command: '/usr/local/bin/node',
      args,
      cwd: '/p',
    });
    // Antigravity takes no URL companion could confirm: the command is written.
    expect(buildServerEntry(readClient('antigravity'), { ...base, url })).toHaveProperty('command');
  });

  it('runs a dependency through npx only for project hosts that inherit the shell’s PATH', () => {
    const launch = { kind: 'dependency', bin: '/p/node_modules/companion-mcp/bin/companion.js' } as const;
    expect(buildServerEntry(readClient('opencode'), { ...base, launch }).command).toEqual([
      'npx',
      '--no',
      'companion',
      'serve',
      '--root',
      '/p/content',
    ]);
    expect(buildServerEntry(readClient('antigravity'), { ...base, launch })).toMatchObject({
      command: '/usr/local/bin/node',
      args: [launch.bin, 'serve', '--root', '/p/content'],
    });
  });

  it('reads every shape back as the command it runs', () => {
    for (const id of CLIENT_IDS) {
      const client = readClient(id);
      const launch = readEntryLaunch(client, buildServerEntry(client, base));
      expect(namesCompanion(launch), id).toBe(true);
      expect(readEntryTarget(launch, '/p'), id).toMatchObject({ kind: 'stdio', root: '/p/content' });
      if (client.takesUrl) {
        const remote = readEntryLaunch(client, buildServerEntry(client, { ...base, url }));
        expect(readEntryTarget(remote, '/p'), id).toEqual({ kind: 'url', url });
      }
    }
  });

  it('refuses a path the host would substitute a variable in', () => {
    const gemini = readClient('gemini');
    const owned = buildServerEntry(gemini, { ...base, root: '/home/me/$WORK/content' });
    expect(findSubstitution(gemini, owned)).toContain('Gemini CLI substitutes that');
    expect(findSubstitution(gemini, buildServerEntry(gemini, base))).toBeUndefined();
    expect(findSubstitution(readClient('claude-code'), owned)).toBeUndefined();
    const opencode = readClient('opencode');
    expect(findSubstitution(opencode, buildServerEntry(opencode, { ...base, root: '/r/{env:X}' }))).toContain(
      '{env:',
    );
  });
});

describe('namesCompanion', () => {
  it('knows companion by its bin or package, however it is spelled', () => {
    for (const entry of [
      { command: 'companion', args: ['serve'] },
      { command: 'node', args: ['/x/bin/companion.js', 'serve'] },
      { command: 'npx', args: ['--no', 'companion', 'serve'] },
      { command: 'npx', args: ['-y', 'companion@0.1.0', 'serve'] },
      { command: 'C:\\tools\\companion.cmd' },
      { command: 'node', args: [`${WF}/bin/companion.js`] },
    ]) {
      expect(namesCompanion(entry), JSON.stringify(entry)).toBe(true);
    }
  });

  it('does not take names that merely contain it, or URL entries', () => {
    for (const entry of [
      { command: 'uvx', args: ['companion-server'] },
      { command: 'node', args: ['/x/my-companion.js'] },
      { url: 'http://127.0.0.1:3917/mcp' },
      { command: 'node' },
      {},
    ]) {
      expect(namesCompanion(entry), JSON.stringify(entry)).toBe(false);
    }
  });
});

describe('readEntryTarget', () => {
  it('expands the workspace folder variable and resolves relative paths against the project', () => {
    expect(
      readEntryTarget(
        { command: 'node', args: [`${WF}/bin/companion.js`, 'serve', '--root', 'content'] },
        '/p',
      ),
    ).toEqual({ kind: 'stdio', root: '/p/content', bin: '/p/bin/companion.js', npx: false });
    expect(
      readEntryTarget({ command: 'npx', args: ['--no', 'companion', 'serve', '--root=/r'] }, '/p'),
    ).toEqual({
      kind: 'stdio',
      root: '/r',
      npx: true,
    });
    expect(readEntryTarget({ url: 'http://h/mcp' }, '/p')).toEqual({
      kind: 'url',
      url: 'http://h/mcp',
    });
  });
});

describe('readLaunch', () => {
  let project: TempProject | undefined;
  afterEach(() => project?.cleanup());

  it('is standalone unless package.json declares companion-mcp and node_modules has it', () => {
    project = createTempProject({ 'package.json': '{"devDependencies": {"companion-mcp": "^0.1.0"}}' });
    expect(readLaunch(project.root)).toEqual({ kind: 'standalone', bin: OWN_BIN });
    project.write('node_modules/companion-mcp/bin/companion.js', '');
    expect(readLaunch(project.root)).toEqual({
      kind: 'dependency',
      bin: project.path('node_modules/companion-mcp/bin/companion.js'),
    });
    // The npm package named `companion` is someone else's: declaring and installing it is no dependency on us.
    project.write('package.json', '{"devDependencies": {"companion": "^0.0.2"}}');
    project.write('node_modules/companion/bin/companion.js', '');
    expect(readLaunch(project.root).kind).toBe('standalone');
    project.write('package.json', '{"dependencies": {}}');
    expect(readLaunch(project.root).kind).toBe('standalone');
  });

  it('finds this repository’s own bin', () => {
    expect(OWN_BIN).toBe(join(repoRoot, 'bin', 'companion.js'));
  });
});

describe('buildConfigPath', () => {
  const desktop = readClient('claude-desktop');
  it('puts Claude Desktop’s config where each platform keeps it', () => {
    const at = (where: Parameters<typeof buildConfigPath>[2]) => buildConfigPath(desktop, '/p', where, 'x');
    expect(at({ home: '/h', env: {}, platform: 'linux' })).toBe(
      '/h/.config/Claude/claude_desktop_config.json',
    );
    expect(at({ home: '/h', env: { XDG_CONFIG_HOME: '/x' }, platform: 'linux' })).toBe(
      '/x/Claude/claude_desktop_config.json',
    );
    expect(at({ home: '/h', env: {}, platform: 'darwin' })).toBe(
      '/h/Library/Application Support/Claude/claude_desktop_config.json',
    );
    expect(at({ home: undefined, env: {}, platform: 'linux' })).toBeUndefined();
  });

  it('honours CODEX_HOME and puts project configs in the project', () => {
    const where = { home: '/h', env: { CODEX_HOME: '/c' }, platform: 'linux' as const };
    expect(buildConfigPath(readClient('codex-user'), '/p', where, 'x')).toBe('/c/config.toml');
    expect(buildConfigPath(readClient('codex-user'), '/p', { ...where, env: {} }, 'x')).toBe(
      '/h/.codex/config.toml',
    );
    const project = CLIENT_IDS.filter((id) => readClient(id).scope === 'project').map((id) => [
      id,
      buildConfigPath(readClient(id), '/p', where, 'fixture'),
    ]);
    expect(Object.fromEntries(project)).toEqual({
      'claude-code': '/p/.mcp.json',
      vscode: '/p/.vscode/mcp.json',
      cursor: '/p/.cursor/mcp.json',
      codex: '/p/.codex/config.toml',
      gemini: '/p/.gemini/settings.json',
      opencode: '/p/opencode.json',
      'copilot-cli': '/p/.mcp.json',
      antigravity: '/p/.agents/plugins/fixture/mcp_config.json',
      generic: '/p/.mcp.json',
    });
  });

  it('puts Goose’s and Windsurf’s user files where each keeps them', () => {
    const goose = (where: Parameters<typeof buildConfigPath>[2]) =>
      buildConfigPath(readClient('goose'), '/p', where, 'x');
    expect(goose({ home: '/h', env: {}, platform: 'linux' })).toBe('/h/.config/goose/config.yaml');
    expect(goose({ home: '/h', env: {}, platform: 'darwin' })).toBe('/h/.config/goose/config.yaml');
    expect(goose({ home: '/h', env: { XDG_CONFIG_HOME: '/x' }, platform: 'linux' })).toBe(
      '/x/goose/config.yaml',
    );
    expect(goose({ home: '/h', env: { GOOSE_PATH_ROOT: '/g' }, platform: 'linux' })).toBe(
      '/g/config/config.yaml',
    );
    // A relative GOOSE_PATH_ROOT is ignored by Goose too (paths.rs `validated_path_root`).
    expect(goose({ home: '/h', env: { GOOSE_PATH_ROOT: 'rel' }, platform: 'linux' })).toBe(
      '/h/.config/goose/config.yaml',
    );
    expect(goose({ home: '/h', env: { APPDATA: '/a' }, platform: 'win32' })).toBe(
      join('/a', 'Block', 'goose', 'config', 'config.yaml'),
    );
    expect(
      buildConfigPath(readClient('windsurf'), '/p', { home: '/h', env: {}, platform: 'linux' }, 'x'),
    ).toBe('/h/.codeium/windsurf/mcp_config.json');
  });

  it('uses OpenCode’s opencode.jsonc when the project has one, and opencode.json otherwise', () => {
    const temp = createTempProject({ 'opencode.jsonc': '{}' });
    try {
      const where = { home: '/h', env: {}, platform: 'linux' as const };
      expect(buildConfigPath(readClient('opencode'), temp.root, where, 'x')).toBe(
        temp.path('opencode.jsonc'),
      );
      temp.write('opencode.json', '{}');
      expect(buildConfigPath(readClient('opencode'), temp.root, where, 'x')).toBe(temp.path('opencode.json'));
    } finally {
      temp.cleanup();
    }
  });
});
