/**
 * `BuildOptions.once` (what `companion check` builds with) keeps nothing only a next build reads — no last-good
 * map, no index of which link checks mention whom — and must change nothing else: every code fixture and every
 * content fixture builds to the same diagnostics, suppressions and catalog either way, and a `once` builder's
 * update (which starts over) equals an incremental one's.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog, createCatalogBuilder } from '../../../src/core/catalog.js';
import type { BuildOptions, BuildResult, Snapshot } from '../../../src/core/types.js';
import { codeCases, readCodeCase } from '../../helpers/code-cases.js';
import { buildSnapshot, FIXTURES, readFixture } from '../../helpers/snapshot.js';

/** Everything a build answers but `lastGood`, as one string (`contents` sorted: its order is not a contract). */
function describeResult(result: BuildResult): string {
  const { catalog } = result;
  return JSON.stringify([
    result.diagnostics,
    result.suppressed,
    result.held,
    catalog.instructions,
    catalog.tools,
    catalog.indexUri,
    catalog.resources,
    catalog.templates,
    [...catalog.contents]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([uri, c]) => [uri, c.mimeType, c.size, c.digest, c.lastModified, c.text]),
    catalog.documents,
    catalog.skills,
    catalog.descriptionBudget,
    catalog.prompts.map((p) => [p.listed, p.scope, p.source, p.draft, p.arguments, p.template]),
    catalog.coverage,
  ]);
}

function expectSameBuild(snapshot: Snapshot, options: BuildOptions | undefined): void {
  const plain = buildCatalog(snapshot, options);
  const once = buildCatalog(snapshot, { ...options, once: true });
  expect(describeResult(once)).toBe(describeResult(plain));
  expect(once.lastGood?.size ?? 0).toBe(0);
}

describe('a build made once', () => {
  it.each(codeCases)('%s builds the same result', (name) => {
    const { spec, snapshot } = readCodeCase(name);
    expectSameBuild(snapshot, spec.options);
  });

  it.each([
    'valid',
    'fs-basic',
    'typo3-conversion',
    'check-clean/root',
    'check-golden/root',
    'check-warnings/root',
  ])('%s builds the same result', (dir) => {
    expectSameBuild(buildSnapshot(readFixture(join(FIXTURES, dir))), undefined);
  });

  it('keeps a last good map only when not once (the plain build is not vacuous)', () => {
    const snapshot = buildSnapshot(readFixture('valid'));
    expect(buildCatalog(snapshot).lastGood?.size).toBeGreaterThan(0);
  });

  it('answers an update as a build from scratch, equal to an incremental one', () => {
    const files = readFixture('valid');
    const linked = 'knowledge/documents/local/process/second.md';
    const { [linked]: second, ...without } = files;
    expect(second).toBeDefined();
    // first.md mentions second's URI: removing second makes it unknown, bringing it back makes it served again.
    const steps = [buildSnapshot(without), buildSnapshot(files), buildSnapshot(without)];
    const once = createCatalogBuilder({ once: true });
    const incremental = createCatalogBuilder();
    const first = buildSnapshot(files);
    expect(describeResult(once.build(first))).toBe(describeResult(incremental.build(first)));
    const seen = new Set<string>();
    for (const step of steps) {
      const a = once.update(step, [linked]);
      const b = incremental.update(step, [linked]);
      expect(describeResult(a)).toBe(describeResult(b));
      expect(describeResult(a)).toBe(describeResult(buildCatalog(step)));
      seen.add(a.diagnostics.map((d) => d.code).join(','));
    }
    // The steps differ (an unknown URI comes and goes), so the comparison above saw both states.
    expect(seen.size).toBe(2);
  });
});
