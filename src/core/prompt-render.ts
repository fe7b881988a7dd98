/**
 * What the MCP surface answers for prompts, as pure functions of one catalog: `prompts/get` (`renderPrompt`) and
 * the candidates `completion/complete` offers for a prompt argument (`listPromptArgumentValues`). `prompts/list`
 * is `catalog.prompts.map((prompt) => prompt.listed)`.
 */
import { renderTemplate, type TemplateValue } from './prompt-template.js';
import type { PromptArgumentEntry, PromptEntry } from './prompt-types.js';
import type { Catalog } from './types.js';

/** The parts of a catalog prompts read. */
export type PromptCatalog = Pick<Catalog, 'prompts' | 'documents' | 'skills' | 'coverage'>;

/** A `GetPromptResult`, exactly as it goes on the wire. */
export interface RenderedPrompt {
  readonly description: string;
  readonly messages: readonly {
    readonly role: 'user';
    readonly content: { readonly type: 'text'; readonly text: string };
  }[];
}

/**
 * Why a prompt could not be rendered. Every kind is the caller's mistake: the MCP layer answers -32602 with
 * `message` and `data: { prompt, argument?, allowed? }`.
 */
export interface PromptError {
  readonly kind:
    | 'unknown-prompt'
    /** A required argument was not given (or given empty). */
    | 'missing-argument'
    /** A value that is not a string. */
    | 'invalid-value'
    /** A value outside the argument's `enum`. */
    | 'not-in-enum'
    /** A document, skill or topic argument naming nothing the catalog serves. */
    | 'unknown-id';
  readonly prompt: string;
  readonly argument?: string;
  /** For `not-in-enum`: the values the argument takes. */
  readonly allowed?: readonly string[];
  readonly message: string;
}

export type RenderResult =
  | { readonly ok: true; readonly result: RenderedPrompt }
  | { readonly ok: false; readonly error: PromptError };

/** The prompt of this name, or undefined. */
export function findPrompt(catalog: Pick<Catalog, 'prompts'>, name: string): PromptEntry | undefined {
  return catalog.prompts.find((prompt) => prompt.name === name);
}

/**
 * `prompts/get`: the prompt's message with every placeholder filled in from `args` (the request's `arguments`,
 * values as strings). An empty or blank value counts as not given; an optional argument not given takes its
 * default. Arguments the prompt does not declare are ignored. Pure; never throws.
 */
export function renderPrompt(
  catalog: PromptCatalog,
  name: string,
  args: Readonly<Record<string, unknown>> | undefined,
): RenderResult {
  const prompt = findPrompt(catalog, name);
  if (prompt === undefined) {
    return fail({ kind: 'unknown-prompt', prompt: name, message: `There is no prompt named "${name}".` });
  }
  const values = new Map<string, TemplateValue>();
  for (const argument of prompt.arguments) {
    const given = args?.[argument.name];
    if (given !== undefined && given !== null && typeof given !== 'string') {
      return fail({
        kind: 'invalid-value',
        prompt: name,
        argument: argument.name,
        message: `Argument "${argument.name}" of prompt "${name}" must be a string.`,
      });
    }
    const value = typeof given === 'string' && given.trim() !== '' ? given : argument.default;
    if (value === undefined) {
      if (argument.required) {
        return fail({
          kind: 'missing-argument',
          prompt: name,
          argument: argument.name,
          message: `Prompt "${name}" needs the argument "${argument.name}"${argument.description ? ` (${argument.description})` : ''}.`,
        });
      }
      continue;
    }
    const resolved = resolveValue(catalog, argument, value);
    if ('error' in resolved) return fail({ ...resolved.error, prompt: name, argument: argument.name });
    values.set(argument.name, resolved.value);
  }
  const text = renderTemplate(prompt.template, (argument) => values.get(argument))
    .replace(/^(?:[ \t]*\r?\n)+/, '')
    .trimEnd();
  return {
    ok: true,
    result: {
      description: prompt.description,
      messages: [{ role: 'user', content: { type: 'text', text } }],
    },
  };
}

/**
 * The values a prompt argument completes from, sorted: its `enum`, or the ids of the documents, skills or
 * topics the catalog serves. Empty for a free-text argument; undefined when the prompt or the argument does not
 * exist. The MCP layer filters them by what the user typed (and caps them at 100).
 */
export function listPromptArgumentValues(
  catalog: PromptCatalog,
  promptName: string,
  argumentName: string,
): readonly string[] | undefined {
  const argument = findPrompt(catalog, promptName)?.arguments.find((a) => a.name === argumentName);
  if (argument === undefined) return undefined;
  switch (argument.kind) {
    case 'document':
      return catalog.documents.map((d) => d.id).sort();
    case 'skill':
      return catalog.skills.map((s) => s.id).sort();
    case 'topic':
      return catalog.coverage.topics.map((t) => t.id).sort();
    case 'text':
      return argument.enum ?? [];
  }
}

function resolveValue(
  catalog: PromptCatalog,
  argument: PromptArgumentEntry,
  value: string,
): { value: TemplateValue } | { error: Omit<PromptError, 'prompt' | 'argument'> } {
  switch (argument.kind) {
    case 'text':
      if (argument.enum && !argument.enum.includes(value)) {
        return {
          error: {
            kind: 'not-in-enum',
            allowed: argument.enum,
            message: `Argument "${argument.name}" is "${value}", not one of ${argument.enum.join(', ')}.`,
          },
        };
      }
      return { value: { value } };
    case 'document': {
      const document = catalog.documents.find((d) => d.id === value.trim());
      return document
        ? { value: { value: document.id, uri: document.uri, title: document.title } }
        : unknownId(argument, value, 'document');
    }
    case 'skill': {
      const skill = catalog.skills.find((s) => s.id === value.trim());
      return skill
        ? { value: { value: skill.id, uri: skill.uri, title: skill.title } }
        : unknownId(argument, value, 'skill');
    }
    case 'topic': {
      const topic = catalog.coverage.topics.find((t) => t.id === value.trim());
      return topic ? { value: { value: topic.id, title: topic.title } } : unknownId(argument, value, 'topic');
    }
  }
}

function unknownId(argument: PromptArgumentEntry, value: string, kind: string) {
  return {
    error: {
      kind: 'unknown-id' as const,
      message: `Argument "${argument.name}" is "${value}", which names no ${kind} this server serves.`,
    },
  };
}

function fail(error: PromptError): RenderResult {
  return { ok: false, error };
}
