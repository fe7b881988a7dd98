import { Dirent, realpathSync, Stats } from 'node:fs';
import { relative } from 'node:path';
import { type FSWatcher, watch } from 'chokidar';
import { afterEach, describe, expect, it } from 'vitest';
import { listWithTypes } from '../../src/fs/chokidar-scan.js';
import { createTempProject, type TempProject } from '../helpers/temp-project.js';

const open: { watcher: FSWatcher; project: TempProject }[] = [];
afterEach(async () => {
  for (const { watcher, project } of open.splice(0)) {
    await watcher.close();
    project.cleanup();
  }
});

/** A real chokidar watcher on a temp tree, as the watcher configures it, recording what `ignored` is asked. */
async function scan(files: Record<string, string>, install: boolean) {
  const project = createTempProject(files);
  const root = realpathSync(project.root);
  const asked = new Map<string, unknown>();
  const watcher = watch(root, {
    ignoreInitial: true,
    followSymlinks: false,
    ignorePermissionErrors: true,
    ignored: (absolute: string, stats?: { isFile(): boolean }) => {
      if (stats !== undefined) asked.set(relative(root, absolute), stats);
      return stats?.isFile() === true;
    },
  });
  open.push({ watcher, project });
  const installed = install ? listWithTypes(watcher) : false;
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return { project, root, watcher, asked, installed };
}

const tree = {
  'skills/a/SKILL.md': 'A',
  'skills/a/references/one.md': 'one',
  'knowledge/documents/any/doc.md': 'doc',
};

describe('listWithTypes (chokidar 5.0.0)', () => {
  it("scans with the listing's types: every file is judged from a Dirent, never an lstat's Stats", async () => {
    const { asked, installed, watcher, root } = await scan(tree, true);
    expect(installed).toBe(true);
    for (const file of [
      'skills/a/SKILL.md',
      'skills/a/references/one.md',
      'knowledge/documents/any/doc.md',
    ]) {
      expect(asked.get(file)).toBeInstanceOf(Dirent);
    }
    // Directories are still watched: chokidar knows every one of them.
    const watched = Object.keys(watcher.getWatched()).map((dir) => relative(root, dir));
    expect(watched).toEqual(
      expect.arrayContaining(['skills/a', 'skills/a/references', 'knowledge/documents/any']),
    );
  });

  it('without it, chokidar lstats every file (what the scan saves)', async () => {
    const { asked } = await scan(tree, false);
    expect(asked.get('skills/a/SKILL.md')).toBeInstanceOf(Stats);
  });

  it('still hears a new directory and a new file in it after the scan', async () => {
    const { project, watcher, root } = await scan(tree, true);
    const heard = new Promise<string>((resolve) =>
      watcher.on('addDir', (absolute: string) => {
        const path = relative(root, absolute);
        if (path === 'skills/b') resolve(path);
      }),
    );
    project.write('skills/b/SKILL.md', 'B');
    expect(await heard).toBe('skills/b');
  });

  it('changes nothing on an object that is no chokidar watcher', () => {
    const fake = { on() {} };
    expect(listWithTypes(fake)).toBe(false);
    expect(Object.keys(fake)).toEqual(['on']);
  });
});
