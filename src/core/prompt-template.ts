/**
 * The placeholder syntax of a prompt body, a small subset of Mustache:
 *
 * - `{{name}}` — the argument's value (nothing when an optional argument has none and no default);
 * - `{{name.uri}}`, `{{name.title}}` — for a document or skill argument, the URI and title of what it names (a
 *   topic argument has a title only);
 * - `{{#name}}…{{/name}}` — the text between, only when the argument has a value; `{{^name}}…{{/name}}` — only
 *   when it has none. Sections nest. A section tag alone on its line takes the whole line with it, so a
 *   section can wrap whole lines without leaving blank ones;
 * - `\{{` — a literal `{{`.
 *
 * A tag stays on one line; white space inside the braces is allowed. Values are inserted as given: never
 * escaped, never read as placeholders themselves.
 */
import { codes, type Diagnostic, diagnose } from './diagnostics.js';
import type { TemplateNode } from './prompt-types.js';
import { buildLineOffsets, positionAt } from './scope.js';

/** One placeholder as written, for the checks that need the declared arguments. */
export interface PlaceholderRef {
  readonly name: string;
  readonly property?: 'uri' | 'title';
  readonly section: boolean;
  readonly line: number;
  readonly column: number;
}

export interface ParsedTemplate {
  readonly nodes: readonly TemplateNode[];
  readonly refs: readonly PlaceholderRef[];
  /** Syntax errors (CMP908); the template is not to be served when there are any. */
  readonly diagnostics: readonly Diagnostic[];
}

const TAG = /^([#^/]?)\s*([A-Za-z_][A-Za-z0-9_-]*)(?:\.([A-Za-z_][A-Za-z0-9_-]*))?$/;
const PROPERTIES: ReadonlySet<string> = new Set(['uri', 'title']);

interface OpenSection {
  readonly name: string;
  readonly inverted: boolean;
  readonly children: TemplateNode[];
  readonly line: number;
  readonly column: number;
}

/**
 * Parses a prompt body. `file` and `firstLine` (the file line the body starts on) place every finding in the
 * file. Never throws: what does not parse is reported and kept as text.
 */
export function parseTemplate(body: string, file: string, firstLine: number): ParsedTemplate {
  const offsets = buildLineOffsets(body);
  const where = (offset: number) => {
    const at = positionAt(offsets, offset);
    return { file, line: at.line + firstLine - 1, column: at.column };
  };
  const diagnostics: Diagnostic[] = [];
  const refs: PlaceholderRef[] = [];
  const root: TemplateNode[] = [];
  const stack: OpenSection[] = [];
  const current = () => stack[stack.length - 1]?.children ?? root;
  let text = '';
  const flush = () => {
    if (text !== '') current().push({ kind: 'text', text });
    text = '';
  };

  let i = 0;
  while (i < body.length) {
    const open = body.indexOf('{{', i);
    if (open === -1) {
      text += body.slice(i);
      break;
    }
    if (open > 0 && body[open - 1] === '\\') {
      text += `${body.slice(i, open - 1)}{{`;
      i = open + 2;
      continue;
    }
    text += body.slice(i, open);
    const lineEnd = indexOrEnd(body, '\n', open);
    const close = body.indexOf('}}', open + 2);
    if (close === -1 || close > lineEnd) {
      diagnostics.push(diagnose(codes.promptPlaceholder, { kind: 'unclosed' }, where(open)));
      text += '{{';
      i = open + 2;
      continue;
    }
    const end = close + 2;
    const inner = body.slice(open + 2, close).trim();
    const match = TAG.exec(inner);
    const position = where(open);
    if (!match) {
      diagnostics.push(diagnose(codes.promptPlaceholder, { kind: 'not-a-tag', inner }, position));
      text += body.slice(open, end);
      i = end;
      continue;
    }
    const [, sigil, name, property] = match as unknown as [string, string, string, string | undefined];
    if (sigil !== '' && property !== undefined) {
      diagnostics.push(
        diagnose(codes.promptPlaceholder, { kind: 'section-property', inner, property }, position),
      );
      text += body.slice(open, end);
      i = end;
      continue;
    }
    if (property !== undefined && !PROPERTIES.has(property)) {
      diagnostics.push(
        diagnose(codes.promptPlaceholder, { kind: 'unknown-property', inner, property }, position),
      );
      text += body.slice(open, end);
      i = end;
      continue;
    }
    if (sigil === '') {
      flush();
      current().push(
        property === undefined
          ? { kind: 'value', name }
          : { kind: 'value', name, property: property as 'uri' | 'title' },
      );
      refs.push({
        name,
        ...(property === undefined ? {} : { property: property as 'uri' | 'title' }),
        section: false,
        line: position.line,
        column: position.column,
      });
      i = end;
      continue;
    }
    // A section tag alone on its line takes the line (its indentation and its newline) with it.
    const lineStart = body.lastIndexOf('\n', open - 1) + 1;
    const standalone = isBlank(body, lineStart, open) && isBlank(body, end, lineEnd);
    if (standalone) text = text.slice(0, text.length - (open - lineStart));
    flush();
    i = standalone ? Math.min(lineEnd + 1, body.length) : end;
    if (sigil === '/') {
      const top = stack[stack.length - 1];
      if (top === undefined) {
        diagnostics.push(diagnose(codes.promptPlaceholder, { kind: 'close-unopened', name }, position));
      } else if (top.name !== name) {
        diagnostics.push(
          diagnose(
            codes.promptPlaceholder,
            { kind: 'close-other', name, open: top.name, line: top.line },
            position,
          ),
        );
      } else {
        stack.pop();
        current().push({ kind: 'section', name, inverted: top.inverted, children: top.children });
      }
      continue;
    }
    refs.push({ name, section: true, line: position.line, column: position.column });
    stack.push({ name, inverted: sigil === '^', children: [], line: position.line, column: position.column });
  }
  flush();
  for (const section of stack) {
    diagnostics.push(
      diagnose(
        codes.promptPlaceholder,
        { kind: 'never-closed', name: section.name, inverted: section.inverted },
        { file, line: section.line, column: section.column },
      ),
    );
  }
  return { nodes: root, refs, diagnostics };
}

/** What a placeholder reads: an argument's value, and for an id argument what it names. */
export interface TemplateValue {
  readonly value: string;
  readonly uri?: string;
  readonly title?: string;
}

/** Fills `nodes` in; `lookup` answers undefined for an argument without a value. */
export function renderTemplate(
  nodes: readonly TemplateNode[],
  lookup: (name: string) => TemplateValue | undefined,
): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text') out += node.text;
    else if (node.kind === 'value') {
      const found = lookup(node.name);
      out += (node.property === undefined ? found?.value : found?.[node.property]) ?? '';
    } else if ((lookup(node.name) !== undefined) !== node.inverted) {
      out += renderTemplate(node.children, lookup);
    }
  }
  return out;
}

function indexOrEnd(text: string, search: string, from: number): number {
  const at = text.indexOf(search, from);
  return at === -1 ? text.length : at;
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}
