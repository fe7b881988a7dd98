/**
 * What one tool is, apart from the code that answers it: its name, its words for the model, its argument and
 * answer schemas, its annotations, and the question it answers. Each tool is one such value in its own file,
 * listed once in `index.ts`; the MCP door binds a handler to every entry (`src/mcp/tools.ts`, typed so an entry
 * without one does not compile), and the scope schema, the lint, the diagnostics, the instructions, the scaffold,
 * the install notes and the CLI's help all read the registry.
 */
import type * as z from 'zod';

/** MCP tool annotations (hints a host may show or act on); `title` is added from the definition. */
export interface ToolHints {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/** A tool that only reads what this server serves: every tool companion has. */
export const READ_ONLY: ToolHints = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

export interface ToolDefinition<
  Name extends string = string,
  Input extends z.ZodType = z.ZodType,
  Output extends z.ZodType = z.ZodType,
> {
  readonly name: Name;
  readonly title: string;
  /** What the model reads to decide whether to call it. */
  readonly description: string;
  /**
   * The arguments, strict. Examples a host may show or prefill go in the JSON Schema `examples` of a property
   * (`.meta({ examples })`): `test/mcp/tool-examples.test.ts` calls the tool with each and wants a useful answer.
   */
  readonly input: Input;
  /** `structuredContent` of an answer (`outputSchema` on the wire). */
  readonly output: Output;
  readonly annotations: ToolHints;
  /**
   * The question a reader has that this tool answers, as the instructions' "what to call for what" index says
   * it: `companion init` writes one index line per tool with it.
   */
  readonly answers: string;
}

/** Declares a tool; the identity function that keeps the literal name and the schemas' types. */
export function defineTool<const Name extends string, Input extends z.ZodType, Output extends z.ZodType>(
  definition: ToolDefinition<Name, Input, Output>,
): ToolDefinition<Name, Input, Output> {
  return definition;
}
