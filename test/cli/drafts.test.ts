/**
 * `companion dev --drafts`: an author tries a draft skill in their own host before publishing it. The host sees
 * the draft under `dev --drafts`, marked as one; `serve`, `check` and `install` never see it. Real processes and a
 * real MCP client on a temp copy of the TYPO3-modelled fixture, whose draft uses its own marker
 * (`metadata.typo3-dev-companion-status: draft`) and carries a broken link only the drafts view reports.
 */
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { run as install } from '../../src/cli/commands/install.js';
import { DRAFT_SENTENCE } from '../../src/core/catalog.js';
import { connectHttp, connectStdio, expectRpcError, waitFor } from '../helpers/mcp-client.js';
import { runCli, runCommand, spawnCli } from '../helpers/run-cli.js';
import { copyFixture, createTempProject, type TempProject } from '../helpers/temp-project.js';

const STEP_MS = 15_000;
const DRAFT = 'extension-asset-build';
const DRAFT_URI = `typo3://skill/${DRAFT}/SKILL.md`;

const projects: TempProject[] = [];
afterAll(() => {
  for (const project of projects) project.cleanup();
});

function createProject(): TempProject {
  const project = copyFixture('typo3-conversion', { prefix: 'companion-drafts-' });
  project.write(
    `skills/${DRAFT}/SKILL.md`,
    `---
name: ${DRAFT}
description: 'Build the JavaScript and CSS an extension ships from its sources.'
metadata:
  typo3-dev-companion-status: draft
---

# Extension Asset Build

Start with [references/base.md](references/base.md), then [the steps](references/steps.md).
`,
  );
  projects.push(project);
  return project;
}

describe('companion dev --drafts', () => {
  it('serves the draft to the author’s host, marked as a draft', { timeout: 60_000 }, async () => {
    const project = createProject();
    const dev = spawnCli(['dev', '--root', project.root, '--port', '0', '--drafts']);
    try {
      let url = '';
      await waitFor(
        () => {
          url = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(dev.output.stdout)?.[1] ?? '';
          return url !== '';
        },
        STEP_MS,
        `the URL\n${dev.output.stdout}\n${dev.output.stderr}`,
      );
      const connection = await connectHttp(url, 'drafts-test-host');
      try {
        const { resources } = await connection.client.listResources();
        const draft = resources.find((r) => r.uri === DRAFT_URI);
        expect(draft?.description?.startsWith(DRAFT_SENTENCE)).toBe(true);
        const body = await connection.client.readResource({ uri: DRAFT_URI });
        expect(body.contents[0]).toMatchObject({
          uri: DRAFT_URI,
          text: expect.stringContaining('# Extension Asset Build'),
        });
        const index = await connection.client.readResource({ uri: 'typo3://guides' });
        const skills = JSON.parse(String((index.contents[0] as { text: string }).text)).skills as {
          id: string;
          draft?: boolean;
        }[];
        expect(skills.find((s) => s.id === DRAFT)).toMatchObject({ draft: true });
        expect(skills.filter((s) => s.draft).map((s) => s.id)).toEqual([DRAFT]);
      } finally {
        await connection.close();
      }
    } finally {
      dev.child.kill('SIGTERM');
      expect((await dev.exit).code).toBe(0);
    }
  });
});

describe('the published view never holds a draft', () => {
  it('serve lists and reads no draft', { timeout: 30_000 }, async () => {
    const project = createProject();
    const connection = await connectStdio({ root: project.root });
    try {
      const { resources } = await connection.client.listResources();
      expect(resources.map((r) => r.uri)).not.toContain(DRAFT_URI);
      await connection.client.readResource({ uri: 'typo3://guides' });
      // Nothing served so far names it (a refusal below echoes the URI asked for, so it comes last).
      expect(connection.wire.join('\n')).not.toContain(DRAFT);
      expect((await expectRpcError(connection.client.readResource({ uri: DRAFT_URI }))).code).toBe(-32602);
    } finally {
      await connection.close();
    }
  });

  it('check judges the published content only: the draft’s broken link is not its finding', async () => {
    const project = createProject();
    const result = await runCli(['check', '--root', project.root, '--strict']);
    expect(result.stdout).toBe('✔ no problems in 5 documents, 3 skills and 2 prompts\n');
    expect(result.code).toBe(0);
  });

  it('install publishes no draft', async () => {
    const project = createProject();
    const target = createTempProject({ 'home/.keep': '' }, { prefix: 'companion-drafts-target-' });
    projects.push(target);
    const result = await runCommand(install, ['--root', project.root, '--client', 'claude-code'], {
      cwd: target.root,
      env: { HOME: target.path('home') },
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('Published core-patch-review, extension-testing into .claude/skills.');
    expect(result.stdout).not.toContain(DRAFT);
    expect(existsSync(target.path(`.claude/skills/${DRAFT}`))).toBe(false);
  });
});
