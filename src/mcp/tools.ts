/**
 * The three read-only tools: `document_lookup`, `task_guide` and `skill_load`.
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
import type { ToolName } from '../core/scope-schema.js';
import type { TaskGuide } from '../core/task-guide.js';
import type { Catalog, DocumentEntry } from '../core/types.js';
import { invalidParams } from './errors.js';

const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

const DocumentLookupInput = z.strictObject({
  query: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe('Words to search the documents for, in English. Give this or documentId, not both.'),
  documentId: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe('The id of one document to read whole (from the index or a task_guide answer).'),
});

const MatchSchema = z.object({
  documentId: z.string(),
  title: z.string(),
  uri: z.string(),
  heading: z.string().describe('The matching section heading; empty for a whole document.'),
  body: z.string(),
  score: z.number(),
  coverage: z.number().describe('Share of the query this section answers, 0–1.'),
  truncated: z.boolean(),
});

const DocumentLookupOutput = z.object({
  query: z.string().optional(),
  documentId: z.string().optional(),
  matchCount: z.number().int(),
  wholeDocument: z.boolean().describe('True when the one match is a whole document.'),
  matchedHeadings: z
    .array(z.string())
    .describe('With wholeDocument from a query: the headings that matched.'),
  matches: z.array(MatchSchema),
});

const TaskGuideInput = z.strictObject({
  task: z
    .string()
    .min(1)
    .max(2000)
    .describe('What you are about to do, in a sentence ("write a skill that reviews pull requests").')
    // JSON Schema `examples`: what a host may show or prefill. A test calls the tool with each one.
    .meta({ examples: ['write a skill that reviews pull requests'] }),
});

const CallSchema = z.object({
  tool: z.string(),
  arguments: z.record(z.string(), z.string()),
  why: z.string(),
});

const TaskGuideOutput = z.object({
  task: z.string(),
  matched: z
    .boolean()
    .describe('False when nothing matched; topics then lists everything this server covers.'),
  topics: z.array(
    z.object({ id: z.string(), title: z.string(), scope: z.string(), depth: z.string().optional() }),
  ),
  skills: z.array(
    z.object({ id: z.string(), uri: z.string(), description: z.string(), load: CallSchema.optional() }),
  ),
  documents: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      uri: z.string(),
      description: z.string(),
      lookup: CallSchema.optional(),
    }),
  ),
  routing: z.array(
    z.object({
      when: z.string(),
      tool: z.string(),
      with: z.string().optional(),
      // biome-ignore lint/suspicious/noThenProperty: the calls after the first, an array; never callable.
      then: z.array(z.object({ tool: z.string(), with: z.string().optional() })).optional(),
    }),
  ),
  nextTools: z.array(CallSchema),
});

const SkillLoadInput = z.strictObject({
  name: z.string().min(1).max(200).describe('The skill name (its directory name), as listed by the index.'),
});

const SkillLoadOutput = z.object({
  name: z.string(),
  uri: z.string().describe('The SKILL.md URI; relative links in the body resolve against it.'),
  description: z.string(),
  body: z.string().describe('SKILL.md after its front matter.'),
  files: z
    .array(z.object({ path: z.string(), uri: z.string() }))
    .describe('Every other file of the skill, references/base.md included, to read with resources/read.'),
});

/** JSON Schema for the wire: no `$schema` key (MCP's default dialect is 2020-12, and older validators choke). */
function toWireSchema(schema: z.ZodType, io: 'input' | 'output'): { type: 'object'; [key: string]: unknown } {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io }) as Record<string, unknown>;
  return { ...rest, type: 'object' };
}

interface ToolDefinition {
  readonly name: ToolName;
  readonly title: string;
  readonly description: string;
  readonly input: z.ZodType;
  readonly output: z.ZodType;
}

const DEFINITIONS: readonly ToolDefinition[] = [
  {
    name: 'document_lookup',
    title: 'Look up the knowledge documents',
    description:
      'Search the knowledge documents with a query and get the best-matching sections, ranked, each with its ' +
      'document id and URI; or pass documentId to read one document whole. Query in English, with the words the ' +
      'answer would contain. Give query or documentId, not both.',
    input: DocumentLookupInput,
    output: DocumentLookupOutput,
  },
  {
    name: 'task_guide',
    title: 'Find what owns a task',
    description:
      'Describe the task you are about to do and get the skills and documents that own it, the routing rules ' +
      'that apply, and the next calls to make. Call it first when a task touches what this server covers.',
    input: TaskGuideInput,
    output: TaskGuideOutput,
  },
  {
    name: 'skill_load',
    title: 'Load a skill',
    description:
      'Load a published skill by name: its SKILL.md body to follow, and the URIs of the files it hands over ' +
      '(references/base.md first among them), to read with resources/read when a step sends you there.',
    input: SkillLoadInput,
    output: SkillLoadOutput,
  },
];

/** A `tools/list` entry. */
export interface ToolListing {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema: { type: 'object'; [key: string]: unknown };
  annotations: typeof READ_ONLY & { title: string };
}

// Converted once: the schemas are constant, and tools/list is called on every connection.
const LISTINGS: ReadonlyMap<string, ToolListing> = new Map(
  DEFINITIONS.map((definition) => [
    definition.name,
    {
      name: definition.name,
      title: definition.title,
      description: definition.description,
      inputSchema: toWireSchema(definition.input, 'input'),
      outputSchema: toWireSchema(definition.output, 'output'),
      annotations: { title: definition.title, ...READ_ONLY },
    },
  ]),
);

/** The tools this catalog offers (`catalog.tools`, in the canonical order). */
export function listTools(catalog: Catalog): ToolListing[] {
  return DEFINITIONS.filter((definition) => catalog.tools.includes(definition.name)).map(
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
  if (typeof name !== 'string' || !catalog.tools.includes(name)) {
    throw invalidParams(`Unknown tool: ${String(name)}`, { tool: name });
  }
  switch (name as ToolName) {
    case 'document_lookup':
      return lookUpDocuments(catalog, parseArguments(name, DocumentLookupInput, args), queries);
    case 'task_guide':
      return guideTask(catalog, parseArguments(name, TaskGuideInput, args).task, queries);
    case 'skill_load':
      return loadSkill(catalog, parseArguments(name, SkillLoadInput, args).name);
    default:
      throw invalidParams(`Unknown tool: ${name}`, { tool: name });
  }
}

function listDocumentIds(documents: readonly DocumentEntry[]): string {
  if (documents.length === 0) return 'This server serves no documents.';
  return `The documents are:\n${documents.map((document) => `- ${document.id} — ${document.title}`).join('\n')}`;
}

function lookUpDocuments(
  catalog: Catalog,
  args: z.output<typeof DocumentLookupInput>,
  queries: CatalogQueries,
): ToolResult {
  const { query, documentId } = args;
  if ((query === undefined) === (documentId === undefined)) {
    throw invalidParams('Invalid arguments for document_lookup: give exactly one of query and documentId', {
      tool: 'document_lookup',
      argument: 'query, documentId',
    });
  }
  if (documentId !== undefined) {
    const document = catalog.documents.find((entry) => entry.id === documentId);
    if (!document) {
      return refuse(
        `No document has the id "${documentId}". Call document_lookup again with one of the ids below, or with a ` +
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
    const guide = catalog.tools.includes('task_guide')
      ? ' Or describe the whole task to task_guide, which names the documents and skills that own it.'
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
        const read = document.lookup ? `document_lookup documentId="${document.id}"` : document.uri;
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
    const hint = catalog.tools.includes('task_guide') ? ' Or ask task_guide which skill owns your task.' : '';
    return refuse(
      `No published skill is named "${name}". Call skill_load with one of these names.${hint}\n\n` +
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
