/**
 * Deriving entries: what a document or skill that reads well becomes on the wire — the served content of each
 * of its files (bytes, digest, MIME type, text), its catalog entry and its `resources/list` entry, with the
 * description and priority its scope gives it — and the two resource templates.
 */
import {
  buildMimeType,
  formatTime,
  isTextual,
  readFileText,
  takeDigest,
  takeHandedPackedDigest,
} from '../content.js';
import { compare } from '../diagnostics.js';
import { checkDocumentFields } from '../document-fields.js';
import type { ParsedDocument } from '../documents.js';
import { type Memo, memoTable } from '../memo.js';
import { BASE_PATH, SKILL_BODY } from '../names.js';
import { attachDerivedEntry, readDerivedEntry } from '../parsed-document.js';
import type { PersistentMapEditor } from '../persistent-map.js';
import type { ParsedSkill } from '../skills.js';
import type {
  DocumentEntry,
  ManifestEntry,
  ResourceTemplateEntry,
  ScopeDefinition,
  ServedContent,
  SkillFile,
  SourceFile,
} from '../types.js';
import {
  buildDocumentTemplate,
  buildDocumentUri,
  buildSkillFileTemplate,
  buildSkillFileUri,
  buildSkillUri,
} from '../uris.js';
import type { Frame } from './frame.js';
import { joinSentences } from './sentences.js';
import {
  attachResource,
  buildDocumentResource,
  buildTextBackedDocument,
  buildTextBackedSkill,
  type ResourceScope,
  readDerived,
  readResourceScope,
} from './text-backed.js';
import {
  buildManifestEntry,
  buildTextBackedContent,
  readPackedDigest,
  readServedFor,
} from './text-backed-content.js';
import { type DocumentUnit, type SkillUnit, setDerived } from './units.js';

/** The order a picker sorts by; only the order carries meaning. */
export const PRIORITY = {
  index: 1,
  transfers: 0.8,
  local: 0.5,
  documentTemplate: 0.3,
  skillFileTemplate: 0.2,
} as const;

/** The sentence in front of every skill's description: a skill is followed, not read (the scope file's
 * `skills.sentence` replaces it). */
export const SKILL_SENTENCE =
  'A workflow to follow while doing the task, not a page to read; the files it hands over are served beside it, one URI each.';

/** What a draft's description starts with, in a catalog built with `includeDrafts`. */
export const DRAFT_SENTENCE = 'Draft, served only by companion dev --drafts: not published yet.';

/**
 * What an unchanged file keeps across builds (by the identity of its bytes) and an unchanged document (by its
 * parse): the same served content and entries, so a rebuild after one edit derives again only what it touched.
 * Text content carries the path and time it was served for itself (`readServedFor`); other content is kept
 * with them beside it.
 */
const SERVED = memoTable<
  Uint8Array,
  | ServedContent
  | { readonly uri: string; readonly path: string; readonly mtimeMs: number; readonly content: ServedContent }
>('entries.served');
/**
 * What a document's resource says of its scope, one per scope definition (a document's resource holds it: on XL,
 * 100,000 sentences and boxed priorities were ~3 MB of fields and numbers).
 */
const RESOURCE_SCOPES = memoTable<ScopeDefinition, ResourceScope>('entries.resource-scopes');
/** The resource scope of a document whose scope the scope file does not define. */
const UNDEFINED_SCOPE: ResourceScope = Object.freeze({ sentence: undefined, priority: PRIORITY.local });

/**
 * The served content of a file at a URI; an unchanged file (same bytes, URI, path, mtime) keeps its object.
 * `documentPrefix`: the frame's `prefixes.document`, for a document's file (its text content then holds that
 * shared string, not its URI).
 */
export function serve(
  memo: Memo,
  uri: string,
  path: string,
  file: SourceFile,
  documentPrefix?: string,
): ServedContent {
  const served = memo.table(SERVED);
  const kept = served.get(file.bytes);
  const previous =
    kept === undefined || 'content' in kept ? kept : { ...readServedFor(kept)!, content: kept };
  if (previous?.content.uri === uri && previous.mtimeMs === file.mtimeMs && previous.path === path)
    return previous.content;
  const mimeType = buildMimeType(path);
  // The text is a view of the bytes, decoded when a read asks (see `FileText`): only whether there is one is
  // decided here.
  const text = isTextual(mimeType) ? readFileText(file.bytes, memo) : undefined;
  // Served before under another URI, path or time: the same bytes, so the same digest (held packed by text,
  // and made when first asked: see `buildTextBackedContent`).
  if (text?.isUtf8() === true) {
    const digest = previous ? readPackedDigest(previous.content) : takeHandedPackedDigest(file.bytes, memo);
    const content = buildTextBackedContent({ uri, mimeType }, digest, path, file, documentPrefix);
    served.set(file.bytes, content);
    return content;
  }
  const lastModified = formatTime(file.mtimeMs);
  const tail = { size: file.bytes.byteLength, ...(lastModified === undefined ? {} : { lastModified }) };
  const digest = previous?.content.digest ?? takeDigest(file.bytes, memo);
  const content: ServedContent = { uri, mimeType, bytes: file.bytes, digest, ...tail };
  served.set(file.bytes, { uri, path, mtimeMs: file.mtimeMs, content });
  return content;
}

function priorityOf(frame: Frame, scopeId: string | undefined): number {
  const definition = scopeId === undefined ? undefined : frame.scopesById.get(scopeId);
  return definition?.transfers ? PRIORITY.transfers : PRIORITY.local;
}

function resourceScopeOf(memo: Memo, frame: Frame, scopeId: string): ResourceScope {
  const definition = frame.scopesById.get(scopeId);
  if (definition === undefined) return UNDEFINED_SCOPE;
  const scopes = memo.table(RESOURCE_SCOPES);
  let scope = scopes.get(definition);
  if (scope === undefined) {
    scope = { sentence: definition.sentence, priority: priorityOf(frame, scopeId) };
    scopes.set(definition, scope);
  }
  return scope;
}

/**
 * A served document's content, entry and listed resource, set on its unit. A parse keeps the entry derived from
 * it (`attachDerivedEntry`), which keeps its content and resource (`readDerived`): an unchanged document whose
 * content, fields and scope's sentence and priority are the same keeps all three.
 */
export function deriveDocument(memo: Memo, unit: DocumentUnit, d: ParsedDocument, frame: Frame): void {
  const uri = buildDocumentUri(frame.scheme, d.id);
  const content = serve(memo, uri, d.path, unit.file, frame.prefixes.document);
  const scope = resourceScopeOf(memo, frame, d.scope);
  const { fields } = checkDocumentFields(d, frame.documentFields, memo);
  const previous = readDerivedEntry(d) as DocumentEntry | undefined;
  if (previous?.fields === fields) {
    const made = readDerived(previous);
    const was = readResourceScope(made.resource);
    if (made.content === content && was.sentence === scope.sentence && was.priority === scope.priority) {
      setDerived(unit, previous);
      return;
    }
  }
  const entry = buildTextBackedDocument(d, fields, content);
  attachResource(entry, buildDocumentResource(entry, scope));
  attachDerivedEntry(d, entry);
  setDerived(unit, entry);
}

/** The files a skill serves besides SKILL.md — its own and the shared base — sorted by path. */
export function otherFilesOf(s: ParsedSkill, base: SourceFile | undefined): [string, SourceFile][] {
  const others: [string, SourceFile][] = s.files.map((f) => [f.path, f.file]);
  if (base) others.push([BASE_PATH, base]);
  return others.sort(([a], [b]) => compare(a, b));
}

/**
 * A served skill's entry and listed resource, set on its unit, and the content of each of its files, set in
 * `contents`. `skillScope` is the scope of the topics that name it (coverage decides it).
 */
export function deriveSkill(
  memo: Memo,
  unit: SkillUnit,
  s: ParsedSkill,
  frame: Frame,
  skillScope: string | undefined,
  contents: PersistentMapEditor<ServedContent>,
): void {
  const { scheme } = frame;
  const files: SkillFile[] = [];
  const manifest: ManifestEntry[] = [];
  const add = (path: string, source: SourceFile) => {
    const uri = buildSkillFileUri(scheme, s.id, path);
    const content = serve(memo, uri, path, source);
    contents.set(uri, content);
    const file: SkillFile = { path, uri, source: source.path };
    files.push(source.mode === undefined ? file : { ...file, mode: source.mode });
    manifest.push(buildManifestEntry(uri, content));
    return content;
  };
  const body = add(SKILL_BODY, s.body);
  for (const [path, file] of otherFilesOf(s, frame.base)) add(path, file);
  const uri = buildSkillUri(scheme, s.id);
  unit.entry = buildTextBackedSkill(
    {
      id: s.id,
      uri,
      title: s.title,
      description: s.description,
      ...(skillScope === undefined ? {} : { scope: skillScope }),
      ...(s.draft ? { draft: true as const } : {}),
      frontmatter: s.frontmatter,
    },
    readFileText(s.body.bytes, memo),
    s.bodyStart,
    { files, manifest },
  );
  const definition = skillScope === undefined ? undefined : frame.scopesById.get(skillScope);
  unit.resource = {
    uri,
    name: s.id,
    title: s.title,
    description: joinSentences([
      s.draft ? DRAFT_SENTENCE : undefined,
      frame.skillSentence,
      s.description,
      definition?.skillSentence ?? definition?.sentence,
    ]),
    mimeType: body.mimeType,
    size: body.size,
    annotations: buildAnnotations(priorityOf(frame, skillScope), body.lastModified),
  };
}

export function buildTemplates(scheme: string): ResourceTemplateEntry[] {
  return [
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
  ];
}

/**
 * A listed resource's annotations. Built as literals: V8 gives every object a spread made its own shape (on XL,
 * 100,000 annotations objects held ~18 MB of shapes and property arrays); a literal's shape is shared.
 */
export function buildAnnotations(priority: number, lastModified: string | undefined) {
  return lastModified === undefined ? { priority } : { priority, lastModified };
}
