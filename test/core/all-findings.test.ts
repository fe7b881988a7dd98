/**
 * Every validation that can run on a file runs in one pass: a document or skill with three independent problems
 * reports all three at once, instead of the next one appearing only after the first is fixed.
 */
import { describe, expect, it } from 'vitest';
import { checkDocumentFields } from '../../src/core/document-fields.js';
import { readDocument } from '../../src/core/documents.js';
import { readSkill } from '../../src/core/skills.js';
import type { SourceFile } from '../../src/core/types.js';

const file = (path: string, text: string): SourceFile => ({
  path,
  bytes: new TextEncoder().encode(text),
  mtimeMs: 0,
});
const codesOf = (diagnostics: readonly { code: string }[]) => diagnostics.map((d) => d.code).sort();

describe('one pass, every finding', () => {
  it('a document with an unknown key, no description and no title reports all three', () => {
    const read = readDocument(file('knowledge/documents/any/x.md', '---\ntitle: X\n---\nNo heading here.\n'));
    expect(read.document).toBeUndefined();
    // An unknown key is one the scope file does not declare either: the declarations' check reports it.
    const fields = checkDocumentFields(read.keys!, {});
    expect(codesOf([...read.diagnostics, ...fields.diagnostics])).toEqual(['CMP303', 'CMP304', 'CMP305']);
  });

  it('a document whose front matter does not parse still has its body checked', () => {
    const read = readDocument(
      file('knowledge/documents/any/x.md', '---\ndescription: [unclosed\n---\n# One\n\n# Two\n'),
    );
    expect(codesOf(read.diagnostics)).toEqual(['CMP302', 'CMP304']);
  });

  it('a document outside any scope and without front matter reports both', () => {
    const read = readDocument(file('knowledge/documents/loose.md', 'Plain text.\n'));
    expect(codesOf(read.diagnostics)).toEqual(['CMP206', 'CMP301', 'CMP304']);
  });

  it('a skill whose front matter does not parse still has its title and files checked', () => {
    const files = new Map([
      ['SKILL.md', file('skills/demo/SKILL.md', '---\nname: [demo\n---\nNo title.\n')],
      ['references/base.md', file('skills/demo/references/base.md', '# Own base\n')],
    ]);
    const read = readSkill('demo', files, 0);
    expect(read.skill).toBeUndefined();
    expect(codesOf(read.diagnostics)).toEqual(['CMP403', 'CMP414', 'CMP416']);
  });

  it('a skill with a bad name and a bad description reports both, and is not served', () => {
    const files = new Map([
      ['SKILL.md', file('skills/demo/SKILL.md', '---\nname: Demo_Skill\ndescription: ""\n---\n# Demo\n')],
    ]);
    const read = readSkill('demo', files, 0);
    expect(read.skill).toBeUndefined();
    expect(codesOf(read.diagnostics)).toEqual(['CMP404', 'CMP405']);
  });
});
