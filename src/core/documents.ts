/**
 * Knowledge documents: `knowledge/documents/<scope>/…/<name>.md`, YAML front matter with `description` (and
 * optionally `whenToUse`), one `# Title`, `## ` sections. Parsing is memoized by the identity of the bytes, so
 * an incremental rebuild re-parses only the files that changed.
 */
import { detachText, detachValue, isAsciiText, readFileText } from './content.js';
import { codes, type Diagnostic, diagnose, NO_DIAGNOSTICS } from './diagnostics.js';
import { type Position, parseFrontMatter } from './front-matter.js';
import { lintDocument } from './lint/document-rules.js';
import { keepLines, type SectionList } from './markdown.js';
import { type KeptLines, scanBody } from './markdown-body.js';
import { findLinkMark, holdsLinkMark } from './markdown-links.js';
import { type Memo, memoCell, memoTable, NO_MEMO } from './memo.js';
import { BUILTIN_DOCUMENT_KEYS, DOCUMENTS_DIR } from './names.js';
import {
  buildParsedDocument,
  isParsedDocument,
  type PackedDocument,
  packParsedDocument,
  unpackParsedDocument,
} from './parsed-document.js';
import type { SourceFile } from './types.js';
import { isSafePath } from './uris.js';

export { BUILTIN_DOCUMENT_KEYS, DOCUMENTS_DIR };

/** A document's front matter keys beside `description` and `whenToUse`, for the scope file's declarations to judge. */
export interface DocumentKeys {
  readonly path: string;
  /**
   * The front matter keys beside `description` and `whenToUse`, with their values as JSON and positions. The
   * scope file's declarations decide which are fields and which are unknown (src/core/document-fields.ts).
   */
  readonly extraKeys: ReadonlyMap<string, { readonly value: unknown; readonly position: Position }>;
}

/** A document as its own file describes it, before coverage decides its scope sentence and priority. */
export interface ParsedDocument extends DocumentKeys {
  readonly id: string;
  readonly scope: string;
  readonly title: string;
  readonly description: string;
  readonly whenToUse?: string;
  /**
   * Where the body (the Markdown after the front matter) starts in the file's text: the body is
   * `text.slice(bodyStart)`. A parse keeps offsets, not slices, so the text is decoded again when a read or a
   * search asks and is not held for the life of the catalog (the file's bytes are).
   */
  readonly bodyStart: number;
  /**
   * The body lines that contain `://`: all a scheme-URI check reads, as ranges into the file's text
   * (`readKeptLines`), or copies when the body has carriage returns. The others are not kept (a corpus of
   * 10,000 documents has a million lines, each an object; on L the kept ones' copies held ~4 MB).
   */
  readonly uriLines: KeptLines;
  /** The `## ` sections, as ranges into the file's text. */
  readonly sections: SectionList;
}

export interface DocumentRead {
  /** Undefined when the file cannot be served (no front matter, broken YAML, no description, bad path). */
  readonly document?: ParsedDocument;
  /** Whenever the front matter parsed, even if the document fails otherwise (the document itself when served). */
  readonly keys?: DocumentKeys;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * A read whose front matter parsed carries its path (`keys.path`) and is kept as it is, or as its document alone
 * when that is all it says (a document with no findings: the usual case); any other is kept with its path
 * beside it. Each wrapper is ~45 bytes a document: ~9 MB on XL.
 */
const READS = memoTable<
  Uint8Array,
  ParsedDocument | DocumentRead | { readonly path: string; readonly result: DocumentRead }
>('documents.reads');
/** One string per scope name for every document parsed (on XL, 100,000 copies of a few names held 2 MB). */
const SCOPE_NAMES = memoCell<Map<string, string>>('documents.scope-names');
const NO_EXTRA_KEYS: ReadonlyMap<string, { readonly value: unknown; readonly position: Position }> =
  new Map();

/** The id of a document path (`knowledge/documents/any/a/b.md` → `any/a/b`), or undefined for non-documents. */
export function buildDocumentId(path: string): string | undefined {
  if (!path.startsWith(DOCUMENTS_DIR) || !path.endsWith('.md')) return undefined;
  return path.slice(DOCUMENTS_DIR.length, -'.md'.length);
}

/** Reads one document file. Pure; memoized on `file.bytes` (paths are part of the result, so keyed by both). */
export function readDocument(file: SourceFile, memo: Memo = NO_MEMO): DocumentRead {
  const reads = memo.table(READS);
  const cached = reads.get(file.bytes);
  if (cached !== undefined) {
    if ('result' in cached) {
      if (cached.path === file.path) return cached.result;
    } else if ('bodyStart' in cached) {
      if (cached.path === file.path) return { document: cached, keys: cached, diagnostics: NO_DIAGNOSTICS };
    } else if (cached.keys!.path === file.path) return cached;
  }
  const result = parseDocumentFile(file, memo);
  reads.set(
    file.bytes,
    result.keys === undefined
      ? { path: file.path, result }
      : result.document !== undefined && result.diagnostics === NO_DIAGNOSTICS
        ? result.document
        : result,
  );
  return result;
}

/**
 * Every check that can run on the file runs, whatever failed before it (a document with three problems reports
 * three): only a path that cannot be a URI or bytes that are not UTF-8 stop the rest. The document is served
 * only when nothing that makes it unservable was found.
 */
function parseDocumentFile(file: SourceFile, memo: Memo): DocumentRead {
  const path = file.path;
  const id = buildDocumentId(path)!;
  const diagnostics: Diagnostic[] = [];
  if (!isSafePath(`${id}.md`)) {
    return {
      diagnostics: [diagnose(codes.unsafePath, { kind: 'document', id }, { file: path })],
    };
  }
  let servable = true;
  if (!id.includes('/')) {
    diagnostics.push(diagnose(codes.documentScopeUnknown, { kind: 'unfiled' }, { file: path }));
    servable = false;
  }
  // Decoded for this parse alone: what the parse keeps are offsets and copies, and every later reader (a read, a
  // search) decodes again, so the text is garbage as soon as the parse returns.
  const text = readFileText(file.bytes, memo).decode();
  if (text === undefined) {
    diagnostics.push(diagnose(codes.invalidUtf8, { file: 'document' }, { file: path }));
    return { diagnostics };
  }
  const fm = parseFrontMatter(text);
  let body: string | undefined;
  let bodyLine = 1;
  let description: string | undefined;
  let whenToUse: string | undefined;
  let extraKeys: Map<string, { value: unknown; position: Position }> | undefined;
  if (fm.kind === 'missing') {
    diagnostics.push(diagnose(codes.documentFrontMatterMissing, {}, { file: path, line: 1 }));
    servable = false;
    body = fm.body;
  } else if (fm.kind === 'error') {
    diagnostics.push(
      diagnose(
        codes.documentYaml,
        { reason: fm.message },
        {
          file: path,
          line: fm.line,
          column: fm.column,
        },
      ),
    );
    servable = false;
    body = fm.body;
    bodyLine = fm.bodyLine ?? 1;
  } else {
    body = fm.body;
    bodyLine = fm.bodyLine;
    for (const [key, position] of fm.keys) {
      if (BUILTIN_DOCUMENT_KEYS.has(key)) continue;
      extraKeys ??= new Map();
      extraKeys.set(key, { value: detachValue(fm.data[key]), position });
    }
    const when = fm.data.whenToUse;
    if (when !== undefined && typeof when !== 'string') {
      diagnostics.push(
        diagnose(codes.documentField, { kind: 'when-to-use' }, { file: path, ...fm.keys.get('whenToUse') }),
      );
    } else if (typeof when === 'string' && when.trim() !== '') whenToUse = when.trim();
    const value = fm.data.description;
    if (typeof value !== 'string' || value.trim() === '') {
      diagnostics.push(
        diagnose(
          codes.documentDescription,
          { present: value !== undefined },
          { file: path, ...(fm.keys.get('description') ?? { line: 1 }) },
        ),
      );
      servable = false;
    } else description = value.trim();
  }
  // The body is checked even when the front matter failed: its findings are independent of it.
  const scan = body === undefined ? undefined : scanBody(body, bodyLine, text.length - body.length);
  const titles = scan?.titles ?? [];
  if (body !== undefined && titles.length !== 1) {
    diagnostics.push(
      diagnose(
        codes.documentTitle,
        { titles: titles.length },
        { file: path, line: titles[1]?.line ?? bodyLine },
      ),
    );
  }
  // Findings, not serving rules: the document is served whatever they say. The body is linted even when the
  // front matter failed, like the title check above.
  if (scan !== undefined && body !== undefined) {
    const linkLines = scan.select((from) => findLinkMark(body, from), holdsLinkMark);
    diagnostics.push(...lintDocument(path, text, scan, linkLines, bodyLine));
  } else diagnostics.push(...lintDocument(path, text, undefined, [], bodyLine));
  if (!servable || description === undefined || body === undefined) {
    return fm.kind === 'ok'
      ? { keys: { path, extraKeys: extraKeys ?? NO_EXTRA_KEYS }, diagnostics }
      : { diagnostics };
  }
  const ascii = isAsciiText(text, file.bytes);
  const document = buildParsedDocument(
    {
      id,
      path,
      // The first and the last segment of the id, without splitting it into all of them.
      scope: internScope(id.slice(0, id.indexOf('/')), memo),
    },
    ascii ? file.bytes : undefined,
    text,
    titles[0]?.text ?? id.slice(id.lastIndexOf('/') + 1),
    description,
    whenToUse,
    {
      extraKeys: extraKeys ?? NO_EXTRA_KEYS,
      bodyStart: text.length - body.length,
      // Ranges into the bytes when the text is ASCII (a check reads those few bytes), else copies.
      uriLines:
        (ascii ? scan!.selectKept((from) => body.indexOf('://', from)) : undefined) ??
        keepLines(
          scan!.select(
            (from) => body.indexOf('://', from),
            (line) => line.includes('://'),
          ),
        ),
      sections: scan!.sections,
    },
  );
  return { document, keys: document, diagnostics: diagnostics.length === 0 ? NO_DIAGNOSTICS : diagnostics };
}

/**
 * A value of the `documents.reads` memo table as plain data, to cross threads with the other per-file facts
 * (src/core/build/file-facts.ts): its parsed document packed (`packParsedDocument`). `unpackDocumentRead` makes
 * it the value again, over the receiver's copy of the same bytes.
 */
export function packDocumentRead(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (isParsedDocument(value)) return packParsedDocument(value);
  const read = value as DocumentRead;
  if (read.document === undefined || !isParsedDocument(read.document)) return value;
  const document = packParsedDocument(read.document);
  return {
    document,
    keys: read.keys === read.document ? document : read.keys,
    diagnostics: read.diagnostics,
  };
}

/** The `documents.reads` value `packDocumentRead` packed, over `bytes` (equal to those it was read from). */
export function unpackDocumentRead(value: unknown, bytes: Uint8Array): unknown {
  if (value === null || typeof value !== 'object') return value;
  if ('texts' in value) return unpackParsedDocument(value as PackedDocument, bytes);
  const read = value as { document?: object; keys?: object; diagnostics: readonly Diagnostic[] };
  if (read.document === undefined || !('texts' in read.document)) return value;
  const document = unpackParsedDocument(read.document as PackedDocument, bytes);
  return {
    document,
    keys: read.keys === read.document ? document : read.keys,
    diagnostics: read.diagnostics,
  };
}

/** The memo's one string for the scope name `name`. */
function internScope(name: string, memo: Memo): string {
  let names = memo.get(SCOPE_NAMES);
  if (names === undefined) {
    names = new Map();
    memo.set(SCOPE_NAMES, names);
  }
  let kept = names.get(name);
  if (kept === undefined) {
    kept = detachText(name);
    names.set(kept, kept);
  }
  return kept;
}
