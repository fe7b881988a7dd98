/**
 * The rooms of ARCHITECTURE.md, held by the lint (`biome.json`'s per-folder `noRestrictedImports` and
 * `noRestrictedGlobals`, and `scripts/lint/no-clock.grit` for `src/core`). Each rule is shown to bite: a file
 * planted in a copy of the tree's layout breaks it and the real `biome lint` reports it at that line; beside each,
 * a file doing what the room may do passes, so no rule is wider than the table. The real tree passes too.
 */
import { execFile } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/run-cli.js';
import { createTempProject, type TempProject } from '../helpers/temp-project.js';

const biome = join(repoRoot, 'node_modules', '.bin', 'biome');

type Rule = 'imports' | 'globals' | 'clock';
const CATEGORIES: Record<Rule, string> = {
  imports: 'lint/style/noRestrictedImports',
  globals: 'lint/style/noRestrictedGlobals',
  clock: 'plugin',
};

interface Plant {
  /** Where the planted file goes, relative to the repository. */
  readonly file: string;
  /** Its one line of code (line 1). */
  readonly code: string;
  /** The rule that must reject it, or `null` when the room may do this. */
  readonly rejectedBy: Rule | null;
}

let n = 0;
const plant = (room: string, code: string, rejectedBy: Rule | null): Plant => ({
  file: `${room}/planted-${++n}.ts`,
  code,
  rejectedBy,
});

const PLANTS: Record<string, readonly Plant[]> = {
  'src/core: no fs, process, clock or SDK; only core': [
    plant('src/core', "import fs from 'node:fs'; export { fs };", 'imports'),
    plant('src/core', "import fs from 'fs'; export { fs };", 'imports'),
    plant('src/core', "import { readFile } from 'node:fs/promises'; export { readFile };", 'imports'),
    plant('src/core', "import { env } from 'node:process'; export { env };", 'imports'),
    plant('src/core', "import { setTimeout } from 'node:timers/promises'; export { setTimeout };", 'imports'),
    plant('src/core', "import { join } from 'node:path'; export { join };", 'imports'),
    plant('src/core', "import * as sdk from '@modelcontextprotocol/server'; export { sdk };", 'imports'),
    plant(
      'src/core',
      "import { Server } from '@modelcontextprotocol/sdk/server/index.js'; export { Server };",
      'imports',
    ),
    plant('src/core', "import chokidar from 'chokidar'; export { chokidar };", 'imports'),
    plant(
      'src/core',
      "import { readSnapshot } from '../fs/read-snapshot.js'; export { readSnapshot };",
      'imports',
    ),
    plant(
      'src/core/lint',
      "import type { SessionInfo } from '../../mcp/session-registry.js'; export type { SessionInfo };",
      'imports',
    ),
    plant('src/core', 'export const cwd = process.cwd();', 'globals'),
    plant('src/core', 'export const at = performance.now();', 'globals'),
    plant('src/core', 'setTimeout(() => {}, 1);', 'globals'),
    plant('src/core', 'setInterval(() => {}, 1);', 'globals'),
    plant('src/core', 'setImmediate(() => {});', 'globals'),
    plant('src/core', 'export const at = Date.now();', 'clock'),
    plant('src/core', 'export const clock = Date.now;', 'clock'),
    plant('src/core', 'export const at = new Date().toISOString();', 'clock'),
    plant('src/core/search', 'export const at = new Date();', 'clock'),
    // what the core may do
    plant('src/core', "import * as z from 'zod'; export { z };", null),
    plant('src/core', "import { createHash } from 'node:crypto'; export { createHash };", null),
    plant('src/core', "import { parse } from 'jsonc-parser'; export { parse };", null),
    plant('src/core/lint', "import { codes } from '../diagnostics.js'; export { codes };", null),
    plant('src/core', 'export const stamp = (ms: number) => new Date(ms).toISOString();', null),
  ],
  'src/fs: core only, no SDK': [
    plant('src/fs', "import { serveHttp } from '../mcp/serve-http.js'; export { serveHttp };", 'imports'),
    plant('src/fs', "import { render } from 'ink'; export { render };", 'imports'),
    plant('src/fs', "import * as sdk from '@modelcontextprotocol/server'; export { sdk };", 'imports'),
    plant('src/fs', 'export const pid = process.pid;', 'globals'),
    plant('src/fs', "import { buildCatalog } from '../core/catalog.js'; export { buildCatalog };", null),
    plant(
      'src/fs',
      "import chokidar from 'chokidar'; import fs from 'node:fs'; export { chokidar, fs };",
      null,
    ),
  ],
  'src/mcp: the only SDK importer; core only': [
    plant(
      'src/mcp',
      "import { readSnapshot } from '../fs/read-snapshot.js'; export { readSnapshot };",
      'imports',
    ),
    plant(
      'src/mcp',
      "import { createDevModel } from '../ui/dev-state.js'; export { createDevModel };",
      'imports',
    ),
    plant('src/mcp', "import { Client } from '@modelcontextprotocol/client'; export { Client };", 'imports'),
    plant('src/mcp', 'export const argv = process.argv;', 'globals'),
    plant('src/mcp', "import { Server } from '@modelcontextprotocol/server'; export { Server };", null),
    plant(
      'src/mcp',
      "import { toNodeHandler } from '@modelcontextprotocol/node'; export { toNodeHandler };",
      null,
    ),
    plant('src/mcp', "import { diffCatalogs } from '../core/diff.js'; export { diffCatalogs };", null),
  ],
  'src/check: pure renderers of core values': [
    plant('src/check', "import fs from 'node:fs'; export { fs };", 'imports'),
    plant(
      'src/check',
      "import { readSnapshot } from '../fs/read-snapshot.js'; export { readSnapshot };",
      'imports',
    ),
    plant('src/check', 'export const env = process.env;', 'globals'),
    plant('src/check', "import { codes } from '../core/diagnostics.js'; export { codes };", null),
  ],
  'src/ui: core and its own view types only': [
    plant(
      'src/ui',
      "import type { SessionInfo } from '../mcp/session-registry.js'; export type { SessionInfo };",
      'imports',
    ),
    plant(
      'src/ui',
      "import type { WatcherStatus } from '../fs/watcher.js'; export type { WatcherStatus };",
      'imports',
    ),
    plant(
      'src/ui/views',
      "import { publishInstall } from '../../install/install.js'; export { publishInstall };",
      'imports',
    ),
    plant('src/ui', "import * as sdk from '@modelcontextprotocol/server'; export { sdk };", 'imports'),
    plant('src/ui', 'export const columns = process.stdout.columns;', 'globals'),
    plant('src/ui', "import type { SessionInfo } from './dev-inputs.js'; export type { SessionInfo };", null),
    plant(
      'src/ui/views',
      "import type { Catalog } from '../../core/types.js'; export type { Catalog };",
      null,
    ),
    plant(
      'src/ui',
      "import { Box } from 'ink'; import { useState } from 'react'; export { Box, useState };",
      null,
    ),
  ],
  'src/install: core only, no SDK': [
    plant(
      'src/install',
      "import { serveHttp } from '../mcp/serve-http.js'; export { serveHttp };",
      'imports',
    ),
    plant('src/install', "import { parseArgs } from '../cli/args.js'; export { parseArgs };", 'imports'),
    plant('src/install', "import * as sdk from '@modelcontextprotocol/server'; export { sdk };", 'imports'),
    plant('src/install', 'export const home = process.env.HOME;', 'globals'),
    plant(
      'src/install',
      "import { parse } from 'toml-eslint-parser'; import fs from 'node:fs'; export { fs, parse };",
      null,
    ),
    plant('src/install', "import type { Catalog } from '../core/types.js'; export type { Catalog };", null),
  ],
  'src/cli: everything but the SDK, and the process': [
    plant(
      'src/cli/commands',
      "import * as sdk from '@modelcontextprotocol/server'; export { sdk };",
      'imports',
    ),
    plant('src/cli/commands', 'export const argv = process.argv;', null),
    plant(
      'src/cli/commands',
      "import { serveHttp } from '../../mcp/serve-http.js'; export { serveHttp };",
      null,
    ),
    plant('src/cli', "import { createDevModel } from '../ui/dev-state.js'; export { createDevModel };", null),
  ],
};

/** Rules for fixed file names (the API entry points, install's plan and apply): each gets its own tree. */
const FILE_PLANTS: readonly { name: string; file: string; code: string; rejected: boolean }[] = [
  {
    name: 'src/api/index.ts loads no SDK: no src/mcp',
    file: 'src/api/index.ts',
    code: "export { serveHttp } from '../mcp/serve-http.js';",
    rejected: true,
  },
  {
    name: 'src/api/index.ts re-exports core and fs',
    file: 'src/api/index.ts',
    code: "export { readSnapshot } from '../fs/read-snapshot.js';",
    rejected: false,
  },
  {
    name: 'src/api/server.ts reaches the SDK only through src/mcp',
    file: 'src/api/server.ts',
    code: "export { Server } from '@modelcontextprotocol/server';",
    rejected: true,
  },
  {
    name: 'src/api/server.ts re-exports the transports',
    file: 'src/api/server.ts',
    code: "export { serveHttp } from '../mcp/serve-http.js';",
    rejected: false,
  },
  {
    name: 'src/api/index.ts imports no package itself',
    file: 'src/api/index.ts',
    code: "export { default as chokidar } from 'chokidar';",
    rejected: true,
  },
  {
    name: "install's plan reads no node:fs (only through an InstallDisk)",
    file: 'src/install/install-plan.ts',
    code: "import { readFileSync } from 'node:fs'; export { readFileSync };",
    rejected: true,
  },
  {
    name: "install's apply writes no node:fs (only through an InstallFs)",
    file: 'src/install/install-apply.ts',
    code: "import fs from 'node:fs'; export { fs };",
    rejected: true,
  },
  {
    name: "install's report renders values, no node:fs",
    file: 'src/install/report/format-install.ts',
    code: "import { existsSync } from 'node:fs'; export { existsSync };",
    rejected: true,
  },
  {
    name: "install's plan still follows install's room (no SDK)",
    file: 'src/install/install-plan.ts',
    code: "import * as sdk from '@modelcontextprotocol/server'; export { sdk };",
    rejected: true,
  },
  {
    name: 'install-fs.ts is where node:fs lives',
    file: 'src/install/install-fs.ts',
    code: "import fs from 'node:fs'; export { fs };",
    rejected: false,
  },
];

/**
 * Files outside `src/cli` that still read `process`, exempted by name in `biome.json`. Each is a default an
 * adapter falls back to when its caller passes nothing, or the running user's id; moving them into `src/cli`
 * means passing the value in. Shrink this list; the test fails when biome.json and it differ.
 */
const PROCESS_ALLOWLIST: Record<string, string> = {
  'src/fs/read-snapshot.ts': 'counts its open descriptors in /proc/<pid>/fd',
  'src/fs/apply-fixes.ts': "temp names carry the pid; a root run keeps the file's owner (getuid)",
  'src/mcp/serve-stdio.ts': 'stdin/stdout are the defaults of the public serveStdio',
  'src/ui/app.tsx': '$VISUAL/$EDITOR default to process.env',
  'src/install/install-fs.ts':
    "the real disk's user (getuid): a config of another user is refused, a root run keeps owners",
};

interface BiomeDiagnostic {
  readonly category: string;
  readonly message: string;
  readonly location: { readonly path: string; readonly start: { readonly line: number } };
}

/** Runs the real biome over `dir` (which holds a copy of the configuration) and answers its diagnostics. */
function lint(dir: string, paths: readonly string[]): Promise<readonly BiomeDiagnostic[]> {
  return new Promise((resolve, reject) => {
    execFile(
      biome,
      ['lint', '--vcs-enabled=false', '--reporter=json', '--max-diagnostics=none', ...paths],
      { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout) => {
        try {
          resolve((JSON.parse(stdout) as { diagnostics: BiomeDiagnostic[] }).diagnostics);
        } catch {
          reject(error ?? new Error(`biome printed no report: ${stdout}`));
        }
      },
    );
  });
}

function copyConfig(project: TempProject): void {
  cpSync(join(repoRoot, 'biome.json'), project.path('biome.json'));
  cpSync(join(repoRoot, 'scripts', 'lint'), project.path('scripts/lint'), { recursive: true });
}

const boundary = (diagnostics: readonly BiomeDiagnostic[], file: string) =>
  diagnostics.filter((d) => d.location.path === file && Object.values(CATEGORIES).includes(d.category));

describe('the rooms, enforced by the lint', () => {
  let project: TempProject;
  let diagnostics: readonly BiomeDiagnostic[];
  beforeAll(async () => {
    project = createTempProject({}, { prefix: 'companion-rooms-' });
    copyConfig(project);
    for (const plants of Object.values(PLANTS)) for (const p of plants) project.write(p.file, `${p.code}\n`);
    diagnostics = await lint(project.root, ['src']);
  });
  afterAll(() => project.cleanup());

  for (const [room, plants] of Object.entries(PLANTS)) {
    describe(room, () => {
      for (const p of plants) {
        const verdict = p.rejectedBy === null ? 'passes' : `is rejected by ${p.rejectedBy}`;
        it(`${p.file.replace(/planted-\d+/, '…')}: \`${p.code}\` ${verdict}`, () => {
          const found = boundary(diagnostics, p.file);
          if (p.rejectedBy === null) expect(found).toEqual([]);
          else {
            expect(found.map((d) => d.category)).toContain(CATEGORIES[p.rejectedBy]);
            expect(found.every((d) => d.location.start.line === 1)).toBe(true);
          }
        });
      }
    });
  }

  describe('rules for fixed file names', () => {
    // Plants of the same file go to different trees; one biome run per tree.
    const trees: Map<string, (typeof FILE_PLANTS)[number]>[] = [];
    for (const plant of FILE_PLANTS) {
      const tree = trees.find((t) => !t.has(plant.file)) ?? trees[trees.push(new Map()) - 1]!;
      tree.set(plant.file, plant);
    }
    const results = new Map<(typeof FILE_PLANTS)[number], readonly BiomeDiagnostic[]>();
    beforeAll(async () => {
      for (const plants of trees) {
        const tree = createTempProject(
          Object.fromEntries([...plants.values()].map((p) => [p.file, `${p.code}\n`])),
          { prefix: 'companion-rooms-' },
        );
        try {
          copyConfig(tree);
          const diagnostics = await lint(tree.root, ['src']);
          for (const plant of plants.values()) results.set(plant, boundary(diagnostics, plant.file));
        } finally {
          tree.cleanup();
        }
      }
    });
    for (const plant of FILE_PLANTS) {
      it(plant.name, () => {
        expect(results.get(plant)!.length > 0).toBe(plant.rejected);
      });
    }
  });

  it('the real tree passes every room rule', async () => {
    const found = (await lint(repoRoot, ['src'])).filter((d) =>
      Object.values(CATEGORIES).includes(d.category),
    );
    expect(found.map((d) => `${d.location.path}:${d.location.start.line} ${d.message}`)).toEqual([]);
  });

  it('exempts from the process rule exactly the files listed here, each with its reason', () => {
    const config = JSON.parse(readFileSync(join(repoRoot, 'biome.json'), 'utf8')) as {
      overrides: { includes: string[]; linter?: { rules?: { style?: Record<string, unknown> } } }[];
    };
    const processRule = config.overrides.find(
      (o) => o.includes[0] === 'src/**' && o.linter?.rules?.style?.noRestrictedGlobals !== undefined,
    );
    expect(processRule).toBeDefined();
    const exempt = processRule!.includes
      .filter((g) => g.startsWith('!') && !g.endsWith('/**'))
      .map((g) => g.slice(1));
    expect(exempt.sort()).toEqual(Object.keys(PROCESS_ALLOWLIST).sort());
  });
});
