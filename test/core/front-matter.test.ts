/**
 * parseFrontMatter: its contract on examples, and the fast path against the `yaml` path on every Markdown file
 * of the bundled content, the test fixtures and the S and M benchmark corpora (generated into a temp dir).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frontMatterInternals, parseFrontMatter } from '../../src/core/front-matter.js';
import { canonicalFrontMatter as canonical } from '../helpers/front-matter.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** Both paths agree on every file; returns how many had front matter and how many of those the fast path took. */
function compareAll(files: readonly string[]): { withFrontMatter: number; fast: number; declined: string[] } {
  let withFrontMatter = 0;
  let fast = 0;
  const declined: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const reference = frontMatterInternals.yaml(text);
    const quick = frontMatterInternals.fast(text);
    expect(canonical(parseFrontMatter(text)), file).toEqual(canonical(reference));
    if (quick !== undefined) expect(canonical(quick), file).toEqual(canonical(reference));
    if (reference.kind === 'missing') continue;
    withFrontMatter++;
    if (quick === undefined) declined.push(file);
    else fast++;
  }
  return { withFrontMatter, fast, declined };
}

describe('parseFrontMatter', () => {
  it('reads flat front matter with one nested mapping, with positions and ambiguities', () => {
    const text = [
      '---',
      'name: alpha',
      "description: 'It''s the first: one.'",
      'version: 0755',
      'when:   "2024-01-15"',
      'metadata:',
      '  owner: "team"',
      '  companion-status: yes',
      '  count: 12',
      'license:',
      '---',
      '# Alpha',
      '',
    ].join('\n');
    const fm = parseFrontMatter(text);
    expect(fm).toEqual({
      kind: 'ok',
      data: {
        name: 'alpha',
        description: "It's the first: one.",
        version: 755,
        when: '2024-01-15',
        metadata: { owner: 'team', 'companion-status': 'yes', count: 12 },
        license: null,
      },
      body: '# Alpha\n',
      bodyLine: 12,
      keys: new Map([
        ['name', { line: 2, column: 1 }],
        ['description', { line: 3, column: 1 }],
        ['version', { line: 4, column: 1 }],
        ['when', { line: 5, column: 1 }],
        ['metadata', { line: 6, column: 1 }],
        ['license', { line: 10, column: 1 }],
      ]),
      ambiguities: [
        {
          key: 'version',
          reason: 'is "0755", which YAML 1.1 parsers read as a different number',
          line: 4,
          column: 10,
        },
        {
          key: 'metadata.companion-status',
          reason: 'is "yes", which YAML 1.1 parsers read as a boolean',
          line: 8,
          column: 21,
        },
      ],
    });
    expect(frontMatterInternals.fast(text)).toBeDefined();
    expect(canonical(fm)).toEqual(canonical(frontMatterInternals.yaml(text)));
  });

  it('keeps the contract around the front matter: BOM, CRLF, missing, unclosed, `...`', () => {
    expect(parseFrontMatter('# No front matter\n')).toEqual({ kind: 'missing', body: '# No front matter\n' });
    expect(parseFrontMatter('\ufeff# T')).toEqual({ kind: 'missing', body: '# T' });
    expect(parseFrontMatter('---\nname: a\n')).toEqual({
      kind: 'error',
      message: 'The front matter has no closing "---" line.',
      line: 1,
      column: 1,
    });
    expect(parseFrontMatter('---')).toMatchObject({ kind: 'error', line: 1 });
    const crlf = parseFrontMatter('\ufeff---\r\nname: a\r\n...\r\n# T\r\n');
    expect(crlf).toMatchObject({ kind: 'ok', data: { name: 'a' }, body: '# T\r\n', bodyLine: 4 });
    expect(parseFrontMatter('---\n---')).toMatchObject({ kind: 'ok', data: {}, body: '', bodyLine: 3 });
    expect(parseFrontMatter('---\n\n---\nx')).toMatchObject({ kind: 'ok', data: {}, body: 'x', bodyLine: 4 });
  });

  it('falls back to yaml outside the subset and answers what yaml answers', () => {
    const cases = [
      '---\ndescription: |\n  Two\n  lines\n---\n',
      '---\ntags: [a, b]\n---\n',
      '---\ntags:\n  - a\n---\n',
      '---\n# a comment\nname: a\n---\n',
      '---\nname: a # a comment\n---\n',
      '---\nname: a\nname: b\n---\n',
      '---\ndescription: Use when: alpha is needed\n---\n',
      '---\nname:\ta\n---\n',
      '---\nname: "two\n  lines"\n---\n',
      '---\nname: a\rb\n---\n',
      '---\nmeta:\n  a: 1\n   b: 2\n---\n',
      '---\njust a string\n---\n',
    ];
    for (const text of cases) {
      expect(frontMatterInternals.fast(text), text).toBeUndefined();
      expect(canonical(parseFrontMatter(text)), text).toEqual(canonical(frontMatterInternals.yaml(text)));
    }
    expect(parseFrontMatter(cases[0]!)).toMatchObject({ kind: 'ok', data: { description: 'Two\nlines\n' } });
    expect(parseFrontMatter(cases[5]!)).toMatchObject({ kind: 'error', line: 3 });
  });

  it('loads yaml only when the fallback needs it', () => {
    // A process of its own: Node's module cache is the only place that remembers a loaded yaml.
    const script = `
      const m = await import(${JSON.stringify(pathToFileURL(join(repoRoot, 'dist/core/front-matter.js')).href)});
      const seen = [m.frontMatterInternals.yamlLoaded()];
      m.parseFrontMatter('---\\nname: a\\nmetadata:\\n  owner: "b"\\n---\\n# A\\n');
      seen.push(m.frontMatterInternals.yamlLoaded());
      m.parseFrontMatter('---\\ntags: [a]\\n---\\n');
      seen.push(m.frontMatterInternals.yamlLoaded());
      process.stdout.write(JSON.stringify(seen));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(JSON.parse(out)).toEqual([false, false, true]);
  });
});

describe('fast path against the yaml path on real content', () => {
  it('agrees on every Markdown file of the bundled content and takes all of them', () => {
    const result = compareAll([
      ...markdownFiles(join(repoRoot, 'knowledge')),
      ...markdownFiles(join(repoRoot, 'skills')),
    ]);
    expect(result.withFrontMatter).toBeGreaterThanOrEqual(25);
    expect(result.declined).toEqual([]);
  });

  it('agrees on every Markdown file of the test fixtures', () => {
    const result = compareAll(markdownFiles(join(repoRoot, 'test/fixtures')));
    expect(result.withFrontMatter).toBeGreaterThanOrEqual(30);
    expect(result.fast).toBeGreaterThan(result.withFrontMatter / 2);
  });

  describe('the S and M benchmark corpora', () => {
    let tmp: string;
    let generateCorpus: (size: string, dir: string) => { root: string };
    beforeAll(async () => {
      tmp = mkdtempSync(join(tmpdir(), 'companion-fm-'));
      const module = await import(pathToFileURL(join(repoRoot, 'bench/generate-corpus.mjs')).href);
      generateCorpus = module.generateCorpus;
    });
    afterAll(() => {
      rmSync(tmp, { recursive: true, force: true });
    });

    for (const size of ['S', 'M']) {
      it(`agrees on every Markdown file of ${size} and takes all of them`, () => {
        const { root } = generateCorpus(size, join(tmp, size));
        const result = compareAll(markdownFiles(root));
        expect(result.withFrontMatter).toBeGreaterThan(size === 'S' ? 40 : 1000);
        expect(result.declined).toEqual([]);
      });
    }
  });
});
