import { describe, expect, it } from 'vitest';
import {
  buildTomlEntryEdit,
  buildTomlEntryRemoval,
  formatTomlString,
  readTomlEntry,
} from '../../src/install/toml-config.js';
import { configOf, reasonOf, specOf, textOf } from './config-text.js';

const OWNED = { command: 'node', args: ['/opt/companion/bin/companion.js', 'serve', '--root', '/r'] };
const ARGS = '["/opt/companion/bin/companion.js", "serve", "--root", "/r"]';
const SPEC = specOf('mcp_servers', ['command', 'args', 'url'], '.codex/config.toml');

const edit = (
  before: string | Uint8Array | undefined,
  owned: Record<string, unknown> = OWNED,
  key = 'fixture',
) => buildTomlEntryEdit(configOf(before), { ...SPEC, key }, owned);
const read = (text: string, key = 'fixture') => readTomlEntry(configOf(text)!, { ...SPEC, key });

describe('buildTomlEntryEdit', () => {
  it('creates a file holding only our table', () => {
    expect(textOf(edit(undefined))).toBe(`[mcp_servers.fixture]\ncommand = "node"\nargs = ${ARGS}\n`);
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
    expect(textOf(edit(before))).toBe(`${before}\n[mcp_servers.fixture]\ncommand = "node"\nargs = ${ARGS}\n`);
  });

  it('rewrites only the owned values of our table, keeping indentation, comments, other keys and subtables', () => {
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
    expect(textOf(edit(before))).toBe(before.replace("['/old/companion.js', 'serve']", ARGS));
  });

  it('replaces an owned value written over several lines by its range', () => {
    const before = '[mcp_servers.fixture]\ncommand = "node"\nargs = [\n  "/x/companion.js",\n]\ncwd = "/p"\n';
    expect(textOf(edit(before))).toBe(
      `[mcp_servers.fixture]\ncommand = "node"\nargs = ${ARGS}\ncwd = "/p"\n`,
    );
  });

  it('leaves the file as it is when the owned values already match (literal strings and spacing aside)', () => {
    const before = `[mcp_servers.fixture]\ncommand = 'node'\nargs = [ '/opt/companion/bin/companion.js','serve', "--root", "/r", ]\n`;
    expect(textOf(edit(before))).toBe(before);
  });

  it('switches between a command and a URL by removing and inserting owned lines', () => {
    const before =
      '[mcp_servers.fixture]\ncommand = "npx"\nargs = ["--no", "companion", "serve"]\ncwd = "/p"\n';
    const toUrl = textOf(edit(before, { url: 'http://127.0.0.1:3917/mcp' }));
    expect(toUrl).toBe('[mcp_servers.fixture]\nurl = "http://127.0.0.1:3917/mcp"\ncwd = "/p"\n');
    expect(textOf(edit(toUrl))).toBe(`[mcp_servers.fixture]\ncommand = "node"\nargs = ${ARGS}\ncwd = "/p"\n`);
  });

  it('keeps CRLF line ends', () => {
    const before = 'a = 1\r\n[mcp_servers.fixture]\r\ncommand = "companion"\r\n';
    expect(textOf(edit(before))).toBe(
      `a = 1\r\n[mcp_servers.fixture]\r\ncommand = "node"\r\nargs = ${ARGS}\r\n`,
    );
  });

  it('keeps bytes that are not UTF-8 elsewhere in the file', () => {
    const before = Buffer.concat([
      Buffer.from('# r'),
      Buffer.from([0xe9, 0x73, 0x75, 0x6d, 0xe9]), // "résumé" in Latin-1
      Buffer.from('\nmodel = "o3"\n'),
    ]);
    const result = edit(new Uint8Array(before));
    if (!result.ok) throw new Error(result.reason);
    const after = Buffer.from(result.bytes);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    expect(after.subarray(before.length).toString('utf8')).toBe(
      `\n[mcp_servers.fixture]\ncommand = "node"\nargs = ${ARGS}\n`,
    );
  });

  it('quotes a key that is not bare and escapes what TOML needs escaped, and reads it back', () => {
    const result = textOf(edit(undefined, { command: 'C:\\node "x"\x7f', args: [] }, 'my.server'));
    expect(result).toBe('[mcp_servers."my.server"]\ncommand = "C:\\\\node \\"x\\"\\u007F"\nargs = []\n');
    expect(read(result, 'my.server')).toEqual({
      status: 'found',
      entry: { command: 'C:\\node "x"\x7f', args: [] },
    });
  });

  it('refuses our entry defined by dotted keys, as an inline table, or as an array of tables', () => {
    const cases: [string, string][] = [
      ['mcp_servers.fixture.command = "companion"\n', 'outside a [mcp_servers.fixture] table'],
      ['[mcp_servers]\nfixture = { command = "companion" }\n', 'outside a [mcp_servers.fixture] table'],
      ['mcp_servers = { other = { command = "x" } }\n', 'defines mcp_servers as an inline table'],
      ['[[mcp_servers.fixture]]\ncommand = "x"\n', 'as an array of tables'],
      ['[mcp_servers.fixture]\nargs.x = 1\n', 'as a dotted key'],
    ];
    for (const [before, expected] of cases) {
      const reason = reasonOf(edit(before));
      expect(reason, before).toContain(expected);
      expect(reason).toContain('pass --name');
    }
  });

  it('refuses a file that is not valid TOML, duplicate keys and tables included, naming where', () => {
    expect(reasonOf(edit('[mcp_servers.fixture]\ncommand = "a"\ncommand = "b"\n'))).toMatch(
      /^\.codex\/config\.toml is not valid TOML \(Defining a key multiple times is invalid at line 3, column 1\)/,
    );
    expect(reasonOf(edit('[mcp_servers.fixture]\n[mcp_servers.fixture]\n'))).toContain('line 2');
    for (const before of [
      '[mcp_servers.fixture\n',
      'a = "open\n',
      'a = """\nnever closed\n',
      'just words\n',
    ]) {
      expect(reasonOf(edit(before)), before).toContain('is not valid TOML');
    }
  });

  it('is not fooled by headers or keys inside multi-line strings', () => {
    const before = 'note = """\n[mcp_servers.fixture]\ncommand = "x"\n"""\n';
    expect(textOf(edit(before)).startsWith(before)).toBe(true);
    expect(read(before)).toEqual({ status: 'missing' });
  });
});

describe('buildTomlEntryRemoval', () => {
  it('undoes an appended table byte for byte', () => {
    for (const before of ['model = "o3"\n', 'model = "o3"', '# only a comment\r\n[a]\r\nb = 1\r\n']) {
      const added = textOf(edit(before));
      expect(textOf(buildTomlEntryRemoval(configOf(added)!, SPEC)), JSON.stringify(before)).toBe(
        before.endsWith('\n') ? before : `${before}\n`,
      );
    }
  });

  it('removes our table and keeps the tables around it', () => {
    const before =
      '[mcp_servers.other]\ncommand = "x"\n\n[mcp_servers.fixture]\ncommand = "node"\n\n[profiles.a]\nmodel = "m"\n';
    expect(textOf(buildTomlEntryRemoval(configOf(before)!, SPEC))).toBe(
      '[mcp_servers.other]\ncommand = "x"\n\n[profiles.a]\nmodel = "m"\n',
    );
  });
});

describe('readTomlEntry', () => {
  it('reads our table as a TOML reader sees it, and nothing of other tables', () => {
    const text =
      '[mcp_servers.fixture]\ncommand = "node" # c\nargs = ["a", "b"]\nenabled = false\nstartup_timeout_sec = 20\n[mcp_servers.fixture.env]\nA = "1"\n[mcp_servers.other]\ncommand = "x"\n';
    expect(read(text)).toEqual({
      status: 'found',
      entry: { command: 'node', args: ['a', 'b'], enabled: false, startup_timeout_sec: 20, env: { A: '1' } },
    });
    expect(read(text, 'missing')).toEqual({ status: 'missing' });
  });

  it('formats strings as TOML basic strings', () => {
    expect(formatTomlString('a\tb\n"c"')).toBe('"a\\tb\\n\\"c\\""');
  });
});
