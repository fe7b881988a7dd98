/**
 * The tools' handlers, bound to their definitions in the registry (`src/core/tools/`), and `tools/list`.
 *
 * Tools exist because many hosts render no resource list and models seldom read resources unprompted; a tool is
 * the model's own route into the same content. Each answer is prose for the model (`content[0].text`, never the
 * JSON restated) plus `structuredContent` matching the declared `outputSchema`. A bad argument is a protocol
 * error (-32602 naming the argument); an answer the tool cannot give (unknown id, nothing found) is an
 * `isError` result whose text says what to do instead, because the model can act on that and not on an error.
 */
import * as z from 'zod';
import { formatRoutingCalls } from '../core/coverage.js';
import type { CatalogQueries } from '../core/queries.js';
import type { TaskGuide } from '../core/task-guide.js';
import type { documentLookup } from '../core/tools/document-lookup.js';
import { TOOL_DEFINITIONS, TOOLS, type ToolDefinition, type ToolHints } from '../core/tools/index.js';
import type { Catalog, DocumentEntry } from '../core/types.js';
import { invalidParams } from './errors.js';

/** JSON Schema for the wire: no `$schema` key (MCP's default dialect is 2020-12, and older validators choke). */
function toWireSchema(schema: z.ZodType, io: 'input' | 'output'): { type: 'object'; [key: string]: unknown } {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io }) as Record<string, unknown>;
  return { ...rest, type: 'object' };
}

/** A `tools/list` entry. */
export interface ToolListing {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema: { type: 'object'; [key: string]: unknown };
  annotations: ToolHints & { title: string };
}

// Converted once: the schemas are constant, and tools/list is called on every connection.
const LISTINGS: ReadonlyMap<string, ToolListing> = new Map(
  TOOL_DEFINITIONS.map((definition) => [
    definition.name,
    {
      name: definition.name,
      title: definition.title,
      description: definition.description,
      inputSchema: toWireSchema(definition.input, 'input'),
      outputSchema: toWireSchema(definition.output, 'output'),
      annotations: { title: definition.title, ...definition.annotations },
    },
  ]),
);

/** The tools this catalog offers (`catalog.tools`, in the canonical order). */
export function listTools(catalog: Catalog): ToolListing[] {
  return TOOL_DEFINITIONS.filter((definition) => catalog.tools.includes(definition.name)).map(
    (definition) => LISTINGS.get(definition.name)!,
  );
}

/** A `tools/call` result. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const answer = (text: string, structured: object): ToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: structured as Record<string, unknown>,
});

const refuse = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** Parses tool arguments with `schema`; the first problem becomes -32602 naming the argument. */
function parseArguments<T extends z.ZodType>(tool: string, schema: T, args: unknown): z.output<T> {
  const result = schema.safeParse(args ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
  const argument = keys.length > 0 ? keys.join(', ') : issue.path.join('.') || '(arguments)';
  const problem = issue.code === 'unrecognized_keys' ? 'is not an argument of this tool' : issue.message;
  throw invalidParams(`Invalid arguments for ${tool}: ${argument}: ${problem}`, { tool, argument });
}

/** What answers one tool: its parsed arguments in, a result out. */
type ToolHandler<Definition extends ToolDefinition> = (
  catalog: Catalog,
  args: z.output<Definition['input']>,
  queries: CatalogQueries,
) => ToolResult;

type Definitions = (typeof TOOL_DEFINITIONS)[number];

/** The handler of every tool in the registry: a registry entry without one here does not compile. */
const HANDLERS: { readonly [Definition in Definitions as Definition['name']]: ToolHandler<Definition> } = {
  document_lookup: lookUpDocuments,
  task_guide: (catalog, { task }, queries) => guideTask(catalog, task, queries),
  skill_load: (catalog, { name }) => loadSkill(catalog, name),
};

const DEFINITIONS_BY_NAME: ReadonlyMap<string, Definitions> = new Map(
  TOOL_DEFINITIONS.map((definition) => [definition.name, definition]),
);

/**
 * Answers `tools/call`. An unknown tool, or one this catalog does not offer, is -32602 (the model cannot call it
 * anyway, and no answer should suggest it exists).
 */
export function callTool(
  catalog: Catalog,
  name: unknown,
  args: unknown,
  queries: CatalogQueries,
): ToolResult {
  const definition = typeof name === 'string' ? DEFINITIONS_BY_NAME.get(name) : undefined;
  if (definition === undefined || !catalog.tools.includes(definition.name)) {
    throw invalidParams(`Unknown tool: ${String(name)}`, { tool: name });
  }
  const handler = HANDLERS[definition.name] as ToolHandler<ToolDefinition>;
  return handler(catalog, parseArguments(definition.name, definition.input, args), queries);
}

function listDocumentIds(documents: readonly DocumentEntry[]): string {
  if (documents.length === 0) return 'This server serves no documents.';
  return `The documents are:\n${documents.map((document) => `- ${document.id} — ${document.title}`).join('\n')}`;
}

function lookUpDocuments(
  catalog: Catalog,
  args: z.output<typeof documentLookup.input>,
  queries: CatalogQueries,
): ToolResult {
  const { query, documentId } = args;
  if ((query === undefined) === (documentId === undefined)) {
    throw invalidParams(`Invalid arguments for ${TOOLS.lookup}: give exactly one of query and documentId`, {
      tool: TOOLS.lookup,
      argument: 'query, documentId',
    });
  }
  if (documentId !== undefined) {
    const document = catalog.documents.find((entry) => entry.id === documentId);
    if (!document) {
      return refuse(
        `No document has the id "${documentId}". Call ${TOOLS.lookup} again with one of the ids below, or with a ` +
          `query.\n\n${listDocumentIds(catalog.documents)}`,
      );
    }
    return answer(`# ${document.title}\n\nDocument ${document.id} (${document.uri})\n\n${document.body}`, {
      documentId,
      matchCount: 1,
      wholeDocument: true,
      matchedHeadings: [],
      matches: [
        {
          documentId: document.id,
          title: document.title,
          uri: document.uri,
          heading: '',
          body: document.body,
          score: 1,
          coverage: 1,
          truncated: false,
        },
      ],
    });
  }

  const result = queries.searchDocuments(catalog.documents, query!);
  if (result.matches.length === 0) {
    const why =
      result.terms.length === 0
        ? `The query "${query}" has no searchable words.`
        : `No section answers enough of "${query}" (searched for: ${result.terms.join(', ')}).`;
    const guide = catalog.tools.includes(TOOLS.guide)
      ? ` Or describe the whole task to ${TOOLS.guide}, which names the documents and skills that own it.`
      : '';
    return refuse(
      `${why} Try fewer or other words, or read one document whole with documentId.${guide}\n\n` +
        listDocumentIds(catalog.documents),
    );
  }
  const structured = {
    query,
    matchCount: result.matches.length,
    wholeDocument: result.wholeDocument,
    matchedHeadings: [...result.matchedHeadings],
    matches: result.matches,
  };
  if (result.wholeDocument) {
    const match = result.matches[0]!;
    const headings = result.matchedHeadings.filter((heading) => heading !== '');
    return answer(
      `Every match is in one document, so here it is whole: "${match.title}" (${match.documentId}, ${match.uri}).` +
        (headings.length > 0 ? ` The matching sections: ${headings.join('; ')}.` : '') +
        `${match.truncated ? ' It was cut; read the rest with resources/read.' : ''}\n\n${match.body}`,
      structured,
    );
  }
  const parts = result.matches.map(
    (match, index) =>
      `## ${index + 1}. ${match.title}${match.heading ? ` — ${match.heading}` : ''}\n` +
      `Document ${match.documentId} (${match.uri}), coverage ${match.coverage}` +
      `${match.truncated ? '; cut, read the document whole for the rest' : ''}\n\n${match.body}`,
  );
  return answer(`${result.matches.length} sections match "${query}":\n\n${parts.join('\n\n')}`, structured);
}

function describeGuide(guide: TaskGuide): string {
  const lines: string[] = [];
  if (!guide.matched) {
    lines.push(`Nothing this server covers matched "${guide.task}". These are the topics it covers:`);
    for (const topic of guide.topics) lines.push(`- ${topic.title} (${topic.scope})`);
    lines.push(
      '',
      'Rephrase the task with the words of one of these topics, or search the documents directly.',
    );
  } else {
    lines.push(`For "${guide.task}":`);
    if (guide.skills.length > 0) {
      lines.push('', 'Skills that own this work (load one and follow it):');
      for (const skill of guide.skills) lines.push(`- ${skill.id} (${skill.uri}): ${skill.description}`);
    }
    if (guide.documents.length > 0) {
      lines.push('', 'Documents that describe it:');
      for (const document of guide.documents) {
        const read = document.lookup ? `${TOOLS.lookup} documentId="${document.id}"` : document.uri;
        lines.push(`- ${document.title} — read with ${read}`);
      }
    }
    if (guide.routing.length > 0) {
      lines.push('', 'Routing that applies:');
      for (const line of guide.routing) {
        lines.push(`- ${line.when} → ${formatRoutingCalls(line)}`);
      }
    }
    if (guide.topics.length > 0) {
      lines.push('', `Topics: ${guide.topics.map((topic) => topic.title).join('; ')}.`);
    }
  }
  if (guide.nextTools.length > 0) {
    lines.push('', 'Next:');
    for (const call of guide.nextTools) {
      const args = Object.entries(call.arguments)
        .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
        .join(' ');
      lines.push(`- ${call.tool} ${args} — ${call.why}`);
    }
  }
  return lines.join('\n');
}

function guideTask(catalog: Catalog, task: string, queries: CatalogQueries): ToolResult {
  const guide = queries.buildTaskGuide(catalog, task);
  return answer(describeGuide(guide), guide);
}

function loadSkill(catalog: Catalog, name: string): ToolResult {
  const skill = catalog.skills.find((entry) => entry.id === name);
  if (!skill) {
    const names = catalog.skills.map((entry) => `- ${entry.id}: ${entry.description}`).join('\n');
    const hint = catalog.tools.includes(TOOLS.guide)
      ? ` Or ask ${TOOLS.guide} which skill owns your task.`
      : '';
    return refuse(
      `No published skill is named "${name}". Call ${TOOLS.load} with one of these names.${hint}\n\n` +
        (names || 'This server publishes no skills.'),
    );
  }
  const files = skill.files
    .filter((file) => file.path !== 'SKILL.md')
    .map(({ path, uri }) => ({ path, uri }));
  const fileLines = files.map((file) => `- ${file.path}: ${file.uri}`).join('\n');
  return answer(
    `Skill ${skill.id} (${skill.uri}). Follow it; relative links in it resolve against that URI, and each file ` +
      `it hands over is read with resources/read:\n${fileLines || '- (no other files)'}\n\n---\n\n${skill.body}`,
    { name: skill.id, uri: skill.uri, description: skill.description, body: skill.body, files },
  );
}
