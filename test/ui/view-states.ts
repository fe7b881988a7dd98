/**
 * Hand-built catalogs, generations and view states for the UI tests: just the fields the dev UI reads, so a
 * test states exactly the coverage and diagnostics it is about.
 */
import type { Diagnostic } from '../../src/core/diagnostics.js';
import type { Catalog, CatalogChange, Generation, TopicEntry } from '../../src/core/types.js';
import type { SessionInfo } from '../../src/mcp/session-registry.js';
import { createInitialState, type DevState, type TimelineEntry } from '../../src/ui/dev-state.js';

/** A fixed clock: 2026-11-01 12:00:00 UTC. */
export const T0 = Date.UTC(2026, 10, 1, 12, 0, 0);

export interface CatalogSpec {
  readonly documents?: readonly string[];
  readonly skills?: readonly string[];
  readonly topics?: readonly Partial<TopicEntry>[];
}

/** A catalog serving these document and skill ids, covered by these topics. */
export function makeCatalog(spec: CatalogSpec = {}): Catalog {
  const topics: TopicEntry[] = (spec.topics ?? []).map((topic, index) => ({
    id: topic.id ?? `topic-${index}`,
    title: topic.title ?? `Topic ${index}`,
    scope: topic.scope ?? 'any',
    tools: topic.tools ?? [],
    documents: topic.documents ?? [],
    skills: topic.skills ?? [],
    prompts: topic.prompts ?? [],
  }));
  return {
    server: { name: 'demo', title: 'Demo content', version: '1.0.0', scheme: 'demo' },
    instructions: '',
    coverage: { purpose: '', scopes: [], topics, routing: [], notCovered: [] },
    tools: [],
    indexUri: 'demo://guides',
    resources: [],
    templates: [],
    contents: new Map(),
    documents: (spec.documents ?? []).map((id) => ({
      id,
      uri: `demo://guides/${id}`,
      path: `knowledge/documents/${id}.md`,
      title: id,
      scope: id.split('/')[0] ?? 'any',
      description: '',
      fields: {},
      body: '',
      sections: [],
    })),
    skills: (spec.skills ?? []).map((id) => ({
      id,
      uri: `demo://skill/${id}/SKILL.md`,
      title: id,
      description: '',
      frontmatter: {},
      body: '',
      files: [],
      manifest: [],
    })),
    prompts: [],
  };
}

export function makeGeneration(
  number: number,
  diagnostics: readonly Diagnostic[] = [],
  catalog: Catalog = makeCatalog(),
): Generation {
  return { number, catalog, diagnostics, builtAt: T0 + number * 1000 };
}

export function makeChange(
  previous: Generation,
  current: Generation,
  fields: Partial<Pick<CatalogChange, 'listChanged' | 'updatedUris' | 'changedPaths' | 'rebuildMs'>> = {},
): CatalogChange {
  return {
    previous,
    current,
    listChanged: fields.listChanged ?? false,
    updatedUris: fields.updatedUris ?? [],
    promptsListChanged: false,
    changedPaths: fields.changedPaths ?? ['skills/a/SKILL.md'],
    rebuildMs: fields.rebuildMs ?? 3,
  };
}

export function makeDiagnostic(fields: Partial<Diagnostic> = {}): Diagnostic {
  return {
    code: fields.code ?? 'CMP403',
    severity: fields.severity ?? 'error',
    ...(fields.file === undefined ? { file: 'skills/a/SKILL.md' } : { file: fields.file }),
    ...(fields.line === undefined ? { line: 3 } : { line: fields.line }),
    ...(fields.column === undefined ? {} : { column: fields.column }),
    message: fields.message ?? 'The description is empty.',
    hint: fields.hint ?? 'Write one.',
  };
}

export function makeSession(fields: Partial<SessionInfo> = {}): SessionInfo {
  return {
    ...fields,
    id: fields.id ?? 'session-1',
    transport: fields.transport ?? 'http',
    state: fields.state ?? 'active',
    lastActivityAt: fields.lastActivityAt ?? T0,
    ...(fields.clientInfo === undefined ? {} : { clientInfo: fields.clientInfo }),
    subscriptions: fields.subscriptions ?? [],
    connectedAt: fields.connectedAt ?? T0,
    ...(fields.lastNotification === undefined ? {} : { lastNotification: fields.lastNotification }),
    rereadSinceNotification: fields.rereadSinceNotification ?? false,
  };
}

/** The initial state over `generation`, at a fixed URL and root. */
export function makeState(
  generation: Generation = makeGeneration(1),
  sessions: readonly SessionInfo[] = [],
): DevState {
  return createInitialState({
    url: 'http://127.0.0.1:3917/mcp',
    root: '/home/ada/content',
    generation,
    sessions,
  });
}

/** One timeline entry: a save of `knowledge/a.md` that sent nothing, at `T0` unless told. */
export function makeTimelineEntry(fields: Partial<TimelineEntry> = {}): TimelineEntry {
  return {
    at: T0,
    files: [{ kind: 'saved', path: 'knowledge/a.md' }],
    listChanged: false,
    promptsListChanged: false,
    updated: 0,
    hosts: 0,
    sent: [],
    added: 0,
    fixed: 0,
    held: 0,
    ...fields,
  };
}
