/**
 * `buildCatalog(snapshot, options) → { catalog, diagnostics }`: the one place where what the server serves is
 * derived from the files. Pure and deterministic — no fs, no clock, no SDK — so the same snapshot always gives
 * the same catalog, byte for byte, and every adapter (MCP, UI, check) reads the same answer.
 */
import { buildDigest, buildMimeType, decodeUtf8, encodeUtf8, formatTime, isTextual } from './content.js';
import {
  buildInstructions,
  buildOfferedCoverage,
  buildOfferedTools,
  fitInstructions,
  INSTRUCTIONS_BUDGET,
} from './coverage.js';
import { codes, compare, type Diagnostic, diagnose, sortDiagnostics } from './diagnostics.js';
import { buildDocumentId, type ParsedDocument, readDocument } from './documents.js';
import { findLinks, findSchemeUris, type MarkdownLine, readLines } from './markdown.js';
import { readScope, SCOPE_FILE } from './scope.js';
import { DEFAULT_SCHEME, SCOPE_SCHEMA_FILE, type ServerScope } from './scope-schema.js';
import { BASE_FILE, BASE_PATH, type ParsedSkill, readSkill, SKILL_BODY, SKILLS_DIR } from './skills.js';
import type {
  BuildOptions,
  BuildResult,
  Catalog,
  DocumentEntry,
  FileProblem,
  ListedResource,
  ManifestEntry,
  ScopeDefinition,
  ServedContent,
  ServerIdentity,
  SkillEntry,
  SkillFile,
  Snapshot,
  SourceFile,
} from './types.js';
import {
  buildDocumentTemplate,
  buildDocumentUri,
  buildIndexUri,
  buildSkillFileTemplate,
  buildSkillFileUri,
  buildSkillUri,
} from './uris.js';

/** The order a picker sorts by; only the order carries meaning. */
export const PRIORITY = {
  index: 1,
  transfers: 0.8,
  local: 0.5,
  documentTemplate: 0.3,
  skillFileTemplate: 0.2,
} as const;

export const DEFAULT_DESCRIPTION_BUDGET = 3970;

/** The sentence in front of every skill's description: a skill is followed, not read. */
export const SKILL_SENTENCE =
  'A workflow to follow while doing the task, not a page to read; the files it hands over are served beside it, one URI each.';

/**
 * Memos keyed by the identity of a file's bytes: the store hands an unchanged file to the next build as the same
 * `Uint8Array`, so a rebuild after one edit derives again only what that edit touched. Invisible to callers:
 * the result is the same with or without them.
 */
const servedMemo = new WeakMap<
  Uint8Array,
  { readonly uri: string; readonly path: string; readonly mtimeMs: number; readonly content: ServedContent }
>();
const linesMemo = new WeakMap<Uint8Array, readonly MarkdownLine[]>();
let lastIndex: { readonly text: string; readonly bytes: Uint8Array } | undefined;
const documentMemo = new WeakMap<
  ParsedDocument,
  {
    readonly content: ServedContent;
    readonly sentence: string | undefined;
    readonly priority: number;
    readonly entry: DocumentEntry;
    readonly resource: ListedResource;
  }
>();

/** The paths of `files` in code-point order; the loader already hands them over sorted, so usually no sort. */
function sortedPaths(files: ReadonlyMap<string, SourceFile>): string[] {
  const paths = [...files.keys()];
  for (let i = 1; i < paths.length; i++) {
    if (compare(paths[i - 1]!, paths[i]!) > 0) return paths.sort(compare);
  }
  return paths;
}

/** The Markdown lines of a file's bytes, memoized; undefined when the bytes are not UTF-8. */
function readFileLines(bytes: Uint8Array): readonly MarkdownLine[] | undefined {
  let lines = linesMemo.get(bytes);
  if (lines === undefined) {
    const text = decodeUtf8(bytes);
    if (text === undefined) return undefined;
    lines = readLines(text);
    linesMemo.set(bytes, lines);
  }
  return lines;
}

const DEFAULT_SERVER: ServerIdentity = {
  name: 'companion',
  title: 'companion',
  version: '0.0.0',
  scheme: DEFAULT_SCHEME,
};
const KNOWLEDGE_DIR = 'knowledge/';
const KNOWN_KNOWLEDGE_FILES = new Set([SCOPE_FILE, `${KNOWLEDGE_DIR}${SCOPE_SCHEMA_FILE}`]);

/**
 * Builds everything the server serves from one snapshot, and every finding on the way. Never throws on
 * content: a file that cannot be served is left out and said why.
 */
export function buildCatalog(snapshot: Snapshot, options: BuildOptions = {}): BuildResult {
  const diagnostics: Diagnostic[] = snapshot.problems.map(describeProblem);

  // The scope file decides identity, scopes and coverage.
  const scopeFile = snapshot.files.get(SCOPE_FILE);
  const scopeText = scopeFile ? decodeUtf8(scopeFile.bytes) : undefined;
  let scope: ServerScope | undefined;
  let positionOf: (path: readonly (string | number)[]) => { line: number; column: number } | undefined = () =>
    undefined;
  if (scopeFile && scopeText === undefined) {
    diagnostics.push(diagnose(codes.invalidUtf8, 'The scope file is not valid UTF-8.', { file: SCOPE_FILE }));
  } else if (!snapshot.problems.some((p) => p.path === SCOPE_FILE)) {
    const read = readScope(scopeText);
    diagnostics.push(...read.diagnostics);
    scope = read.scope;
    positionOf = read.positionOf;
  }
  const server: ServerIdentity = scope?.server ?? DEFAULT_SERVER;
  const scheme = server.scheme;
  const scopesById = new Map<string, ScopeDefinition>(scope?.scopes.map((s) => [s.id, s]) ?? []);

  // Sort the files into documents, skill directories and the shared base.
  const documentFiles: SourceFile[] = [];
  const skillDirs = new Map<string, Map<string, SourceFile>>();
  let base: SourceFile | undefined;
  for (const path of sortedPaths(snapshot.files)) {
    const file = snapshot.files.get(path)!;
    if (path.startsWith(KNOWLEDGE_DIR)) {
      if (KNOWN_KNOWLEDGE_FILES.has(path)) continue;
      if (buildDocumentId(path) !== undefined) documentFiles.push(file);
      else
        diagnostics.push(
          diagnose(codes.strayFile, `${path} is neither a document nor the scope file.`, { file: path }),
        );
    } else if (path.startsWith(SKILLS_DIR)) {
      const rest = path.slice(SKILLS_DIR.length);
      const slash = rest.indexOf('/');
      if (path === BASE_FILE) base = file;
      else if (slash === -1) {
        diagnostics.push(
          diagnose(codes.strayFile, `${path} sits directly in skills/, outside any skill directory.`, {
            file: path,
          }),
        );
      } else {
        const id = rest.slice(0, slash);
        const dir = skillDirs.get(id) ?? new Map<string, SourceFile>();
        skillDirs.set(id, dir);
        dir.set(rest.slice(slash + 1), file);
      }
    }
  }
  const baseProblem = snapshot.problems.some((p) => p.path === BASE_FILE);
  if (!base && !baseProblem && (skillDirs.size > 0 || snapshot.files.size > 0)) {
    diagnostics.push(diagnose(codes.baseMissing, 'skills/base.md does not exist.', { file: BASE_FILE }));
  }
  if (base?.path.endsWith('.md') && decodeUtf8(base.bytes) === undefined) {
    diagnostics.push(
      diagnose(codes.invalidUtf8, 'skills/base.md is not valid UTF-8; it is not served.', {
        file: BASE_FILE,
      }),
    );
    base = undefined;
  }

  // Documents.
  const parsedDocuments: ParsedDocument[] = [];
  const documentIdsOnDisk = new Set<string>();
  for (const file of documentFiles) {
    documentIdsOnDisk.add(buildDocumentId(file.path)!);
    const read = readDocument(file);
    diagnostics.push(...read.diagnostics);
    if (read.document) parsedDocuments.push(read.document);
  }
  for (const problem of snapshot.problems) {
    const id = buildDocumentId(problem.path);
    if (id !== undefined) documentIdsOnDisk.add(id);
  }

  // Skills.
  const parsedSkills: ParsedSkill[] = [];
  const draftSkills = new Set<string>();
  const skillIdsOnDisk = new Set<string>(skillDirs.keys());
  for (const problem of snapshot.problems) {
    if (problem.path.startsWith(SKILLS_DIR) && problem.path !== BASE_FILE) {
      const id = problem.path.slice(SKILLS_DIR.length).split('/')[0];
      if (id) skillIdsOnDisk.add(id);
    }
  }
  for (const [id, files] of [...skillDirs].sort(([a], [b]) => compare(a, b))) {
    const read = readSkill(id, files, base?.bytes.byteLength ?? 0);
    diagnostics.push(...read.diagnostics);
    if (!read.skill) continue;
    if (read.skill.draft) draftSkills.add(id);
    else parsedSkills.push(read.skill);
  }

  // Coverage in both directions: every document and skill is named by a topic, every name exists.
  const documentScopes = new Map<string, string>();
  const skillScopes = new Map<string, string>();
  if (scope) {
    const documentsById = new Map(parsedDocuments.map((d) => [d.id, d]));
    const publishedSkills = new Set(parsedSkills.map((s) => s.id));
    scope.topics.forEach((topic, i) => {
      topic.documents.forEach((id, j) => {
        // Positions are looked up only for a finding: a large scope file names thousands of ids.
        const where = () => ({ file: SCOPE_FILE, ...positionOf(['topics', i, 'documents', j]) });
        const document = documentsById.get(id);
        if (!document) {
          if (!documentIdsOnDisk.has(id)) {
            diagnostics.push(
              diagnose(
                codes.unknownDocument,
                `Topic "${topic.id}" names document "${id}", but knowledge/documents/${id}.md does not exist.`,
                where(),
              ),
            );
          }
          return;
        }
        documentScopes.set(id, topic.scope);
        if (document.scope !== topic.scope && scopesById.has(document.scope)) {
          diagnostics.push(
            diagnose(
              codes.scopeMismatch,
              `Topic "${topic.id}" (scope "${topic.scope}") names document "${id}", which is filed under scope "${document.scope}".`,
              where(),
            ),
          );
        }
      });
      topic.skills.forEach((id, j) => {
        const where = () => ({ file: SCOPE_FILE, ...positionOf(['topics', i, 'skills', j]) });
        if (!publishedSkills.has(id)) {
          if (draftSkills.has(id)) {
            diagnostics.push(
              diagnose(
                codes.unknownSkill,
                `Topic "${topic.id}" names skill "${id}", which is a draft and so not published.`,
                where(),
              ),
            );
          } else if (!skillIdsOnDisk.has(id)) {
            diagnostics.push(
              diagnose(
                codes.unknownSkill,
                `Topic "${topic.id}" names skill "${id}", but skills/${id}/ does not exist.`,
                where(),
              ),
            );
          }
          return;
        }
        const previous = skillScopes.get(id);
        if (previous !== undefined && previous !== topic.scope) {
          diagnostics.push(
            diagnose(
              codes.conflictingScopes,
              `Skill "${id}" is named by topics of scope "${previous}" and of scope "${topic.scope}".`,
              where(),
            ),
          );
          return;
        }
        skillScopes.set(id, topic.scope);
      });
    });
    for (const document of parsedDocuments) {
      if (!scopesById.has(document.scope)) {
        diagnostics.push(
          diagnose(
            codes.documentScopeUnknown,
            `The document is filed under "${document.scope}/", which is not a scope the scope file declares (${[...scopesById.keys()].join(', ')}).`,
            { file: document.path, line: 1 },
          ),
        );
      } else if (!documentScopes.has(document.id)) {
        diagnostics.push(
          diagnose(codes.documentNotCovered, `No topic names document "${document.id}".`, {
            file: document.path,
            line: 1,
          }),
        );
      }
    }
    for (const skill of parsedSkills) {
      if (!skillScopes.has(skill.id)) {
        diagnostics.push(
          diagnose(codes.skillNotCovered, `No topic names skill "${skill.id}".`, {
            file: `${SKILLS_DIR}${skill.id}/${SKILL_BODY}`,
            line: 1,
          }),
        );
      }
    }
  }

  // What is served: every readable URI and its bytes.
  const contents = new Map<string, ServedContent>();
  const serve = (uri: string, path: string, file: SourceFile): ServedContent => {
    // An unchanged file (the same bytes object, URI and mtime) keeps its served content from the last build.
    const previous = servedMemo.get(file.bytes);
    if (previous?.uri === uri && previous.mtimeMs === file.mtimeMs && previous.path === path) {
      contents.set(uri, previous.content);
      return previous.content;
    }
    const mimeType = buildMimeType(path);
    const text = isTextual(mimeType) ? decodeUtf8(file.bytes) : undefined;
    const lastModified = formatTime(file.mtimeMs);
    const content: ServedContent = {
      uri,
      mimeType,
      bytes: file.bytes,
      ...(text === undefined ? {} : { text }),
      digest: buildDigest(file.bytes),
      size: file.bytes.byteLength,
      ...(lastModified === undefined ? {} : { lastModified }),
    };
    servedMemo.set(file.bytes, { uri, path, mtimeMs: file.mtimeMs, content });
    contents.set(uri, content);
    return content;
  };

  const describeScope = (id: string | undefined) => (id === undefined ? undefined : scopesById.get(id));
  const priorityOf = (scopeId: string | undefined) =>
    describeScope(scopeId) === undefined
      ? PRIORITY.local
      : describeScope(scopeId)!.transfers
        ? PRIORITY.transfers
        : PRIORITY.local;

  const documents: DocumentEntry[] = [];
  const documentResources: ListedResource[] = [];
  for (const d of parsedDocuments) {
    const uri = buildDocumentUri(scheme, d.id);
    const content = serve(uri, d.path, snapshot.files.get(d.path)!);
    const sentence = describeScope(d.scope)?.sentence;
    const priority = priorityOf(d.scope);
    const previous = documentMemo.get(d);
    if (previous?.content === content && previous.sentence === sentence && previous.priority === priority) {
      documents.push(previous.entry);
      documentResources.push(previous.resource);
      continue;
    }
    const entry: DocumentEntry = {
      id: d.id,
      uri,
      path: d.path,
      title: d.title,
      scope: d.scope,
      description: d.description,
      ...(d.whenToUse === undefined ? {} : { whenToUse: d.whenToUse }),
      body: d.body,
      sections: d.sections,
    };
    const resource: ListedResource = {
      uri,
      name: d.id,
      title: d.title,
      description: joinSentences(d.description, d.whenToUse, sentence),
      mimeType: content.mimeType,
      size: content.size,
      annotations: withLastModified({ priority }, content.lastModified),
    };
    documentMemo.set(d, { content, sentence, priority, entry, resource });
    documents.push(entry);
    documentResources.push(resource);
  }

  const skills: SkillEntry[] = [];
  const skillResources: ListedResource[] = [];
  for (const s of parsedSkills) {
    const skillScope = skillScopes.get(s.id);
    const files: SkillFile[] = [];
    const manifest: ManifestEntry[] = [];
    const add = (path: string, source: SourceFile) => {
      const uri = buildSkillFileUri(scheme, s.id, path);
      const content = serve(uri, path, source);
      files.push({ path, uri, source: source.path });
      manifest.push({ uri, digest: content.digest, size: content.size });
      return content;
    };
    const body = add(SKILL_BODY, s.body);
    const others: [string, SourceFile][] = s.files.map((f) => [f.path, f.file]);
    if (base) others.push([BASE_PATH, base]);
    others.sort(([a], [b]) => compare(a, b));
    for (const [path, file] of others) add(path, file);
    const uri = buildSkillUri(scheme, s.id);
    skills.push({
      id: s.id,
      uri,
      title: s.title,
      description: s.description,
      ...(skillScope === undefined ? {} : { scope: skillScope }),
      frontmatter: s.frontmatter,
      body: s.bodyText,
      files,
      manifest,
    });
    skillResources.push({
      uri,
      name: s.id,
      title: s.title,
      description: joinSentences(SKILL_SENTENCE, s.description, describeScope(skillScope)?.sentence),
      mimeType: body.mimeType,
      size: body.size,
      annotations: withLastModified({ priority: priorityOf(skillScope) }, body.lastModified),
    });
  }

  // Links: relative links inside a skill resolve to its own files; every scheme URI names a served resource.
  const indexUri = buildIndexUri(scheme);
  // A URI into a document or skill that exists but failed to build is not reported again: its own error says why.
  const servedDocuments = new Set(documents.map((d) => d.id));
  const servedSkills = new Set(skills.map((s) => s.id));
  const failedSkills = new Set(
    [...skillIdsOnDisk].filter((id) => !draftSkills.has(id) && !servedSkills.has(id)),
  );
  const failedDocuments = new Set([...documentIdsOnDisk].filter((id) => !servedDocuments.has(id)));
  const skillPrefix = `${scheme}://skill/`;
  const documentPrefix = `${scheme}://guides/`;
  const isServed = (uri: string) =>
    uri === indexUri ||
    contents.has(uri) ||
    (uri.startsWith(skillPrefix) && failedSkills.has(uri.slice(skillPrefix.length).split('/')[0]!)) ||
    (uri.startsWith(documentPrefix) && failedDocuments.has(uri.slice(documentPrefix.length)));
  diagnostics.push(...checkLinks(parsedDocuments, parsedSkills, skills, base, scheme, isServed));

  // The listing budget hosts keep for all skill names and descriptions together.
  const budget = options.descriptionBudget ?? scope?.descriptionBudget ?? DEFAULT_DESCRIPTION_BUDGET;
  const used = parsedSkills.reduce((sum, s) => sum + s.id.length + s.description.length + 4, 0);
  if (used > budget) {
    const longest = [...parsedSkills].sort((a, b) => b.description.length - a.description.length)[0]!;
    diagnostics.push(
      diagnose(
        codes.descriptionBudget,
        `Published skill names and descriptions add up to ${used} characters; hosts keep ${budget}. The longest description is ${longest.id}'s (${longest.description.length}).`,
        { file: `${SKILLS_DIR}${longest.id}/${SKILL_BODY}` },
      ),
    );
  }

  // Coverage offered to this client, the instructions, and the index.
  const tools = buildOfferedTools(options.excludeTools ?? []);
  const coverage = scope
    ? buildOfferedCoverage(scope, tools)
    : { purpose: '', scopes: [], topics: [], routing: [], notCovered: [] };
  // The budget is the author's to keep: a notice added at run time is fitted in, never reported as their error.
  let instructions = scope ? buildInstructions(scope, tools) : '';
  if (instructions.length > INSTRUCTIONS_BUDGET) {
    diagnostics.push(
      diagnose(
        codes.instructionsOverBudget,
        `The assembled instructions are ${instructions.length} characters; hosts keep ${INSTRUCTIONS_BUDGET}.`,
        { file: SCOPE_FILE, ...positionOf(['instructions']) },
      ),
    );
    instructions = fitInstructions(instructions);
  }

  const index = {
    server: { name: server.name, title: server.title, version: server.version },
    purpose: coverage.purpose,
    scopes: coverage.scopes.map((s) => ({
      id: s.id,
      title: s.title,
      transfers: s.transfers,
      sentence: s.sentence,
    })),
    covers: coverage.topics.map((t) => ({
      id: t.id,
      topic: t.title,
      scope: t.scope,
      ...(t.depth === undefined ? {} : { depth: t.depth }),
      tools: t.tools,
      documents: t.documents
        .filter((id) => servedDocuments.has(id))
        .map((id) => buildDocumentUri(scheme, id)),
      skills: t.skills.filter((id) => servedSkills.has(id)).map((id) => buildSkillUri(scheme, id)),
    })),
    routing: coverage.routing,
    notCovered: coverage.notCovered,
    documents: documents.map((d) => ({ id: d.id, title: d.title, uri: d.uri, scope: d.scope })),
    skills: skills.map((s) => ({ id: s.id, title: s.title, uri: s.uri, files: s.files.map((f) => f.uri) })),
  };
  // The index changes only when a title, description, id or the scope does: an unchanged JSON text keeps its
  // bytes object, so its digest and served content are not derived again.
  const indexText = `${JSON.stringify(index, null, 2)}\n`;
  const indexBytes = lastIndex?.text === indexText ? lastIndex.bytes : encodeUtf8(indexText);
  lastIndex = { text: indexText, bytes: indexBytes };
  const inputsModified = Math.max(
    0,
    ...[
      scopeFile,
      base,
      ...parsedDocuments.map((d) => snapshot.files.get(d.path)),
      ...parsedSkills.map((s) => s.body),
    ]
      .filter((f): f is SourceFile => f !== undefined)
      .map((f) => f.mtimeMs),
  );
  const indexContent = serve(indexUri, 'index.json', {
    path: SCOPE_FILE,
    bytes: indexBytes,
    mtimeMs: inputsModified,
  });
  const indexResource: ListedResource = {
    uri: indexUri,
    name: `${server.name}-index`,
    title: `${server.title} index`,
    description:
      'What this server covers, for whom, which tool answers what, and every document and skill it serves with its URI. The one to read first.',
    mimeType: indexContent.mimeType,
    size: indexContent.size,
    annotations: withLastModified({ priority: PRIORITY.index }, indexContent.lastModified),
  };

  const catalog: Catalog = {
    server,
    instructions,
    coverage,
    tools,
    indexUri,
    resources: [indexResource, ...documentResources, ...skillResources],
    templates: [
      {
        uriTemplate: buildDocumentTemplate(scheme),
        name: 'document',
        title: 'Knowledge document',
        description:
          'One knowledge document by id (its path below knowledge/documents/ without .md; ids contain slashes). Every document is also listed; the index names them all.',
        mimeType: 'text/markdown',
        annotations: { priority: PRIORITY.documentTemplate },
      },
      {
        uriTemplate: buildSkillFileTemplate(scheme),
        name: 'skill-file',
        title: 'What a skill hands over at a step',
        description:
          "Any file of a published skill, by the path its SKILL.md links to (references/base.md is in every skill). Read the one a skill's body sends you to, at the step that sends you.",
        annotations: { priority: PRIORITY.skillFileTemplate },
      },
    ],
    contents,
    documents,
    skills,
  };
  return {
    catalog: options.notice ? withNotice(catalog, options.notice) : catalog,
    diagnostics: sortDiagnostics(diagnostics),
  };
}

/**
 * The catalog with `notice` in front of its instructions (and in `catalog.notice`, for the UI), fitted to the
 * budget. For a catalog built without a notice: an adapter that learns the notice only from the catalog
 * (say, that the skills published into a project are stale) adds it without building twice.
 */
export function withNotice(catalog: Catalog, notice: string): Catalog {
  const text = notice.trim();
  return {
    ...catalog,
    notice: text,
    instructions: fitInstructions(catalog.instructions === '' ? text : `${text}\n\n${catalog.instructions}`),
  };
}

function checkLinks(
  parsedDocuments: readonly ParsedDocument[],
  parsedSkills: readonly ParsedSkill[],
  skills: readonly SkillEntry[],
  base: SourceFile | undefined,
  scheme: string,
  isServed: (uri: string) => boolean,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const checkUris = (file: string, lines: readonly MarkdownLine[]) => {
    for (const mention of findSchemeUris(lines, scheme)) {
      if (!isServed(mention.uri)) {
        out.push(
          diagnose(codes.unknownUri, `${mention.uri} names no resource this server serves.`, {
            file,
            line: mention.line,
            column: mention.column,
          }),
        );
      }
    }
  };
  for (const d of parsedDocuments) checkUris(d.path, d.lines);

  const filesOf = new Map(skills.map((s) => [s.id, new Set(s.files.map((f) => f.path))]));
  for (const s of parsedSkills) {
    const served = filesOf.get(s.id)!;
    const markdown: [string, string, readonly MarkdownLine[]][] = [
      [SKILL_BODY, `${SKILLS_DIR}${s.id}/${SKILL_BODY}`, s.bodyLines],
    ];
    for (const f of s.files) {
      if (!f.path.endsWith('.md')) continue;
      const lines = readFileLines(f.file.bytes);
      if (lines !== undefined) markdown.push([f.path, f.file.path, lines]);
    }
    for (const [path, file, lines] of markdown) {
      checkUris(file, lines);
      for (const link of findLinks(lines)) {
        const resolved = resolveLink(path, link.target);
        if (resolved === null || (resolved !== undefined && served.has(resolved))) continue;
        out.push(
          diagnose(
            codes.brokenLink,
            `The link "${link.target}" resolves to ${resolved === undefined ? 'a path outside the skill' : `"${resolved}"`}, which skill "${s.id}" does not serve.`,
            { file, line: link.line, column: link.column },
          ),
        );
      }
    }
  }
  // skills/base.md is served as references/base.md in every published skill: its links must hold in each.
  const baseText = base ? decodeUtf8(base.bytes) : undefined;
  if (base && baseText !== undefined) {
    const lines = readFileLines(base.bytes)!;
    checkUris(BASE_FILE, lines);
    for (const link of findLinks(lines)) {
      const resolved = resolveLink(BASE_PATH, link.target);
      if (resolved === null) continue;
      const missing = skills
        .filter((s) => resolved === undefined || !filesOf.get(s.id)!.has(resolved))
        .map((s) => s.id);
      if (missing.length === 0) continue;
      out.push(
        diagnose(
          codes.brokenLink,
          `The link "${link.target}" in base.md (served as references/base.md) resolves to nothing in ${missing.length === skills.length ? 'any skill' : `skill${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`}.`,
          { file: BASE_FILE, line: link.line, column: link.column },
        ),
      );
    }
  }
  return out;
}

/**
 * Resolves a relative link written in `fromPath` (a path inside a skill) the way a URI resolves against the
 * file's URI. `null` for links this check does not judge (absolute URIs, fragments); `undefined` when the link
 * climbs out of the skill.
 */
export function resolveLink(fromPath: string, target: string): string | null | undefined {
  if (
    target === '' ||
    target.startsWith('#') ||
    /^[A-Za-z][A-Za-z0-9+.-]*:/.test(target) ||
    target.startsWith('//')
  ) {
    return null;
  }
  const clean = target.replace(/[?#].*$/, '');
  if (clean === '') return null;
  if (clean.startsWith('/')) return undefined;
  const segments = fromPath.split('/').slice(0, -1);
  for (const part of clean.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else segments.push(part);
  }
  return segments.join('/');
}

function describeProblem(problem: FileProblem): Diagnostic {
  const where = { file: problem.path };
  const detail = problem.detail ? ` (${problem.detail})` : '';
  switch (problem.kind) {
    case 'symlink-escape':
      return diagnose(
        codes.symlinkEscape,
        `${problem.path} is a symlink that resolves outside the content root; it is not served.`,
        where,
      );
    case 'symlink-broken':
      return diagnose(
        codes.symlinkBroken,
        `${problem.path} is a symlink that does not resolve${detail}; it is not served.`,
        where,
      );
    case 'unreadable':
      return diagnose(codes.unreadable, `${problem.path} cannot be read${detail}; it is not served.`, where);
    case 'too-large':
      return diagnose(
        codes.tooLarge,
        `${problem.path} is over the size cap${detail}; it is not served.`,
        where,
      );
    case 'not-regular':
      return diagnose(
        codes.notRegular,
        `${problem.path} is not a regular file${detail}; it is not served.`,
        where,
      );
  }
}

function joinSentences(...parts: (string | undefined)[]): string {
  return parts
    .filter((p): p is string => p !== undefined && p.trim() !== '')
    .map((p) => p.trim().replace(/\s+/g, ' '))
    .join(' ');
}

function withLastModified(annotations: { priority: number }, lastModified: string | undefined) {
  return lastModified === undefined ? annotations : { ...annotations, lastModified };
}
