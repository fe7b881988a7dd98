/**
 * The prompts a catalog serves, kept by the incremental builder beside its documents and skills: each file
 * under `prompts/` read once per version of its bytes, then — whenever a prompt, a skill, the document list or
 * the scope changed — assembled with the skills offered as prompts (`prompts.fromSkills`), covered by topics in
 * both directions, and checked against what the catalog serves (an id argument's default).
 */
import { codes, compare, type Diagnostic, diagnose } from './diagnostics.js';
import { lintSecrets } from './lint/text-rules.js';
import { type Memo, NO_MEMO } from './memo.js';
import type { PromptArgumentEntry, PromptEntry, TemplateNode } from './prompt-types.js';
import { buildListedPrompt, type ParsedPrompt, PROMPTS_DIR, readPrompt } from './prompts.js';
import type { ServerScope } from './scope-schema.js';
import type { DocumentEntry, HeldItem, SkillEntry, SourceFile } from './types.js';

/** What a skill prompt's optional argument is called. */
export const SKILL_PROMPT_ARGUMENT = 'task';

export interface PromptInput {
  readonly scope: ServerScope | undefined;
  readonly scopeFile: string;
  readonly positionOf: (path: readonly (string | number)[]) => { line: number; column: number } | undefined;
  /** The skills the catalog serves (drafts too, when it serves them). */
  readonly skills: readonly SkillEntry[];
  readonly documents: readonly DocumentEntry[];
  /** Paths the loader could not read: a prompt there exists, so a topic naming it is not wrong. */
  readonly problemPaths: ReadonlySet<string>;
  /** Put in front of a draft's description. */
  readonly draftPrefix: string;
}

export interface PromptAssembly {
  /** By name; the same array as the last assembly when nothing in it changed. */
  readonly prompts: readonly PromptEntry[];
  readonly diagnostics: readonly Diagnostic[];
}

export interface PromptBuilder {
  /** Forgets every prompt file (a build from scratch). */
  reset(): void;
  /**
   * Re-reads one prompt file path (`buildPromptName` accepts it); `file` is `undefined` when it is gone, or could
   * not be read just now (`unavailable`). A prompt that does not parse, or could not be read, is served from
   * `lastGood` (its last good version) when that parses: held, as documents and skills are. Answers the file
   * whose version is served, for the build's own last good versions; `undefined` when none is.
   */
  touch(
    path: string,
    file: SourceFile | undefined,
    lastGood: SourceFile | undefined,
    unavailable: boolean,
  ): SourceFile | undefined;
  /** The prompts served from their last good version, by path. */
  held(): ReadonlyMap<string, HeldItem>;
  /** Every prompt file path it holds a unit for (parsed, broken or held). */
  paths(): Iterable<string>;
  /** What each prompt file's own read found, keyed by path; only non-empty ones. */
  readFindings(): ReadonlyMap<string, readonly Diagnostic[]>;
  assemble(input: PromptInput): PromptAssembly;
}

/** `memo`: the builder's, for reading each prompt file once per version of its bytes. */
export function createPromptBuilder(memo: Memo = NO_MEMO): PromptBuilder {
  const units = new Map<string, { readonly prompt?: ParsedPrompt }>();
  const findings = new Map<string, readonly Diagnostic[]>();
  const heldPrompts = new Map<string, HeldItem>();
  // Entries derived from a parsed prompt or a skill entry, kept while their inputs are the same objects.
  const fileEntries = new WeakMap<
    ParsedPrompt,
    { readonly scope: string | undefined; readonly entry: PromptEntry }
  >();
  const skillEntries = new WeakMap<SkillEntry, { readonly prefix: string; readonly entry: PromptEntry }>();
  let last: readonly PromptEntry[] = [];

  return {
    reset() {
      units.clear();
      findings.clear();
      heldPrompts.clear();
    },
    touch(path, file, lastGood, unavailable) {
      heldPrompts.delete(path);
      findings.delete(path);
      const read = file === undefined ? undefined : readPrompt(file, memo);
      // A prompt is served text like a document: a credential in it is a finding (masked), not a reason to hold.
      const found =
        file === undefined ? [] : [...(read?.diagnostics ?? []), ...lintSecrets(path, file.bytes, memo)];
      if (found.length > 0) findings.set(path, found);
      if (file !== undefined && read?.prompt !== undefined) {
        units.set(path, { prompt: read.prompt });
        return file;
      }
      // Broken on disk, or unreadable just now: the last good version, whole, while there is one.
      const last =
        (file !== undefined || unavailable) && lastGood !== undefined
          ? readPrompt(lastGood, memo)
          : undefined;
      if (last?.prompt !== undefined && lastGood !== undefined) {
        units.set(path, { prompt: last.prompt });
        heldPrompts.set(path, {
          kind: 'prompt',
          id: last.prompt.name,
          path,
          reason: file === undefined ? 'unavailable' : 'invalid',
          modifiedMs: lastGood.mtimeMs,
        });
        return lastGood;
      }
      if (file === undefined) units.delete(path);
      else units.set(path, {});
      return undefined;
    },
    held: () => heldPrompts,
    paths: () => units.keys(),
    readFindings: () => findings,
    assemble(input) {
      const diagnostics: Diagnostic[] = [];
      const scopes = coverPrompts(input, units, diagnostics);
      const byName = new Map<string, PromptEntry>();
      for (const unit of units.values()) {
        const prompt = unit.prompt;
        if (prompt === undefined) continue;
        if (!checkDefaults(prompt, input, diagnostics)) continue;
        const scope = scopes.get(prompt.name);
        const cached = fileEntries.get(prompt);
        const entry =
          cached !== undefined && cached.scope === scope ? cached.entry : buildFileEntry(prompt, scope);
        fileEntries.set(prompt, { scope, entry });
        byName.set(prompt.name, entry);
      }
      if (input.scope?.prompts?.fromSkills) {
        for (const skill of input.skills) {
          if (byName.has(skill.id)) {
            diagnostics.push(
              diagnose(
                codes.promptDuplicateName,
                { skill: skill.id },
                { file: `${PROMPTS_DIR}${skill.id}.md`, line: 1 },
              ),
            );
            continue;
          }
          const cached = skillEntries.get(skill);
          const entry =
            cached?.prefix === input.draftPrefix ? cached.entry : buildSkillEntry(skill, input.draftPrefix);
          skillEntries.set(skill, { prefix: input.draftPrefix, entry });
          byName.set(skill.id, entry);
        }
      }
      const prompts = [...byName.values()].sort((a, b) => compare(a.name, b.name));
      if (prompts.length !== last.length || prompts.some((p, i) => p !== last[i])) last = prompts;
      return { prompts: last, diagnostics };
    },
  };
}

/**
 * Coverage in both directions: every name a topic lists exists under `prompts/` (or is a skill's prompt), every
 * prompt that is served is named by a topic, and by topics of one scope. Returns each prompt's scope.
 */
function coverPrompts(
  input: PromptInput,
  units: ReadonlyMap<string, { readonly prompt?: ParsedPrompt }>,
  diagnostics: Diagnostic[],
): Map<string, string> {
  const scopes = new Map<string, string>();
  const { scope } = input;
  if (!scope) return scopes;
  const skillPrompts = new Set(scope.prompts?.fromSkills ? input.skills.map((s) => s.id) : []);
  scope.topics.forEach((topic, i) => {
    topic.prompts.forEach((name, j) => {
      const path = `${PROMPTS_DIR}${name}.md`;
      const where = () => ({ file: input.scopeFile, ...input.positionOf(['topics', i, 'prompts', j]) });
      if (!units.has(path) && !input.problemPaths.has(path)) {
        if (!skillPrompts.has(name)) {
          diagnostics.push(diagnose(codes.unknownPrompt, { topic: topic.id, name }, where()));
        }
        return;
      }
      const previous = scopes.get(name);
      if (previous !== undefined && previous !== topic.scope) {
        diagnostics.push(
          diagnose(
            codes.conflictingScopes,
            { kind: 'prompt', id: name, first: previous, second: topic.scope },
            where(),
          ),
        );
        return;
      }
      scopes.set(name, topic.scope);
    });
  });
  for (const [path, unit] of units) {
    if (unit.prompt && !scopes.has(unit.prompt.name)) {
      diagnostics.push(diagnose(codes.promptNotCovered, { name: unit.prompt.name }, { file: path, line: 1 }));
    }
  }
  return scopes;
}

/** An id argument's default must name what the catalog serves; a prompt whose default does not is withheld. */
function checkDefaults(prompt: ParsedPrompt, input: PromptInput, diagnostics: Diagnostic[]): boolean {
  let ok = true;
  for (const argument of prompt.arguments) {
    if (argument.default === undefined || argument.kind === 'text') continue;
    const ids =
      argument.kind === 'document'
        ? input.documents.map((d) => d.id)
        : argument.kind === 'skill'
          ? input.skills.map((s) => s.id)
          : (input.scope?.topics.map((t) => t.id) ?? []);
    if (ids.includes(argument.default)) continue;
    ok = false;
    diagnostics.push(
      diagnose(
        codes.promptArgumentValues,
        {
          kind: 'default-not-served',
          name: argument.name,
          value: argument.default,
          argumentKind: argument.kind,
        },
        { file: prompt.path, ...prompt.argumentPositions.get(argument.name) },
      ),
    );
  }
  return ok;
}

function buildFileEntry(prompt: ParsedPrompt, scope: string | undefined): PromptEntry {
  return {
    name: prompt.name,
    ...(prompt.title === undefined ? {} : { title: prompt.title }),
    description: prompt.description,
    arguments: prompt.arguments,
    source: { kind: 'file', path: prompt.path },
    ...(scope === undefined ? {} : { scope }),
    template: prompt.template,
    listed: prompt.listed,
  };
}

const TASK_ARGUMENT: PromptArgumentEntry = {
  name: SKILL_PROMPT_ARGUMENT,
  description: 'What to do, in a sentence; the workflow is followed for it.',
  required: false,
  kind: 'text',
};

/**
 * A skill offered as a prompt: one message that hands over its body (the Markdown after the front matter), with
 * the URI its relative links resolve against, and the task when the user gives one.
 */
function buildSkillEntry(skill: SkillEntry, draftPrefix: string): PromptEntry {
  const description = skill.draft ? `${draftPrefix} ${skill.description}` : skill.description;
  const task = SKILL_PROMPT_ARGUMENT;
  const template: TemplateNode[] = [
    {
      kind: 'section',
      name: task,
      inverted: false,
      children: [
        { kind: 'text', text: 'The task: ' },
        { kind: 'value', name: task },
        { kind: 'text', text: '\n\n' },
      ],
    },
    { kind: 'text', text: `Follow the skill "${skill.id}" below` },
    { kind: 'section', name: task, inverted: false, children: [{ kind: 'text', text: ' to do it' }] },
    {
      kind: 'text',
      text: `. It is served at ${skill.uri}, and so is every file it links to: a relative link resolves against that URI. Read each file at the step that sends you to it.\n\n${skill.body.trim()}\n`,
    },
  ];
  return {
    name: skill.id,
    title: skill.title,
    description,
    arguments: [TASK_ARGUMENT],
    source: { kind: 'skill', id: skill.id },
    ...(skill.scope === undefined ? {} : { scope: skill.scope }),
    ...(skill.draft ? { draft: true as const } : {}),
    template,
    listed: buildListedPrompt(skill.id, skill.title, description, [TASK_ARGUMENT]),
  };
}
