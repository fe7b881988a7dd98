#!/usr/bin/env node
/**
 * Bundles the compiled CLI (`dist/cli/main.js` and each `dist/cli/commands/*.js`) into `dist/bundle/`, the
 * layout `bin/companion.js` loads. Why: a process that starts for one `companion check` spends most of a small
 * run resolving and compiling ~200 module files (zod alone is ~80); one file per command plus shared chunks
 * starts in about half the time. Only pure-JS libraries are bundled; React, Ink, the MCP SDK, chokidar and yaml stay
 * external (loaded from node_modules, and only by the commands that use them), so `check` still never loads
 * them. The layout mirrors `dist/cli/` (`main.js`, `commands/<name>.js`), which `main.ts` relies on to find a
 * command at run time.
 *
 *   node scripts/bundle.mjs        (run by `npm run build`, after tsc)
 */
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli');
const out = join(root, 'dist', 'bundle');

rmSync(out, { recursive: true, force: true });
const shared = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Prefer a package's ESM build: jsonc-parser's `main` is a UMD file whose dynamic requires do not bundle.
  mainFields: ['module', 'main'],
  sourcemap: true,
  external: [
    'react',
    'react/*',
    'ink',
    '@modelcontextprotocol/server',
    '@modelcontextprotocol/server/*',
    '@modelcontextprotocol/node',
    'chokidar',
    // Its Node build is CommonJS that requires `process` at run time, which an ESM bundle cannot; only install,
    // uninstall and doctor load it (for Goose's config.yaml).
    'yaml',
  ],
  logLevel: 'warning',
};
await build({
  ...shared,
  entryPoints: [
    join(cli, 'main.js'),
    ...readdirSync(join(cli, 'commands'))
      .filter((name) => name.endsWith('.js'))
      .map((name) => join(cli, 'commands', name)),
  ],
  outbase: cli,
  outdir: out,
  splitting: true,
});
// The watcher's thread (src/fs/watch-thread.ts) and the build pool's (src/fs/build-pool.ts) load their modules
// from beside the chunk that starts them.
for (const worker of ['watch-thread-worker.js', 'build-pool-worker.js']) {
  await build({ ...shared, entryPoints: [join(root, 'dist', 'fs', worker)], outfile: join(out, worker) });
}
