/**
 * The parts of `knowledge/server-scope.json` that shape content rather than coverage: the front matter fields a
 * repository declares for its documents, how skills are marked as drafts and introduced, whether skills are also
 * offered as prompts, and the links and icons of the server's identity. `scope-schema.ts` composes them into the
 * file's schema; the cross-field rules the schema cannot state live in `scope-content-rules.ts`.
 */
import * as z from 'zod';

const text = z.string().trim().min(1, 'must not be empty');

/** The value types a declared front matter field may take. */
export const FIELD_TYPES = ['string', 'number', 'integer', 'boolean', 'array'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
/** The types an array field's items may take. */
export const ITEM_TYPES = ['string', 'number', 'integer', 'boolean'] as const;

/** Whether a JSON value is of a declared scalar type (`integer`: a whole number). */
export function matchesType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    default:
      return false;
  }
}

const scalar = z.union([z.string(), z.number(), z.boolean()]);

const FieldItemsSchema = z
  .strictObject({
    type: z.enum(ITEM_TYPES).describe('The type of every item.'),
    enum: z.array(scalar).min(1).optional().describe('The only values an item may take.'),
    description: z.string().optional().describe('What an item holds.'),
  })
  .describe('What each item of an array field holds.');

/** One declared document front matter field: a small subset of JSON Schema. */
export const FieldDeclarationSchema = z
  .strictObject({
    type: z.enum(FIELD_TYPES).describe('The JSON type of the value, as YAML 1.2 reads it.'),
    items: FieldItemsSchema.optional().describe('For "type": "array": what each item holds.'),
    enum: z
      .array(scalar)
      .min(1)
      .optional()
      .describe('The only values the field may take (for a scalar type; an array lists them under items).'),
    required: z
      .boolean()
      .default(false)
      .describe('True when every document must carry the field. Default false.'),
    description: z.string().optional().describe('What the field holds, for authors and editors.'),
  })
  .describe('A front matter field every document may carry, and what its value must be.');

export type FieldDeclaration = z.output<typeof FieldDeclarationSchema>;

/** Field names follow YAML keys people write: a letter, then letters, digits, `_` or `-`. */
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

export const DocumentsSectionSchema = z
  .strictObject({
    fields: z
      .record(
        z.string().regex(FIELD_NAME, 'a letter, then letters, digits, "_" or "-"'),
        FieldDeclarationSchema,
      )
      .default({})
      .describe(
        "Front matter fields documents may carry beside description and whenToUse, by name. Each is validated, appears in the document's index entry, and is no longer reported as an unknown key; the bytes served stay as written.",
      ),
  })
  .describe('What knowledge documents carry beyond description and whenToUse.');

export const DraftMarkerSchema = z
  .strictObject({
    key: text.describe('The key under a skill\'s `metadata` that marks it. Default "companion-status".'),
    value: text.describe('The value that means "draft". Default "draft".'),
  })
  .describe(
    'How a skill says it is a draft: metadata.<key>: <value>. A draft is published nowhere; companion dev --drafts serves it to your own hosts.',
  );

export const SkillsSectionSchema = z
  .strictObject({
    sentence: text
      .optional()
      .describe(
        "The sentence in front of every skill's description: that a skill is followed, not read. Default: companion's own.",
      ),
    draft: DraftMarkerSchema.optional(),
  })
  .describe('How skills are introduced and how a draft is marked.');

export const PromptsSectionSchema = z
  .strictObject({
    fromSkills: z
      .boolean()
      .default(false)
      .describe(
        'Also offer every published skill as a prompt of the same name that hands over its body (for hosts that show prompts but load no skills). Default false.',
      ),
  })
  .describe('Prompts beyond the files in prompts/.');

/** An MCP `Icon` (2025-11-25): the image a host may show beside the server's name. */
export const IconSchema = z
  .strictObject({
    src: text.describe('An https URL or a data: URI of the image (data:image/svg+xml;base64,…).'),
    mimeType: z
      .string()
      .regex(/^image\/[A-Za-z0-9.+-]+$/, 'an image MIME type such as "image/png"')
      .optional()
      .describe('The image type, e.g. "image/png" or "image/svg+xml".'),
    sizes: z
      .array(
        z.string().regex(/^(?:[1-9][0-9]*x[1-9][0-9]*|any)$/, '"<width>x<height>" (e.g. "48x48") or "any"'),
      )
      .min(1)
      .optional()
      .describe('The sizes the image can be shown at: "48x48", or "any" for a scalable image.'),
    theme: z
      .enum(['light', 'dark'])
      .optional()
      .describe('The background the image is drawn for: "light" or "dark".'),
  })
  .describe('An icon a host may show beside the server.');

export type Icon = z.output<typeof IconSchema>;

/** The server identity's links, sent in `serverInfo` beside name, title and version. */
export const serverLinksShape = {
  websiteUrl: z
    .url({ protocol: /^https?$/, error: 'an http or https URL' })
    .optional()
    .describe("The server's website, sent as serverInfo.websiteUrl."),
  icons: z.array(IconSchema).min(1).optional().describe('Icons hosts may show, sent as serverInfo.icons.'),
};
