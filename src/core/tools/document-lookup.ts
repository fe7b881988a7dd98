/** `document_lookup`: search the knowledge documents, or read one whole by id. */
import * as z from 'zod';
import { defineTool, READ_ONLY } from './definition.js';
import { taskGuide } from './task-guide.js';

const Match = z.object({
  documentId: z.string(),
  title: z.string(),
  uri: z.string(),
  heading: z.string().describe('The matching section heading; empty for a whole document.'),
  body: z.string(),
  score: z.number(),
  coverage: z.number().describe('Share of the query this section answers, 0–1.'),
  truncated: z.boolean(),
});

export const documentLookup = defineTool({
  name: 'document_lookup',
  title: 'Look up the knowledge documents',
  description:
    'Search the knowledge documents with a query and get the best-matching sections, ranked, each with its ' +
    'document id and URI; or pass documentId to read one document whole. Query in English, with the words the ' +
    'answer would contain. Give query or documentId, not both.',
  input: z.strictObject({
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
      .describe(`The id of one document to read whole (from the index or a ${taskGuide.name} answer).`),
  }),
  output: z.object({
    query: z.string().optional(),
    documentId: z.string().optional(),
    matchCount: z.number().int(),
    wholeDocument: z.boolean().describe('True when the one match is a whole document.'),
    matchedHeadings: z
      .array(z.string())
      .describe('With wholeDocument from a query: the headings that matched.'),
    matches: z.array(Match),
  }),
  annotations: READ_ONLY,
  answers: 'What do the documents say about a subject?',
});
