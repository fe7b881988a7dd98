/**
 * `companion check --fix`, the plan: which bytes each mechanical fix would write. Pure: the snapshot and the
 * findings in, a plan out; `src/fs/apply-fixes.ts` writes it.
 *
 * Only what is mechanical and safe, and only where a finding asks for it (a code set to `off` or suppressed
 * is not fixed):
 * - CMP507: CRLF line endings become LF;
 * - CMP508: trailing whitespace goes from front matter lines;
 * - CMP409: a plain YAML scalar that YAML 1.1 parsers read differently is double-quoted — only when the
 *   YAML 1.2 value is a string already, so what companion serves does not change;
 * - CMP404: a skill `name` that differs from a valid name only by case is lowercased, and a directory that
 *   differs from it only by case is renamed to match.
 * Prose is never touched. Every fixed file is parsed again, and its fix dropped unless the front matter still
 * parses to the same data (the name lowercased aside) and the body is the same text.
 */
import { decodeUtf8, encodeUtf8 } from '../content.js';
import { codes, type Diagnostic } from '../diagnostics.js';
import { parseFrontMatter } from '../front-matter.js';
import { SKILL_BODY, SKILLS_DIR } from '../skills.js';
import type { Snapshot } from '../types.js';

export interface FileFix {
  /** Relative to the content root. */
  readonly path: string;
  /** The bytes the plan was made from; the writer refuses when the file no longer holds them. */
  readonly before: Uint8Array;
  readonly after: Uint8Array;
  /** What changed, one sentence each, with the line and the code it answers. */
  readonly changes: readonly string[];
}

export interface DirectoryRename {
  readonly from: string;
  readonly to: string;
  readonly reason: string;
}

export interface FixPlan {
  readonly files: readonly FileFix[];
  readonly renames: readonly DirectoryRename[];
  /** Fixes given up, with why (the file would not parse back to the same data). */
  readonly skipped: readonly string[];
}

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

interface Edit {
  /** 1-based line. */
  readonly line: number;
  readonly apply: (text: string) => string | undefined;
  readonly change: string;
}

export function planFixes(snapshot: Snapshot, diagnostics: readonly Diagnostic[]): FixPlan {
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    if (d.file === undefined) continue;
    const list = byFile.get(d.file) ?? [];
    list.push(d);
    byFile.set(d.file, list);
  }
  const files: FileFix[] = [];
  const renames: DirectoryRename[] = [];
  const skipped: string[] = [];
  for (const [path, found] of byFile) {
    const file = snapshot.files.get(path);
    const text = file && decodeUtf8(file.bytes);
    if (file === undefined || text === undefined || !path.endsWith('.md')) continue;
    const crlf = found.some((d) => d.code === codes.crlf.code);
    const edits: Edit[] = [];
    for (const d of found) {
      if (d.line === undefined) continue;
      if (d.code === codes.frontMatterWhitespace.code) {
        edits.push({
          line: d.line,
          apply: (l) => l.replace(/[ \t]+$/, ''),
          change: `removed trailing whitespace from front matter line ${d.line} (CMP508)`,
        });
      } else if (
        d.code === codes.ambiguousYaml.code &&
        d.column !== undefined &&
        !/carriage return/.test(d.message)
      ) {
        const column = d.column;
        edits.push({
          line: d.line,
          apply: (l) => quotePlainScalar(l, column),
          change: `quoted the value on line ${d.line}, which YAML parsers read differently (CMP409)`,
        });
      }
    }
    let rename: DirectoryRename | undefined;
    const skill =
      path.startsWith(SKILLS_DIR) && path.endsWith(`/${SKILL_BODY}`)
        ? path.slice(SKILLS_DIR.length, -SKILL_BODY.length - 1)
        : undefined;
    if (skill !== undefined && !skill.includes('/') && found.some((d) => d.code === codes.skillName.code)) {
      const nameFix = planNameCase(text, skill);
      if (nameFix) {
        if (nameFix.line !== undefined) {
          edits.push({
            line: nameFix.line,
            apply: (l) =>
              l.replace(
                /^(name:[ \t]*)([^\r]*)$/,
                (_, key: string, value: string) => key + value.toLowerCase(),
              ),
            change: `lowercased \`name\` to "${nameFix.name}" on line ${nameFix.line} (CMP404)`,
          });
        }
        if (skill !== nameFix.name) {
          rename = {
            from: `${SKILLS_DIR}${skill}`,
            to: `${SKILLS_DIR}${nameFix.name}`,
            reason: `renamed the directory to match \`name\` "${nameFix.name}" (CMP404)`,
          };
        }
      }
    }
    if (!crlf && edits.length === 0) {
      if (rename) renames.push(rename);
      continue;
    }
    const fixed = applyEdits(crlf ? text.replaceAll('\r\n', '\n') : text, edits);
    const problem =
      fixed === undefined
        ? 'a line was not as the finding described it'
        : verify(text, fixed, crlf, skill !== undefined);
    if (fixed === undefined || problem !== undefined) {
      skipped.push(`${path}: not fixed, ${problem}`);
      continue;
    }
    const changes = [
      ...(crlf ? ['converted CRLF line endings to LF (CMP507)'] : []),
      ...edits.sort((a, b) => a.line - b.line).map((e) => e.change),
    ];
    files.push({ path, before: file.bytes, after: encodeUtf8(fixed), changes });
    if (rename) renames.push(rename);
  }
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { files, renames, skipped };
}

/** `line` with the plain scalar starting at `column` double-quoted; undefined when it is not one. */
function quotePlainScalar(line: string, column: number): string | undefined {
  const start = column - 1;
  const first = line[start];
  if (first === undefined || first === '"' || first === "'") return undefined;
  const comment = line.indexOf(' #', start);
  let end = comment === -1 ? line.length : comment;
  while (end > start && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  const source = line.slice(start, end);
  if (source === '') return undefined;
  return `${line.slice(0, start)}${JSON.stringify(source)}${line.slice(end)}`;
}

function applyEdits(text: string, edits: readonly Edit[]): string | undefined {
  if (edits.length === 0) return text;
  const lines = text.split('\n');
  for (const edit of edits) {
    const current = lines[edit.line - 1];
    if (current === undefined) return undefined;
    const next = edit.apply(current);
    if (next === undefined) return undefined;
    lines[edit.line - 1] = next;
  }
  return lines.join('\n');
}

/** The lowercased name and the line of `name:`, when the skill's name differs from a valid one only by case. */
function planNameCase(text: string, directory: string): { name: string; line?: number } | undefined {
  const fm = parseFrontMatter(text);
  if (fm.kind !== 'ok' || typeof fm.data.name !== 'string') return undefined;
  const name = fm.data.name;
  const lower = name.toLowerCase();
  if (!NAME.test(lower) || lower.length > 64 || directory.toLowerCase() !== lower) return undefined;
  if (name === lower && directory === lower) return undefined;
  const line = fm.keys.get('name')?.line;
  return name === lower ? { name: lower } : line === undefined ? undefined : { name: lower, line };
}

/** Why `after` is not a safe fix of `before`, if it is not. */
function verify(before: string, after: string, crlf: boolean, skill: boolean): string | undefined {
  const a = parseFrontMatter(before);
  const b = parseFrontMatter(after);
  if (a.kind === 'missing' && b.kind === 'missing') {
    return after === (crlf ? before.replaceAll('\r\n', '\n') : before) ? undefined : 'the text would change';
  }
  if (a.kind !== 'ok' || b.kind !== 'ok') return 'the front matter would not parse';
  const expected = { ...a.data };
  if (skill && typeof expected.name === 'string') expected.name = expected.name.toLowerCase();
  if (JSON.stringify(expected) !== JSON.stringify(b.data)) return 'the front matter would read differently';
  if (b.body !== (crlf ? a.body.replaceAll('\r\n', '\n') : a.body)) return 'the body would change';
  return undefined;
}
