/**
 * The lint rules of one skill: its description, host rules, the Markdown of every file, secrets, files that
 * should not ship, and progressive disclosure. Pure, and memoized on the parsed skill, the shared base and the
 * rules: a rebuild re-lints only the skills a save touched.
 */
import { buildMimeType, decodeUtf8, isTextual } from '../content.js';
import { codes, type Diagnostic, diagnose } from '../diagnostics.js';
import { resolveLink } from '../links.js';
import { type MarkdownLine, readLines } from '../markdown.js';
import { findLinks, type MarkdownLink, scanLinks } from '../markdown-links.js';
import { type Memo, memoTable, NO_MEMO } from '../memo.js';
import { BASE_PATH, type ParsedSkill, SKILL_BODY, SKILLS_DIR } from '../skills.js';
import type { SourceFile } from '../types.js';
import type { LintRules } from './config.js';
import { lintDescription } from './description-rules.js';
import { lintHostRules } from './host-rules.js';
import {
  buildAnchors,
  countFrontMatterLines,
  findUnclosedFence,
  lintFence,
  lintLineEndings,
  lintLinks,
  type MarkdownFacts,
  readAnchors,
  readMarkdownFacts,
} from './markdown-rules.js';
import { lintSecrets } from './text-rules.js';
import { tokensOverBudget } from './tokens.js';

const FOUND = memoTable<
  ParsedSkill,
  { readonly base: SourceFile | undefined; readonly rules: LintRules; readonly found: readonly Diagnostic[] }
>('lint.skill');

/** Every lint finding of a published `skill`; `base` is served in it as references/base.md. */
export function lintSkill(
  skill: ParsedSkill,
  base: SourceFile | undefined,
  rules: LintRules,
  memo: Memo = NO_MEMO,
): readonly Diagnostic[] {
  const table = memo.table(FOUND);
  const cached = table.get(skill);
  if (cached && cached.base === base && cached.rules === rules) return cached.found;
  const found = buildSkillFindings(skill, base, rules, memo);
  table.set(skill, { base, rules, found });
  return found;
}

/** Files at a skill's root that belong to a repository, not to a skill (skillscheck's list). */
const EXTRANEOUS =
  /^(?:readme(?:\.(?:md|txt|rst))?|changelog(?:\.(?:md|txt))?|license(?:\.(?:md|txt))?|contributing\.md|code_of_conduct\.md|makefile|agents\.md)$/i;
const COMPILED = /\.(?:exe|dll|so|dylib|bin|o|a|pyc|class|wasm|jar)$/i;
const DISCLOSURE_DIRS = ['references/', 'scripts/', 'assets/'];

function buildSkillFindings(
  skill: ParsedSkill,
  base: SourceFile | undefined,
  rules: LintRules,
  memo: Memo,
): Diagnostic[] {
  const dir = `${SKILLS_DIR}${skill.id}/`;
  const bodyFile = `${dir}${SKILL_BODY}`;
  const text = decodeUtf8(skill.body.bytes, memo) ?? '';
  const bodyLine = skill.bodyLine;
  // The body's lines, read again: a parse keeps only the ones a link check reads.
  const bodyText = text.slice(skill.bodyStart);
  const bodyLines = readLines(bodyText, bodyLine);
  const out: Diagnostic[] = [];
  const description = skill.frontmatter.description;
  if (typeof description === 'string') {
    out.push(
      ...lintDescription(
        { file: bodyFile, text, description: description.trim(), keys: skill.keys, bodyLine },
        rules,
      ),
    );
  }
  out.push(
    ...lintHostRules({ file: bodyFile, text, frontmatter: skill.frontmatter, keys: skill.keys, bodyLine }),
    ...lintLineEndings(bodyFile, text, bodyLine - 1),
    ...lintSecrets(bodyFile, skill.body.bytes, memo),
    ...lintFence(bodyFile, findUnclosedFence(bodyLines)),
    ...lintBodyBudget(bodyText, bodyLines, bodyFile, bodyLine, rules),
  );

  // The Markdown files a link can land on: SKILL.md, the skill's own, and the shared base.
  const facts = new Map<string, MarkdownFacts>();
  for (const f of skill.files) {
    if (!f.path.endsWith('.md')) continue;
    const read = readMarkdownFacts(f.file.bytes, memo);
    if (read) facts.set(f.path, read);
  }
  const baseFacts = base ? readMarkdownFacts(base.bytes, memo) : undefined;
  if (baseFacts) facts.set(BASE_PATH, baseFacts);
  const bytesOf = new Map(skill.files.map((f) => [f.path, f.file.bytes]));
  if (base) bytesOf.set(BASE_PATH, base.bytes);
  let bodyAnchors: ReadonlySet<string> | undefined;
  const anchorsIn = (path: string): ReadonlySet<string> | undefined => {
    if (path === SKILL_BODY) {
      bodyAnchors ??= buildAnchors(bodyLines);
      return bodyAnchors;
    }
    const bytes = facts.has(path) ? bytesOf.get(path) : undefined;
    return bytes === undefined ? undefined : readAnchors(bytes, memo);
  };
  const linksOf = new Map<string, readonly MarkdownLink[]>([[SKILL_BODY, scanLinks(bodyLines)]]);
  for (const [path, f] of facts) linksOf.set(path, findLinks(f.linkLines, memo));
  const checkLinks = (fromPath: string, file: string) =>
    lintLinks(file, linksOf.get(fromPath) ?? [], (pathPart) => {
      if (pathPart === '') return anchorsIn(fromPath);
      const resolved = resolveLink(fromPath, pathPart);
      return typeof resolved === 'string' && resolved.endsWith('.md') ? anchorsIn(resolved) : undefined;
    });
  out.push(...checkLinks(SKILL_BODY, bodyFile));

  const license =
    typeof skill.frontmatter.license === 'string' ? skill.frontmatter.license.toLowerCase() : '';
  for (const { path, file } of skill.files) {
    const where = { file: file.path };
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (
      !path.includes('/') &&
      EXTRANEOUS.test(path) &&
      !(name.toLowerCase().startsWith('license') && license.includes(name.toLowerCase()))
    ) {
      out.push(diagnose(codes.extraneousFile, { path }, where));
    }
    const size = file.bytes.byteLength;
    if (size > rules.maxFileBytes) {
      out.push(diagnose(codes.largeFile, { path, size, budget: rules.maxFileBytes }, where));
    }
    const binary = describeBinary(path, file.bytes, memo);
    if (binary) out.push(diagnose(codes.binaryFile, { path, kind: binary }, where));
    // Whatever its name, a file whose bytes are text is served as those bytes: a key in a .pem leaks as well.
    out.push(...lintSecrets(file.path, file.bytes, memo));
    if (binary || (!path.endsWith('.md') && !isTextual(buildMimeType(path)))) continue;
    const md = facts.get(path);
    if (md) {
      const fileText = decodeUtf8(file.bytes, memo) ?? '';
      out.push(
        ...lintFence(file.path, md.unclosedFence),
        ...lintLineEndings(file.path, fileText, countFrontMatterLines(fileText)),
        ...checkLinks(path, file.path),
      );
    }
    if (path.startsWith('references/')) {
      const tokens = tokensOverBudget(decodeUtf8(file.bytes, memo) ?? '', rules.maxReferenceTokens);
      if (tokens !== undefined) {
        out.push(diagnose(codes.referenceTokens, { path, tokens, budget: rules.maxReferenceTokens }, where));
      }
    }
  }
  out.push(...lintDisclosure(skill, dir, linksOf, facts, base, memo));
  if (!skill.draft)
    out.push(...lintRequiredLinks(skill, bodyFile, bodyLine, linksOf.get(SKILL_BODY) ?? [], rules));
  return out;
}

/** CMP620 (lines), CMP621 (tokens) and CMP427 (nothing but a title) for the body of SKILL.md. */
function lintBodyBudget(
  bodyText: string,
  lines: readonly MarkdownLine[],
  file: string,
  bodyLine: number,
  rules: LintRules,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const count = lines.length - (lines[lines.length - 1]?.text === '' ? 1 : 0);
  if (count > rules.maxBodyLines) {
    out.push(
      diagnose(
        codes.bodyLines,
        { lines: count, budget: rules.maxBodyLines },
        { file, line: bodyLine + rules.maxBodyLines },
      ),
    );
  }
  const tokens = tokensOverBudget(bodyText, rules.maxBodyTokens);
  if (tokens !== undefined) {
    out.push(diagnose(codes.bodyTokens, { tokens, budget: rules.maxBodyTokens }, { file, line: bodyLine }));
  }
  if (lines.every((l) => l.text.trim() === '' || (!l.fenced && /^#\s/.test(l.text)))) {
    out.push(diagnose(codes.skillBodyEmpty, {}, { file, line: bodyLine }));
  }
  return out;
}

/** Why a file of a skill is binary where text is expected, if it is. */
function describeBinary(
  path: string,
  bytes: Uint8Array,
  memo: Memo,
): 'compiled' | 'not-utf8' | 'nul' | undefined {
  const magic = (...b: number[]) => b.every((x, i) => bytes[i] === x);
  if (
    COMPILED.test(path) ||
    magic(0x7f, 0x45, 0x4c, 0x46) || // ELF
    magic(0x00, 0x61, 0x73, 0x6d) || // WebAssembly
    magic(0xcf, 0xfa, 0xed, 0xfe) || // Mach-O 64-bit
    magic(0xce, 0xfa, 0xed, 0xfe) ||
    magic(0xca, 0xfe, 0xba, 0xbe) // Mach-O universal, Java class
  ) {
    return 'compiled';
  }
  if (path.endsWith('.md') || !isTextual(buildMimeType(path))) return undefined;
  if (decodeUtf8(bytes, memo) === undefined) return 'not-utf8';
  if (bytes.includes(0)) return 'nul';
  return undefined;
}

/**
 * Progressive disclosure: references reached only through another reference (CMP623), and files under
 * references/, scripts/ or assets/ that no link reaches and no text names (CMP624).
 */
function lintDisclosure(
  skill: ParsedSkill,
  dir: string,
  linksOf: ReadonlyMap<string, readonly MarkdownLink[]>,
  facts: ReadonlyMap<string, MarkdownFacts>,
  base: SourceFile | undefined,
  memo: Memo,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const resolved = (from: string) =>
    (linksOf.get(from) ?? []).flatMap((link) => {
      const path = resolveLink(from, link.target);
      return typeof path === 'string' ? [{ path, link }] : [];
    });
  const direct = new Set(resolved(SKILL_BODY).map((r) => r.path));
  const reached = new Set(direct);
  for (const from of linksOf.keys()) {
    if (from === SKILL_BODY) continue;
    for (const { path, link } of resolved(from)) {
      reached.add(path);
      // base.md is shared: a finding there would repeat in every skill, and its links are CMP501's.
      if (
        from === BASE_PATH ||
        !direct.has(from) ||
        direct.has(path) ||
        path === SKILL_BODY ||
        path === from
      ) {
        continue;
      }
      if (!facts.has(path)) continue;
      out.push(
        diagnose(
          codes.nestedReference,
          { from, path },
          { file: `${dir}${from}`, line: link.line, column: link.column },
        ),
      );
    }
  }
  const texts = [decodeUtf8(skill.body.bytes, memo) ?? ''];
  for (const f of skill.files) if (f.path.endsWith('.md')) texts.push(decodeUtf8(f.file.bytes, memo) ?? '');
  if (base) texts.push(decodeUtf8(base.bytes, memo) ?? '');
  for (const { path, file } of skill.files) {
    if (!DISCLOSURE_DIRS.some((d) => path.startsWith(d)) || reached.has(path)) continue;
    if (texts.some((t) => t.includes(path))) continue;
    out.push(diagnose(codes.orphanFile, { path }, { file: file.path }));
  }
  return out;
}

/** CMP428: the paths `rules.requireLinks` names that SKILL.md does not link. */
function lintRequiredLinks(
  skill: ParsedSkill,
  file: string,
  bodyLine: number,
  links: readonly MarkdownLink[],
  rules: LintRules,
): Diagnostic[] {
  if (rules.requireLinks.length === 0) return [];
  const linked = new Set(links.map((l) => resolveLink(SKILL_BODY, l.target)));
  return rules.requireLinks
    .filter((path) => !linked.has(path.replace(/^\.\//, '')))
    .map((path) => diagnose(codes.requiredLink, { skill: skill.id, path }, { file, line: bodyLine }));
}
