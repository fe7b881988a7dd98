/**
 * buildCatalog never throws on content: arbitrary bytes in any file, arbitrary front matter, arbitrary scope
 * JSON — it always answers with a catalog and diagnostics, and what it declares still matches what it serves.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/core/catalog.js';
import { buildSnapshot, readFixture } from '../helpers/snapshot.js';

const valid = readFixture('valid');
const paths = Object.keys(valid);

function assertCoherent(files: Record<string, string | Uint8Array>) {
  const { catalog, diagnostics } = buildCatalog(buildSnapshot(files));
  expect(Array.isArray(diagnostics)).toBe(true);
  for (const d of diagnostics) {
    expect(d.code).toMatch(/^CMP\d{3}$/);
    expect(d.message.length).toBeGreaterThan(0);
  }
  for (const r of catalog.resources) expect(catalog.contents.get(r.uri)?.size).toBe(r.size);
  for (const s of catalog.skills) {
    for (const m of s.manifest) expect(catalog.contents.get(m.uri)?.digest).toBe(m.digest);
  }
  expect(catalog.instructions.length).toBeLessThanOrEqual(2048);
}

describe('buildCatalog under arbitrary input', () => {
  it('survives arbitrary bytes in any file', () => {
    fc.assert(
      fc.property(fc.constantFrom(...paths), fc.uint8Array({ maxLength: 400 }), (path, bytes) => {
        assertCoherent({ ...valid, [path]: bytes });
      }),
      { numRuns: 300 },
    );
  });

  it('survives arbitrary front matter text in documents and skills', () => {
    const yamlish = fc.stringMatching(/^[a-z:\-[\]{}"' \n#|>&*!%@`0-9]{0,120}$/);
    fc.assert(
      fc.property(
        fc.constantFrom('knowledge/documents/any/guides/first.md', 'skills/alpha/SKILL.md'),
        yamlish,
        fc.string({ maxLength: 80 }),
        (path, front, body) => {
          assertCoherent({ ...valid, [path]: `---\n${front}\n---\n${body}` });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('survives arbitrary JSON in the scope file', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        assertCoherent({ ...valid, 'knowledge/server-scope.json': JSON.stringify(value) });
      }),
      { numRuns: 200 },
    );
  });

  it('survives arbitrary paths', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-zA-Z0-9 ._%\\-]{1,12}$/), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('knowledge/documents/', 'skills/', 'skills/alpha/', 'knowledge/'),
        (segments, prefix) => {
          assertCoherent({ ...valid, [`${prefix}${segments.join('/')}`]: '---\ndescription: x\n---\n# X\n' });
        },
      ),
      { numRuns: 200 },
    );
  });
});
