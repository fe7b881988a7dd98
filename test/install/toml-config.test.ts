import { describe, expect, it } from 'vitest';
import type { EntryEdit } from '../../src/install/json-config.js';
import { namesCompanion } from '../../src/install/server-entry.js';
import { buildTomlConfigEdit, formatTomlString, readTomlEntry } from '../../src/install/toml-config.js';

const OWNED = { command: 'node', args: ['/opt/companion/bin/companion.js', 'serve', '--root', '/r'] };

function edit(owned: Record<string, unknown> = OWNED, key = 'fixture'): EntryEdit {
  return {
    serversKey: 'mcp_servers',
    key,
    owned,
    ownedFields: ['command', 'args', 'url'],
    isOurs: namesCompanion,
    shownPath: '.codex/config.toml',
  };
}

function textOf(result: ReturnType<typeof buildTomlConfigEdit>): string {
  if (result.status === 'refused') throw new Error(result.reason);
  return result.text;
}

describe('buildTomlConfigEdit', () => {
  it('creates a file holding only our table', () => {
    const result = buildTomlConfigEdit(undefined, edit());
    expect(result.status).toBe('created');
    expect(textOf(result)).toBe(
      '[mcp_servers.fixture]\ncommand = "node"\nargs = ["/opt/companion/bin/companion.js", "serve", "--root", "/r"]\n',
    );
  });

  it('appends the table after everything else, keeping every other table and key byte for byte', () => {
    const before = [
      'model = "o3"  # the model',
      '',
      '[mcp_servers.other]',
      'command = "uvx"',
      'args = [',
      '  "other", # multi-line arrays elsewhere are fine',
      '  "[not.a.header]",',
      ']',
      '',
      '[profiles.fast]',
      "model = 'gpt'",
      '',
    ].join('\n');
    const result = buildTomlConfigEdit(before, edit());
    expect(result.status).toBe('created');
    expect(textOf(result)).toBe(
      `${before}\n[mcp_servers.fixture]\ncommand = "node"\nargs = ["/opt/companion/bin/companion.js", "serve", "--root", "/r"]\n`,
    );
  });

  it('rewrites only the owned lines of our table, keeping indentation, comments, other keys and subtables', () => {
    const before = [
      '# codex config',
      '[mcp_servers.fixture]',
      '  command = "node"   # how it starts',
      'startup_timeout_sec = 20',
      "args = ['/old/companion.js', 'serve'] # old",
      'enabled = true',
      '',
      '[mcp_servers.fixture.env]',
      'DEBUG = "1"',
      '',
      '[mcp_servers.other]',
      'command = "uvx"',
      '',
    ].join('\n');
    const result = buildTomlConfigEdit(before, edit());
    expect(result.status).toBe('updated');
    expect(textOf(result)).toBe(
      [
        '# codex config',
        '[mcp_servers.fixture]',
        '  command = "node"   # how it starts',
        'startup_timeout_sec = 20',
        'args = ["/opt/companion/bin/companion.js", "serve", "--root", "/r"] # old',
        'enabled = true',
        '',
        '[mcp_servers.fixture.env]',
        'DEBUG = "1"',
        '',
        '[mcp_servers.other]',
        'command = "uvx"',
        '',
      ].join('\n'),
    );
  });

  it('answers unchanged when the owned values already match (literal strings and spacing aside)', () => {
    const before = `[mcp_servers.fixture]\ncommand = 'node'\nargs = [ '/opt/companion/bin/companion.js','serve', "--root", "/r", ]\n`;
    const result = buildTomlConfigEdit(before, edit());
    expect(result).toEqual({ status: 'unchanged', text: before });
  });

  it('switches between a command and a URL by replacing the owned lines', () => {
    const before =
      '[mcp_servers.fixture]\ncommand = "npx"\nargs = ["--no", "companion", "serve"]\ncwd = "/p"\n';
    const toUrl = textOf(buildTomlConfigEdit(before, edit({ url: 'http://127.0.0.1:3917/mcp' })));
    expect(toUrl).toBe('[mcp_servers.fixture]\nurl = "http://127.0.0.1:3917/mcp"\ncwd = "/p"\n');
    // A URL-only entry names no command: the caller decides it is ours (from the record).
    const back = buildTomlConfigEdit(toUrl, { ...edit(), isOurs: () => true });
    expect(textOf(back)).toBe(
      '[mcp_servers.fixture]\ncommand = "node"\nargs = ["/opt/companion/bin/companion.js", "serve", "--root", "/r"]\ncwd = "/p"\n',
    );
  });

  it('keeps CRLF line ends', () => {
    const before = 'a = 1\r\n[mcp_servers.fixture]\r\ncommand = "companion"\r\n';
    expect(textOf(buildTomlConfigEdit(before, edit()))).toBe(
      'a = 1\r\n[mcp_servers.fixture]\r\ncommand = "node"\r\nargs = ["/opt/companion/bin/companion.js", "serve", "--root", "/r"]\r\n',
    );
  });

  it('quotes a key that is not bare and escapes what TOML needs escaped', () => {
    const result = textOf(
      buildTomlConfigEdit(undefined, edit({ command: 'C:\\node "x"\x7f', args: [] }, 'my.server')),
    );
    expect(result).toBe('[mcp_servers."my.server"]\ncommand = "C:\\\\node \\"x\\"\\u007F"\nargs = []\n');
    // And it reads back what it wrote.
    const read = readTomlEntry(result, 'mcp_servers', 'my.server', 'x');
    expect(read).toEqual({ status: 'found', entry: { command: 'C:\\node "x"\x7f', args: [] } });
  });

  it('refuses a table under our key that runs something else', () => {
    const before = '[mcp_servers.fixture]\ncommand = "uvx"\nargs = ["fixture-server"]\n';
    const result = buildTomlConfigEdit(before, edit());
    expect(result.status).toBe('refused');
    expect(result.status === 'refused' && result.reason).toContain(
      '`uvx fixture-server`, which is not companion',
    );
  });

  it('refuses an owned value written over several lines', () => {
    const before = '[mcp_servers.fixture]\ncommand = "node"\nargs = [\n  "/x/companion.js",\n]\n';
    const result = buildTomlConfigEdit(before, edit());
    expect(result.status).toBe('refused');
    expect(result.status === 'refused' && result.reason).toContain(
      'writes "args" of [mcp_servers.fixture] over several lines',
    );
  });

  it('refuses our entry defined by dotted keys or as an inline table', () => {
    for (const before of [
      'mcp_servers.fixture.command = "companion"\n',
      '[mcp_servers]\nfixture = { command = "companion" }\n',
      'mcp_servers = { fixture = { command = "companion" } }\n',
    ]) {
      const result = buildTomlConfigEdit(before, edit());
      expect(result.status, before).toBe('refused');
      expect(result.status === 'refused' && result.reason).toContain('outside a [mcp_servers.fixture] table');
    }
  });

  it('refuses a file it cannot follow instead of guessing', () => {
    for (const before of [
      '[mcp_servers.fixture\n',
      'a = "open\n',
      'a = """\nnever closed\n',
      'just words\n',
    ]) {
      expect(buildTomlConfigEdit(before, edit()).status, before).toBe('refused');
    }
  });

  it('is not fooled by headers or keys inside multi-line strings', () => {
    const before = 'note = """\n[mcp_servers.fixture]\ncommand = "x"\n"""\n';
    const result = buildTomlConfigEdit(before, edit());
    expect(result.status).toBe('created');
    expect(textOf(result).startsWith(before)).toBe(true);
  });
});

describe('readTomlEntry', () => {
  it('reads the one-line values of our table and nothing of other tables', () => {
    const text =
      '[mcp_servers.fixture]\ncommand = "node" # c\nargs = ["a", "b"]\nenabled = false\nstartup_timeout_sec = 20\n[mcp_servers.other]\ncommand = "x"\n';
    expect(readTomlEntry(text, 'mcp_servers', 'fixture', 'f')).toEqual({
      status: 'found',
      entry: { command: 'node', args: ['a', 'b'], enabled: false, startup_timeout_sec: 20 },
    });
    expect(readTomlEntry(text, 'mcp_servers', 'missing', 'f')).toEqual({ status: 'missing' });
  });

  it('formats strings as TOML basic strings', () => {
    expect(formatTomlString('a\tb\n"c"')).toBe('"a\\tb\\n\\"c\\""');
  });
});
