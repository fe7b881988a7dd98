/**
 * `completion/complete` for the two resource templates and for prompt arguments. It is a disclosure channel, so it
 * only ever offers what a read would serve: document ids, published skill ids, the files of the one skill named in
 * `context.arguments.skillId`, and a prompt argument's own values (its `enum`, or the served ids of its kind).
 * Never an error: anything it does not know completes to nothing.
 */
import { listPromptArgumentValues } from '../core/prompt-render.js';
import type { Catalog } from '../core/types.js';
import { buildDocumentTemplate, buildSkillFileTemplate } from '../core/uris.js';

/** The spec's cap on values per completion. */
export const MAX_COMPLETION_VALUES = 100;

export interface CompletionAnswer {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

const EMPTY: CompletionAnswer = { values: [] };

/** Case-folded prefix match over `candidates`, sorted, at most 100, with `total` and `hasMore`. */
export function completeFrom(candidates: Iterable<string>, prefix: string): CompletionAnswer {
  const folded = prefix.toLowerCase();
  const all = [...new Set(candidates)].filter((value) => value.toLowerCase().startsWith(folded)).sort();
  return {
    values: all.slice(0, MAX_COMPLETION_VALUES),
    total: all.length,
    hasMore: all.length > MAX_COMPLETION_VALUES,
  };
}

/**
 * The completion for `params` (`{ref, argument: {name, value}, context?: {arguments?}}`) against `catalog`.
 * Malformed params complete to nothing rather than fail: a host types as the user types.
 */
export function completeArgument(catalog: Catalog, params: Record<string, unknown>): CompletionAnswer {
  const ref = asRecord(params.ref);
  const argument = asRecord(params.argument);
  if (!argument || typeof argument.name !== 'string' || typeof argument.value !== 'string') return EMPTY;
  if (ref?.type === 'ref/prompt' && typeof ref.name === 'string') {
    return completeFrom(listPromptArgumentValues(catalog, ref.name, argument.name) ?? [], argument.value);
  }
  if (ref?.type !== 'ref/resource' || typeof ref.uri !== 'string') return EMPTY;
  if (!catalog.templates.some((template) => template.uriTemplate === ref.uri)) return EMPTY;
  const scheme = catalog.server.scheme;
  const value = argument.value;

  if (ref.uri === buildDocumentTemplate(scheme)) {
    if (argument.name !== 'documentId') return EMPTY;
    return completeFrom(
      catalog.documents
        .filter((document) => catalog.contents.has(document.uri))
        .map((document) => document.id),
      value,
    );
  }
  if (ref.uri === buildSkillFileTemplate(scheme)) {
    if (argument.name === 'skillId') {
      return completeFrom(
        catalog.skills.filter((skill) => catalog.contents.has(skill.uri)).map((skill) => skill.id),
        value,
      );
    }
    if (argument.name === 'path') {
      const skillId = asRecord(asRecord(params.context)?.arguments)?.skillId;
      const skill =
        typeof skillId === 'string' ? catalog.skills.find((entry) => entry.id === skillId) : undefined;
      if (!skill) return EMPTY;
      return completeFrom(
        skill.files.filter((file) => catalog.contents.has(file.uri)).map((file) => file.path),
        value,
      );
    }
  }
  return EMPTY;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
