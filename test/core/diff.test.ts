import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffCatalogs } from '../../src/core/diff.js';
import type {
  Catalog,
  ListedResource,
  ManifestEntry,
  ResourceTemplateEntry,
  ServedContent,
  SkillEntry,
} from '../../src/core/types.js';

const digest = (seed: string) => `sha256:${seed.padEnd(64, '0')}`;

function content(uri: string, seed: string): ServedContent {
  const bytes = new TextEncoder().encode(seed);
  return { uri, mimeType: 'text/markdown', bytes, text: seed, digest: digest(seed), size: bytes.length };
}

function listed(uri: string, overrides: Partial<ListedResource> = {}): ListedResource {
  return {
    uri,
    name: uri,
    title: `Title of ${uri}`,
    description: `About ${uri}`,
    mimeType: 'text/markdown',
    size: 10,
    annotations: { priority: 0.5, lastModified: '2026-01-01T00:00:00.000Z' },
    ...overrides,
  };
}

const template: ResourceTemplateEntry = {
  uriTemplate: 'demo://guides/{+documentId}',
  name: 'documents',
  title: 'Documents',
  description: 'Every document',
  mimeType: 'text/markdown',
  annotations: { priority: 0.5 },
};

function skill(id: string, manifest: ManifestEntry[]): SkillEntry {
  return {
    id,
    uri: `demo://skill/${id}/SKILL.md`,
    title: id,
    description: `Skill ${id}`,
    frontmatter: { name: id },
    body: '',
    files: manifest.map((entry) => ({
      path: entry.uri.split('/').slice(4).join('/'),
      uri: entry.uri,
      source: `skills/${id}/x`,
    })),
    manifest,
  };
}

interface Parts {
  resources?: ListedResource[];
  templates?: ResourceTemplateEntry[];
  contents?: ServedContent[];
  skills?: SkillEntry[];
}

function catalog(parts: Parts = {}): Catalog {
  return {
    server: { name: 'demo', title: 'Demo', version: '1.0.0', scheme: 'demo' },
    instructions: '',
    coverage: { purpose: '', scopes: [], topics: [], routing: [], notCovered: [] },
    tools: [],
    indexUri: 'demo://guides',
    resources: parts.resources ?? [listed('demo://guides'), listed('demo://guides/a')],
    templates: parts.templates ?? [template],
    contents: new Map((parts.contents ?? []).map((c) => [c.uri, c])),
    documents: [],
    skills: parts.skills ?? [],
    prompts: [],
  };
}

describe('diffCatalogs', () => {
  it('reports nothing when nothing a host sees changed', () => {
    const contents = [content('demo://guides', 'index'), content('demo://guides/a', 'a')];
    const a = catalog({ contents });
    // Equal values in fresh objects, as a rebuild from identical bytes produces.
    const b = catalog({ contents: contents.map((c) => ({ ...c })) });
    expect(diffCatalogs(a, b)).toEqual({ listChanged: false, updatedUris: [], promptsListChanged: false });
  });

  it.each([
    ['title', { title: 'New' }],
    ['name', { name: 'other' }],
    ['description', { description: 'New' }],
    ['mimeType', { mimeType: 'text/plain' }],
    ['size', { size: 11 }],
    ['priority', { annotations: { priority: 0.9, lastModified: '2026-01-01T00:00:00.000Z' } }],
    ['lastModified', { annotations: { priority: 0.5, lastModified: '2026-02-01T00:00:00.000Z' } }],
    ['lastModified removed', { annotations: { priority: 0.5 } }],
  ] as const)('sets listChanged when a listed %s changes', (_field, overrides) => {
    const a = catalog();
    const b = catalog({ resources: [listed('demo://guides'), listed('demo://guides/a', overrides)] });
    expect(diffCatalogs(a, b).listChanged).toBe(true);
  });

  it('sets listChanged when a URI is added, removed, or the order changes', () => {
    const base = catalog();
    const added = catalog({
      resources: [listed('demo://guides'), listed('demo://guides/a'), listed('demo://guides/b')],
    });
    const removed = catalog({ resources: [listed('demo://guides')] });
    const reordered = catalog({ resources: [listed('demo://guides/a'), listed('demo://guides')] });
    expect(diffCatalogs(base, added).listChanged).toBe(true);
    expect(diffCatalogs(base, removed).listChanged).toBe(true);
    expect(diffCatalogs(base, reordered).listChanged).toBe(true);
  });

  it('sets listChanged when a template changes', () => {
    const changed = catalog({ templates: [{ ...template, description: 'Other' }] });
    const removed = catalog({ templates: [] });
    expect(diffCatalogs(catalog(), changed).listChanged).toBe(true);
    expect(diffCatalogs(catalog(), removed).listChanged).toBe(true);
  });

  it('lists every URI whose digest changed, appeared or vanished, sorted, without touching the list', () => {
    const a = catalog({
      contents: [
        content('demo://guides', 'i1'),
        content('demo://guides/b', 'b'),
        content('demo://guides/gone', 'g'),
      ],
    });
    const b = catalog({
      contents: [
        content('demo://guides', 'i2'),
        content('demo://guides/b', 'b'),
        content('demo://guides/a', 'new'),
      ],
    });
    expect(diffCatalogs(a, b)).toEqual({
      listChanged: false,
      updatedUris: ['demo://guides', 'demo://guides/a', 'demo://guides/gone'],
      promptsListChanged: false,
    });
  });

  it("adds a skill's SKILL.md when any file of its manifest changed, even if SKILL.md itself did not", () => {
    const uri = (path: string) => `demo://skill/demo/${path}`;
    const entry = (path: string, seed: string): ManifestEntry => ({
      uri: uri(path),
      digest: digest(seed),
      size: 1,
    });
    const before = catalog({
      contents: [content(uri('SKILL.md'), 's'), content(uri('scripts/run.sh'), 'r1')],
      skills: [skill('demo', [entry('SKILL.md', 's'), entry('scripts/run.sh', 'r1')])],
    });
    const edited = catalog({
      contents: [content(uri('SKILL.md'), 's'), content(uri('scripts/run.sh'), 'r2')],
      skills: [skill('demo', [entry('SKILL.md', 's'), entry('scripts/run.sh', 'r2')])],
    });
    const fileAdded = catalog({
      contents: [
        content(uri('SKILL.md'), 's'),
        content(uri('scripts/run.sh'), 'r1'),
        content(uri('x.md'), 'x'),
      ],
      skills: [skill('demo', [entry('SKILL.md', 's'), entry('scripts/run.sh', 'r1'), entry('x.md', 'x')])],
    });
    expect(diffCatalogs(before, edited).updatedUris).toEqual([uri('SKILL.md'), uri('scripts/run.sh')]);
    expect(diffCatalogs(before, fileAdded).updatedUris).toEqual([uri('SKILL.md'), uri('x.md')]);
    expect(diffCatalogs(before, before).updatedUris).toEqual([]);
  });

  it('is empty against itself and symmetric in the URIs it reports (property)', () => {
    const seeds = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', 'e'), fc.constantFrom('1', '2', '3'));
    fc.assert(
      fc.property(seeds, seeds, (left, right) => {
        const build = (entries: Record<string, string>) =>
          catalog({ contents: Object.entries(entries).map(([k, v]) => content(`demo://guides/${k}`, v)) });
        const a = build(left);
        const b = build(right);
        expect(diffCatalogs(a, a)).toEqual({
          listChanged: false,
          updatedUris: [],
          promptsListChanged: false,
        });
        expect(diffCatalogs(a, b).updatedUris).toEqual(diffCatalogs(b, a).updatedUris);
        const expected = [...new Set([...Object.keys(left), ...Object.keys(right)])]
          .filter((k) => left[k] !== right[k])
          .map((k) => `demo://guides/${k}`)
          .sort();
        expect(diffCatalogs(a, b).updatedUris).toEqual(expected);
      }),
    );
  });
});
