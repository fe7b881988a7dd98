import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildGeneratedFiles } from '../../src/check/generated-files.js';
import { repoRoot } from '../helpers/run-cli.js';

// The committed copies must equal what scripts/generate.mjs renders from the code. If this fails, run
// `npm run generate` and commit the result.
describe('generated files', () => {
  for (const { path, content } of buildGeneratedFiles()) {
    it(`${path} is up to date`, () => {
      expect(readFileSync(join(repoRoot, path), 'utf8')).toBe(content);
    });
  }

  it('publishes the JSON Schema the scope file names', () => {
    const scope = JSON.parse(readFileSync(join(repoRoot, 'knowledge/server-scope.json'), 'utf8'));
    expect(scope.$schema).toBe('./server-scope.schema.json');
    expect(buildGeneratedFiles().map((f) => f.path)).toContain('knowledge/server-scope.schema.json');
  });
});
