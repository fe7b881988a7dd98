import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildCatalog, PRIORITY, resolveLink } from '../../src/core/catalog.js';
import { buildSnapshot, readFixture } from '../helpers/snapshot.js';

const valid = readFixture('valid');

describe('buildCatalog on a valid repository', () => {
  const { catalog, diagnostics } = buildCatalog(buildSnapshot(valid));

  it('reports nothing', () => {
    expect(diagnostics).toEqual([]);
  });

  it('lists the index first, then documents, then published skills', () => {
    expect(catalog.resources.map((r) => r.uri)).toEqual([
      'fixture://guides',
      'fixture://guides/any/guides/first',
      'fixture://guides/local/process/second',
      'fixture://skill/alpha/SKILL.md',
      'fixture://skill/beta/SKILL.md',
    ]);
  });

  it('serves a draft nowhere', () => {
    const everything = JSON.stringify({
      resources: catalog.resources,
      skills: catalog.skills,
      uris: [...catalog.contents.keys()],
      index: catalog.contents.get(catalog.indexUri)?.text,
    });
    expect(everything).not.toContain('gamma');
  });

  it('answers exactly its URIs: a document is never found by its file path, whatever form contents keeps', () => {
    const uris = [...catalog.contents.keys()];
    expect(uris.every((uri) => uri.startsWith('fixture://'))).toBe(true);
    for (const uri of uris) expect(catalog.contents.get(uri)).toBeDefined();
    for (const key of [
      'knowledge/documents/any/guides/first.md',
      'knowledge/documents/local/process/second.md',
      'fixture://guides/any/guides/first.md',
      'fixture://guides/../guides/any/guides/first',
    ]) {
      expect(catalog.contents.has(key)).toBe(false);
      expect(catalog.contents.get(key)).toBeUndefined();
    }
  });

  it('declares sizes and digests of exactly the bytes served', () => {
    for (const resource of catalog.resources) {
      const content = catalog.contents.get(resource.uri)!;
      expect(resource.size).toBe(content.bytes.byteLength);
      expect(Buffer.byteLength(content.text!, 'utf8')).toBe(resource.size);
    }
    for (const skill of catalog.skills) {
      for (const entry of skill.manifest) {
        const content = catalog.contents.get(entry.uri)!;
        expect(entry.size).toBe(content.bytes.byteLength);
        expect(entry.digest).toBe(`sha256:${createHash('sha256').update(content.bytes).digest('hex')}`);
      }
    }
  });

  it('serves skills/base.md as references/base.md in every skill, byte for byte', () => {
    for (const skill of catalog.skills) {
      const base = catalog.contents.get(`fixture://skill/${skill.id}/references/base.md`);
      expect(Buffer.from(base!.bytes).toString()).toBe(valid['skills/base.md']);
      expect(skill.manifest.map((m) => m.uri)).toContain(base!.uri);
    }
    expect(catalog.skills[0]!.manifest.map((m) => m.uri)).toEqual([
      'fixture://skill/alpha/SKILL.md',
      'fixture://skill/alpha/references/base.md',
      'fixture://skill/alpha/references/checklist.md',
    ]);
  });

  it('orders priorities: index above all, transferable above local, templates below everything listed', () => {
    const [index, ...rest] = catalog.resources;
    expect(index!.annotations.priority).toBe(PRIORITY.index);
    for (const r of rest) expect(r.annotations.priority).toBeLessThan(index!.annotations.priority);
    const byUri = new Map(catalog.resources.map((r) => [r.uri, r.annotations.priority]));
    expect(byUri.get('fixture://guides/any/guides/first')).toBeGreaterThan(
      byUri.get('fixture://guides/local/process/second')!,
    );
    expect(byUri.get('fixture://skill/alpha/SKILL.md')).toBeGreaterThan(
      byUri.get('fixture://skill/beta/SKILL.md')!,
    );
    const lowest = Math.min(...catalog.resources.map((r) => r.annotations.priority));
    for (const t of catalog.templates) expect(t.annotations.priority).toBeLessThan(lowest);
  });

  it('derives descriptions from front matter and the scope sentence; a skill says it is a workflow', () => {
    const doc = catalog.resources.find((r) => r.uri === 'fixture://guides/any/guides/first')!;
    expect(doc.description).toBe('The first guide. When testing. Holds wherever you work.');
    const skill = catalog.resources.find((r) => r.uri === 'fixture://skill/beta/SKILL.md')!;
    expect(skill.description).toMatch(/^A workflow to follow .* not a page to read/);
    expect(skill.description).toContain('Does beta things. Use when beta is needed.');
    expect(skill.description).toMatch(/Stops at this repository\.$/);
    for (const r of catalog.resources) expect(r.annotations).not.toHaveProperty('audience');
  });

  it('keeps front matter as written, with YAML 1.2 core types', () => {
    expect(catalog.skills[0]!.frontmatter).toEqual({
      name: 'alpha',
      description: 'Does alpha things. Use when alpha is needed.',
      license: 'MIT',
      metadata: { version: '1.0' },
    });
  });

  it('builds the index from coverage, documents and skills', () => {
    const index = JSON.parse(catalog.contents.get('fixture://guides')!.text!);
    expect(index.purpose).toBe('A minimal valid content repository for tests.');
    expect(index.covers[0]).toMatchObject({
      id: 'general',
      scope: 'any',
      documents: ['fixture://guides/any/guides/first'],
      skills: ['fixture://skill/alpha/SKILL.md'],
    });
    expect(index.skills[1]).toEqual({
      id: 'beta',
      title: 'Beta',
      uri: 'fixture://skill/beta/SKILL.md',
      files: ['fixture://skill/beta/SKILL.md', 'fixture://skill/beta/references/base.md'],
    });
  });

  it('assembles the instructions', () => {
    expect(catalog.instructions).toBe(
      'Read the index first.\n\nWhat to call for what:\n- How do I do a thing?: task_guide\n- What does a document say?: document_lookup\n\nFollow the skill task_guide names.',
    );
  });

  it('splits documents into sections outside code fences', () => {
    const doc = catalog.documents.find((d) => d.id === 'any/guides/first')!;
    expect(doc.title).toBe('First guide');
    expect(doc.sections.map((s) => s.heading)).toEqual(['', 'Section one', 'Section two']);
  });

  it('is deterministic', () => {
    const again = buildCatalog(buildSnapshot(valid));
    expect(again.catalog.resources).toEqual(catalog.resources);
    expect([...again.catalog.contents.values()].map((c) => c.digest)).toEqual(
      [...catalog.contents.values()].map((c) => c.digest),
    );
  });
});

describe('excluded tools', () => {
  it('drop from instructions, routing and topics nothing else answers; the resource list stays', () => {
    const full = buildCatalog(buildSnapshot(valid)).catalog;
    const { catalog } = buildCatalog(buildSnapshot(valid), { excludeTools: ['task_guide', 'skill_load'] });
    expect(catalog.tools).toEqual(['document_lookup']);
    // Not even to say they are missing: a model that reads a tool's name tends to call it.
    expect(catalog.instructions).not.toContain('task_guide');
    expect(catalog.instructions).not.toContain('skill_load');
    expect(catalog.instructions).toBe(
      'Read the index first.\n\nWhat to call for what:\n- What does a document say?: document_lookup',
    );
    expect(catalog.coverage.routing).toEqual([]);
    expect(catalog.coverage.topics.map((t) => t.tools)).toEqual([['document_lookup'], ['document_lookup']]);
    expect(catalog.resources.map((r) => r.uri)).toEqual(full.resources.map((r) => r.uri));
    const index = catalog.contents.get(catalog.indexUri)!.text!;
    expect(index).not.toContain('task_guide');
  });
});

describe('excluded tools in the prose of the instructions', () => {
  it('take away only the sentences that name them, matched as whole words', () => {
    const start =
      'Read the index first. Then call task_guide with the task!  Keep task_guidelines in mind? Always cite.';
    // Edited as text: the fixture's `then` paragraph is replaced where it stands.
    const scopeText = (valid['knowledge/server-scope.json'] as string)
      .replace('"Read the index first."', JSON.stringify(start))
      .replace('"Follow the skill task_guide names."', '"Call skill_load. Use document_lookup for facts."');
    const files = { ...valid, 'knowledge/server-scope.json': scopeText };
    const { catalog } = buildCatalog(buildSnapshot(files), { excludeTools: ['task_guide', 'skill_load'] });
    expect(catalog.instructions).toBe(
      'Read the index first.  Keep task_guidelines in mind? Always cite.\n\n' +
        'What to call for what:\n- What does a document say?: document_lookup\n\n' +
        'Use document_lookup for facts.',
    );
    // With nothing excluded, the prose is exactly as written.
    expect(buildCatalog(buildSnapshot(files)).catalog.instructions).toContain(start);
  });
});

describe('a notice', () => {
  it("goes in front of the instructions and is fitted to the budget, never reported as the author's error", () => {
    const { catalog } = buildCatalog(buildSnapshot(valid), { notice: 'Copies are stale.' });
    expect(catalog.notice).toBe('Copies are stale.');
    expect(catalog.instructions).toMatch(/^Copies are stale\.\n\nRead the index first\./);
    const long = buildCatalog(buildSnapshot(valid), { notice: 'stale '.repeat(400) });
    expect(long.catalog.instructions.length).toBeLessThanOrEqual(2048);
    expect(long.diagnostics).toEqual([]);
  });
});

describe('the listing budget', () => {
  const withBudget = (budget: number) => {
    const scope = JSON.parse(valid['knowledge/server-scope.json']!);
    return {
      ...valid,
      'knowledge/server-scope.json': JSON.stringify({ ...scope, descriptionBudget: budget }),
    };
  };
  // alpha (5 + 44 + 4) + beta (4 + 42 + 4) = 103 characters.
  it('is read from the scope file', () => {
    const over = buildCatalog(buildSnapshot(withBudget(102))).diagnostics.map((d) => d.code);
    expect(over).toContain('CMP410');
    expect(buildCatalog(buildSnapshot(withBudget(103))).diagnostics).toEqual([]);
  });

  it('is overridden by the build options', () => {
    const { diagnostics } = buildCatalog(buildSnapshot(withBudget(10_000)), { descriptionBudget: 50 });
    expect(diagnostics.map((d) => d.code)).toEqual(['CMP410']);
  });
});

describe('resolveLink', () => {
  it('resolves like a URI against the file', () => {
    expect(resolveLink('SKILL.md', 'references/a.md')).toBe('references/a.md');
    expect(resolveLink('references/a.md', 'b.md#x')).toBe('references/b.md');
    expect(resolveLink('references/a.md', '../SKILL.md')).toBe('SKILL.md');
    expect(resolveLink('SKILL.md', '../other/SKILL.md')).toBeUndefined();
    expect(resolveLink('SKILL.md', '/abs.md')).toBeUndefined();
    expect(resolveLink('SKILL.md', 'https://example.com')).toBeNull();
    expect(resolveLink('SKILL.md', '#top')).toBeNull();
  });
});
