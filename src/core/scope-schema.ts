/**
 * The schema of `knowledge/server-scope.json`, the one file that says what this server is, what it covers and
 * for whom. The JSON Schema published beside the file (`server-scope.schema.json`) is generated from this, so
 * an editor checks exactly what `companion check` checks.
 */
import * as z from 'zod';
import { DEFAULT_DESCRIPTION_BUDGET, INSTRUCTIONS_BUDGET } from './limits.js';
import { DEFAULT_SCHEME, TOOL_NAMES } from './names.js';
import {
  DocumentsSectionSchema,
  PromptsSectionSchema,
  SkillsSectionSchema,
  serverLinksShape,
} from './scope-schema-content.js';

export { DEFAULT_SCHEME, SCOPE_SCHEMA_FILE, TOOL_NAMES, type ToolName } from './names.js';

const slug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase letters, digits and single inner hyphens');
const text = z.string().trim().min(1, 'must not be empty');
const tool = z
  .string()
  .min(1)
  .describe(`A tool companion serves: ${TOOL_NAMES.join(', ')}.`);

const ServerSchema = z
  .strictObject({
    name: slug.describe('Programmatic server name, sent as serverInfo.name.'),
    title: text.describe('Display name, sent as serverInfo.title.'),
    version: text.describe('Version of this content, sent as serverInfo.version.'),
    scheme: z
      .string()
      .regex(/^[a-z][a-z0-9+.-]*$/, 'a URI scheme: a lowercase letter, then letters, digits, "+", "." or "-"')
      .default(DEFAULT_SCHEME)
      .describe('URI scheme of every resource, without "://". Default "companion".'),
    ...serverLinksShape,
  })
  .describe("The server's identity.");

const InstructionsSchema = z
  .strictObject({
    start: text.describe('The first paragraph of the instructions a host shows the model.'),
    index: z
      .array(
        z.strictObject({
          question: text.describe('A question a caller has.'),
          tool: tool.describe('The tool that answers it.'),
          with: text.optional().describe('What to pass it: the arguments of the call, in words.'),
          note: text.optional().describe('A caveat on the answer, written after the call.'),
        }),
      )
      .default([])
      .describe('"What to call for what": one line per question.'),
    // biome-ignore lint/suspicious/noThenProperty: an author-facing JSON key holding a string; only a callable `then` makes a thenable.
    then: z.string().optional().describe('A closing paragraph.'),
  })
  .describe(
    `Assembled into the instructions a host shows the model; at most ${INSTRUCTIONS_BUDGET} characters in all.`,
  );

const ScopeSchema = z.strictObject({
  id: slug.describe('The scope id; a document filed under knowledge/documents/<id>/ belongs to it.'),
  title: text.describe('Who this scope is for, as a short noun phrase.'),
  transfers: z
    .boolean()
    .describe('True when its content holds wherever the caller works; false when it stops at its own area.'),
  sentence: text.describe('The sentence every description of content in this scope ends with.'),
  skillSentence: text
    .optional()
    .describe("The sentence a skill's description ends with, when it should differ; default: sentence."),
});

const TopicSchema = z.strictObject({
  id: slug.describe('Stable topic id.'),
  title: text.describe('The topic, as a caller would name it.'),
  scope: slug.describe('The id of the scope whose audience this topic serves.'),
  depth: z.string().optional().describe('How deep the coverage goes.'),
  tools: z.array(tool).default([]).describe('The tools that answer questions on this topic.'),
  documents: z
    .array(z.string().min(1))
    .default([])
    .describe('Document ids (the path below knowledge/documents/ without .md) this topic covers.'),
  skills: z.array(slug).default([]).describe('Skill ids (directory names under skills/) this topic covers.'),
  prompts: z
    .array(z.string().min(1))
    .default([])
    .describe('Prompt names (file names under prompts/ without .md) this topic covers.'),
});

const RoutingCallSchema = z.strictObject({
  tool: tool.describe('The tool to call next.'),
  with: z.string().optional().describe('What to pass it.'),
});

const RoutingSchema = z.strictObject({
  when: text.describe('The situation, as "When …".'),
  tool: tool.describe('The tool to call.'),
  with: z.string().optional().describe('What to pass it.'),
  // biome-ignore lint/suspicious/noThenProperty: an author-facing JSON key holding an array; only a callable `then` makes a thenable.
  then: z.array(RoutingCallSchema).min(1).optional().describe('The calls that follow the first, in order.'),
});

const NotCoveredSchema = z.strictObject({
  topic: text,
  why: text,
  instead: z.string().optional().describe('Where to go instead.'),
});

const positiveInt = z.number().int().min(1);

const CheckSchema = z
  .strictObject({
    severity: z
      .record(
        z.string().regex(/^CMP\d{3}$/, 'a diagnostic code such as CMP504'),
        z.enum(['off', 'info', 'warning', 'error']),
      )
      .optional()
      .describe(
        'Severity per diagnostic code: "off" drops the finding, "info", "warning" or "error" replace its default. Serving rules do not change with it: a skill that cannot be served stays unserved whatever its finding is set to.',
      ),
    rules: z
      .strictObject({
        requireLinks: z
          .array(z.string().min(1))
          .optional()
          .describe(
            'Paths inside a skill that every published SKILL.md must link to, e.g. ["references/base.md"] (CMP428). Default: none.',
          ),
        minDescriptionLength: z
          .number()
          .int()
          .min(0)
          .optional()
          .describe('Fewest characters a skill description may have (CMP421). Default 40.'),
        maxBodyLines: positiveInt
          .optional()
          .describe('Most lines a SKILL.md body may have (CMP620). Default 500.'),
        maxBodyTokens: positiveInt
          .optional()
          .describe('Most estimated tokens a SKILL.md body may have (CMP621). Default 5000.'),
        maxReferenceTokens: positiveInt
          .optional()
          .describe('Most estimated tokens a file under references/ may have (CMP622). Default 10000.'),
        maxFileBytes: positiveInt
          .optional()
          .describe(
            'Most bytes a file of a skill other than SKILL.md may have (CMP611). Default 1048576 (1 MiB).',
          ),
      })
      .optional()
      .describe('House rules and budgets.'),
  })
  .describe(
    'How companion check, dev and serve judge this content: severities per code and house rules. Inline, `<!-- companion-disable CODE -->` suppresses a code in one file, `<!-- companion-disable-next-line CODE -->` on the next line.',
  );

export type CheckSettings = z.output<typeof CheckSchema>;

export const ServerScopeSchema = z
  .strictObject({
    $schema: z.string().optional().describe('Path of the JSON Schema, for editors.'),
    server: ServerSchema,
    purpose: text.describe('What this server is for, in one or two sentences.'),
    instructions: InstructionsSchema,
    scopes: z.array(ScopeSchema).min(1).describe('The audiences this server knows.'),
    topics: z
      .array(TopicSchema)
      .min(1)
      .describe('What is covered, for whom, by which tools, documents and skills.'),
    routing: z.array(RoutingSchema).default([]).describe('"When X, call Y."'),
    notCovered: z
      .array(NotCoveredSchema)
      .default([])
      .describe('What this server does not cover, and where to go.'),
    descriptionBudget: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        `Characters a host keeps for all published skill names and descriptions together (each counts name + description + 4). Default ${DEFAULT_DESCRIPTION_BUDGET}, what Claude Code keeps; raise it only for hosts that load skills on demand.`,
      ),
    check: CheckSchema.optional(),
    documents: DocumentsSectionSchema.optional(),
    skills: SkillsSectionSchema.optional(),
    prompts: PromptsSectionSchema.optional(),
  })
  .describe('companion server scope: identity, coverage and routing of one content repository.');

export type ServerScope = z.output<typeof ServerScopeSchema>;

/** The JSON Schema (2020-12) editors use to complete and check `server-scope.json`. */
export function buildScopeJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ServerScopeSchema, { io: 'input', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  return { ...schema, title: 'companion server-scope.json' };
}
