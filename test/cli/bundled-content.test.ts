import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_IDS, type ClientId, readClient } from '../../src/install/clients.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';

// The content companion ships (knowledge/ and skills/ at the repository root) is what every user gets on the
// first run: it must check clean, with no warning either.
describe('bundled content', () => {
  it('passes `companion check --strict`', async () => {
    const result = await runCli(['check', '--root', repoRoot, '--strict'], { env: { NO_COLOR: '1' } });
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^✔ no problems in \d+ documents, \d+ skills and \d+ prompts\n$/);
    expect(result.code).toBe(0);
  });

  it('reports 0 errors and 0 warnings as JSON', async () => {
    const result = await runCli(['check', '--root', repoRoot, '--format', 'json']);
    const report = JSON.parse(result.stdout) as {
      diagnostics: unknown[];
      summary: { errors: number; warnings: number; documents: number; skills: number; ok: boolean };
    };
    // The list first: when it is not empty, the failure shows every diagnostic.
    expect(report.diagnostics).toEqual([]);
    expect(result.code).toBe(0);
    expect(report.summary).toMatchObject({ errors: 0, warnings: 0, ok: true });
    // Issue 2: at least 12 documents and 5 skills.
    expect(report.summary.documents).toBeGreaterThanOrEqual(12);
    expect(report.summary.skills).toBeGreaterThanOrEqual(5);
  });
});

// What the bundled content says about installing must agree with what `companion install` does: it is sent to
// every host (the scope file's notCovered is in the index) and read by every author.
describe('bundled content agrees with companion install', () => {
  const hostDocuments: Record<string, readonly ClientId[]> = {
    'claude-code': ['claude-code'],
    'vs-code': ['vscode'],
    cursor: ['cursor'],
    codex: ['codex', 'codex-user'],
    'gemini-cli': ['gemini'],
    goose: ['goose'],
    opencode: ['opencode'],
    'copilot-cli': ['copilot-cli'],
    windsurf: ['windsurf'],
    antigravity: ['antigravity'],
  };

  it('each host document names the install command for its host and the skills directory it fills', () => {
    for (const [name, clients] of Object.entries(hostDocuments)) {
      const text = readFileSync(join(repoRoot, 'knowledge/documents/any/hosts', `${name}.md`), 'utf8');
      for (const id of clients) {
        expect(text, `${name}.md`).toContain(`npx companion install --client ${id}`);
        const skillsDir = readClient(id).skillsDir;
        if (skillsDir !== undefined) expect(text, `${name}.md`).toContain(`\`${skillsDir}\``);
      }
    }
  });

  it('the scope file never says a skills directory that install fills is out of reach', () => {
    const scope = JSON.parse(readFileSync(join(repoRoot, 'knowledge/server-scope.json'), 'utf8')) as {
      notCovered: { topic: string; why: string; instead: string }[];
    };
    const skillsDirs = CLIENT_IDS.flatMap((id) => readClient(id).skillsDir ?? []);
    for (const entry of scope.notCovered) {
      for (const dir of skillsDirs) expect(JSON.stringify(entry), 'notCovered').not.toContain(dir);
    }
  });
});
