/**
 * `companion check` as a linter, on what `companion init` writes: every defect class the peer linters catch,
 * planted one at a time into a fresh scaffold, gets its finding; a team tunes severities and suppresses in
 * place; and a 1 MB pathological line does not stall the real CLI.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/commands/check.js';
import { buildScaffold } from '../../src/cli/templates/scaffold.js';
import { runCli, runCommand } from '../helpers/run-cli.js';
import { createTempProject, type TempProject } from '../helpers/temp-project.js';

const scaffold = Object.fromEntries(
  buildScaffold({ name: 'team-docs', title: 'Team docs' }).map((f) => [f.path, f.content]),
);
const SKILL = 'skills/first-skill/SKILL.md';
const DOC = 'knowledge/documents/any/getting-started/first-document.md';
const SCOPE = 'knowledge/server-scope.json';
const projects: TempProject[] = [];
afterAll(() => {
  for (const p of projects) p.cleanup();
});

function planted(files: Record<string, string | Uint8Array>): TempProject {
  const p = createTempProject({ ...scaffold, ...files });
  projects.push(p);
  return p;
}

async function check(p: TempProject, ...args: string[]) {
  const result = await runCommand(run, ['--root', p.root, '--format', 'json', ...args]);
  return { ...result, report: JSON.parse(result.stdout) };
}

const skill = scaffold[SKILL]!;
const description =
  'Adds or reviews a document or skill in this content repository and checks it. Use when asked to write, move or review content here.';
const withDescription = (text: string) =>
  skill.replace(`description: ${description}`, `description: ${text}`);
const withBody = (extra: string) => `${skill}\n${extra}\n`;
const withScope = (change: (scope: Record<string, unknown>) => void) => {
  const scope = JSON.parse(scaffold[SCOPE]!);
  change(scope);
  return JSON.stringify(scope, null, 2);
};
const join = (...parts: string[]) => parts.join('');
const random36 = 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';

/** One defect per row: the files planted, and the code (and file) check must report. */
const DEFECTS: [string, Record<string, string | Uint8Array>, string, string][] = [
  [
    'angle brackets in a description',
    { [SKILL]: withDescription('Adds <b>content</b>. Use when asked to add content here.') },
    'CMP420',
    SKILL,
  ],
  [
    'a description too short to pick',
    { [SKILL]: withDescription('Adds content. Use when asked.') },
    'CMP421',
    SKILL,
  ],
  [
    'no trigger hint',
    {
      [SKILL]: withDescription(
        'Adds or reviews a document or skill in this content repository and checks it.',
      ),
    },
    'CMP422',
    SKILL,
  ],
  [
    'keyword stuffing',
    {
      [SKILL]: withDescription(
        'docs, skills, content, review, write, move, check, lint, fix. Use when asked.',
      ),
    },
    'CMP423',
    SKILL,
  ],
  [
    'first person',
    {
      [SKILL]: withDescription(
        'I add or review a document or skill in this repository. Use when asked to write.',
      ),
    },
    'CMP424',
    SKILL,
  ],
  [
    'the same description twice',
    { 'skills/second-skill/SKILL.md': skill.replace('name: first-skill', 'name: second-skill') },
    'CMP425',
    'skills/second-skill/SKILL.md',
  ],
  [
    'a placeholder description',
    { [SKILL]: withDescription('"TODO: describe this skill before publishing it. Use when asked."') },
    'CMP426',
    SKILL,
  ],
  [
    'an AWS key in a document',
    { [DOC]: `${scaffold[DOC]}\nDeploy with ${join('AKIA', 'Z7Q4MJ2XH3K8PLW5')}.\n` },
    'CMP600',
    DOC,
  ],
  [
    'a GitHub token in a reference',
    {
      'skills/first-skill/references/checklist.md': `${scaffold['skills/first-skill/references/checklist.md']}\n- ${join('ghp', '_', random36)}\n`,
    },
    'CMP600',
    'skills/first-skill/references/checklist.md',
  ],
  [
    'a GitLab token',
    { [DOC]: `${scaffold[DOC]}\n${join('glpat', '-', 'x9Yz8Wv7Ut6Sr5Qp4On3')}\n` },
    'CMP600',
    DOC,
  ],
  ['a Slack token', { [SKILL]: withBody(join('xoxb', '-', '1234567890-abcdefABCDEF')) }, 'CMP600', SKILL],
  ['an OpenAI key', { [SKILL]: withBody(join('sk', '-proj-', random36)) }, 'CMP600', SKILL],
  ['an Anthropic key', { [SKILL]: withBody(join('sk', '-ant-api03-', random36)) }, 'CMP600', SKILL],
  [
    'a private key block',
    {
      'skills/first-skill/assets/deploy.pem': join(
        '-----BEGIN ',
        'OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----\n',
      ),
    },
    'CMP600',
    'skills/first-skill/assets/deploy.pem',
  ],
  [
    'a high-entropy .env assignment',
    { 'skills/first-skill/assets/settings.txt': 'API_TOKEN=q8Zr2Lm4Xw9Tb7Kc1Vn6x\n' },
    'CMP600',
    'skills/first-skill/assets/settings.txt',
  ],
  [
    'a credential file',
    { 'skills/first-skill/assets/credentials.json': '{}' },
    'CMP601',
    'skills/first-skill/assets/credentials.json',
  ],
  [
    'a compiled binary',
    { 'skills/first-skill/scripts/tool': new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1]) },
    'CMP610',
    'skills/first-skill/scripts/tool',
  ],
  [
    'an oversized asset',
    { 'skills/first-skill/assets/video.bin': new Uint8Array(1_200_000) },
    'CMP611',
    'skills/first-skill/assets/video.bin',
  ],
  [
    'a README at the skill root',
    { 'skills/first-skill/README.md': '# About this skill\n' },
    'CMP612',
    'skills/first-skill/README.md',
  ],
  [
    'a body over 500 lines',
    { [SKILL]: withBody(Array.from({ length: 520 }, (_, i) => `${i}. Do it.`).join('\n')) },
    'CMP620',
    SKILL,
  ],
  ['a body over 5,000 tokens', { [SKILL]: withBody('word '.repeat(26_000)) }, 'CMP621', SKILL],
  [
    'a reference over its budget',
    { 'skills/first-skill/references/checklist.md': `# Checklist\n\n${'item '.repeat(50_000)}\n` },
    'CMP622',
    'skills/first-skill/references/checklist.md',
  ],
  [
    'a reference two links deep',
    {
      'skills/first-skill/references/checklist.md': '# Checklist\n\nSee [more](more.md).\n',
      'skills/first-skill/references/more.md': '# More\n',
    },
    'CMP623',
    'skills/first-skill/references/checklist.md',
  ],
  [
    'an orphan file',
    { 'skills/first-skill/scripts/build.sh': '#!/bin/sh\n' },
    'CMP624',
    'skills/first-skill/scripts/build.sh',
  ],
  ['an unclosed code fence', { [DOC]: `${scaffold[DOC]}\n\`\`\`sh\nnpx companion check\n` }, 'CMP503', DOC],
  ['a fragment naming no heading', { [SKILL]: withBody('See [the steps](#stepz).') }, 'CMP504', SKILL],
  ['a backslash path', { [SKILL]: withBody('See [the list](references\\checklist.md).') }, 'CMP505', SKILL],
  ['an absolute local path', { [SKILL]: withBody('See [my notes](/Users/me/notes.md).') }, 'CMP506', SKILL],
  [
    'a reserved metadata key',
    {
      [SKILL]: skill.replace(
        'description:',
        'metadata:\n  io.modelcontextprotocol/origin: "x"\ndescription:',
      ),
    },
    'CMP640',
    SKILL,
  ],
  [
    'allowed-tools over MCP',
    { [SKILL]: skill.replace('description:', 'allowed-tools: Read Grep\ndescription:') },
    'CMP641',
    SKILL,
  ],
  [
    'a field of one host',
    { [SKILL]: skill.replace('description:', 'disable-model-invocation: true\ndescription:') },
    'CMP642',
    SKILL,
  ],
  [
    'a multi-line description',
    {
      [SKILL]: skill.replace(
        `description: ${description}`,
        `description: |\n  ${description.replace('. Use', '.\n  Use')}`,
      ),
    },
    'CMP644',
    SKILL,
  ],
  [
    'a tool the server does not serve',
    {
      [SCOPE]: withScope((s) => {
        // biome-ignore lint/suspicious/noThenProperty: the scope file's own key, a string.
        (s.instructions as { then: string }).then = 'Then call document_search.';
      }),
    },
    'CMP108',
    SCOPE,
  ],
  [
    'a tool no topic reaches',
    {
      [SCOPE]: withScope((s) => {
        (s.topics as { tools: string[] }[])[0]!.tools = ['document_lookup', 'task_guide'];
      }),
    },
    'CMP109',
    SCOPE,
  ],
  [
    'routing to a skill that does not exist',
    {
      [SCOPE]: withScope((s) => {
        (s.routing as { with: string }[])[0]!.with = 'second-skill';
      }),
    },
    'CMP110',
    SCOPE,
  ],
  ['CRLF line endings', { [DOC]: scaffold[DOC]!.replaceAll('\n', '\r\n') }, 'CMP507', DOC],
  [
    'trailing whitespace in front matter',
    { [SKILL]: skill.replace('name: first-skill', 'name: first-skill  ') },
    'CMP508',
    SKILL,
  ],
];

describe('check on a fresh scaffold', () => {
  it('finds nothing in the scaffold itself, under --strict', async () => {
    const result = await check(planted({}), '--strict');
    expect(result.report.diagnostics).toEqual([]);
    expect(result.code).toBe(0);
  });

  it.each(DEFECTS)('catches %s (%s)', async (_, files, code, file) => {
    const { report } = await check(planted(files));
    const found = report.diagnostics.filter((d: { code: string }) => d.code === code);
    expect(
      found.map((d: { file: string }) => d.file),
      JSON.stringify(report.diagnostics, null, 1),
    ).toContain(file);
    // Every finding says where, what and what to do; none prints a secret whole.
    for (const d of found) {
      expect(d.message).not.toBe('');
      expect(d.hint).not.toBe('');
      expect(d.message).not.toMatch(/[A-Za-z0-9_-]{30,}/);
    }
  });
});

describe('check configured by the team', () => {
  it('turns a code off, raises another, and counts suppressed findings in json and text', async () => {
    const p = planted({
      [SCOPE]: withScope((s) => {
        s.check = { severity: { CMP612: 'off', CMP624: 'error' } };
      }),
      'skills/first-skill/README.md': '# About\n',
      'skills/first-skill/scripts/build.sh': '#!/bin/sh\n',
      [DOC]: `${scaffold[DOC]}\n<!-- companion-disable-next-line CMP600 -- the documented example -->\nAPI_TOKEN=q8Zr2Lm4Xw9Tb7Kc1Vn6x\n`,
    });
    const { report, code } = await check(p);
    expect(report.diagnostics.map((d: { code: string; severity: string }) => [d.code, d.severity])).toEqual([
      ['CMP624', 'error'],
    ]);
    expect(code).toBe(1);
    const directiveLine =
      readFileSync(p.path(DOC), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('companion-disable')) + 1;
    expect(report.suppressed).toEqual([
      expect.objectContaining({
        code: 'CMP600',
        line: directiveLine + 1,
        suppressedBy: `${DOC}:${directiveLine}`,
      }),
    ]);
    expect(report.summary).toMatchObject({ errors: 1, suppressed: 1 });
    const text = await runCommand(run, ['--root', p.root], { env: { NO_COLOR: '1' } });
    expect(text.stdout).toMatch(/✖ 1 error in 1 document and 1 skill \(1 suppressed\)\n$/);
  });
});

describe('check on a 1 MB pathological line', () => {
  it('finishes through the real CLI and reports the file', async () => {
    const line = `${'[]('.repeat(200_000)}${'`'.repeat(100_000)}${'](x'.repeat(100_000)}${'['.repeat(100_000)}`;
    const p = planted({
      [DOC]: `${scaffold[DOC]}\n${line}\n`,
      [SKILL]: withBody(`${'[a](<'.repeat(210_000)}`),
    });
    const result = await runCli(['check', '--root', p.root, '--format', 'json'], { timeoutMs: 20_000 });
    expect(result.stderr).toBe('');
    expect(line.length).toBeGreaterThan(1_000_000);
    const report = JSON.parse(result.stdout);
    expect(report.summary.documents).toBe(1);
    expect(report.summary.skills).toBe(1);
  });
});
