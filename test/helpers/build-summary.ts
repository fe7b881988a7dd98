/**
 * One JSON text for everything a build answers — the catalog (every served byte as its SHA-256), the diagnostics,
 * the suppressed findings and what is held — for tests that hold two ways of building to the same result. Maps
 * are recognised by shape, so a result from `dist/` (whose classes are not the sources') summarizes the same.
 */
import { createHash } from 'node:crypto';
import type { BuildResult } from '../../src/core/types.js';

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

export function summarizeBuild(result: BuildResult): string {
  const { catalog, diagnostics, suppressed, held } = result;
  return JSON.stringify({ catalog, diagnostics, suppressed, held }, (_key, value: unknown) => {
    if (value instanceof Uint8Array) return `sha256:${sha256(value)}`;
    if (value instanceof Set) return [...value].sort();
    const map = value as { entries?: unknown; get?: unknown } | null;
    if (
      map &&
      typeof map === 'object' &&
      typeof map.entries === 'function' &&
      typeof map.get === 'function'
    ) {
      return [...(value as Iterable<[unknown, unknown]>)].sort(([a], [b]) =>
        String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0,
      );
    }
    return value;
  });
}

/** The summary's SHA-256 and length: what a test compares, so a failure prints two short lines, not a catalog. */
export function fingerprintBuild(result: BuildResult): string {
  const summary = summarizeBuild(result);
  return `${sha256(summary)} (${summary.length} characters)`;
}
