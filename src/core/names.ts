/**
 * The names companion's content model gives things, defined once: the tools (from their registry, `tools/`), where
 * content lives (directories and files), the front matter keys each kind of file takes, and the words of an inline
 * suppression. The readers and rules test against these, and the diagnostics catalogue names them in its messages
 * and hints from here.
 */

/** The tools companion serves: their one definition is the registry, `tools/index.ts`. */
export { TOOL_NAMES, TOOLS, type ToolName } from './tools/index.js';

/** The default URI scheme: `companion://guides`, `companion://skill/<id>/SKILL.md`. */
export const DEFAULT_SCHEME = 'companion';

export const KNOWLEDGE_DIR = 'knowledge/';
export const SCOPE_FILE = 'knowledge/server-scope.json';
/** The scope file's JSON Schema, beside it in knowledge/ (its `$schema` is `./` this). */
export const SCOPE_SCHEMA_FILE = 'server-scope.schema.json';
export const DOCUMENTS_DIR = 'knowledge/documents/';
export const SKILLS_DIR = 'skills/';
export const BASE_FILE = 'skills/base.md';
/** Where every published skill receives `skills/base.md`. */
export const BASE_PATH = 'references/base.md';
export const SKILL_BODY = 'SKILL.md';
export const PROMPTS_DIR = 'prompts/';
/** The generated reference of every diagnostic code, a document of the bundled content. */
export const CODE_REFERENCE_PATH = 'knowledge/documents/any/reference/diagnostic-codes.md';

/** The front matter keys every document takes; others must be declared in the scope file's documents.fields. */
export const BUILTIN_DOCUMENT_KEYS: ReadonlySet<string> = new Set(['description', 'whenToUse']);

/** The front matter fields the Agent Skills specification defines, in its order. */
export const SKILL_KEYS = [
  'name',
  'description',
  'license',
  'compatibility',
  'metadata',
  'allowed-tools',
] as const;

/** The Agent Skills fields whose value is a string. */
export const SKILL_STRING_KEYS = ['license', 'compatibility', 'allowed-tools'] as const;

/** SEP-2640: `metadata` keys with this prefix are reserved for MCP extensions. */
export const RESERVED_METADATA_PREFIX = 'io.modelcontextprotocol/';

/** Words the Claude API and claude.ai refuse in a skill name. */
export const RESERVED_NAME_WORDS = ['anthropic', 'claude'] as const;

/** The front matter keys a prompt takes. */
export const PROMPT_KEYS = ['title', 'description', 'arguments'] as const;

/** The keys one prompt argument takes. */
export const PROMPT_ARGUMENT_KEYS = [
  'name',
  'title',
  'description',
  'required',
  'enum',
  'default',
  'kind',
] as const;

/** What a prompt argument's value is: free text, or an id this server serves. */
export const PROMPT_ARGUMENT_KINDS = ['text', 'document', 'skill', 'topic'] as const;

/** The word an inline suppression starts with: `companion-disable`, `-line`, `-next-line`. */
export const DISABLE_DIRECTIVE = 'companion-disable';

/** `a, b and c` (`or` for `conjunction: 'or'`); `a` alone; `a and b`. */
export function formatList(items: readonly string[], conjunction: 'and' | 'or' = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}
