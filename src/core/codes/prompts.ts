/**
 * CMP9xx: prompts (`prompts/<name>.md`) — front matter and name (CMP900–CMP904), arguments (CMP905–CMP907,
 * CMP911), placeholders (CMP908–CMP910), the body, and coverage by topics (CMP912–CMP915).
 */
import type { DiagnosticData } from '../diagnostics.js';
import { MAX_PROMPT_NAME_LENGTH } from '../limits.js';
import { formatList, PROMPT_ARGUMENT_KINDS, PROMPTS_DIR, SCOPE_FILE } from '../names.js';

/** `Argument 3` for an entry that has no usable name, `Argument "doc"` for one that has. */
export type ArgumentRef = { readonly index: number } | { readonly name: string };

const argument = (ref: ArgumentRef): string =>
  'name' in ref ? `Argument "${ref.name}"` : `Argument ${ref.index + 1}`;

/** What is wrong with one argument declaration (CMP905). */
export type ArgumentProblem =
  | { readonly kind: 'not-a-list' }
  | { readonly kind: 'not-a-mapping'; readonly index: number }
  | { readonly kind: 'no-name'; readonly index: number }
  | { readonly kind: 'bad-name'; readonly index: number; readonly name: string }
  | { readonly kind: 'unknown-key'; readonly name: string; readonly key: string }
  | { readonly kind: 'not-a-string'; readonly name: string; readonly key: string }
  | { readonly kind: 'required-not-boolean'; readonly name: string }
  | { readonly kind: 'unknown-kind'; readonly name: string; readonly value: unknown }
  | { readonly kind: 'required-default'; readonly name: string };

function describeArgument(problem: ArgumentProblem): string {
  switch (problem.kind) {
    case 'not-a-list':
      return '`arguments` must be a list of argument declarations.';
    case 'not-a-mapping':
      return `${argument(problem)} is not a mapping with a \`name\`.`;
    case 'no-name':
      return `${argument(problem)} has no \`name\`.`;
    case 'bad-name':
      return `${argument({ index: problem.index })}'s name "${problem.name}" is not a letter followed by letters, digits, "_" or "-".`;
    case 'unknown-key':
      return `${argument(problem)} has the key "${problem.key}", which arguments do not take.`;
    case 'not-a-string':
      return `${argument(problem)}'s \`${problem.key}\` must be a string.`;
    case 'required-not-boolean':
      return `${argument(problem)}'s \`required\` must be true or false.`;
    case 'unknown-kind':
      return `${argument(problem)}'s \`kind\` is ${JSON.stringify(problem.value)}, not one of ${PROMPT_ARGUMENT_KINDS.join(', ')}.`;
    case 'required-default':
      return `${argument(problem)} is required and has a default; a default applies only to an optional argument.`;
  }
}

/** What is wrong with an argument's values (CMP907). */
export type ValuesProblem =
  | { readonly kind: 'enum-not-strings' | 'enum-repeats'; readonly name: string }
  | { readonly kind: 'enum-on-id'; readonly name: string; readonly argumentKind: string }
  | {
      readonly kind: 'default-not-in-enum';
      readonly name: string;
      readonly value: string;
      readonly values: readonly string[];
    }
  /** An id argument's default names nothing the catalog serves. */
  | {
      readonly kind: 'default-not-served';
      readonly name: string;
      readonly value: string;
      readonly argumentKind: string;
    };

function describeValues(problem: ValuesProblem): string {
  const named = argument(problem);
  switch (problem.kind) {
    case 'enum-not-strings':
      return `${named}'s \`enum\` must be a non-empty list of non-empty strings.`;
    case 'enum-repeats':
      return `${named}'s \`enum\` lists a value twice.`;
    case 'enum-on-id':
      return `${named} is a ${problem.argumentKind} argument, whose values are the ids this server serves; it takes no \`enum\`.`;
    case 'default-not-in-enum':
      return `${named}'s default "${problem.value}" is not one of its values (${problem.values.join(', ')}).`;
    case 'default-not-served':
      return `${named}'s default "${problem.value}" names no ${problem.argumentKind} this server serves.`;
  }
}

/** What is wrong with a placeholder (CMP908). */
export type PlaceholderProblem =
  | { readonly kind: 'unclosed' }
  | { readonly kind: 'not-a-tag'; readonly inner: string }
  | {
      readonly kind: 'section-property' | 'unknown-property';
      readonly inner: string;
      readonly property: string;
    }
  | { readonly kind: 'close-unopened'; readonly name: string }
  | { readonly kind: 'close-other'; readonly name: string; readonly open: string; readonly line: number }
  | { readonly kind: 'never-closed'; readonly name: string; readonly inverted: boolean }
  /** `{{name.uri}}` on an argument that has no such property (a text argument, a topic's uri). */
  | {
      readonly kind: 'no-property';
      readonly name: string;
      readonly property: string;
      readonly argumentKind: string;
    };

function describePlaceholder(problem: PlaceholderProblem): string {
  switch (problem.kind) {
    case 'unclosed':
      return 'This "{{" has no "}}" on its line.';
    case 'not-a-tag':
      return `"{{${problem.inner}}}" is not a placeholder: write {{name}}, {{name.uri}}, {{name.title}}, {{#name}}, {{^name}} or {{/name}}.`;
    case 'section-property':
      return `"{{${problem.inner}}}": a section opens or closes on an argument, not on its .${problem.property}.`;
    case 'unknown-property':
      return `"{{${problem.inner}}}": arguments have .uri and .title, not .${problem.property}.`;
    case 'close-unopened':
      return `"{{/${problem.name}}}" closes a section that was never opened.`;
    case 'close-other':
      return `"{{/${problem.name}}}" closes "${problem.name}", but the section open here is "${problem.open}" (line ${problem.line}).`;
    case 'never-closed':
      return `The section "{{${problem.inverted ? '^' : '#'}${problem.name}}}" is never closed with {{/${problem.name}}}.`;
    case 'no-property':
      return `"{{${problem.name}.${problem.property}}}": "${problem.name}" is a ${problem.argumentKind} argument, which has no .${problem.property}.`;
  }
}

export const promptCodes = {
  promptFrontMatterMissing: {
    code: 'CMP900',
    severity: 'error',
    title: 'Prompt has no front matter',
    message: () => 'The prompt does not start with a "---" front matter block.',
    hint: () =>
      'Start the file with a "---" line, a `description:` line (and `arguments:` if it takes any), and a closing "---" line.',
    examples: [{}],
  } satisfies DiagnosticData<Record<string, never>>,
  promptYaml: {
    code: 'CMP901',
    severity: 'error',
    title: 'Prompt front matter is not valid YAML',
    message: ({ reason }) => `The front matter does not parse: ${reason}`,
    hint: () =>
      'Fix the YAML at the line shown; quote values that contain ": " or start with a special character.',
    examples: [{ reason: 'The front matter has no closing "---" line.' }],
  } satisfies DiagnosticData<{
    /** The parser's own words for why. */
    readonly reason: string;
  }>,
  promptDescription: {
    code: 'CMP902',
    severity: 'error',
    title: 'Prompt has no description',
    message: ({ present }) =>
      present ? '`description` must be a non-empty string.' : 'The front matter has no `description`.',
    hint: () =>
      'Add `description:` to the front matter: what the prompt does, in a sentence. Hosts show it beside the slash command.',
    examples: [{ present: false }, { present: true }],
  } satisfies DiagnosticData<{
    /** The key is there, with a value that is not a non-empty string. */
    readonly present: boolean;
  }>,
  promptName: {
    code: 'CMP903',
    severity: 'error',
    title: 'Invalid prompt name',
    message: ({ name }) =>
      `"${name}" is not a prompt name: 1–${MAX_PROMPT_NAME_LENGTH} lowercase letters and digits, with single inner "-" or "_".`,
    hint: () =>
      `A prompt is ${PROMPTS_DIR}<name>.md, where <name> is 1–${MAX_PROMPT_NAME_LENGTH} lowercase letters and digits, with single inner "-" or "_".`,
    examples: [{ name: 'Review PR' }],
  } satisfies DiagnosticData<{ readonly name: string }>,
  promptUnknownField: {
    code: 'CMP904',
    severity: 'warning',
    title: 'Unexpected prompt front matter field',
    message: (found) =>
      found.kind === 'title'
        ? '`title` must be a non-empty string; it is ignored.'
        : `Front matter key "${found.key}" is not one prompts take.`,
    hint: () => 'Prompts take `description` (required), `title` and `arguments`.',
    examples: [{ kind: 'unknown', key: 'tags' }, { kind: 'title' }],
  } satisfies DiagnosticData<
    | { readonly kind: 'unknown'; readonly key: string }
    /** `title` is there but not a non-empty string. */
    | { readonly kind: 'title' }
  >,
  promptArgument: {
    code: 'CMP905',
    severity: 'error',
    title: 'Invalid prompt argument',
    message: describeArgument,
    hint: () =>
      `Each argument is a mapping with \`name\` (a letter, then letters, digits, "_" or "-") and optionally \`title\`, \`description\`, \`required\` (true or false), \`enum\` (a list of strings), \`default\` (a string; not on a required argument) and \`kind\` (${formatList(PROMPT_ARGUMENT_KINDS, 'or')}).`,
    examples: [
      { kind: 'unknown-kind', name: 'doc', value: 'file' },
      { kind: 'not-a-list' },
      { kind: 'not-a-mapping', index: 1 },
      { kind: 'no-name', index: 0 },
      { kind: 'bad-name', index: 0, name: '2nd' },
      { kind: 'unknown-key', name: 'doc', key: 'type' },
      { kind: 'not-a-string', name: 'doc', key: 'default' },
      { kind: 'required-not-boolean', name: 'doc' },
      { kind: 'required-default', name: 'doc' },
    ],
  } satisfies DiagnosticData<ArgumentProblem>,
  promptArgumentDuplicate: {
    code: 'CMP906',
    severity: 'error',
    title: 'Prompt argument declared twice',
    message: (ref) => `${argument(ref)} is declared twice.`,
    hint: () => 'Give every argument of a prompt its own name.',
    examples: [{ name: 'doc' }],
  } satisfies DiagnosticData<{ readonly name: string }>,
  promptArgumentValues: {
    code: 'CMP907',
    severity: 'error',
    title: 'Prompt argument values are not a valid set',
    message: describeValues,
    hint: () =>
      'An `enum` is a non-empty list of distinct strings, only on a text argument; a `default` is one of its values, or for a document, skill or topic argument an id this server serves.',
    examples: [
      { kind: 'default-not-served', name: 'doc', value: 'any/gone', argumentKind: 'document' },
      { kind: 'enum-not-strings', name: 'level' },
      { kind: 'enum-repeats', name: 'level' },
      { kind: 'enum-on-id', name: 'skill', argumentKind: 'skill' },
      { kind: 'default-not-in-enum', name: 'level', value: 'max', values: ['low', 'high'] },
    ],
  } satisfies DiagnosticData<ValuesProblem>,
  promptPlaceholder: {
    code: 'CMP908',
    severity: 'error',
    title: 'Unknown placeholder',
    message: describePlaceholder,
    hint: () =>
      'Placeholders are {{name}}, {{name.uri}} and {{name.title}} (document, skill and topic arguments; topics have no uri), {{#name}}…{{/name}} and {{^name}}…{{/name}}, each on one line; write \\{{ for a literal "{{".',
    examples: [
      { kind: 'not-a-tag', inner: 'doc uri' },
      { kind: 'unclosed' },
      { kind: 'section-property', inner: '#doc.uri', property: 'uri' },
      { kind: 'unknown-property', inner: 'doc.path', property: 'path' },
      { kind: 'close-unopened', name: 'doc' },
      { kind: 'close-other', name: 'doc', open: 'task', line: 4 },
      { kind: 'never-closed', name: 'task', inverted: false },
      { kind: 'no-property', name: 'task', property: 'uri', argumentKind: 'text' },
    ],
  } satisfies DiagnosticData<PlaceholderProblem>,
  promptUndeclaredArgument: {
    code: 'CMP909',
    severity: 'error',
    title: 'Placeholder names an undeclared argument',
    message: ({ name, declared }) =>
      `The placeholder names "${name}", which \`arguments\` does not declare${declared.length === 0 ? '' : ` (declared: ${declared.join(', ')})`}.`,
    hint: () =>
      'Declare the argument under `arguments` in the front matter, or correct the name in the placeholder.',
    examples: [
      { name: 'document', declared: ['doc'] },
      { name: 'task', declared: [] },
    ],
  } satisfies DiagnosticData<{ readonly name: string; readonly declared: readonly string[] }>,
  promptUnusedArgument: {
    code: 'CMP910',
    severity: 'warning',
    title: 'Prompt argument the body never uses',
    message: ({ name }) => `The argument "${name}" appears in no placeholder of the body.`,
    hint: () =>
      'Use the argument in the body ({{name}}, or a {{#name}}…{{/name}} section), or remove it: a host asks the user for it.',
    examples: [{ name: 'doc' }],
  } satisfies DiagnosticData<{ readonly name: string }>,
  promptArgumentDescription: {
    code: 'CMP911',
    severity: 'warning',
    title: 'Prompt argument has no description',
    message: (ref) => `${argument(ref)} has no description.`,
    hint: () => 'Add a `description` to the argument: hosts show it where the user types the value.',
    examples: [{ name: 'doc' }],
  } satisfies DiagnosticData<{ readonly name: string }>,
  promptEmpty: {
    code: 'CMP912',
    severity: 'error',
    title: 'Prompt has no body',
    message: () => 'The prompt has nothing below its front matter.',
    hint: () => 'Write the message the prompt sends below the front matter.',
    examples: [{}],
  } satisfies DiagnosticData<Record<string, never>>,
  promptDuplicateName: {
    code: 'CMP913',
    severity: 'error',
    title: 'Two prompts of one name',
    message: ({ skill }) =>
      `${PROMPTS_DIR}${skill}.md has the name of skill "${skill}", which prompts.fromSkills also offers as a prompt; the file wins.`,
    hint: () =>
      `With prompts.fromSkills on, every served skill is also a prompt of its name: rename the file under ${PROMPTS_DIR} or the skill.`,
    examples: [{ skill: 'release' }],
  } satisfies DiagnosticData<{ readonly skill: string }>,
  promptNotCovered: {
    code: 'CMP914',
    severity: 'error',
    title: 'Prompt named by no topic',
    message: ({ name }) => `No topic names prompt "${name}".`,
    hint: () => `Add the prompt name to the "prompts" of a topic in ${SCOPE_FILE}.`,
    examples: [{ name: 'review' }],
  } satisfies DiagnosticData<{ readonly name: string }>,
  unknownPrompt: {
    code: 'CMP915',
    severity: 'error',
    title: 'Topic names a prompt that does not exist',
    message: ({ topic, name }) =>
      `Topic "${topic}" names prompt "${name}", but ${PROMPTS_DIR}${name}.md does not exist.`,
    hint: () => `Correct the name (the file name under ${PROMPTS_DIR} without .md), or write the prompt.`,
    examples: [{ topic: 'reviews', name: 'review' }],
  } satisfies DiagnosticData<{ readonly topic: string; readonly name: string }>,
};
