#!/usr/bin/env node
/**
 * Bundles the compiled CLI (`dist/cli/main.js` and each `dist/cli/commands/*.js`) into `dist/bundle/`, the
 * layout `bin/companion.js` loads. Why: a process that starts for one `companion check` spends most of a small
 * run resolving and compiling ~200 module files (zod alone is ~80); one file per command plus shared chunks
 * starts in about half the time. Only pure-JS libraries are bundled, the MCP SDK among them (`dev` and `serve` spent
 * ~70 ms of CPU resolving and compiling its ~40 files and its own copy of zod, beside the one bundled here; bundled,
 * both share one zod); React, Ink, chokidar and yaml stay external (loaded from node_modules, and only by the
 * commands that use them). `check` loads neither them nor the SDK's chunks (test/cli/main.test.ts). The layout
 * mirrors `dist/cli/` (`main.js`, `commands/<name>.js`), which `main.ts` relies on to find a command at run time.
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
  // The metafile's paths are relative to it.
  absWorkingDir: root,
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
    'chokidar',
    // Its Node build is CommonJS that requires `process` at run time, which an ESM bundle cannot; only install,
    // uninstall and doctor load it (for Goose's config.yaml).
    'yaml',
  ],
  logLevel: 'warning',
};
const split = await build({
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
  metafile: true,
});
// The watcher's thread (src/fs/watch-thread.ts) and the build pool's (src/fs/build-pool.ts) load their modules
// from beside the file that starts them — which is wherever esbuild put the starter's code: a shared chunk in
// `dist/bundle/`, or, while one command alone uses it, that command's own file (`dist/bundle/commands/dev.js`).
// Written beside every such file, found in the metafile: a worker module a thread cannot find makes it fall back
// to the main thread, silently (for the watcher: right when the first hosts connect).
for (const name of ['watch-thread', 'build-pool']) {
  const starter = join('dist', 'fs', `${name}.js`);
  const workerDirs = new Set(
    Object.entries(split.metafile.outputs)
      .filter(([file, output]) => file.endsWith('.js') && Object.hasOwn(output.inputs, starter))
      .map(([file]) => dirname(join(root, file))),
  );
  if (workerDirs.size === 0)
    throw new Error(`bundle: no output holds ${starter}; where does its thread start?`);
  for (const dir of workerDirs) {
    await build({
      ...shared,
      entryPoints: [join(root, 'dist', 'fs', `${name}-worker.js`)],
      outfile: join(dir, `${name}-worker.js`),
    });
  }
}
