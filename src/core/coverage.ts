/**
 * What the server says it covers: the coverage and the instructions a host shows the model, after the caller's
 * excluded tools took away what only they answered. Excluding a tool takes away a call, not a document: the
 * resource list is not touched here.
 */
import { INSTRUCTIONS_BUDGET } from './limits.js';
import type { ServerScope, ToolName } from './scope-schema.js';
import { TOOL_NAMES } from './scope-schema.js';
import type { Coverage, RoutingEntry } from './types.js';

export { INSTRUCTIONS_BUDGET };

/** The tools offered once `excluded` are taken away, in their declared order. */
export function buildOfferedTools(excluded: readonly string[]): ToolName[] {
  const out = new Set(excluded.map((t) => t.trim().toLowerCase()));
  return TOOL_NAMES.filter((t) => !out.has(t));
}

/**
 * The coverage a client gets: topics keep only offered tools and a topic nothing offered answers is dropped;
 * routing lines any of whose calls is to (or whose arguments name) an excluded tool, and "not covered" entries
 * naming one, are dropped: a line's calls are an order, which a missing step would break.
 */
export function buildOfferedCoverage(scope: ServerScope, offered: readonly string[]): Coverage {
  const tools = new Set(offered);
  const excludedNames = TOOL_NAMES.filter((t) => !tools.has(t));
  const mentionsExcluded = (text: string | undefined) =>
    text !== undefined && excludedNames.some((name) => text.includes(name));
  return {
    purpose: scope.purpose,
    scopes: scope.scopes,
    // A topic stays while something offered still answers it (or when it never named a tool at all).
    topics: scope.topics.flatMap((topic) => {
      const kept = topic.tools.filter((t) => tools.has(t));
      return kept.length > 0 || topic.tools.length === 0 ? [{ ...topic, tools: kept }] : [];
    }),
    routing: scope.routing.filter((line) =>
      routingCalls(line).every((call) => tools.has(call.tool) && !mentionsExcluded(call.with)),
    ),
    notCovered: scope.notCovered.filter((n) => !mentionsExcluded(n.instead) && !mentionsExcluded(n.why)),
  };
}

/** Every call of a routing line, in order: the first (`tool`, `with`), then those under `then`. */
export function routingCalls(line: RoutingEntry): readonly { tool: string; with?: string }[] {
  const first = line.with === undefined ? { tool: line.tool } : { tool: line.tool, with: line.with };
  return line.then === undefined ? [first] : [first, ...line.then];
}

/** A routing line's calls as one phrase: `task_guide with the task, then skill_load with the skill it names`. */
export function formatRoutingCalls(line: RoutingEntry): string {
  return routingCalls(line)
    .map((call) => (call.with ? `${call.tool} with ${call.with}` : call.tool))
    .join(', then ');
}

/**
 * Assembles the instructions the scope file writes: `start`, one line per question whose tool is offered
 * (`- question: tool with …; note`), and `then`. Returns the full text; the caller enforces the budget.
 *
 * The instructions never name a tool the caller excluded — not even to say it is missing, since a model that reads
 * a tool's name tends to call it: an index line for an excluded tool (or whose question, arguments or note name
 * one) goes, and so does every sentence of `start` and `then` that names one (as a whole word; the rest of the
 * paragraph stays).
 */
export function buildInstructions(scope: ServerScope, offered: readonly string[]): string {
  const tools = new Set(offered);
  const excluded = TOOL_NAMES.filter((t) => !tools.has(t));
  const keep = (text: string | undefined): string =>
    text === undefined ? '' : dropSentencesNaming(text.trim(), excluded);
  const parts: string[] = [keep(scope.instructions.start)];
  const named = excluded.length === 0 ? undefined : namingPattern(excluded);
  const index = scope.instructions.index.filter(
    (entry) =>
      tools.has(entry.tool) &&
      (named === undefined || ![entry.question, entry.with, entry.note].some((t) => t && named.test(t))),
  );
  if (index.length > 0) {
    parts.push(['What to call for what:', ...index.map(formatIndexLine)].join('\n'));
  }
  parts.push(keep(scope.instructions.then));
  return parts.filter((part) => part !== '').join('\n\n');
}

/**
 * `text` without the sentences that name one of `names` as a whole word. A sentence ends at `.`, `!` or `?`
 * followed by white space; the white space between the sentences kept is kept as written.
 */
function dropSentencesNaming(text: string, names: readonly string[]): string {
  if (names.length === 0) return text;
  const named = namingPattern(names);
  const sentences = text.split(/(?<=[.!?])(\s+)/);
  let out = '';
  for (let i = 0; i < sentences.length; i += 2) {
    const sentence = sentences[i]!;
    if (named.test(sentence)) continue;
    out += (out === '' ? '' : (sentences[i - 1] ?? ' ')) + sentence;
  }
  return out.trim();
}

/** One index line as real servers write them: `- question: tool with its arguments; a note`. */
function formatIndexLine(entry: { question: string; tool: string; with?: string; note?: string }): string {
  const call = entry.with === undefined ? entry.tool : `${entry.tool} with ${entry.with}`;
  return `- ${entry.question}: ${call}${entry.note === undefined ? '' : `; ${entry.note}`}`;
}

/** Matches any of `names` as a whole word (a tool name is a word with `_`; `-` joins words too). */
function namingPattern(names: readonly string[]): RegExp {
  return new RegExp(`(?<![\\w-])(?:${names.join('|')})(?![\\w-])`);
}

/** Cuts `text` to the budget on a line or word boundary, marking the cut. */
export function fitInstructions(text: string): string {
  if (text.length <= INSTRUCTIONS_BUDGET) return text;
  const room = INSTRUCTIONS_BUDGET - 1;
  const cut = text.slice(0, room);
  const at = Math.max(cut.lastIndexOf('\n'), cut.lastIndexOf(' '));
  return `${cut.slice(0, at > room / 2 ? at : room).trimEnd()}…`;
}
