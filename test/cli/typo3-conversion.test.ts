/**
 * A real server's content model, converted: `test/fixtures/typo3-conversion` is modelled on TYPO3/dev-companion
 * (its scopes and their differently worded skill sentences, its own skill prefix sentence, documents carrying its
 * `hints` front matter, its own draft marker `metadata.typo3-dev-companion-status: draft`, index lines with the
 * call's arguments and a note, routing lines of several calls, its `commit_message` and `debrief` prompts, a
 * website and an icon). It must pass `companion check --strict` with no finding at all, and every byte served must
 * be the byte on disk.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/core/catalog.js';
import { renderPrompt } from '../../src/core/prompt-render.js';
import { readSnapshot } from '../../src/fs/read-snapshot.js';
import { runCli } from '../helpers/run-cli.js';
import { FIXTURES } from '../helpers/snapshot.js';

const ROOT = join(FIXTURES, 'typo3-conversion');

describe('content modelled on TYPO3/dev-companion', () => {
  const snapshot = readSnapshot(ROOT);
  const { catalog, diagnostics } = buildCatalog(snapshot);

  it('passes companion check --strict with zero findings', async () => {
    const result = await runCli(['check', '--root', ROOT, '--strict', '--format', 'json']);
    const report = JSON.parse(result.stdout) as { diagnostics: unknown[]; summary: { ok: boolean } };
    expect(report.diagnostics).toEqual([]);
    expect(report.summary.ok).toBe(true);
    expect(result.code).toBe(0);
    expect(diagnostics).toEqual([]);
  });

  it('serves every document and skill file byte for byte as written', () => {
    const served = [
      ...catalog.documents.map((d) => [d.uri, d.path]),
      ...catalog.skills.flatMap((s) => s.files.map((f) => [f.uri, f.source])),
    ];
    expect(served.length).toBe(5 + 2 * 2 + 1);
    for (const [uri, path] of served) {
      expect(
        Buffer.from(catalog.contents.get(uri!)!.bytes).equals(readFileSync(join(ROOT, path!))),
        uri,
      ).toBe(true);
    }
  });

  it('keeps the hints of each document in its index entry', () => {
    const index = JSON.parse(catalog.contents.get(catalog.indexUri)!.text!);
    expect(
      Object.fromEntries(
        index.documents.map((d: { id: string; fields?: { hints?: string[] } }) => [d.id, d.fields?.hints]),
      ),
    ).toEqual({
      'any/testing/browser-check': ['browser-tests', 'browser-tests-outside-core'],
      'core/contribution/commit-messages': ['commit-keywords'],
      'core/contribution/rules': [],
      'extension/testing/phpunit': ['testing-framework', 'functional-tests'],
      'project/testing/playwright': ['browser-tests', 'environment-variables'],
    });
  });

  it('words skills with its own sentences, and publishes the draft nowhere', () => {
    const description = (id: string) => catalog.resources.find((r) => r.name === id)?.description;
    expect(description('core-patch-review')).toMatch(
      /^A workflow an agent follows while doing the task, not a page to read\. .* The core's own workflow, which stops at the core repository\.$/,
    );
    expect(description('extension-testing')).toMatch(
      /Not the core's own workflow: it is followed wherever the package is developed\.$/,
    );
    expect(description('core/contribution/rules')).toMatch(
      /The core's own process, which stops at the core repository\.$/,
    );
    expect(
      JSON.stringify([catalog.resources, catalog.skills, catalog.prompts, [...catalog.contents.keys()]]),
    ).not.toContain('extension-asset-build');
    const drafts = buildCatalog(snapshot, { includeDrafts: true }).catalog;
    expect(drafts.skills.find((s) => s.id === 'extension-asset-build')?.draft).toBe(true);
  });

  it('writes its instructions as it does: calls with their arguments and notes', () => {
    expect(catalog.instructions).toContain(
      '- a label, added or reworded: document_lookup with the words of the label; a match in another package is not reusable',
    );
    expect(catalog.coverage.routing[0]!.then?.map((call) => call.tool)).toEqual([
      'skill_load',
      'document_lookup',
    ]);
    expect(catalog.server.websiteUrl).toBe('https://example.org/dev-companion/');
    expect(catalog.server.icons?.[0]?.sizes).toEqual(['16x16']);
  });

  it('serves its prompts: commit_message with its defaults and enums, debrief without arguments', () => {
    expect(catalog.prompts.map((p) => [p.name, p.scope, p.arguments.map((a) => a.name)])).toEqual([
      ['commit_message', 'core', ['summary', 'keyword', 'workflow', 'issue']],
      ['debrief', 'any', []],
    ]);
    const drafted = renderPrompt(catalog, 'commit_message', { summary: 'Fix the page tree', issue: '#101' });
    expect(drafted.ok && drafted.result.messages[0]!.content.text).toContain(
      '- Keyword: [TASK]\n- Summary: Fix the page tree\n- Workflow: core\n- Resolves: #101\n\nWrap the body',
    );
    const refused = renderPrompt(catalog, 'commit_message', { summary: 'x', keyword: 'CHORE' });
    expect(refused.ok ? undefined : refused.error.kind).toBe('not-in-enum');
    const debrief = renderPrompt(catalog, 'debrief', {});
    expect(debrief.ok && debrief.result.messages[0]!.content.text).toMatch(/^The work is done\./);
  });
});
