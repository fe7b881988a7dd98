/**
 * `companion check --fix` through the real CLI on real directories: it repairs the mechanical findings, says
 * on stderr what it changed, never touches prose, and `--fix --dry-run` prints exactly those changes as a
 * diff that `git apply` applies to the same bytes.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildScaffold } from '../../src/cli/templates/scaffold.js';
import { runCli } from '../helpers/run-cli.js';
import { createTempProject, type TempProject } from '../helpers/temp-project.js';

const scaffold = Object.fromEntries(
  buildScaffold({ name: 'team-docs', title: 'Team docs' }).map((f) => [f.path, f.content]),
);
const DOC = 'knowledge/documents/any/getting-started/first-document.md';
const projects: TempProject[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const p of projects) p.cleanup();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A scaffold with every mechanical defect planted: CRLF, trailing whitespace, a YAML 1.1 boolean, a name in the wrong case. */
function messy(): TempProject {
  const scope = JSON.parse(scaffold['knowledge/server-scope.json']!);
  scope.topics[0].skills.push('release-notes');
  const p = createTempProject({
    ...scaffold,
    'knowledge/server-scope.json': JSON.stringify(scope, null, 2),
    [DOC]: scaffold[DOC]!.replaceAll('\n', '\r\n'),
    'skills/Release-Notes/SKILL.md': [
      '---  ',
      'name: Release-Notes',
      'description: Writes the release notes of a version from its changes. Use when a release is cut.\t',
      'metadata:',
      '  draft-review: yes',
      '---',
      '# Release notes   ',
      '',
      "Start with [references/base.md](references/base.md); keep this line's trailing spaces.   ",
      '',
    ].join('\n'),
  });
  projects.push(p);
  return p;
}

/** Every file below `root`, by relative path, as bytes. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.name === '.git') continue;
      if (entry.isDirectory()) walk(path);
      else out[relative(root, path)] = readFileSync(path).toString('base64');
    }
  };
  walk(root);
  return out;
}

describe('companion check --fix', () => {
  it('--dry-run prints a diff of the fixes and writes nothing; --fix writes the same bytes', async () => {
    const p = messy();
    const before = tree(p.root);
    const dry = await runCli(['check', '--root', p.root, '--fix', '--dry-run']);
    expect(dry.code).toBe(1);
    expect(tree(p.root)).toEqual(before);
    expect(dry.stdout).toContain(
      'diff --git a/skills/Release-Notes/SKILL.md b/skills/release-notes/SKILL.md\n',
    );
    expect(dry.stdout).toContain('\n-name: Release-Notes\n');
    expect(dry.stdout).toContain('\n+name: release-notes\n');
    expect(dry.stdout).toContain('+  draft-review: "yes"\n');
    expect(dry.stderr).toMatch(
      /--dry-run: \d+ fixes in 2 files and 1 directory to rename; run without --dry-run to apply\n$/,
    );

    // The diff applies, with git, to what --fix then writes.
    const copy = mkdtempSync(join(tmpdir(), 'companion-fix-copy-'));
    dirs.push(copy);
    cpSync(p.root, copy, { recursive: true });
    execFileSync('git', ['apply', '--whitespace=nowarn', '-'], { cwd: copy, input: dry.stdout });

    const fixed = await runCli(['check', '--root', p.root, '--fix']);
    expect(fixed.stderr.split('\n').filter((l) => l.startsWith('fixed'))).toEqual([
      `fixed ${DOC}: converted CRLF line endings to LF (CMP507)`,
      'fixed skills/Release-Notes/SKILL.md: removed trailing whitespace from front matter line 1 (CMP508)',
      'fixed skills/Release-Notes/SKILL.md: lowercased `name` to "release-notes" on line 2 (CMP404)',
      'fixed skills/Release-Notes/SKILL.md: removed trailing whitespace from front matter line 3 (CMP508)',
      'fixed skills/Release-Notes/SKILL.md: quoted the value on line 5, which YAML parsers read differently (CMP409)',
      'fixed skills/Release-Notes → skills/release-notes: renamed the directory to match `name` "release-notes" (CMP404)',
    ]);
    expect(fixed.stdout).toBe('✔ no problems in 1 document and 2 skills\n');
    expect(fixed.code).toBe(0);
    expect(tree(p.root)).toEqual(tree(copy));

    // Prose is untouched: trailing spaces in the body stay, the document's text is the same once LF.
    const skill = readFileSync(p.path('skills/release-notes/SKILL.md'), 'utf8');
    expect(skill).toContain('# Release notes   \n');
    expect(skill).toContain("keep this line's trailing spaces.   \n");
    expect(readFileSync(p.path(DOC), 'utf8')).toBe(scaffold[DOC]);
  });

  it('keeps the file mode, and finds nothing more to fix afterwards', async () => {
    const p = messy();
    execFileSync('chmod', ['600', p.path(DOC)]);
    await runCli(['check', '--root', p.root, '--fix']);
    expect(statSync(p.path(DOC)).mode & 0o777).toBe(0o600);
    const again = await runCli(['check', '--root', p.root, '--fix', '--dry-run']);
    expect(again).toMatchObject({ code: 0, stdout: '', stderr: 'companion check: nothing to fix\n' });
  });

  it('takes --dry-run only with --fix', async () => {
    const p = messy();
    const result = await runCli(['check', '--root', p.root, '--dry-run']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--dry-run goes with --fix');
  });
});
