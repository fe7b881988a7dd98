/**
 * What the server says it covers: the coverage and the instructions a host shows the model, after the caller's
 * excluded tools took away what only they answered. Excluding a tool takes away a call, not a document: the
 * resource list is not touched here.
 */
import type { ServerScope, ToolName } from './scope-schema.js';
import { TOOL_NAMES } from './scope-schema.js';
import type { Coverage } from './types.js';

/** What hosts keep of `instructions`; one client measured cuts silently beyond this. */
export const INSTRUCTIONS_BUDGET = 2048;

/** The tools offered once `excluded` are taken away, in their declared order. */
export function buildOfferedTools(excluded: readonly string[]): ToolName[] {
  const out = new Set(excluded.map((t) => t.trim().toLowerCase()));
  return TOOL_NAMES.filter((t) => !out.has(t));
}

/**
 * The coverage a client gets: topics keep only offered tools and a topic nothing offered answers is dropped;
 * routing and "not covered" entries naming an excluded tool are dropped.
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
    routing: scope.routing.filter((r) => tools.has(r.tool) && !mentionsExcluded(r.with)),
    notCovered: scope.notCovered.filter((n) => !mentionsExcluded(n.instead) && !mentionsExcluded(n.why)),
  };
}

/**
 * Assembles the instructions the scope file writes: `start`, one line per question whose tool is offered, and
 * `then`. Returns the full text; the caller enforces the budget.
 *
 * The instructions never name a tool the caller excluded — not even to say it is missing, since a model that reads
 * a tool's name tends to call it: an index line for an excluded tool goes, and so does every sentence of `start`
 * and `then` that names one (as a whole word; the rest of the paragraph stays).
 */
export function buildInstructions(scope: ServerScope, offered: readonly string[]): string {
  const tools = new Set(offered);
  const excluded = TOOL_NAMES.filter((t) => !tools.has(t));
  const keep = (text: string | undefined): string =>
    text === undefined ? '' : dropSentencesNaming(text.trim(), excluded);
  const parts: string[] = [keep(scope.instructions.start)];
  const index = scope.instructions.index.filter((entry) => tools.has(entry.tool));
  if (index.length > 0) {
    parts.push(
      ['What to call for what:', ...index.map((entry) => `- ${entry.question}: ${entry.tool}`)].join('\n'),
    );
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
  const named = new RegExp(`(?<![\\w-])(?:${names.join('|')})(?![\\w-])`);
  const sentences = text.split(/(?<=[.!?])(\s+)/);
  let out = '';
  for (let i = 0; i < sentences.length; i += 2) {
    const sentence = sentences[i]!;
    if (named.test(sentence)) continue;
    out += (out === '' ? '' : (sentences[i - 1] ?? ' ')) + sentence;
  }
  return out.trim();
}

/** Cuts `text` to the budget on a line or word boundary, marking the cut. */
export function fitInstructions(text: string): string {
  if (text.length <= INSTRUCTIONS_BUDGET) return text;
  const room = INSTRUCTIONS_BUDGET - 1;
  const cut = text.slice(0, room);
  const at = Math.max(cut.lastIndexOf('\n'), cut.lastIndexOf(' '));
  return `${cut.slice(0, at > room / 2 ? at : room).trimEnd()}…`;
}
