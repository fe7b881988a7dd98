/**
 * Prompt files: `prompts/<name>.md` with YAML front matter (`description`, optional `title` and `arguments`) and
 * a body in the placeholder syntax of `prompt-template.ts`. A prompt reaches the user as a slash command in hosts
 * that show MCP prompts; its body is the message it sends. Parsing is memoized on the identity of the bytes.
 */

import type { ArgumentProblem, ValuesProblem } from './codes/prompts.js';
import { decodeUtf8 } from './content.js';
import { codes, type Diagnostic, diagnose } from './diagnostics.js';
import { type Position, parseFrontMatter } from './front-matter.js';
import { MAX_PROMPT_NAME_LENGTH } from './limits.js';
import { type Memo, memoTable, NO_MEMO } from './memo.js';
import { PROMPT_ARGUMENT_KEYS, PROMPT_ARGUMENT_KINDS, PROMPT_KEYS, PROMPTS_DIR } from './names.js';
import { parseTemplate } from './prompt-template.js';
import type { ListedPrompt, PromptArgumentEntry, PromptArgumentKind, TemplateNode } from './prompt-types.js';
import type { SourceFile } from './types.js';

export { PROMPTS_DIR };

/** A prompt name: what a host shows after its slash. Lowercase words joined by single `-` or `_`. */
const PROMPT_NAME = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;
const ARGUMENT_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const KNOWN_KEYS: ReadonlySet<string> = new Set(PROMPT_KEYS);
const ARGUMENT_KEYS: ReadonlySet<string> = new Set(PROMPT_ARGUMENT_KEYS);
const KINDS: readonly PromptArgumentKind[] = PROMPT_ARGUMENT_KINDS;

/** A prompt as its own file describes it, before coverage gives it a scope. */
export interface ParsedPrompt {
  readonly name: string;
  readonly path: string;
  readonly title?: string;
  readonly description: string;
  readonly arguments: readonly PromptArgumentEntry[];
  /** Where each argument is declared, by name (for findings made once the catalog is known). */
  readonly argumentPositions: ReadonlyMap<string, Position>;
  readonly template: readonly TemplateNode[];
  readonly listed: ListedPrompt;
}

export interface PromptRead {
  /** Undefined when the prompt cannot be served: any error in its front matter, arguments or placeholders. */
  readonly prompt?: ParsedPrompt;
  readonly diagnostics: readonly Diagnostic[];
}

/** The prompt name of a path directly in `prompts/` ending in `.md`, else undefined (nested or other files). */
export function buildPromptName(path: string): string | undefined {
  if (!path.startsWith(PROMPTS_DIR) || !path.endsWith('.md')) return undefined;
  const name = path.slice(PROMPTS_DIR.length, -'.md'.length);
  return name === '' || name.includes('/') ? undefined : name;
}

const READS = memoTable<Uint8Array, { readonly path: string; readonly result: PromptRead }>('prompts.reads');

/** Reads one prompt file (a path `buildPromptName` accepts). Pure; memoized on `file.bytes` and the path. */
export function readPrompt(file: SourceFile, memo: Memo = NO_MEMO): PromptRead {
  const reads = memo.table(READS);
  const cached = reads.get(file.bytes);
  if (cached?.path === file.path) return cached.result;
  const result = parsePromptFile(file, memo);
  reads.set(file.bytes, { path: file.path, result });
  return result;
}

function parsePromptFile(file: SourceFile, memo: Memo): PromptRead {
  const path = file.path;
  const name = buildPromptName(path)!;
  if (name.length > MAX_PROMPT_NAME_LENGTH || !PROMPT_NAME.test(name)) {
    return { diagnostics: [diagnose(codes.promptName, { name }, { file: path })] };
  }
  const text = decodeUtf8(file.bytes, memo);
  if (text === undefined) {
    return { diagnostics: [diagnose(codes.invalidUtf8, { file: 'prompt' }, { file: path })] };
  }
  const fm = parseFrontMatter(text);
  if (fm.kind === 'missing') {
    return {
      diagnostics: [diagnose(codes.promptFrontMatterMissing, {}, { file: path, line: 1 })],
    };
  }
  if (fm.kind === 'error') {
    return {
      diagnostics: [
        diagnose(
          codes.promptYaml,
          { reason: fm.message },
          {
            file: path,
            line: fm.line,
            column: fm.column,
          },
        ),
      ],
    };
  }
  const diagnostics: Diagnostic[] = [];
  const at = (key: string) => ({ file: path, ...(fm.keys.get(key) ?? { line: 1 }) });
  for (const [key, position] of fm.keys) {
    if (!KNOWN_KEYS.has(key)) {
      diagnostics.push(
        diagnose(codes.promptUnknownField, { kind: 'unknown', key }, { file: path, ...position }),
      );
    }
  }
  const description = fm.data.description;
  if (typeof description !== 'string' || description.trim() === '') {
    diagnostics.push(
      diagnose(codes.promptDescription, { present: description !== undefined }, at('description')),
    );
  }
  let title: string | undefined;
  if (typeof fm.data.title === 'string' && fm.data.title.trim() !== '') title = fm.data.title.trim();
  else if (fm.data.title !== undefined) {
    diagnostics.push(diagnose(codes.promptUnknownField, { kind: 'title' }, at('title')));
  }

  const argumentLines = findItemLines(text, fm.keys.get('arguments'), fm.bodyLine);
  const args = readArguments(fm.data.arguments, path, at('arguments'), argumentLines, diagnostics);

  const body = fm.body;
  if (body.trim() === '') {
    diagnostics.push(
      diagnose(
        codes.promptEmpty,
        {},
        {
          file: path,
          line: fm.bodyLine,
        },
      ),
    );
  }
  const template = parseTemplate(body, path, fm.bodyLine);
  diagnostics.push(...template.diagnostics);
  const declared = new Map(args.entries.map((a) => [a.name, a]));
  const used = new Set<string>();
  for (const ref of template.refs) {
    const where = { file: path, line: ref.line, column: ref.column };
    if (!args.positions.has(ref.name)) {
      diagnostics.push(
        diagnose(
          codes.promptUndeclaredArgument,
          { name: ref.name, declared: [...args.positions.keys()] },
          where,
        ),
      );
      continue;
    }
    used.add(ref.name);
    const argument = declared.get(ref.name);
    if (argument === undefined) continue; // declared, but its declaration is broken (reported above)
    if (
      ref.property !== undefined &&
      (argument.kind === 'text' || (argument.kind === 'topic' && ref.property === 'uri'))
    ) {
      diagnostics.push(
        diagnose(
          codes.promptPlaceholder,
          { kind: 'no-property', name: ref.name, property: ref.property, argumentKind: argument.kind },
          where,
        ),
      );
    }
  }
  for (const argument of args.entries) {
    if (!used.has(argument.name)) {
      diagnostics.push(
        diagnose(
          codes.promptUnusedArgument,
          { name: argument.name },
          { file: path, ...args.positions.get(argument.name) },
        ),
      );
    }
  }
  if (diagnostics.some((d) => d.severity === 'error')) return { diagnostics };
  const trimmedDescription = (description as string).trim();
  return {
    prompt: {
      name,
      path,
      ...(title === undefined ? {} : { title }),
      description: trimmedDescription,
      arguments: args.entries,
      argumentPositions: args.positions,
      template: template.nodes,
      listed: buildListedPrompt(name, title, trimmedDescription, args.entries),
    },
    diagnostics,
  };
}

/** The `prompts/list` entry: the arguments' descriptions also say their allowed values and default. */
export function buildListedPrompt(
  name: string,
  title: string | undefined,
  description: string,
  args: readonly PromptArgumentEntry[],
): ListedPrompt {
  return {
    name,
    ...(title === undefined ? {} : { title }),
    description,
    ...(args.length === 0
      ? {}
      : {
          arguments: args.map((argument) => {
            const described = describeArgument(argument);
            return {
              name: argument.name,
              ...(argument.title === undefined ? {} : { title: argument.title }),
              ...(described === '' ? {} : { description: described }),
              required: argument.required,
            };
          }),
        }),
  };
}

function describeArgument(argument: PromptArgumentEntry): string {
  const parts = [argument.description ?? ''];
  if (argument.enum) parts.push(`One of: ${argument.enum.join(', ')}.`);
  if (argument.kind === 'document') parts.push('A document id from the index.');
  else if (argument.kind === 'skill') parts.push('A skill name from the index.');
  else if (argument.kind === 'topic') parts.push('A topic id from the index.');
  if (argument.default !== undefined) parts.push(`Default: ${argument.default}.`);
  return parts.filter((part) => part !== '').join(' ');
}

interface Arguments {
  readonly entries: PromptArgumentEntry[];
  readonly positions: Map<string, Position>;
}

/** Validates `arguments`; an entry that is not a usable declaration is reported and left out. */
function readArguments(
  value: unknown,
  file: string,
  keyAt: { file: string } & Partial<Position>,
  itemLines: readonly Position[],
  diagnostics: Diagnostic[],
): Arguments {
  const entries: PromptArgumentEntry[] = [];
  const positions = new Map<string, Position>();
  if (value === undefined || value === null) return { entries, positions };
  if (!Array.isArray(value)) {
    diagnostics.push(diagnose(codes.promptArgument, { kind: 'not-a-list' }, keyAt));
    return { entries, positions };
  }
  value.forEach((item: unknown, i) => {
    const itemAt = itemLines[i];
    const where = itemAt === undefined ? keyAt : { file, ...itemAt };
    const fail = (problem: ArgumentProblem) => {
      diagnostics.push(diagnose(codes.promptArgument, problem, where));
    };
    const failValues = (problem: ValuesProblem) => {
      diagnostics.push(diagnose(codes.promptArgumentValues, problem, where));
    };
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      fail({ kind: 'not-a-mapping', index: i });
      return;
    }
    const record = item as Record<string, unknown>;
    const name = record.name;
    if (typeof name !== 'string' || !ARGUMENT_NAME.test(name)) {
      fail(typeof name === 'string' ? { kind: 'bad-name', index: i, name } : { kind: 'no-name', index: i });
      return;
    }
    if (positions.has(name)) {
      diagnostics.push(diagnose(codes.promptArgumentDuplicate, { name }, where));
      return;
    }
    let usable = true;
    for (const key of Object.keys(record)) {
      if (!ARGUMENT_KEYS.has(key)) {
        fail({ kind: 'unknown-key', name, key });
        usable = false;
      }
    }
    for (const key of ['title', 'description', 'default'] as const) {
      if (record[key] !== undefined && typeof record[key] !== 'string') {
        fail({ kind: 'not-a-string', name, key });
        usable = false;
      }
    }
    if (record.required !== undefined && typeof record.required !== 'boolean') {
      fail({ kind: 'required-not-boolean', name });
      usable = false;
    }
    const kind = record.kind ?? 'text';
    if (!KINDS.includes(kind as PromptArgumentKind)) {
      fail({ kind: 'unknown-kind', name, value: kind });
      usable = false;
    }
    const required = record.required === true;
    const fallback = typeof record.default === 'string' ? record.default : undefined;
    if (required && fallback !== undefined) {
      fail({ kind: 'required-default', name });
      usable = false;
    }
    let values: string[] | undefined;
    if (record.enum !== undefined) {
      const list = record.enum;
      if (!Array.isArray(list) || list.length === 0 || list.some((v) => typeof v !== 'string' || v === '')) {
        failValues({ kind: 'enum-not-strings', name });
        usable = false;
      } else if (new Set(list).size !== list.length) {
        failValues({ kind: 'enum-repeats', name });
        usable = false;
      } else if (kind !== 'text') {
        failValues({ kind: 'enum-on-id', name, argumentKind: String(kind) });
        usable = false;
      } else {
        values = list as string[];
        if (fallback !== undefined && !values.includes(fallback)) {
          failValues({ kind: 'default-not-in-enum', name, value: fallback, values });
          usable = false;
        }
      }
    }
    const description = typeof record.description === 'string' ? record.description.trim() : '';
    if (description === '') {
      diagnostics.push(diagnose(codes.promptArgumentDescription, { name }, where));
    }
    positions.set(name, { line: where.line ?? 1, column: where.column ?? 1 });
    if (!usable) return;
    const title =
      typeof record.title === 'string' && record.title.trim() !== '' ? record.title.trim() : undefined;
    entries.push({
      name,
      ...(title === undefined ? {} : { title }),
      ...(description === '' ? {} : { description }),
      required,
      ...(values === undefined ? {} : { enum: values }),
      ...(fallback === undefined ? {} : { default: fallback }),
      kind: kind as PromptArgumentKind,
    });
  });
  return { entries, positions };
}

/**
 * The file position (of the `-`) of each item of a block sequence under a top-level key (`arguments:` then `- name: …` lines), so
 * a finding about the third argument points at it. Empty for a flow sequence or when the key is absent: the
 * findings then sit at the key.
 */
function findItemLines(text: string, key: Position | undefined, bodyLine: number): Position[] {
  if (key === undefined) return [];
  const lines = text.split('\n');
  const out: Position[] = [];
  let indent: number | undefined;
  // File line n is lines[n - 1]; the front matter ends two lines above the body (the closing "---").
  for (let n = key.line + 1; n <= bodyLine - 2; n++) {
    const line = lines[n - 1] ?? '';
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const leading = line.length - line.trimStart().length;
    const item = /^(\s*)-(?:\s|$)/.exec(line);
    if (indent === undefined) {
      if (!item) break;
      indent = item[1]!.length;
    }
    if (item && item[1]!.length === indent) out.push({ line: n, column: indent + 1 });
    else if (leading <= indent && !item) break;
  }
  return out;
}
