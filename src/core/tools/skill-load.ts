/** `skill_load`: a published skill's body and the URIs of the files it hands over. */
import * as z from 'zod';
import { defineTool, READ_ONLY } from './definition.js';

export const skillLoad = defineTool({
  name: 'skill_load',
  title: 'Load a skill',
  description:
    'Load a published skill by name: its SKILL.md body to follow, and the URIs of the files it hands over ' +
    '(references/base.md first among them), to read with resources/read when a step sends you there.',
  input: z.strictObject({
    name: z.string().min(1).max(200).describe('The skill name (its directory name), as listed by the index.'),
  }),
  output: z.object({
    name: z.string(),
    uri: z.string().describe('The SKILL.md URI; relative links in the body resolve against it.'),
    description: z.string(),
    body: z.string().describe('SKILL.md after its front matter.'),
    files: z
      .array(z.object({ path: z.string(), uri: z.string() }))
      .describe('Every other file of the skill, references/base.md included, to read with resources/read.'),
  }),
  annotations: READ_ONLY,
  answers: 'Which workflow do I follow for a task?',
});
