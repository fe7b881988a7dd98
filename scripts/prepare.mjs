#!/usr/bin/env node
/**
 * `npm prepare`: builds `dist/` in a checkout (after `npm ci`, and before `npm pack` / `npm publish`, which run
 * `prepare` too), so `npx companion` works right after an install of this repository.
 *
 * Why a script and not `npm run build`: npm also offers a package's `prepare` to run when the package is installed
 * from a tarball or a folder into someone else's project. There the package ships a built `dist/` and no `src/`
 * (see `files`), and the build tools are devDependencies that are not installed, so a build would only fail the
 * install. Without the sources there is nothing to build, and this exits 0.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (existsSync(join(root, 'src', 'cli', 'main.ts'))) {
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
}
