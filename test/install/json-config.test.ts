import { describe, expect, it } from 'vitest';
import {
  buildJsonConfigEdit,
  type EntryEdit,
  isDeepEqual,
  readJsonEntry,
} from '../../src/install/json-config.js';
import { namesCompanion } from '../../src/install/server-entry.js';

const OWNED = {
  type: 'stdio',
  command: 'node',
  args: ['/opt/companion/bin/companion.js', 'serve', '--root', '/r'],
};

function edit(owned: Record<string, unknown> = OWNED): EntryEdit {
  return {
    serversKey: 'mcpServers',
    key: 'fixture',
    owned,
    ownedFields: ['type', 'command', 'args', 'url'],
    isOurs: namesCompanion,
    shownPath: '.mcp.json',
  };
}

function textOf(result: ReturnType<typeof buildJsonConfigEdit>): string {
  if (result.status === 'refused') throw new Error(result.reason);
  return result.text;
}

describe('buildJsonConfigEdit', () => {
  it('creates the file with the servers table and our entry', () => {
    const result = buildJsonConfigEdit(undefined, edit());
    expect(result.status).toBe('created');
    expect(JSON.parse(textOf(result))).toEqual({ mcpServers: { fixture: OWNED } });
    expect(textOf(result).endsWith('}\n')).toBe(true);
  });

  it('adds our entry beside foreign ones and keeps comments and the rest of the file', () => {
    const before = `{
  // servers I use
  "mcpServers": {
    "other": { "command": "uvx", "args": ["other"] }
  },
  "extra": true
}
`;
    const after = textOf(buildJsonConfigEdit(before, edit()));
    expect(after).toContain('// servers I use');
    expect(after).toContain('"other": { "command": "uvx", "args": ["other"] }');
    expect(readJsonEntry(after, 'mcpServers', 'fixture', 'x')).toEqual({ status: 'found', entry: OWNED });
    expect(readJsonEntry(after, 'mcpServers', 'other', 'x')).toEqual({
      status: 'found',
      entry: { command: 'uvx', args: ['other'] },
    });
  });

  it('rewrites only owned fields of our entry, keeping env, disabled and comments in place', () => {
    const before = `{
\t"mcpServers": {
\t\t"fixture": {
\t\t\t"command": "node",
\t\t\t"args": ["/old/companion.js", "serve"],
\t\t\t"env": { "DEBUG": "1" }, // keep me
\t\t\t"disabled": false
\t\t}
\t}
}
`;
    const result = buildJsonConfigEdit(before, edit());
    expect(result.status).toBe('updated');
    const after = textOf(result);
    expect(after).toContain('\t\t\t"env": { "DEBUG": "1" }, // keep me\n\t\t\t"disabled": false,');
    expect(readJsonEntry(after, 'mcpServers', 'fixture', 'x')).toEqual({
      status: 'found',
      entry: { ...OWNED, env: { DEBUG: '1' }, disabled: false },
    });
  });

  it('removes owned fields the new entry does not have, with their lines and nothing else', () => {
    const before = `{
  "mcpServers": {
    "fixture": {
      "type": "stdio",
      "command": "companion", // how it starts
      // a comment of its own
      "env": { "A": "1" },
      "args": ["serve"]
    }
  }
}
`;
    const after = textOf(
      buildJsonConfigEdit(before, edit({ type: 'http', url: 'http://127.0.0.1:3917/mcp' })),
    );
    expect(after).toBe(`{
  "mcpServers": {
    "fixture": {
      "type": "http",
      // a comment of its own
      "env": { "A": "1" },
      "url": "http://127.0.0.1:3917/mcp"
    }
  }
}
`);
  });

  it('writes into the layout the file already has: pretty for `{}`, one line for a one-line file', () => {
    expect(textOf(buildJsonConfigEdit('{}\n', edit()))).toBe(
      `${JSON.stringify({ mcpServers: { fixture: OWNED } }, null, 2)}\n`,
    );
    expect(textOf(buildJsonConfigEdit('{"mcpServers": {"o": {"command": "x"}}}', edit()))).toBe(
      '{"mcpServers": {"o": {"command": "x"}, "fixture": { "type": "stdio", "command": "node", "args": ["/opt/companion/bin/companion.js", "serve", "--root", "/r"] }}}\n',
    );
  });

  it('appends after a trailing comma and its line comment, and keeps CRLF', () => {
    const before = '{\r\n\t"mcpServers": {\r\n\t\t"o": {"command": "x"}, // mine\r\n\t}\r\n}\r\n';
    expect(textOf(buildJsonConfigEdit(before, edit({ url: 'http://h/mcp' })))).toBe(
      '{\r\n\t"mcpServers": {\r\n\t\t"o": {"command": "x"}, // mine\r\n\t\t"fixture": {\r\n\t\t\t"url": "http://h/mcp"\r\n\t\t}\r\n\t}\r\n}\r\n',
    );
  });

  it('answers unchanged, with the same text, when the owned fields already match', () => {
    const before = `${JSON.stringify({ mcpServers: { fixture: { ...OWNED, env: { A: '1' } } } }, null, 4)}\n`;
    expect(buildJsonConfigEdit(before, edit())).toEqual({ status: 'unchanged', text: before });
  });

  it('refuses an entry under our key that runs something else, and names what it runs', () => {
    const before = '{ "mcpServers": { "fixture": { "command": "uvx", "args": ["fixture-mcp"] } } }';
    const result = buildJsonConfigEdit(before, edit());
    expect(result.status).toBe('refused');
    expect(result.status === 'refused' && result.reason).toBe(
      '.mcp.json already has an entry "fixture" that runs `uvx fixture-mcp`, which is not companion. companion install never overwrites an entry it did not write: rename or remove that entry, then run install again.',
    );
  });

  it('refuses a file that does not parse, or whose servers table is not an object', () => {
    const broken = buildJsonConfigEdit('{ "mcpServers": { ', edit());
    expect(broken.status).toBe('refused');
    expect(broken.status === 'refused' && broken.reason).toMatch(
      /^\.mcp\.json does not parse as JSON \(.* at line 1, column \d+\)/,
    );
    expect(buildJsonConfigEdit('{ "mcpServers": [] }', edit()).status).toBe('refused');
    expect(buildJsonConfigEdit('[]', edit()).status).toBe('refused');
    expect(buildJsonConfigEdit('{ "mcpServers": { "fixture": "x" } }', edit()).status).toBe('refused');
  });
});

describe('isDeepEqual', () => {
  it('ignores key order but not array order', () => {
    expect(isDeepEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(isDeepEqual([1, 2], [2, 1])).toBe(false);
    expect(isDeepEqual({ a: undefined }, {})).toBe(false);
  });
});
