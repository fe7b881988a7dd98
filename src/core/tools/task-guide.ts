/** `task_guide`: the skills, documents and routing that own a task, and the next calls to make. */
import * as z from 'zod';
import { defineTool, READ_ONLY } from './definition.js';

const Call = z.object({
  tool: z.string(),
  arguments: z.record(z.string(), z.string()),
  why: z.string(),
});

export const taskGuide = defineTool({
  name: 'task_guide',
  title: 'Find what owns a task',
  description:
    'Describe the task you are about to do and get the skills and documents that own it, the routing rules ' +
    'that apply, and the next calls to make. Call it first when a task touches what this server covers.',
  input: z.strictObject({
    task: z
      .string()
      .min(1)
      .max(2000)
      .describe('What you are about to do, in a sentence ("write a skill that reviews pull requests").')
      .meta({ examples: ['write a skill that reviews pull requests'] }),
  }),
  output: z.object({
    task: z.string(),
    matched: z
      .boolean()
      .describe('False when nothing matched; topics then lists everything this server covers.'),
    topics: z.array(
      z.object({ id: z.string(), title: z.string(), scope: z.string(), depth: z.string().optional() }),
    ),
    skills: z.array(
      z.object({ id: z.string(), uri: z.string(), description: z.string(), load: Call.optional() }),
    ),
    documents: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        uri: z.string(),
        description: z.string(),
        lookup: Call.optional(),
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
    nextTools: z.array(Call),
  }),
  annotations: READ_ONLY,
  answers: 'How do I do a task here, step by step?',
});
