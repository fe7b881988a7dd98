/**
 * Every code in the catalogue has a fixture that triggers it: `test/fixtures/codes/<CODE>/` overlays the valid
 * fixture with its `files/`, and `case.json` says what to remove, which loader problems to inject, and which
 * code, file and line the build must report.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/core/catalog.js';
import { codes } from '../../src/core/diagnostics.js';
import { codeCases as cases, readCodeCase } from '../helpers/code-cases.js';

function buildCase(name: string) {
  const { spec, snapshot } = readCodeCase(name);
  return { spec, result: buildCatalog(snapshot, spec.options) };
}

describe('diagnostic codes', () => {
  it('every code in the catalogue has a fixture, and every fixture names a code', () => {
    const all = Object.values(codes)
      .map((c) => c.code)
      .sort();
    expect(cases).toEqual(all);
  });

  it('codes are unique', () => {
    const all = Object.values(codes).map((c) => c.code);
    expect(new Set(all).size).toBe(all.length);
  });

  it.each(cases)('%s is reported at its file and line', (name) => {
    const { spec, result } = buildCase(name);
    const found = result.diagnostics.filter((d) => d.code === spec.code);
    expect(found, JSON.stringify(result.diagnostics, null, 2)).not.toHaveLength(0);
    const match = found.find(
      (d) => d.file === spec.file && (spec.line === undefined || d.line === spec.line),
    );
    expect(match, JSON.stringify(found, null, 2)).toBeDefined();
    const entry = Object.values(codes).find((c) => c.code === spec.code)!;
    expect(match!.severity).toBe(entry.severity);
    expect(match!.message).not.toBe('');
    expect(match!.hint).not.toBe('');
  });
});
