import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatScopeSchema } from '../../src/check/format-scope-schema.js';
import { run as check } from '../../src/cli/commands/check.js';
import { run as init } from '../../src/cli/commands/init.js';
import { runCli, runCommand } from '../helpers/run-cli.js';

const SCAFFOLD = [
  'knowledge/documents/any/getting-started/first-document.md',
  'knowledge/server-scope.json',
  'knowledge/server-scope.schema.json',
  'skills/base.md',
  'skills/first-skill/SKILL.md',
  'skills/first-skill/references/checklist.md',
];

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) => {
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      return entry.isDirectory() ? listFiles(dir, path) : [path];
    })
    .sort();
}

let temp: string;
beforeEach(() => {
  temp = mkdtempSync(join(tmpdir(), 'companion-init-'));
});
afterEach(() => {
  rmSync(temp, { recursive: true, force: true });
});

describe('companion init', () => {
  it('scaffolds a repository that checks clean, with no diagnostic at all', async () => {
    const target = join(temp, 'My Team Docs');
    const created = await runCommand(init, [target], { cwd: temp, env: {} });
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(listFiles(target)).toEqual(SCAFFOLD);

    const text = await runCommand(check, ['--root', target, '--strict'], { env: { NO_COLOR: '1' } });
    expect(text.stdout).toBe('✔ no problems in 1 document and 1 skill\n');
    expect(text.code).toBe(0);
  });

  it('passes the real `companion check` too, after the real `companion init`', async () => {
    const created = await runCli(['init', 'content'], { cwd: temp });
    expect(created.code).toBe(0);
    const result = await runCli(['check', '--root', join(temp, 'content'), '--format', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      diagnostics: [],
      summary: { documents: 1, skills: 1 },
    });
  });

  it('names the server after the directory and publishes the schema the scope file references', async () => {
    await runCommand(init, ['Team Docs!'], { cwd: temp, env: {} });
    const root = join(temp, 'Team Docs!');
    const scope = JSON.parse(readFileSync(join(root, 'knowledge/server-scope.json'), 'utf8'));
    expect(scope.$schema).toBe('./server-scope.schema.json');
    expect(scope.server).toMatchObject({ name: 'team-docs', title: 'Team docs' });
    expect(readFileSync(join(root, 'knowledge/server-scope.schema.json'), 'utf8')).toBe(formatScopeSchema());
  });

  it('defaults to the current directory, and an empty skills/ is fine', async () => {
    mkdirSync(join(temp, 'skills'));
    writeFileSync(join(temp, 'README.md'), 'mine\n');
    const result = await runCommand(init, [], { cwd: temp, env: {} });
    expect(result.code).toBe(0);
    expect(listFiles(temp)).toEqual(['README.md', ...SCAFFOLD].sort());
    expect(readFileSync(join(temp, 'README.md'), 'utf8')).toBe('mine\n');
  });

  it('says what it created and what to do next', async () => {
    const result = await runCommand(init, ['content'], { cwd: temp, env: {} });
    expect(result.stdout).toContain(`Created a companion content repository in ${join(temp, 'content')}:`);
    for (const path of SCAFFOLD) expect(result.stdout).toContain(`  ${path} `);
    expect(result.stdout).toMatch(/^ {2}cd content$/m);
    expect(result.stdout).toMatch(/^ {2}npx companion check /m);
    expect(result.stdout).toMatch(/^ {2}npx companion dev /m);
    expect(result.stdout).toContain('knowledge/server-scope.json');
  });

  it('says how to install companion where the target has no copy, and not where it has one', async () => {
    const bare = await runCommand(init, ['bare'], { cwd: temp, env: {} });
    expect(bare.stdout).toMatch(/^ {2}npm init -y$/m);
    expect(bare.stdout).toMatch(/^ {2}npm install --save-dev companion-mcp /m);

    // An author's project: a package.json, and companion-mcp installed in a directory above the target.
    writeFileSync(join(temp, 'package.json'), '{}\n');
    mkdirSync(join(temp, 'node_modules', 'companion-mcp'), { recursive: true });
    writeFileSync(join(temp, 'node_modules', 'companion-mcp', 'package.json'), '{"name":"companion-mcp"}\n');
    const owned = await runCommand(init, ['owned'], { cwd: temp, env: {} });
    expect(owned.code).toBe(0);
    expect(owned.stdout).not.toMatch(/npm (init|install)/);
    expect(owned.stdout).toMatch(/^ {2}npx companion check /m);
  });

  it('names a target outside the current directory by its absolute path', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'companion-init-elsewhere-'));
    try {
      const result = await runCommand(init, [join(elsewhere, 'my content')], { cwd: temp, env: {} });
      expect(result.stdout).toContain(`  cd '${join(elsewhere, 'my content')}'\n`);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('does not say cd when the target is the current directory', async () => {
    const result = await runCommand(init, ['.'], { cwd: temp, env: {} });
    expect(result.stdout).not.toMatch(/^ {2}cd /m);
  });

  it('refuses a directory that already has a scope file, and changes nothing', async () => {
    mkdirSync(join(temp, 'knowledge'));
    writeFileSync(join(temp, 'knowledge/server-scope.json'), '{}\n');
    const result = await runCommand(init, [temp], { env: {} });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('knowledge/server-scope.json');
    expect(listFiles(temp)).toEqual(['knowledge/server-scope.json']);
    expect(readFileSync(join(temp, 'knowledge/server-scope.json'), 'utf8')).toBe('{}\n');
  });

  it('refuses a non-empty skills/', async () => {
    mkdirSync(join(temp, 'skills/mine'), { recursive: true });
    writeFileSync(join(temp, 'skills/mine/SKILL.md'), 'x\n');
    const result = await runCli(['init', temp]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('skills/');
    expect(listFiles(temp)).toEqual(['skills/mine/SKILL.md']);
  });

  it('never overwrites a file it would write', async () => {
    const path = join(temp, 'knowledge/documents/any/getting-started/first-document.md');
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, 'mine\n');
    const result = await runCommand(init, [temp], { env: {} });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('knowledge/documents/any/getting-started/first-document.md');
    expect(readFileSync(path, 'utf8')).toBe('mine\n');
    expect(existsSync(join(temp, 'knowledge/server-scope.json'))).toBe(false);
  });

  it('refuses a target that is a file', async () => {
    writeFileSync(join(temp, 'file'), '');
    const result = await runCommand(init, ['file'], { cwd: temp, env: {} });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not a directory');
  });

  it('exits 2 on usage errors', async () => {
    for (const args of [['a', 'b'], ['--force']]) {
      const result = await runCommand(init, args, { cwd: temp, env: {} });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^companion init: .+\nUsage: companion init \[DIR\]/);
    }
    expect(readdirSync(temp)).toEqual([]);
  });
});
