/**
 * The registry of tools companion serves: one definition per tool (a file beside this one), in the order they
 * are offered and listed. Adding a tool is adding its file, its entry here and its handler in `src/mcp/tools.ts`
 * (the compiler asks for it); everything that names tools — the scope file's schema and lint, the diagnostics,
 * the instructions, `companion init`, the install notes, `serve --help` — reads them from here.
 */
import { documentLookup } from './document-lookup.js';
import { skillLoad } from './skill-load.js';
import { taskGuide } from './task-guide.js';

export type { ToolDefinition, ToolHints } from './definition.js';

/** Every tool, in its declared order. A scope file may name these and no others. */
export const TOOL_DEFINITIONS = [documentLookup, taskGuide, skillLoad] as const;

export type ToolName = (typeof TOOL_DEFINITIONS)[number]['name'];

/** The tools' names in their declared order. */
export const TOOL_NAMES: readonly ToolName[] = TOOL_DEFINITIONS.map((definition) => definition.name);

/**
 * The tools by the role the core gives them, for the rules that must name one: the task guide suggests loading
 * a skill with `load` and reading a document with `lookup`; routing `with` is checked against the role it names.
 */
export const TOOLS = {
  lookup: documentLookup.name,
  guide: taskGuide.name,
  load: skillLoad.name,
} as const;
