#!/usr/bin/env node
// Writes the files generated from code: knowledge/server-scope.schema.json (from the zod scope schema) and
// knowledge/documents/any/reference/diagnostic-codes.md (from the diagnostic-code catalogue).
//
//   node scripts/generate.mjs           write them
//   node scripts/generate.mjs --check   write nothing; exit 1 naming each file that is stale (for CI)
//
// It imports the build output, so run `npm run build` first.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const usage = 'Usage: node scripts/generate.mjs [--check]\n';

const args = process.argv.slice(2);
if (args.some((arg) => arg !== '--check')) {
  process.stderr.write(`generate: unexpected argument '${args.find((arg) => arg !== '--check')}'\n${usage}`);
  process.exit(2);
}
const checkOnly = args.includes('--check');

let buildGeneratedFiles;
try {
  ({ buildGeneratedFiles } = await import('../dist/check/generated-files.js'));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  process.stderr.write('generate: dist/ is missing or stale; run `npm run build` first.\n');
  process.exit(1);
}

let stale = 0;
for (const { path, content } of buildGeneratedFiles()) {
  const absolute = join(root, path);
  const current = readIfExists(absolute);
  if (current === content) {
    process.stdout.write(`up to date  ${path}\n`);
  } else if (checkOnly) {
    stale++;
    process.stderr.write(`stale       ${path}\n`);
  } else {
    mkdirSync(dirname(absolute), { recursive: true });
    writeFileSync(absolute, content);
    process.stdout.write(`wrote       ${path}\n`);
  }
}
if (stale > 0) {
  process.stderr.write(
    `generate: ${stale} generated file(s) differ from the code; run \`npm run generate\`.\n`,
  );
  process.exitCode = 1;
}

function readIfExists(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (error?.code === 'ENOENT') return undefined;
    throw error;
  }
}
