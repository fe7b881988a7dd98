/**
 * Skill rules through the real builder: the valid fixture with one skill changed at a time. Every rule is a
 * finding; none changes what is served.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../../src/core/catalog.js';
import { DEFAULT_LINT_RULES } from '../../../src/core/lint/config.js';
import { lintDescription } from '../../../src/core/lint/description-rules.js';
import { estimateTokens } from '../../../src/core/lint/tokens.js';
import { buildSnapshot, readFixture } from '../../helpers/snapshot.js';

const valid = readFixture('valid');
const ALPHA = 'skills/alpha/SKILL.md';

function build(files: Record<string, string | Uint8Array>) {
  return buildCatalog(buildSnapshot({ ...valid, ...files }));
}

const alphaWith = (
  description: string,
  extra = '',
  body = 'Start with [references/base.md](references/base.md), then [the checklist](references/checklist.md).',
) => `---\nname: alpha\ndescription: ${description}\nlicense: MIT\n${extra}---\n# Alpha\n\n${body}\n`;

function codes(description: string): string[] {
  return lintDescription(
    {
      file: ALPHA,
      text: `---\ndescription: ${description}\n---\n`,
      description,
      keys: new Map([['description', { line: 2, column: 1 }]]),
      bodyLine: 4,
    },
    DEFAULT_LINT_RULES,
  ).map((d) => d.code);
}

describe('description rules', () => {
  it('accepts a description that says what and when', () => {
    expect(
      codes('Converts scanned PDF forms into fillable ones. Use when a form arrives as a scan.'),
    ).toEqual([]);
  });

  it.each([
    ['Converts <b>forms</b>. Use when a form arrives.', 'CMP420'],
    ['Converts forms. Use when asked.', 'CMP421'],
    ['Converts scanned PDF forms into fillable ones, carefully and quickly.', 'CMP422'],
    ['pdf, forms, scan, ocr, fill, sign, merge, split, print. Use when needed for documents.', 'CMP423'],
    ['"pdf" "form" "scan" "ocr" "sign" "fill": use when relevant.', 'CMP423'],
    ['I convert scanned PDF forms into fillable ones. Use when a form arrives.', 'CMP424'],
    ['Helps you convert scanned PDF forms into fillable ones. Use when needed.', 'CMP424'],
    ['Our tool converts scanned PDF forms into fillable ones. Use when needed.', 'CMP424'],
    ['TODO: converts forms, to be written properly later on. Use when needed.', 'CMP426'],
    ['This skill converts scanned PDF forms into fillable ones. Use when needed.', 'CMP426'],
  ])('%j → %s', (description, code) => {
    expect(codes(description)).toContain(code);
  });

  it.each([
    'Handles I/O errors of the US export service. Use when an upload fails.',
    'Tidies a desk before a review meeting; invoke for any tidy-up request.',
    'Prepares release notes, designed for the weekly release of the service.',
    'Usually runs whenever a deployment finishes, to collect its metrics.',
  ])('does not flag %j', (description) => {
    expect(codes(description)).toEqual([]);
  });

  it('places the finding on the offending character', () => {
    const text = '---\nname: a\ndescription: Converts <b> tags. Use when a form arrives.\n---\n';
    const [found] = lintDescription(
      {
        file: ALPHA,
        text,
        description: 'Converts <b> tags. Use when a form arrives.',
        keys: new Map([['description', { line: 3, column: 1 }]]),
        bodyLine: 5,
      },
      DEFAULT_LINT_RULES,
    );
    expect(found).toMatchObject({ code: 'CMP420', line: 3, column: 23 });
  });
});

describe('skill rules in the build', () => {
  it('keep serving a skill whatever they find', () => {
    const { catalog, diagnostics } = build({
      [ALPHA]: alphaWith(
        'Helps you <b>do</b> it.',
        'allowed-tools: Read\nargument-hint: "[x]"\n',
        '```\nnever closed',
      ),
    });
    expect(catalog.skills.map((s) => s.id)).toContain('alpha');
    expect(diagnostics.filter((d) => d.file === ALPHA).map((d) => d.code)).toEqual(
      expect.arrayContaining(['CMP420', 'CMP421', 'CMP422', 'CMP424', 'CMP503', 'CMP641', 'CMP642']),
    );
  });

  it('report host fields once, not also as unknown fields', () => {
    const { diagnostics } = build({
      [ALPHA]: alphaWith('Does alpha things. Use when alpha is needed.', 'hooks: x\n'),
    });
    expect(diagnostics.filter((d) => d.file === ALPHA).map((d) => d.code)).toEqual(['CMP642']);
    expect(diagnostics.find((d) => d.code === 'CMP642')!.message).toContain('Claude Code');
  });

  it('withhold a credential file and nothing else of the skill', () => {
    const { catalog, diagnostics } = build({ 'skills/alpha/assets/credentials.json': '{"key": "x"}' });
    const alpha = catalog.skills.find((s) => s.id === 'alpha')!;
    expect(alpha.files.map((f) => f.path)).not.toContain('assets/credentials.json');
    expect(alpha.files.map((f) => f.path)).toContain('references/checklist.md');
    expect(diagnostics.map((d) => d.code)).toContain('CMP601');
  });

  it('find a credential in any served text of a skill, and name its kind without printing it', () => {
    const token = ['ghp', '_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('');
    const { catalog, diagnostics } = build({
      'skills/alpha/scripts/run.sh': `#!/bin/sh\nTOKEN=${token} ./x\n`,
    });
    const found = diagnostics.find((d) => d.code === 'CMP600')!;
    expect(found).toMatchObject({ file: 'skills/alpha/scripts/run.sh', line: 2 });
    expect(found.message).toContain('GitHub token');
    expect(found.message).not.toContain(token.slice(8));
    expect(catalog.contents.has('fixture://skill/alpha/scripts/run.sh')).toBe(true);
  });

  it('judge files that should not ship and files nothing names', () => {
    const { diagnostics } = build({
      'skills/alpha/LICENSE.txt': 'MIT',
      'skills/alpha/CHANGELOG.md': '# Changes\n',
      'skills/alpha/scripts/tool.wasm': new Uint8Array([0, 0x61, 0x73, 0x6d, 1]),
      'skills/alpha/assets/table.csv': new Uint8Array([0xff, 0xfe, 0x41]),
      'skills/alpha/assets/named.txt': 'x',
      [ALPHA]: alphaWith(
        'Does alpha things. Use when alpha is needed.',
        '',
        'See [base](references/base.md), [list](references/checklist.md) and assets/named.txt.',
      ),
    });
    const by = (file: string) => diagnostics.filter((d) => d.file === file).map((d) => d.code);
    expect(by('skills/alpha/CHANGELOG.md')).toContain('CMP612');
    expect(by('skills/alpha/LICENSE.txt')).toContain('CMP612');
    expect(by('skills/alpha/scripts/tool.wasm')).toEqual(['CMP610', 'CMP624']);
    expect(by('skills/alpha/assets/table.csv')).toEqual(['CMP610', 'CMP624']);
    expect(by('skills/alpha/assets/named.txt')).toEqual([]);
  });

  it('accept a LICENSE file the license field points to', () => {
    const { diagnostics } = build({
      'skills/alpha/LICENSE.txt': 'terms',
      [ALPHA]: alphaWith('Does alpha things. Use when alpha is needed.').replace(
        'license: MIT',
        'license: Complete terms in LICENSE.txt',
      ),
    });
    expect(diagnostics.filter((d) => d.file === 'skills/alpha/LICENSE.txt')).toEqual([]);
  });

  it('follow fragments into the skill’s references and the shared base', () => {
    const { diagnostics } = build({
      [ALPHA]: alphaWith(
        'Does alpha things. Use when alpha is needed.',
        '',
        '[a](references/base.md#where-every-task-starts) [b](references/checklist.md#checklist) [c](references/checklist.md#nope) [d](#alpha)',
      ),
    });
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['CMP504', expect.stringContaining('#nope')],
    ]);
  });

  it('report a reference two links deep, once, at the link', () => {
    const { diagnostics } = build({
      'skills/alpha/references/checklist.md':
        '# Checklist\n\n- [ ] One, see [more](more.md) and [again](more.md#more)\n',
      'skills/alpha/references/more.md': '# More\n',
    });
    expect(diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([
      ['CMP623', 'skills/alpha/references/checklist.md', 3],
      ['CMP623', 'skills/alpha/references/checklist.md', 3],
    ]);
  });

  it('hold a body and its references to their budgets', () => {
    const long = Array.from({ length: 520 }, (_, i) => `Step ${i}.`).join('\n');
    const { diagnostics } = build({
      [ALPHA]: alphaWith(
        'Does alpha things. Use when alpha is needed.',
        '',
        `[base](references/base.md) [c](references/checklist.md)\n${long}`,
      ),
      'skills/alpha/references/checklist.md': `# Checklist\n\n${'word '.repeat(9000)}\n`,
    });
    expect(diagnostics.map((d) => d.code)).toEqual(['CMP620', 'CMP622']);
  });

  it('estimate tokens offline: four ASCII characters, or one other character, each', () => {
    expect(estimateTokens('abcd'.repeat(25))).toBe(25);
    expect(estimateTokens('漢字テキスト')).toBe(6);
    expect(estimateTokens('😀😀')).toBe(2);
  });
});
