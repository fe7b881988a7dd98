/**
 * CMP4xx: skills — the Agent Skills front matter and the SEP-2640 limits (CMP401–CMP419), and what makes a
 * skill get picked: its description, its body, the house rules (CMP420–CMP499).
 */
import type { DiagnosticData } from '../diagnostics.js';
import {
  DEFAULT_DESCRIPTION_BUDGET,
  DEFAULT_LINT_RULES,
  formatSize,
  type LintRules,
  MAX_COMPATIBILITY_LENGTH,
  MAX_SKILL_BYTES,
  MAX_SKILL_DESCRIPTION_LENGTH,
  MAX_SKILL_FILES,
  MAX_SKILL_NAME_LENGTH,
} from '../limits.js';
import { BASE_FILE, BASE_PATH, formatList, SKILL_BODY, SKILL_KEYS, SKILL_STRING_KEYS } from '../names.js';

/** `check.rules.<key>`: where the scope file sets a house rule. */
export const formatRule = (key: keyof LintRules): string => `check.rules.${key}`;

const quoted = (key: string): string => `\`${key}\``;

export const skillCodes = {
  skillMissingBody: {
    code: 'CMP401',
    severity: 'error',
    title: `Skill directory has no ${SKILL_BODY}`,
    message: ({ dir, other }) =>
      other
        ? `The skill directory has "${other}" but no "${SKILL_BODY}"; the name is case-sensitive.`
        : `The directory ${dir}/ has no ${SKILL_BODY}.`,
    hint: () => `Add ${SKILL_BODY} with \`name\` and \`description\` front matter, or remove the directory.`,
    examples: [{ dir: 'skills/release' }, { dir: 'skills/release', other: 'skill.md' }],
  } satisfies DiagnosticData<{
    readonly dir: string;
    /** A file whose name is SKILL.md in another case. */
    readonly other?: string;
  }>,
  skillFrontMatterMissing: {
    code: 'CMP402',
    severity: 'error',
    title: 'SKILL.md has no front matter',
    message: () => 'SKILL.md does not start with a "---" front matter block.',
    hint: () =>
      'Start SKILL.md with a "---" line, `name:` and `description:` lines, and a closing "---" line.',
    examples: [{}],
  } satisfies DiagnosticData<Record<string, never>>,
  skillYaml: {
    code: 'CMP403',
    severity: 'error',
    title: 'SKILL.md front matter is not valid YAML',
    message: ({ reason }) => `The front matter does not parse: ${reason}`,
    hint: () =>
      'Fix the YAML at the line shown; quote values that contain ": " or start with a special character.',
    examples: [{ reason: 'Nested mappings are not allowed in compact mappings at line 2, column 14' }],
  } satisfies DiagnosticData<{
    /** The parser's own words for why. */
    readonly reason: string;
  }>,
  skillName: {
    code: 'CMP404',
    severity: 'error',
    title: 'Invalid skill name',
    message: (found) => {
      switch (found.kind) {
        case 'missing':
          return 'The front matter has no `name`.';
        case 'invalid':
          return `\`name\` "${found.name}" is not 1–${MAX_SKILL_NAME_LENGTH} lowercase letters, digits and single inner hyphens.`;
        case 'mismatch':
          return `\`name\` is "${found.name}" but the directory is "${found.id}"; they must be equal.`;
      }
    },
    hint: () =>
      `\`name\` is 1–${MAX_SKILL_NAME_LENGTH} characters of lowercase letters, digits and single inner hyphens, and equals the directory name.`,
    examples: [
      { kind: 'mismatch', name: 'release-tool', id: 'release' },
      { kind: 'invalid', name: 'Release_Tool' },
      { kind: 'missing' },
    ],
  } satisfies DiagnosticData<
    | { readonly kind: 'missing' }
    | { readonly kind: 'invalid'; readonly name: string }
    | { readonly kind: 'mismatch'; readonly name: string; readonly id: string }
  >,
  skillDescription: {
    code: 'CMP405',
    severity: 'error',
    title: 'Invalid skill description',
    message: ({ length }) =>
      length === undefined
        ? 'The front matter has no non-empty `description`.'
        : `\`description\` is ${length} characters; the Agent Skills specification allows ${MAX_SKILL_DESCRIPTION_LENGTH}, and Codex refuses a longer one.`,
    hint: () =>
      `\`description\` is 1–${MAX_SKILL_DESCRIPTION_LENGTH} characters and says what the skill does and when to use it.`,
    examples: [{}, { length: 1310 }],
  } satisfies DiagnosticData<{
    /** The length of a description that is too long; absent when there is none. */
    readonly length?: number;
  }>,
  skillCompatibility: {
    code: 'CMP406',
    severity: 'error',
    title: `compatibility over ${MAX_COMPATIBILITY_LENGTH} characters`,
    message: ({ length }) =>
      `\`compatibility\` is ${length} characters; it must be 1–${MAX_COMPATIBILITY_LENGTH}.`,
    hint: () =>
      `Keep \`compatibility\` to what the skill needs from its environment, in at most ${MAX_COMPATIBILITY_LENGTH} characters.`,
    examples: [{ length: 612 }, { length: 0 }],
  } satisfies DiagnosticData<{ readonly length: number }>,
  skillMetadata: {
    code: 'CMP407',
    severity: 'error',
    title: 'metadata is not a map of strings',
    message: ({ key, value }) =>
      `\`metadata.${key}\` is ${value === null ? 'null' : typeof value}, not a string.`,
    hint: () => 'Quote every `metadata` value (version: "1.0"), so every host reads the same string.',
    examples: [{ key: 'version', value: 1 }],
  } satisfies DiagnosticData<{ readonly key: string; readonly value: unknown }>,
  skillUnknownField: {
    code: 'CMP408',
    severity: 'warning',
    title: 'Front matter field the Agent Skills spec does not define',
    message: ({ key }) => `Front matter key "${key}" is not an Agent Skills field.`,
    hint: () => `Agent Skills defines ${formatList(SKILL_KEYS)}; put anything else under \`metadata\`.`,
    examples: [{ key: 'version' }],
  } satisfies DiagnosticData<{ readonly key: string }>,
  ambiguousYaml: {
    code: 'CMP409',
    severity: 'warning',
    title: 'YAML that parsers read differently',
    message: ({ key, reason }) => `\`${key}\` ${reason}.`,
    hint: () =>
      'Quote the value. Some hosts still parse YAML 1.1, where yes/no/on/off are booleans, and an unquoted ": " or a stray carriage return changes the value.',
    examples: [{ key: 'metadata.beta', reason: 'is "yes", which YAML 1.1 parsers read as a boolean' }],
  } satisfies DiagnosticData<{
    readonly key: string;
    /** What the front matter parser found about the value. */
    readonly reason: string;
  }>,
  descriptionBudget: {
    code: 'CMP410',
    severity: 'error',
    title: 'Skill descriptions over the listing budget',
    message: ({ used, budget, longest, longestLength }) =>
      `Published skill names and descriptions add up to ${used} characters; ${budget === DEFAULT_DESCRIPTION_BUDGET ? 'Claude Code keeps' : 'the budget set for this server is'} ${budget}. The longest description is ${longest}'s (${longestLength}).`,
    hint: () =>
      'Shorten descriptions: hosts keep only this many characters of all skill names and descriptions together, and drop the rest.',
    examples: [
      { used: 4211, budget: DEFAULT_DESCRIPTION_BUDGET, longest: 'release', longestLength: 512 },
      { used: 1200, budget: 1000, longest: 'release', longestLength: 512 },
    ],
  } satisfies DiagnosticData<{
    readonly used: number;
    readonly budget: number;
    /** The id of the skill with the longest description, and its length. */
    readonly longest: string;
    readonly longestLength: number;
  }>,
  skillTooManyFiles: {
    code: 'CMP411',
    severity: 'error',
    title: `Skill has more than ${MAX_SKILL_FILES} files`,
    message: ({ files }) =>
      `The skill has ${files} files (with ${SKILL_BODY} and ${BASE_PATH}); hosts accept at most ${MAX_SKILL_FILES}.`,
    hint: () =>
      `SEP-2640 hosts accept at most ${MAX_SKILL_FILES} files per skill. Move material out, or split the skill.`,
    examples: [{ files: 530 }],
  } satisfies DiagnosticData<{ readonly files: number }>,
  skillTooLarge: {
    code: 'CMP412',
    severity: 'error',
    title: `Skill larger than ${formatSize(MAX_SKILL_BYTES)}`,
    message: ({ bytes }) =>
      `The skill's files add up to ${bytes} bytes; hosts accept at most ${MAX_SKILL_BYTES} (${formatSize(MAX_SKILL_BYTES)}).`,
    hint: () =>
      `SEP-2640 hosts accept at most ${formatSize(MAX_SKILL_BYTES)} per skill. Move large assets out, or split the skill.`,
    examples: [{ bytes: 17_301_504 }],
  } satisfies DiagnosticData<{ readonly bytes: number }>,
  baseMissing: {
    code: 'CMP413',
    severity: 'error',
    title: `${BASE_FILE} is missing`,
    message: () => `${BASE_FILE} does not exist.`,
    hint: () =>
      `Create ${BASE_FILE}: the order every task starts in, which every published skill receives as ${BASE_PATH}.`,
    examples: [{}],
  } satisfies DiagnosticData<Record<string, never>>,
  baseShadowed: {
    code: 'CMP414',
    severity: 'error',
    title: `Skill has its own ${BASE_PATH}`,
    message: ({ dir }) => `${dir}/${BASE_PATH} would be replaced by ${BASE_FILE} when served.`,
    hint: () => `${BASE_PATH} is served from ${BASE_FILE} in every skill. Delete the copy, or rename it.`,
    examples: [{ dir: 'skills/release' }],
  } satisfies DiagnosticData<{ readonly dir: string }>,
  skillField: {
    code: 'CMP415',
    severity: 'error',
    title: 'Front matter field has the wrong type',
    message: (found) =>
      found.kind === 'map'
        ? '`metadata` must be a map of keys to strings.'
        : `\`${found.key}\` must be a string.`,
    hint: () => `${formatList(SKILL_STRING_KEYS.map(quoted))} are strings; \`metadata\` is a map.`,
    examples: [{ kind: 'string', key: 'license' }, { kind: 'map' }],
  } satisfies DiagnosticData<
    | { readonly kind: 'string'; readonly key: string }
    /** `metadata` is not a mapping. */
    | { readonly kind: 'map' }
  >,
  skillTitle: {
    code: 'CMP416',
    severity: 'warning',
    title: 'SKILL.md has no "# " title',
    message: () => 'SKILL.md has no "# " title line.',
    hint: () => 'Give SKILL.md a "# Title" line; hosts show it as the resource title.',
    examples: [{}],
  } satisfies DiagnosticData<Record<string, never>>,
  descriptionAngleBrackets: {
    code: 'CMP420',
    severity: 'error',
    title: 'Description holds an angle bracket',
    message: () =>
      '`description` holds "<" or ">"; Anthropic\'s validator and claude.ai refuse XML-like tags in it.',
    hint: () =>
      'Remove "<" and ">" from `description`: Anthropic\'s skill validator (quick_validate.py) and claude.ai refuse a description with XML-like tags. Write "less than", or quote the term with backticks in the body instead.',
    examples: [{}],
  } satisfies DiagnosticData<Record<string, never>>,
  descriptionShort: {
    code: 'CMP421',
    severity: 'warning',
    title: 'Description too short to be picked',
    message: ({ length, minimum }) =>
      `\`description\` is ${length} characters; a model picks a skill by it, and ${minimum} is the least that can say what and when.`,
    hint: () =>
      `Say what the skill does and when to use it, in the words a request would contain; a model picks a skill by its description alone. The minimum is \`${formatRule('minDescriptionLength')}\` in the scope file (default ${DEFAULT_LINT_RULES.minDescriptionLength} characters).`,
    examples: [{ length: 22, minimum: DEFAULT_LINT_RULES.minDescriptionLength }],
  } satisfies DiagnosticData<{ readonly length: number; readonly minimum: number }>,
  descriptionNoTrigger: {
    code: 'CMP422',
    severity: 'warning',
    title: 'Description says no when',
    message: () => '`description` says what the skill does but not when to use it.',
    hint: () =>
      'Add the situations that should trigger the skill, as "Use when …": the Agent Skills specification asks for what the skill does and when to use it, and hosts match requests against that half.',
    examples: [{}],
  } satisfies DiagnosticData<Record<string, never>>,
  descriptionStuffed: {
    code: 'CMP423',
    severity: 'warning',
    title: 'Description is a list of keywords',
    message: (found) =>
      found.kind === 'quoted'
        ? `\`description\` is ${found.quotes} quoted terms with ${found.prose} words of prose around them.`
        : `\`description\` lists ${found.items} comma-separated terms in one sentence.`,
    hint: () =>
      'Write the description as one or two sentences of what the skill does and when to use it; a bare list of terms reads as noise to the model and matches requests it does not own.',
    examples: [
      { kind: 'list', items: 11 },
      { kind: 'quoted', quotes: 6, prose: 2 },
    ],
  } satisfies DiagnosticData<
    /** Many quoted terms with little prose around them. */
    | { readonly kind: 'quoted'; readonly quotes: number; readonly prose: number }
    /** A sentence of many short comma-separated items. */
    | { readonly kind: 'list'; readonly items: number }
  >,
  descriptionPerson: {
    code: 'CMP424',
    severity: 'warning',
    title: 'Description in the first or second person',
    message: ({ person, word }) => `\`description\` speaks in the ${person} person ("${word}").`,
    hint: () =>
      'Write in the third person, as an outcome ("Converts PDF forms …"), not "I can help you …" or "You can use this …": the description is injected into the model\'s context beside other skills, and a shifting point of view hurts discovery.',
    examples: [
      { person: 'first', word: 'I' },
      { person: 'second', word: 'you' },
    ],
  } satisfies DiagnosticData<{ readonly person: 'first' | 'second'; readonly word: string }>,
  descriptionDuplicate: {
    code: 'CMP425',
    severity: 'warning',
    title: 'Two skills share a description',
    message: ({ id, earlier }) => `Skill "${id}" has the same description as skill "${earlier}".`,
    hint: () =>
      'Give each skill a description that tells it apart: with the same words the model cannot choose, and hosts may drop one. Merge the skills if they really do the same.',
    examples: [{ id: 'tidy-docs', earlier: 'tidy' }],
  } satisfies DiagnosticData<{ readonly id: string; readonly earlier: string }>,
  descriptionPlaceholder: {
    code: 'CMP426',
    severity: 'warning',
    title: 'Description is a placeholder or filler',
    message: ({ kind }) =>
      `\`description\` starts with ${kind === 'template' ? 'template text' : 'filler ("this skill …")'} instead of what the skill does.`,
    hint: () =>
      'Replace the template text ("TODO", "Description goes here", "This skill …") with what the skill does and when to use it, starting with the verb.',
    examples: [{ kind: 'template' }, { kind: 'filler' }],
  } satisfies DiagnosticData<{ readonly kind: 'template' | 'filler' }>,
  skillBodyEmpty: {
    code: 'CMP427',
    severity: 'warning',
    title: 'SKILL.md has no instructions',
    message: () => 'SKILL.md has a title but no instructions.',
    hint: () =>
      'Write the workflow under the title: the steps to follow and the files to read at each. A skill with an empty body is picked and then does nothing.',
    examples: [{}],
  } satisfies DiagnosticData<Record<string, never>>,
  requiredLink: {
    code: 'CMP428',
    severity: 'warning',
    title: 'Skill does not link a file the house rules require',
    message: ({ skill, path }) => `SKILL.md of "${skill}" does not link "${path}", which every skill must.`,
    hint: () =>
      `Link the file from SKILL.md (for example "Start with [${BASE_PATH}](${BASE_PATH})."), as \`${formatRule('requireLinks')}\` in the scope file asks of every published skill.`,
    examples: [{ skill: 'release', path: 'references/checklist.md' }],
  } satisfies DiagnosticData<{ readonly skill: string; readonly path: string }>,
};
