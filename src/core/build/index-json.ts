/**
 * The index: one JSON document of what the server covers, for whom, which tool answers what, and every document,
 * skill and prompt it serves with its URI — the resource a host should read first. Its `lastModified` is the
 * newest of its inputs, kept current as units come and go without walking them all.
 */
import type { ParsedSkill } from '../skills.js';
import type {
  Coverage,
  DocumentEntry,
  ListedResource,
  PromptEntry,
  ServedContent,
  ServerIdentity,
  SkillEntry,
} from '../types.js';
import { buildSkillUri } from '../uris.js';
import { buildAnnotations, PRIORITY } from './entries.js';
import type { DocumentPositions } from './served-lists.js';
import type { DocumentUnit, SkillUnit } from './units.js';

export interface IndexInput {
  readonly server: ServerIdentity;
  readonly scheme: string;
  readonly coverage: Coverage;
  readonly documents: readonly DocumentEntry[];
  /** Each of `documents`' ids → its position in `documents`. */
  readonly documentIds: DocumentPositions;
  readonly skills: readonly SkillEntry[];
  readonly prompts: readonly PromptEntry[];
}

/** The index JSON, two-space indented, newline-terminated. */
export function buildIndexText(input: IndexInput): string {
  const { server, scheme, coverage, documents, skills, prompts } = input;
  const servedSkills = new Set(skills.map((s) => s.id));
  const servedPrompts = new Set(prompts.map((p) => p.name));
  const index = {
    server: { name: server.name, title: server.title, version: server.version },
    purpose: coverage.purpose,
    scopes: coverage.scopes.map((s) => ({
      id: s.id,
      title: s.title,
      transfers: s.transfers,
      sentence: s.sentence,
      ...(s.skillSentence === undefined ? {} : { skillSentence: s.skillSentence }),
    })),
    covers: coverage.topics.map((t) => ({
      id: t.id,
      topic: t.title,
      scope: t.scope,
      ...(t.depth === undefined ? {} : { depth: t.depth }),
      tools: t.tools,
      documents: servedDocumentUris(t.documents, input.documentIds, documents),
      skills: t.skills.filter((id) => servedSkills.has(id)).map((id) => buildSkillUri(scheme, id)),
      ...indexPrompts(t.prompts.filter((name) => servedPrompts.has(name))),
    })),
    routing: coverage.routing,
    notCovered: coverage.notCovered,
    documents: documents.map((d) => ({
      id: d.id,
      title: d.title,
      uri: d.uri,
      scope: d.scope,
      ...(Object.keys(d.fields).length === 0 ? {} : { fields: d.fields }),
    })),
    skills: skills.map((s) => ({
      id: s.id,
      title: s.title,
      uri: s.uri,
      ...(s.draft ? { draft: true } : {}),
      files: s.files.map((f) => f.uri),
    })),
    prompts: prompts.map((p) => ({
      name: p.name,
      ...(p.title === undefined ? {} : { title: p.title }),
      description: p.description,
      ...(p.scope === undefined ? {} : { scope: p.scope }),
      ...(p.source.kind === 'skill' ? { skill: p.source.id } : {}),
      ...(p.draft ? { draft: true } : {}),
      arguments: p.arguments.map((a) => ({ name: a.name, required: a.required })),
    })),
  };
  return `${JSON.stringify(index, null, 2)}\n`;
}

/**
 * The URIs of the served documents among `ids`, in their order: the string each one's entry holds, not a new one
 * built per id (XL's topics name 100,000).
 */
function servedDocumentUris(
  ids: readonly string[],
  positions: DocumentPositions,
  documents: readonly DocumentEntry[],
): string[] {
  const uris: string[] = [];
  for (const id of ids) {
    const at = positions.get(id);
    if (at !== undefined) uris.push(documents[at]!.uri);
  }
  return uris;
}

/** A topic's prompts in the index: only when it names any, so content without prompts reads as before. */
function indexPrompts(names: readonly string[]): { prompts?: readonly string[] } {
  return names.length === 0 ? {} : { prompts: names };
}

/**
 * The index's `resources/list` entry. `deferred` (a build made once, `BuildOptions.once`): its `size` is read from
 * the content when asked, as the index is measured at the first ask (`measureIndex`). Otherwise a plain value:
 * with the getter every generation's entry held its index content, and `dev` promoted ~100 KB more per save to the
 * old generation (over 600 saves on L the main heap climbed 52 → 103 MB before a mark-compact, against ~+10 MB).
 */
export function buildIndexResource(
  server: ServerIdentity,
  content: ServedContent,
  deferred = false,
): ListedResource {
  const entry = {
    uri: content.uri,
    name: `${server.name}-index`,
    title: `${server.title} index`,
    description:
      'What this server covers, for whom, which tool answers what, and every document and skill it serves with its URI. The one to read first.',
    mimeType: content.mimeType,
    size: deferred ? 0 : content.size,
    annotations: buildAnnotations(PRIORITY.index, content.lastModified),
  };
  // Redefined in place, so `size` keeps its place among the keys (a getter written in a literal after a spread
  // would be defined last).
  if (deferred) Object.defineProperty(entry, 'size', { get: () => content.size, enumerable: true });
  return entry;
}

/** The newest mtime among served documents and served skill bodies: what the index's `lastModified` follows. */
export interface Newest {
  mtimeMs: number;
  /** The newest input got older or went: recompute from all of them. */
  stale: boolean;
}

/**
 * Keeps `newest` current as one input's mtime goes from `before` to `after` (undefined: not an input); marks it
 * stale when the newest input got older or went, so it is recomputed from all of them.
 */
export function noteInput(newest: Newest, before: number | undefined, after: number | undefined): void {
  if (newest.stale) return;
  if (before !== undefined && before >= newest.mtimeMs && (after === undefined || after < before)) {
    newest.stale = true;
  } else if (after !== undefined && after > newest.mtimeMs) newest.mtimeMs = after;
}

/** A document's mtime when it is served (an input of the index), else undefined. */
export function documentTime(unit: DocumentUnit): number | undefined {
  return unit.document ? unit.file.mtimeMs : undefined;
}

/** A skill body's mtime when the skill is served (an input of the index), else undefined. */
export function skillTime(
  unit: SkillUnit,
  servesSkill: (skill: ParsedSkill | undefined) => boolean,
): number | undefined {
  return servesSkill(unit.skill) ? unit.skill!.body.mtimeMs : undefined;
}
