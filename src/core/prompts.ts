/**
 * Prompt files: `prompts/<name>.md` with YAML front matter (`description`, optional `title` and `arguments`) and
 * a body in the placeholder syntax of `prompt-template.ts`. A prompt reaches the user as a slash command in hosts
 * that show MCP prompts; its body is the message it sends. Parsing is memoized on the identity of the bytes.
 */
import { decodeUtf8 } from './content.js';
import { codes, type Diagnostic, type DiagnosticData, diagnose } from './diagnostics.js';
import { type Position, parseFrontMatter } from './front-matter.js';
import { parseTemplate } from './prompt-template.js';
import type { ListedPrompt, PromptArgumentEntry, PromptArgumentKind, TemplateNode } from './prompt-types.js';
import type { SourceFile } from './types.js';

export const PROMPTS_DIR = 'prompts/';
/** A prompt name: what a host shows after its slash. Lowercase words joined by single `-` or `_`. */
const PROMPT_NAME = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;
const ARGUMENT_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const KNOWN_KEYS = new Set(['title', 'description', 'arguments']);
const ARGUMENT_KEYS = new Set(['name', 'title', 'description', 'required', 'enum', 'default', 'kind']);
const KINDS: readonly PromptArgumentKind[] = ['text', 'document', 'skill', 'topic'];

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

const cache = new WeakMap<Uint8Array, { readonly path: string; readonly result: PromptRead }>();

/** Reads one prompt file (a path `buildPromptName` accepts). Pure; memoized on `file.bytes` and the path. */
export function readPrompt(file: SourceFile): PromptRead {
  const cached = cache.get(file.bytes);
  if (cached?.path === file.path) return cached.result;
  const result = parsePromptFile(file);
  cache.set(file.bytes, { path: file.path, result });
  return result;
}

function parsePromptFile(file: SourceFile): PromptRead {
  const path = file.path;
  const name = buildPromptName(path)!;
  if (name.length > 64 || !PROMPT_NAME.test(name)) {
    return {
      diagnostics: [
        diagnose(
          codes.promptName,
          `"${name}" is not a prompt name: 1–64 lowercase letters and digits, with single inner "-" or "_".`,
          { file: path },
        ),
      ],
    };
  }
  const text = decodeUtf8(file.bytes);
  if (text === undefined) {
    return { diagnostics: [diagnose(codes.invalidUtf8, 'The prompt is not valid UTF-8.', { file: path })] };
  }
  const fm = parseFrontMatter(text);
  if (fm.kind === 'missing') {
    return {
      diagnostics: [
        diagnose(
          codes.promptFrontMatterMissing,
          'The prompt does not start with a "---" front matter block.',
          {
            file: path,
            line: 1,
          },
        ),
      ],
    };
  }
  if (fm.kind === 'error') {
    return {
      diagnostics: [
        diagnose(codes.promptYaml, `The front matter does not parse: ${fm.message}`, {
          file: path,
          line: fm.line,
          column: fm.column,
        }),
      ],
    };
  }
  const diagnostics: Diagnostic[] = [];
  const at = (key: string) => ({ file: path, ...(fm.keys.get(key) ?? { line: 1 }) });
  for (const [key, position] of fm.keys) {
    if (!KNOWN_KEYS.has(key)) {
      diagnostics.push(
        diagnose(codes.promptUnknownField, `Front matter key "${key}" is not one prompts take.`, {
          file: path,
          ...position,
        }),
      );
    }
  }
  const description = fm.data.description;
  if (typeof description !== 'string' || description.trim() === '') {
    diagnostics.push(
      diagnose(
        codes.promptDescription,
        description === undefined
          ? 'The front matter has no `description`.'
          : '`description` must be a non-empty string.',
        at('description'),
      ),
    );
  }
  let title: string | undefined;
  if (typeof fm.data.title === 'string' && fm.data.title.trim() !== '') title = fm.data.title.trim();
  else if (fm.data.title !== undefined) {
    diagnostics.push(
      diagnose(codes.promptUnknownField, '`title` must be a non-empty string; it is ignored.', at('title')),
    );
  }

  const argumentLines = findItemLines(text, fm.keys.get('arguments'), fm.bodyLine);
  const args = readArguments(fm.data.arguments, path, at('arguments'), argumentLines, diagnostics);

  const body = fm.body;
  if (body.trim() === '') {
    diagnostics.push(
      diagnose(codes.promptEmpty, 'The prompt has nothing below its front matter.', {
        file: path,
        line: fm.bodyLine,
      }),
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
          `The placeholder names "${ref.name}", which \`arguments\` does not declare${args.positions.size === 0 ? '' : ` (declared: ${[...args.positions.keys()].join(', ')})`}.`,
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
          `"{{${ref.name}.${ref.property}}}": "${ref.name}" is a ${argument.kind} argument, which has no .${ref.property}.`,
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
          `The argument "${argument.name}" appears in no placeholder of the body.`,
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
    diagnostics.push(
      diagnose(codes.promptArgument, '`arguments` must be a list of argument declarations.', keyAt),
    );
    return { entries, positions };
  }
  value.forEach((item: unknown, i) => {
    const itemAt = itemLines[i];
    const where = itemAt === undefined ? keyAt : { file, ...itemAt };
    const label = `Argument ${i + 1}`;
    const fail = (message: string, code: DiagnosticData = codes.promptArgument) => {
      diagnostics.push(diagnose(code, message, where));
    };
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      fail(`${label} is not a mapping with a \`name\`.`);
      return;
    }
    const record = item as Record<string, unknown>;
    const name = record.name;
    if (typeof name !== 'string' || !ARGUMENT_NAME.test(name)) {
      fail(
        typeof name === 'string'
          ? `${label}'s name "${name}" is not a letter followed by letters, digits, "_" or "-".`
          : `${label} has no \`name\`.`,
      );
      return;
    }
    const named = `Argument "${name}"`;
    if (positions.has(name)) {
      fail(`${named} is declared twice.`, codes.promptArgumentDuplicate);
      return;
    }
    let usable = true;
    for (const key of Object.keys(record)) {
      if (!ARGUMENT_KEYS.has(key)) {
        fail(`${named} has the key "${key}", which arguments do not take.`);
        usable = false;
      }
    }
    for (const key of ['title', 'description', 'default'] as const) {
      if (record[key] !== undefined && typeof record[key] !== 'string') {
        fail(`${named}'s \`${key}\` must be a string.`);
        usable = false;
      }
    }
    if (record.required !== undefined && typeof record.required !== 'boolean') {
      fail(`${named}'s \`required\` must be true or false.`);
      usable = false;
    }
    const kind = record.kind ?? 'text';
    if (!KINDS.includes(kind as PromptArgumentKind)) {
      fail(`${named}'s \`kind\` is ${JSON.stringify(kind)}, not one of ${KINDS.join(', ')}.`);
      usable = false;
    }
    const required = record.required === true;
    const fallback = typeof record.default === 'string' ? record.default : undefined;
    if (required && fallback !== undefined) {
      fail(`${named} is required and has a default; a default applies only to an optional argument.`);
      usable = false;
    }
    let values: string[] | undefined;
    if (record.enum !== undefined) {
      const list = record.enum;
      if (!Array.isArray(list) || list.length === 0 || list.some((v) => typeof v !== 'string' || v === '')) {
        fail(
          `${named}'s \`enum\` must be a non-empty list of non-empty strings.`,
          codes.promptArgumentValues,
        );
        usable = false;
      } else if (new Set(list).size !== list.length) {
        fail(`${named}'s \`enum\` lists a value twice.`, codes.promptArgumentValues);
        usable = false;
      } else if (kind !== 'text') {
        fail(
          `${named} is a ${String(kind)} argument, whose values are the ids this server serves; it takes no \`enum\`.`,
          codes.promptArgumentValues,
        );
        usable = false;
      } else {
        values = list as string[];
        if (fallback !== undefined && !values.includes(fallback)) {
          fail(
            `${named}'s default "${fallback}" is not one of its values (${values.join(', ')}).`,
            codes.promptArgumentValues,
          );
          usable = false;
        }
      }
    }
    const description = typeof record.description === 'string' ? record.description.trim() : '';
    if (description === '') {
      diagnostics.push(diagnose(codes.promptArgumentDescription, `${named} has no description.`, where));
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
