import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  buildYamlEntryEdit,
  buildYamlEntryRemoval,
  formatYamlInline,
  readYamlEntry,
} from '../../src/install/yaml-config.js';
import { configOf, GOOSE_CONFIG as GOOSE, reasonOf, specOf, textOf } from './config-text.js';

// Goose's shape: `extensions.<name>` with `enabled` (created with), `type`, `name`, `cmd`, `args`, `uri`.
const SPEC = {
  ...specOf(
    'extensions',
    ['type', 'name', 'cmd', 'args', 'uri', 'description', 'timeout'],
    '~/.config/goose/config.yaml',
  ),
  createdWith: { enabled: true },
};
const ARGS = ['/opt/companion/bin/companion.js', 'serve', '--root', '/r'];
const OWNED = { type: 'stdio', name: 'fixture', cmd: '/usr/bin/node', args: ARGS, timeout: 300 };
const URL_OWNED = {
  type: 'streamable_http',
  name: 'fixture',
  uri: 'http://127.0.0.1:3917/mcp',
  timeout: 300,
};

const edit = (before: string | Uint8Array | undefined, owned: Record<string, unknown> = OWNED) =>
  buildYamlEntryEdit(configOf(before), SPEC, owned);
const remove = (text: string) => buildYamlEntryRemoval(configOf(text)!, SPEC);
const read = (text: string) => readYamlEntry(configOf(text)!, SPEC);

/** The lines install writes for OWNED at `indent` (entry key) with fields one `unit` deeper. */
function entryLines(indent: string, unit: string, eol = '\n'): string {
  const f = indent + unit;
  return [
    `${indent}fixture:`,
    `${f}enabled: true`,
    `${f}type: stdio`,
    `${f}name: fixture`,
    `${f}cmd: /usr/bin/node`,
    `${f}args:`,
    `${f}- /opt/companion/bin/companion.js`,
    `${f}- serve`,
    `${f}- "--root"`,
    `${f}- /r`,
    `${f}timeout: 300`,
    '',
  ].join(eol);
}

describe('buildYamlEntryEdit', () => {
  it('creates a file holding only our entry', () => {
    expect(textOf(edit(undefined))).toBe(`extensions:\n${entryLines('  ', '  ')}`);
    expect(parse(textOf(edit(''))).extensions.fixture).toEqual({ enabled: true, ...OWNED });
  });

  it('adds our entry after the last one, in the file’s indentation, keeping every other byte', () => {
    const after = textOf(edit(GOOSE));
    const at = GOOSE.indexOf('GOOSE_MODE: smart');
    expect(after).toBe(`${GOOSE.slice(0, at)}${entryLines('  ', '  ')}${GOOSE.slice(at)}`);
    expect(read(after)).toEqual({ status: 'found', entry: { enabled: true, ...OWNED } });
  });

  it('follows an indentation of four spaces, and a servers map written deeper than usual', () => {
    const four = 'extensions:\n    developer:\n        type: builtin\n        enabled: true\n';
    expect(textOf(edit(four))).toBe(`${four}${entryLines('    ', '    ')}`);
    const nested = 'extensions:\n   developer:\n     type: builtin\n';
    expect(textOf(edit(nested))).toBe(`${nested}${entryLines('   ', '  ')}`);
  });

  it('appends a servers map to a file without one, and to one holding only comments', () => {
    const before = 'GOOSE_PROVIDER: openai\n# the end\n';
    expect(textOf(edit(before))).toBe(`${before}extensions:\n${entryLines('  ', '  ')}`);
    expect(textOf(edit('# nothing yet\n'))).toBe(`# nothing yet\nextensions:\n${entryLines('  ', '  ')}`);
  });

  it('fills `extensions:` with nothing after it, keeping a comment on its line', () => {
    const before = 'extensions: # mine\nGOOSE_MODE: auto\n';
    expect(textOf(edit(before))).toBe(`extensions: # mine\n${entryLines('  ', '  ')}GOOSE_MODE: auto\n`);
  });

  it('rewrites only owned values, keeping other fields, comments, order and a block list’s layout', () => {
    const before = `extensions:
  fixture:
    enabled: false   # turned off on purpose
    envs:
      DEBUG: "1"
    cmd: node # how it starts
    type: stdio
    name: fixture
    args:
      - /old/companion.js
      - serve
    timeout: 300
    available_tools: []
`;
    const after = textOf(edit(before));
    expect(after).toBe(
      before
        .replace('cmd: node # how it starts', 'cmd: /usr/bin/node # how it starts')
        .replace(
          '      - /old/companion.js\n      - serve\n',
          '      - /opt/companion/bin/companion.js\n      - serve\n      - "--root"\n      - /r\n',
        ),
    );
    // `enabled` was created with the entry and is the user's now: it stays false.
    expect(parse(after).extensions.fixture.enabled).toBe(false);
  });

  it('replaces a flow list and a block scalar in place, keeping the lines after them', () => {
    const before = `extensions:
  fixture:
    type: stdio
    name: fixture
    cmd: |
      node
    args: [ "/old.js",
      serve ]   # mine
    timeout: 300
other: 1
`;
    const after = textOf(edit(before));
    expect(after).toBe(
      before
        .replace('cmd: |\n      node\n', 'cmd: /usr/bin/node\n')
        .replace('[ "/old.js",\n      serve ]', '[/opt/companion/bin/companion.js, serve, "--root", /r]'),
    );
  });

  it('switches between a command and a URL by removing and inserting owned lines', () => {
    const before = `extensions:\n${entryLines('  ', '  ')}  other:\n    type: builtin\n`;
    const toUrl = textOf(edit(before, URL_OWNED));
    expect(toUrl).toBe(
      'extensions:\n  fixture:\n    enabled: true\n    type: streamable_http\n    name: fixture\n    timeout: 300\n    uri: "http://127.0.0.1:3917/mcp"\n  other:\n    type: builtin\n',
    );
    expect(read(textOf(edit(toUrl)))).toEqual({ status: 'found', entry: { enabled: true, ...OWNED } });
  });

  it('leaves the file as it is when the owned values already match, quoting aside', () => {
    const before = `extensions:\n  fixture:\n    enabled: true\n    type: 'stdio'\n    name: "fixture"\n    cmd: "/usr/bin/node"\n    args: ['/opt/companion/bin/companion.js', serve, --root, /r]\n    timeout: 300\n`;
    expect(textOf(edit(before))).toBe(before);
  });

  it('keeps CRLF line ends and a file that ends without one', () => {
    const crlf = 'a: 1\r\nextensions:\r\n  other:\r\n    type: builtin\r\n';
    expect(textOf(edit(crlf))).toBe(`${crlf}${entryLines('  ', '  ', '\r\n')}`);
    const open = 'extensions:\n  other:\n    type: builtin';
    expect(textOf(edit(open))).toBe(`${open}\n${entryLines('  ', '  ').replace(/\n$/, '')}`);
  });

  it('keeps bytes that are not UTF-8 elsewhere in the file', () => {
    const before = Buffer.concat([
      Buffer.from('# r'),
      Buffer.from([0xe9, 0x73, 0x75, 0x6d, 0xe9]), // "résumé" in Latin-1
      Buffer.from('\nGOOSE_MODE: auto\n'),
    ]);
    const result = edit(new Uint8Array(before));
    if (!result.ok) throw new Error(result.reason);
    const after = Buffer.from(result.bytes);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    expect(after.subarray(before.length).toString('utf8')).toBe(`extensions:\n${entryLines('  ', '  ')}`);
  });

  it('quotes keys and values a YAML reader would take for something else', () => {
    const result = textOf(
      buildYamlEntryEdit(undefined, { ...SPEC, key: 'true' }, { cmd: 'yes', args: ['1.0', '#x'] }),
    );
    expect(result).toBe(
      'extensions:\n  "true":\n    enabled: true\n    cmd: "yes"\n    args:\n    - "1.0"\n    - "#x"\n',
    );
    expect(parse(result)).toEqual({
      extensions: { true: { enabled: true, cmd: 'yes', args: ['1.0', '#x'] } },
    });
  });

  it('refuses what it cannot edit by lines, saying why and where', () => {
    const cases: [string, string][] = [
      ['extensions:\n  a: 1\n  a: 2\n', 'is not valid YAML (Map keys must be unique at line 3, column 3)'],
      ['extensions: [\n', 'is not valid YAML ('],
      ['a: 1\n---\nb: 2\n', 'holds 2 YAML documents'],
      ['a: 1\n...\n', 'ends its YAML document with "..."'],
      ['- a\n- b\n', 'is not a YAML mapping'],
      ['{ extensions: {} }\n', 'is written in flow style'],
      ['extensions: {}\n', 'writes "extensions" in flow style'],
      ['extensions: []\n', '"extensions" in ~/.config/goose/config.yaml is not a mapping (it is a list)'],
      ['extensions: null\n', 'is not a mapping (it is empty)'],
      ['base: &b\n  x: 1\nextensions: *b\n', 'defines "extensions" as an alias (*b)'],
      ['extensions: &e\n  a:\n    x: 1\ncopy: *e\n', 'puts an anchor (&e) on "extensions"'],
      ['extensions: !!map\n  a:\n    x: 1\n', 'tags "extensions"'],
      ['extensions:\n  fixture: { cmd: node }\n', 'writes the entry "fixture" in flow style'],
      ['b: &b\n  cmd: x\nextensions:\n  fixture: *b\n', 'defines the entry "fixture" as an alias (*b)'],
      ['extensions:\n  fixture: &f\n    cmd: x\ncopy: *f\n', 'puts an anchor (&f) on the entry "fixture"'],
      [
        'b: &b\n  cmd: x\nextensions:\n  fixture:\n    <<: *b\n',
        'merges another mapping into the entry "fixture"',
      ],
      ['extensions:\n  fixture:\n    cmd: &c node\nagain: *c\n', 'puts an anchor (&c) on "cmd" of "fixture"'],
      [
        'extensions:\n  fixture: node\n',
        'has an entry "fixture" that is not a mapping (it is the value "node")',
      ],
      ['extensions:\n  fixture:\n', 'has an entry "fixture" that is not a mapping (it is empty)'],
      ['x: !custom 1\n', 'is not valid YAML (Unresolved tag: !custom'],
    ];
    for (const [before, expected] of cases) {
      const reason = reasonOf(edit(before));
      expect(reason, before).toContain(expected);
      expect(reason, before).toContain('~/.config/goose/config.yaml');
      expect(read(before), before).toEqual({ status: 'invalid', reason });
    }
  });

  it('stops a file of nested aliases instead of expanding it', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...'bcdefgh'.split('').map((n, i) => `${n}: &${n} [${Array(10).fill(`*${'abcdefgh'[i]}`).join(', ')}]`),
    ].join('\n');
    expect(reasonOf(edit(`${bomb}\n`))).toContain('is not valid YAML (Excessive alias count');
  });
});

describe('buildYamlEntryRemoval', () => {
  it('undoes an insertion byte for byte', () => {
    for (const before of [
      GOOSE,
      'GOOSE_PROVIDER: openai\n',
      '# only a comment\r\nGOOSE_MODE: auto\r\n',
      'extensions:\n  other:\n    type: builtin',
      'extensions: # mine\nGOOSE_MODE: auto\n',
    ]) {
      const added = textOf(edit(before));
      const removed = textOf(remove(added));
      // A servers map install added goes with it only when the record restores the whole file; by range, the
      // `extensions:` line it wrote stays as an empty map.
      expect(removed.startsWith(before) || removed === before, JSON.stringify(before)).toBe(true);
      if (/^extensions:/m.test(before)) expect(removed).toBe(before);
    }
  });

  it('removes our entry and keeps the entries and comments around it', () => {
    const before = `extensions:\n  # first\n  a:\n    x: 1\n${entryLines('  ', '  ')}  # last\n  b:\n    y: 2\n`;
    expect(textOf(remove(before))).toBe('extensions:\n  # first\n  a:\n    x: 1\n  # last\n  b:\n    y: 2\n');
  });

  it('leaves a servers map with nothing in it when ours was its only entry', () => {
    expect(textOf(remove(`extensions:\n${entryLines('  ', '  ')}GOOSE_MODE: auto\n`))).toBe(
      'extensions:\nGOOSE_MODE: auto\n',
    );
  });
});

describe('formatYamlInline', () => {
  it('writes plain scalars only where nothing could misread them', () => {
    expect(formatYamlInline('/usr/bin/node')).toBe('/usr/bin/node');
    expect(formatYamlInline('node')).toBe('node');
    for (const value of ['', 'true', 'No', '~', '1', '-x', 'a b', 'a: b', '#c', "it's", 'é']) {
      expect(parse(`v: ${formatYamlInline(value)}`).v, value).toBe(value);
    }
    expect(formatYamlInline(['a', 1, true, null, { k: 'v' }])).toBe('[a, 1, true, null, { k: v }]');
  });
});

/** A Goose-like config built from parts: other extensions, top-level keys and comments, in one layout. */
const configArb = fc
  .record({
    unit: fc.constantFrom('  ', '    '),
    eol: fc.constantFrom('\n', '\r\n'),
    finalEol: fc.boolean(),
    withServers: fc.boolean(),
    before: fc.subarray(['GOOSE_MODE: auto', '# a comment', '', 'GOOSE_SEARCH_PATHS:\n- /usr/local/bin']),
    after: fc.subarray(['GOOSE_TEMPERATURE: 0.7', '# trailing', '']),
    others: fc.uniqueArray(
      fc.record({
        name: fc.constantFrom('developer', 'memory', 'github', 'x-y'),
        comment: fc.boolean(),
        args: fc.constantFrom('none', 'block', 'flow'),
        quote: fc.boolean(),
      }),
      { selector: (o) => o.name, maxLength: 3 },
    ),
  })
  .map(({ unit, eol, finalEol, withServers, before, after, others }) => {
    const lines = [...before.flatMap((l) => l.split('\n'))];
    if (withServers) {
      lines.push('extensions:');
      for (const other of others) {
        if (other.comment) lines.push(`${unit}# about ${other.name}`);
        lines.push(
          `${unit}${other.name}:`,
          `${unit}${unit}enabled: true`,
          `${unit}${unit}cmd: ${other.quote ? '"uvx"' : 'uvx'}`,
        );
        if (other.args === 'block') lines.push(`${unit}${unit}args:`, `${unit}${unit}- ${other.name}`);
        if (other.args === 'flow') lines.push(`${unit}${unit}args: [${other.name}, "--x"]   # flow`);
      }
    }
    lines.push(...after);
    const text = lines.join(eol);
    return finalEol ? `${text}${eol}` : text;
  });

describe('the YAML adapter on generated configs', () => {
  it('adds our entry so that removing it gives the file back byte for byte, and reads back as intended', () => {
    fc.assert(
      fc.property(configArb, (before) => {
        const result = edit(before);
        if (!result.ok) throw new Error(`${result.reason}\n${before}`);
        const added = Buffer.from(result.bytes).toString('utf8');
        const document = parse(added);
        expect(document.extensions.fixture).toEqual({ enabled: true, ...OWNED });
        const beforeDocument = parse(before) ?? {};
        expect({ ...document, extensions: { ...document.extensions, fixture: undefined } }).toEqual({
          ...beforeDocument,
          extensions: { ...(beforeDocument.extensions ?? {}), fixture: undefined },
        });
        const back = textOf(remove(added));
        if (/^extensions:/m.test(before) || before.trim() !== '') {
          expect(back.startsWith(before) || back === before).toBe(true);
        }
        if (/^extensions:/m.test(before)) expect(back).toBe(before);
        // A second run finds nothing to change.
        expect(textOf(edit(added))).toBe(added);
      }),
      { numRuns: 300 },
    );
  });

  it('rewrites an entry without touching a byte before or after it', () => {
    fc.assert(
      fc.property(configArb, fc.constantFrom(OWNED, URL_OWNED), (base, owned) => {
        const ours = textOf(edit(base, { ...OWNED, cmd: 'node', args: ['/old.js'] }));
        const rewritten = textOf(edit(ours, owned));
        const start = ours.indexOf('  fixture:') === -1 ? ours.indexOf('fixture:') : ours.indexOf('fixture:');
        const lineStart = ours.lastIndexOf('\n', start) + 1;
        expect(rewritten.slice(0, lineStart)).toBe(ours.slice(0, lineStart));
        const tail = ours.slice(ours.indexOf('timeout: 300') + 'timeout: 300'.length);
        expect(rewritten.endsWith(tail)).toBe(true);
        expect(read(rewritten)).toEqual({ status: 'found', entry: { enabled: true, ...owned } });
      }),
      { numRuns: 200 },
    );
  });

  it('never throws, and whatever it writes reads back as our entry and nothing else changed', () => {
    const yamlish = fc.array(
      fc.constantFrom(
        'extensions:',
        '  fixture:',
        '    cmd: node',
        '  - x',
        '  other: {a: 1}',
        'a: &x 1',
        'b: *x',
        '# c',
        '  "q": \'v\'',
        '...',
        '---',
        '? k',
        ': v',
        '\t',
        'k: |',
        '  text',
        'x: [1, 2',
        '',
      ),
      { maxLength: 8 },
    );
    fc.assert(
      fc.property(yamlish, fc.constantFrom('\n', '\r\n'), (lines, eol) => {
        const before = lines.join(eol);
        const result = edit(before);
        if (!result.ok) {
          expect(result.reason).toContain('~/.config/goose/config.yaml');
          return;
        }
        const document = parse(Buffer.from(result.bytes).toString('utf8'));
        expect(document.extensions.fixture).toMatchObject(OWNED);
      }),
      { numRuns: 500 },
    );
  });
});
