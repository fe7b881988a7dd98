import { describe, expect, it } from 'vitest';
import { buildJsonEntryEdit, buildJsonEntryRemoval, readJsonEntry } from '../../src/install/json-config.js';
import { configOf, reasonOf, specOf, textOf } from './config-text.js';

const OWNED = {
  type: 'stdio',
  command: 'node',
  args: ['/opt/companion/bin/companion.js', 'serve', '--root', '/r'],
};
const SPEC = specOf('mcpServers', ['type', 'command', 'args', 'url'], '.mcp.json');

const edit = (before: string | Uint8Array | undefined, owned: Record<string, unknown> = OWNED) =>
  buildJsonEntryEdit(configOf(before), SPEC, owned);
const read = (text: string, key = 'fixture') => readJsonEntry(configOf(text)!, { ...SPEC, key });

describe('buildJsonEntryEdit', () => {
  it('creates the file with the servers table and our entry', () => {
    const after = textOf(edit(undefined));
    expect(JSON.parse(after)).toEqual({ mcpServers: { fixture: OWNED } });
    expect(after.endsWith('}\n')).toBe(true);
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
    const after = textOf(edit(before));
    expect(after).toBe(`{
  // servers I use
  "mcpServers": {
    "other": { "command": "uvx", "args": ["other"] },
    "fixture": {
      "type": "stdio",
      "command": "node",
      "args": [
        "/opt/companion/bin/companion.js",
        "serve",
        "--root",
        "/r"
      ]
    }
  },
  "extra": true
}
`);
    expect(read(after)).toEqual({ status: 'found', entry: OWNED });
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
    const after = textOf(edit(before));
    expect(after).toContain('\t\t\t"env": { "DEBUG": "1" }, // keep me\n\t\t\t"disabled": false,');
    expect(read(after)).toEqual({
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
    expect(textOf(edit(before, { type: 'http', url: 'http://127.0.0.1:3917/mcp' }))).toBe(`{
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
    expect(textOf(edit('{}\n'))).toBe(`${JSON.stringify({ mcpServers: { fixture: OWNED } }, null, 2)}\n`);
    // No final newline is added to a file that has none: that byte is the user's.
    expect(textOf(edit('{"mcpServers": {"o": {"command": "x"}}}'))).toBe(
      '{"mcpServers": {"o": {"command": "x"}, "fixture": { "type": "stdio", "command": "node", "args": ["/opt/companion/bin/companion.js", "serve", "--root", "/r"] }}}',
    );
  });

  it('appends after a trailing comma and its line comment, and keeps CRLF', () => {
    const before = '{\r\n\t"mcpServers": {\r\n\t\t"o": {"command": "x"}, // mine\r\n\t}\r\n}\r\n';
    expect(textOf(edit(before, { url: 'http://h/mcp' }))).toBe(
      '{\r\n\t"mcpServers": {\r\n\t\t"o": {"command": "x"}, // mine\r\n\t\t"fixture": {\r\n\t\t\t"url": "http://h/mcp"\r\n\t\t}\r\n\t}\r\n}\r\n',
    );
  });

  it('keeps every byte it does not own: invalid UTF-8 in a comment, Latin-1 in another entry, a BOM', () => {
    const before = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{\n  // caf'),
      Buffer.from([0xe9, 0xff]),
      Buffer.from('\n  "mcpServers": {\n    "other": { "command": "/opt/'),
      Buffer.from([0xc0, 0xaf]),
      Buffer.from('x" }\n  }\n}\n'),
    ]);
    const result = edit(new Uint8Array(before));
    if (!result.ok) throw new Error(result.reason);
    const after = Buffer.from(result.bytes);
    const insertAt = before.indexOf('x" }') + 'x" }'.length;
    expect(after.subarray(0, insertAt).equals(before.subarray(0, insertAt))).toBe(true);
    const tail = before.subarray(insertAt);
    expect(after.subarray(after.length - tail.length + 1).equals(tail.subarray(1))).toBe(true);
    expect(read(textOf(result))).toEqual({ status: 'found', entry: OWNED });
  });

  it('refuses a file that does not parse, or whose servers table or entry is not an object', () => {
    expect(reasonOf(edit('{ "mcpServers": { '))).toMatch(
      /^\.mcp\.json does not parse as JSON \(.* at line 1, column \d+\)/,
    );
    expect(reasonOf(edit('{ "mcpServers": [] }'))).toContain('"mcpServers" in .mcp.json is not an object');
    expect(reasonOf(edit('[]'))).toContain('is not a JSON object');
    expect(reasonOf(edit('{ "mcpServers": { "fixture": "x" } }'))).toContain('that is not an object');
  });

  it('refuses duplicate keys on the way to the entry: hosts read the last, an edit would land in the first', () => {
    const twice = '{\n  "mcpServers": { "a": {} },\n  "x": 1,\n  "mcpServers": { "b": {} }\n}\n';
    expect(reasonOf(edit(twice))).toBe(
      '.mcp.json defines "mcpServers" more than once (line 2 and line 4); hosts read only the last one. Keep one, then run again.',
    );
    expect(read(twice)).toEqual({ status: 'invalid', reason: reasonOf(edit(twice)) });
    expect(reasonOf(edit('{ "mcpServers": { "fixture": {}, "fixture": {} } }'))).toContain(
      'defines the entry "fixture" more than once',
    );
    expect(reasonOf(edit('{ "mcpServers": { "fixture": { "args": [], "args": [] } } }'))).toContain(
      'defines "args" of "fixture" more than once',
    );
  });
});

describe('buildJsonEntryRemoval', () => {
  it('removes the entry with its lines and comma, and nothing else', () => {
    const before = `{
  // mine
  "mcpServers": {
    "other": { "command": "uvx" },
    "fixture": { "command": "node" } // ours
  },
  "extra": true
}
`;
    expect(textOf(buildJsonEntryRemoval(configOf(before)!, SPEC))).toBe(`{
  // mine
  "mcpServers": {
    "other": { "command": "uvx" }
  },
  "extra": true
}
`);
  });

  it('undoes an insertion byte for byte', () => {
    for (const before of [
      '{\n  "mcpServers": {\n    "other": { "command": "uvx" }\n  }\n}\n',
      '{"mcpServers": {"o": {"command": "x"}}}',
      '{\r\n\t"mcpServers": {\r\n\t\t"o": {"command": "x"}\r\n\t}\r\n}\r\n',
    ]) {
      const added = textOf(edit(before));
      expect(textOf(buildJsonEntryRemoval(configOf(added)!, SPEC)), before).toBe(before);
    }
  });
});
