/**
 * Prompts as the catalog holds them: what `prompts/list` lists, what `prompts/get` renders and what completion
 * offers, all plain readonly data derived from `prompts/<name>.md` (or from a skill, when the scope file offers
 * skills as prompts).
 */

/** What an argument's value names, which decides what it completes from and what a render accepts. */
export type PromptArgumentKind = 'text' | 'document' | 'skill' | 'topic';

export interface PromptArgumentEntry {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required: boolean;
  /** The only values it takes (a `text` argument only). */
  readonly enum?: readonly string[];
  /** The value used when the caller gives none. Never set on a required argument. */
  readonly default?: string;
  /** `document`, `skill` or `topic`: the value is an id the catalog serves, and completes from them. */
  readonly kind: PromptArgumentKind;
}

/** One `prompts/list` entry, exactly as it goes on the wire (MCP `Prompt`). */
export interface ListedPrompt {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  /** MCP `PromptArgument`s; the description also says the allowed values and the default. Absent when none. */
  readonly arguments?: readonly {
    readonly name: string;
    readonly title?: string;
    readonly description?: string;
    readonly required: boolean;
  }[];
}

/** A parsed prompt body: text, argument values, and sections shown only with (or without) an argument. */
export type TemplateNode =
  | { readonly kind: 'text'; readonly text: string }
  /** `{{name}}`, `{{name.uri}}`, `{{name.title}}`. */
  | { readonly kind: 'value'; readonly name: string; readonly property?: 'uri' | 'title' }
  /** `{{#name}}…{{/name}}` (shown when the argument has a value) or `{{^name}}…{{/name}}` (when it has none). */
  | {
      readonly kind: 'section';
      readonly name: string;
      readonly inverted: boolean;
      readonly children: readonly TemplateNode[];
    };

export interface PromptEntry {
  /** The file name without `.md`, or the skill's id. */
  readonly name: string;
  readonly title?: string;
  /** Front matter `description` (a skill prompt: the skill's description). */
  readonly description: string;
  readonly arguments: readonly PromptArgumentEntry[];
  /** Where it comes from: `prompts/<name>.md`, or a skill offered as a prompt. */
  readonly source:
    | { readonly kind: 'file'; readonly path: string }
    | { readonly kind: 'skill'; readonly id: string };
  /** The covering topic's scope id (a skill prompt: its skill's). */
  readonly scope?: string;
  /** Set on the prompt of a draft skill (a catalog built with `includeDrafts`). */
  readonly draft?: true;
  /** The body, parsed; `renderPrompt` fills it in. */
  readonly template: readonly TemplateNode[];
  /** The `prompts/list` entry. */
  readonly listed: ListedPrompt;
}
