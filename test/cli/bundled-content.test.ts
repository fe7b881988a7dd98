import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/run-cli.js';

// The content companion ships (knowledge/ and skills/ at the repository root) is what every user gets on the
// first run: it must check clean, with no warning either.
describe('bundled content', () => {
  it('passes `companion check --strict`', async () => {
    const result = await runCli(['check', '--root', repoRoot, '--strict'], { env: { NO_COLOR: '1' } });
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^✔ no problems in \d+ documents and \d+ skills\n$/);
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
