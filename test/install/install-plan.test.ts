/**
 * `companion install`'s three parts on their own, with no disk: the plan is driven by values (a catalog built
 * from an in-memory snapshot, the host definitions, and a disk made of values), apply writes through a recording
 * `InstallFs`, and the report renders the result. The CLI tests (test/cli/install*.test.ts) hold the same run
 * end to end on real files.
 */
import { parse as parseJsonc } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/core/catalog.js';
import type { Catalog } from '../../src/core/types.js';
import type { InstallInput } from '../../src/install/install.js';
import { applyInstall } from '../../src/install/install-apply.js';
import { planInstall } from '../../src/install/install-plan.js';
import { formatInstallReport } from '../../src/install/report/format-install.js';
import { buildSnapshot, readFixture } from '../helpers/snapshot.js';
import { createMemoryFs, type MemoryFs } from './memory-fs.js';

const PROJECT = '/work/project';
const ROOT = '/work/content';
const catalog: Catalog = buildCatalog(buildSnapshot(readFixture('valid'))).catalog;

const input = (overrides: Partial<InstallInput> = {}): InstallInput => ({
  project: PROJECT,
  root: ROOT,
  catalog,
  clients: ['claude-code'],
  where: { home: '/home/user', env: { HOME: '/home/user' }, platform: 'linux' },
  execPath: '/usr/bin/node',
  ownBin: '/opt/companion/bin/companion.js',
  ...overrides,
});

const emptyProject = (): MemoryFs => createMemoryFs({ [PROJECT]: null, [`${ROOT}/skills`]: null });

describe('planInstall: values in, a plan out', () => {
  it('plans the config entry, the skills copies and the record, and writes nothing', () => {
    const disk = emptyProject();
    const plan = planInstall(input(), disk);
    expect(disk.calls).toEqual([]);
    expect(plan.refused).toBe(false);
    expect(plan.summary.chosen).toEqual({ how: 'given', found: [] });

    expect(plan.configs.files.map((f) => [f.shown, f.file.kind])).toEqual([['.mcp.json', 'absent']]);
    const config = parseJsonc(new TextDecoder().decode(plan.configs.files[0]!.after)) as {
      mcpServers: Record<string, unknown>;
    };
    expect(config.mcpServers.fixture).toEqual({
      type: 'stdio',
      command: 'node',
      args: ['/opt/companion/bin/companion.js', 'serve', '--root', ROOT],
    });

    expect(plan.directories.map((d) => d.outcome.shown)).toEqual(['.claude/skills']);
    const writes = plan.directories[0]!.operations.flatMap((op) => (op.op === 'write' ? [op.path] : []));
    expect(writes).toContain(`${PROJECT}/.claude/skills/alpha/SKILL.md`);
    expect(writes).toContain(`${PROJECT}/.claude/skills/beta/.gitignore`);
    expect(plan.record.skills).toEqual(['alpha', 'beta']);
  });

  it('detects the host from the directories present, as values', () => {
    const disk = createMemoryFs({ [`${PROJECT}/.cursor`]: null, [`${ROOT}/skills`]: null });
    const plan = planInstall(input({ clients: [] }), disk);
    expect(plan.summary.chosen).toEqual({ how: 'detected', found: ['.cursor/'] });
    expect(plan.summary.clients).toEqual(['cursor']);
  });

  it('refuses a read-only config, and apply then writes nothing', () => {
    const disk = createMemoryFs({
      [`${PROJECT}/.mcp.json`]: { kind: 'file', bytes: new TextEncoder().encode('{}\n'), writable: false },
    });
    const plan = planInstall(input(), disk);
    expect(plan.refused).toBe(true);
    const report = applyInstall(plan, disk, 'stamp');
    expect(disk.calls).toEqual([]);
    expect(report.failed).toBe(true);
    expect(formatInstallReport(report)).toContain('Refused Claude Code: .mcp.json is read-only');
  });
});

describe('applyInstall: the plan written through a recording fs', () => {
  it('writes exactly the plan, then a second plan finds nothing to change', () => {
    const fs = emptyProject();
    const plan = planInstall(input(), fs);
    const report = applyInstall(plan, fs, 'stamp');
    expect(report.changed).toBe(true);
    expect(report.failed).toBe(false);
    const writes = fs.calls.filter((c) => c.startsWith('write '));
    expect(writes).toEqual([
      `write ${PROJECT}/.mcp.json`,
      ...plan.directories[0]!.operations.map((op) => `write ${'path' in op ? op.path : ''}`),
      `write ${PROJECT}/.companion/state.json`,
      `write ${PROJECT}/.companion/.gitignore`,
    ]);
    expect(fs.text(`${PROJECT}/.mcp.json`)).toBe(new TextDecoder().decode(plan.configs.files[0]!.after));
    expect(JSON.parse(fs.text(`${PROJECT}/.companion/state.json`)!).skills).toEqual(['alpha', 'beta']);

    fs.calls.length = 0;
    const again = applyInstall(planInstall(input(), fs), fs, 'stamp2');
    expect(fs.calls).toEqual([]);
    expect(again.changed).toBe(false);
    expect(formatInstallReport(again)).toContain('Nothing changed: everything was already in place.');
  });

  it('backs up a config it edits before the edit', () => {
    const before = '{\n  "mcpServers": {\n    "other": { "command": "x" }\n  }\n}\n';
    const fs = createMemoryFs({ [`${PROJECT}/.mcp.json`]: before, [`${ROOT}/skills`]: null });
    const report = applyInstall(planInstall(input(), fs), fs, 'stamp');
    const backup = `${PROJECT}/.companion/backups/stamp/.mcp.json`;
    expect(fs.calls.indexOf(`write ${backup}`)).toBeLessThan(fs.calls.indexOf(`write ${PROJECT}/.mcp.json`));
    expect(fs.text(backup)).toBe(before);
    expect(report.backups).toEqual([{ shown: '.mcp.json', backup: '.companion/backups/stamp/.mcp.json' }]);
  });

  it('rolls back every write when one fails, leaving the disk as it was', () => {
    const fs = emptyProject();
    const plan = planInstall(input(), fs);
    const was = new Map(fs.entries);
    fs.failOn(/state\.json$/);
    const report = applyInstall(plan, fs, 'stamp');
    expect(report.aborted?.reason).toMatch(/^ENOSPC/);
    expect(report.aborted?.rollback.failed).toEqual([]);
    expect(new Map(fs.entries)).toEqual(was);
    expect(formatInstallReport(report)).toContain('every file is as it was before. Nothing was installed.');
  });
});
