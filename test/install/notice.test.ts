import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/core/catalog.js';
import { readSnapshot } from '../../src/fs/read-snapshot.js';
import { readPublicationNotice, withPublicationNotice } from '../../src/install/notice.js';
import { connectStdio } from '../helpers/mcp-client.js';
import { createSandbox, type Sandbox } from './helpers.js';

let sandbox: Sandbox | undefined;
afterEach(() => {
  sandbox?.cleanup();
  sandbox = undefined;
});

describe('the stale-copies notice', () => {
  it('is absent while the published copies match, and names the directory once the content moved on', async () => {
    sandbox = createSandbox();
    expect((await sandbox.install('--client', 'claude-code', '--root', sandbox.root)).code).toBe(0);
    const fresh = buildCatalog(readSnapshot(sandbox.root)).catalog;
    expect(readPublicationNotice(sandbox.project, fresh)).toBeUndefined();

    writeFileSync(join(sandbox.root, 'skills', 'base.md'), '# Where every task starts\n\nChanged.\n');
    const moved = buildCatalog(readSnapshot(sandbox.root)).catalog;
    expect(readPublicationNotice(sandbox.project, moved)).toMatch(
      /\.claude\/skills.*stale: run `npx companion install`/,
    );

    const { catalog } = withPublicationNotice(sandbox.project)(buildCatalog(readSnapshot(sandbox.root)));
    expect(catalog.instructions).toMatch(
      /^The skills published into this project \(\.claude\/skills\) are stale/,
    );
  });

  it('reaches a host through companion serve started in the project', async () => {
    sandbox = createSandbox();
    expect((await sandbox.install('--client', 'generic', '--root', sandbox.root)).code).toBe(0);
    writeFileSync(join(sandbox.root, 'skills', 'base.md'), '# Where every task starts\n\nChanged again.\n');
    const connection = await connectStdio({ root: sandbox.root, cwd: sandbox.project });
    try {
      expect(connection.client.getInstructions()).toMatch(
        /^The skills published into this project \(\.agents\/skills\) are stale/,
      );
    } finally {
      await connection.close();
    }
  });
});
