import { chmodSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/core/catalog.js';
import type { Catalog } from '../../src/core/types.js';
import { readSnapshot } from '../../src/fs/read-snapshot.js';
import { readPublicationNotice } from '../../src/install/notice.js';
import { buildPublication, buildPublicationDigest } from '../../src/install/publication.js';
import { RECORD_FILE } from '../../src/install/record.js';
import { copyFixture, type TempProject } from '../helpers/temp-project.js';
import { createSandbox, readText, type Sandbox } from './helpers.js';

function catalogOf(root: string): Catalog {
  return buildCatalog(readSnapshot(root)).catalog;
}

describe('buildPublication', () => {
  let content: TempProject;
  beforeEach(() => {
    content = copyFixture('valid');
  });
  afterEach(() => content.cleanup());

  it('publishes every published skill with its served bytes; base.md becomes references/base.md', () => {
    const publication = buildPublication(catalogOf(content.root));
    expect(publication.skills.map((s) => [s.id, s.files.map((f) => f.path)])).toEqual([
      ['alpha', ['SKILL.md', 'references/base.md', 'references/checklist.md']],
      ['beta', ['SKILL.md', 'references/base.md']],
    ]);
    const base = publication.skills[1]!.files[1]!;
    expect(Buffer.from(base.bytes).toString('utf8')).toBe(readText(content.path('skills/base.md')));
    expect(publication.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives each published file its source’s permission bits', () => {
    content.write('skills/alpha/scripts/run.sh', '#!/bin/sh\necho hi\n');
    chmodSync(content.path('skills/alpha/scripts/run.sh'), 0o755);
    chmodSync(content.path('skills/base.md'), 0o600);
    const alpha = buildPublication(catalogOf(content.root)).skills[0]!;
    const modes = Object.fromEntries(alpha.files.map((f) => [f.path, f.mode.toString(8)]));
    expect(modes).toEqual({
      'SKILL.md': '644',
      'references/base.md': '600',
      'references/checklist.md': '644',
      'scripts/run.sh': '755',
    });
  });

  it('has a digest that depends on the content only, and moves with any byte of it', () => {
    const first = buildPublication(catalogOf(content.root)).digest;
    expect(buildPublication(catalogOf(content.root)).digest).toBe(first);
    content.write('skills/base.md', `${readText(content.path('skills/base.md'))}\nOne more line.\n`);
    const changed = buildPublication(catalogOf(content.root)).digest;
    expect(changed).not.toBe(first);
    // Order of the input does not matter; framing does, and so does the mode.
    const file = (path: string, text: string, mode = 0o644) => ({ path, bytes: Buffer.from(text), mode });
    const a = { id: 'a', files: [file('x', '12')] };
    const b = { id: 'b', files: [file('x', '3')] };
    expect(buildPublicationDigest([a, b])).toBe(buildPublicationDigest([b, a]));
    const shifted = { id: 'a', files: [file('x', '1')] };
    const shiftedB = { id: 'b', files: [file('x', '23')] };
    expect(buildPublicationDigest([shifted, shiftedB])).not.toBe(buildPublicationDigest([a, b]));
    const executable = { id: 'a', files: [file('x', '12', 0o755)] };
    expect(buildPublicationDigest([executable, b])).not.toBe(buildPublicationDigest([a, b]));
  });
});

describe('readPublicationNotice', () => {
  let box: Sandbox;
  beforeEach(() => {
    box = createSandbox();
  });
  afterEach(() => box.cleanup());

  it('says nothing without a record, nothing while fresh, and names the stale directories after a change', async () => {
    expect(readPublicationNotice(box.project, catalogOf(box.root))).toBeUndefined();
    expect((await box.install('--root', box.root, '--client', 'claude-code,codex')).code).toBe(0);
    expect(readPublicationNotice(box.project, catalogOf(box.root))).toBeUndefined();

    box.temp.write(
      'content/skills/beta/SKILL.md',
      `${readText(`${box.root}/skills/beta/SKILL.md`)}\nEdited.\n`,
    );
    expect(readPublicationNotice(box.project, catalogOf(box.root))).toBe(
      'The skills published into this project (.agents/skills, .claude/skills) are stale: run `npx companion install`.',
    );
    expect((await box.install()).code).toBe(0);
    expect(readPublicationNotice(box.project, catalogOf(box.root))).toBeUndefined();
  });

  it('notices a recorded directory that is gone, an unreadable record, and ignores another server’s record', async () => {
    await box.install('--root', box.root, '--client', 'cursor');
    box.temp.remove('project/.cursor/skills');
    expect(readPublicationNotice(box.project, catalogOf(box.root))).toBe(
      'The skills published into this project (.cursor/skills) are stale: run `npx companion install`.',
    );
    const record = JSON.parse(readText(box.inProject(RECORD_FILE))) as Record<string, unknown>;
    box.temp.write(`project/${RECORD_FILE}`, JSON.stringify({ ...record, server: 'someone-else' }));
    expect(readPublicationNotice(box.project, catalogOf(box.root))).toBeUndefined();
    box.temp.write(`project/${RECORD_FILE}`, '{ not json');
    expect(readPublicationNotice(box.project, catalogOf(box.root))).toBe(
      'The record of the skills published into this project (.companion/state.json) cannot be read: run `npx companion install`.',
    );
  });
});
