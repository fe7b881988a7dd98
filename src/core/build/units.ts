/**
 * Reading one unit — a document file, a skill directory — into what the rest of the build derives from, with
 * last-good holding: a unit that stops parsing, validating or reading is served from its last good version,
 * whole, while it is on disk (or could not be read just now); a cold start, or a unit that was deleted, holds
 * nothing.
 */
import { codes, type Diagnostic } from '../diagnostics.js';
import { checkDocumentFields } from '../document-fields.js';
import { type DocumentRead, type ParsedDocument, readDocument } from '../documents.js';
import type { Memo } from '../memo.js';
import { type ParsedSkill, readSkill, SKILLS_DIR } from '../skills.js';
import type {
  DocumentEntry,
  HeldItem,
  ListedResource,
  ServedContent,
  SkillEntry,
  SourceFile,
} from '../types.js';
import type { Availability } from './availability.js';
import type { Frame } from './frame.js';
import type { Presence } from './presence.js';
import {
  isTextBackedDocument,
  readDerivedContent,
  readDerivedResource,
  readDescribed,
} from './text-backed.js';
import { readContentFile } from './text-backed-content.js';

/** What one document file derived. */
export interface DocumentUnit {
  /** The file served: the one on disk, or its last good version while held. */
  readonly file: SourceFile;
  readonly document?: ParsedDocument;
  /** The findings of the file on disk (not of the held version). */
  readonly readDiagnostics: readonly Diagnostic[];
  readonly held?: HeldItem;
  /** Set with `setDerived`, as are the two below: the entry's content and resource. */
  readonly content?: ServedContent;
  readonly entry?: DocumentEntry;
  readonly resource?: ListedResource;
}

/**
 * A document on disk that reads well (every served document but a held one): its content and resource are read
 * through its entry (`readDerived`), which holds them anyway — two fields a document fewer (on XL, 100,000 units).
 */
class ReadDocumentUnit implements DocumentUnit {
  readonly file: SourceFile;
  readonly readDiagnostics: readonly Diagnostic[];
  readonly document: ParsedDocument;
  entry: DocumentEntry | undefined = undefined;

  constructor(file: SourceFile, readDiagnostics: readonly Diagnostic[], document: ParsedDocument) {
    this.file = file;
    this.readDiagnostics = readDiagnostics;
    this.document = document;
  }

  get content(): ServedContent | undefined {
    return this.entry === undefined ? undefined : readDerivedContent(this.entry);
  }

  get resource(): ListedResource | undefined {
    return this.entry === undefined ? undefined : readDerivedResource(this.entry);
  }
}

/** The findings of a unit read through its entry: none. */
const NO_FINDINGS: readonly Diagnostic[] = Object.freeze([]);

/**
 * A document unit read through its entry alone (`DocumentUnits` keeps the entry): the file its content serves,
 * the parse the entry was built over, no findings. Made when asked, and let go of at once.
 */
class DerivedDocumentUnit implements DocumentUnit {
  readonly entry: DocumentEntry;

  constructor(entry: DocumentEntry) {
    this.entry = entry;
  }

  get file(): SourceFile {
    return readContentFile(readDerivedContent(this.entry))!;
  }

  get document(): ParsedDocument {
    return readDescribed(this.entry) as ParsedDocument;
  }

  get readDiagnostics(): readonly Diagnostic[] {
    return NO_FINDINGS;
  }

  get content(): ServedContent {
    return readDerivedContent(this.entry);
  }

  get resource(): ListedResource {
    return readDerivedResource(this.entry);
  }
}

/**
 * The document units of a build, by path. A unit that reads well, found nothing and was derived — every served
 * document but a held one — is kept as its entry, which reaches everything the unit held (the parse, the
 * content and so the file, the resource): one object a document fewer (on XL, 100,000 units of ~53 bytes).
 * `get` and the iterators answer such a unit as a `DerivedDocumentUnit` made then (units are read, not kept, by
 * the phases; none compares two by identity); every other unit as it was set.
 */
export class DocumentUnits implements ReadonlyMap<string, DocumentUnit> {
  readonly #units = new Map<string, DocumentUnit | DocumentEntry>();

  get size(): number {
    return this.#units.size;
  }

  get(path: string): DocumentUnit | undefined {
    return unitOf(this.#units.get(path));
  }

  has(path: string): boolean {
    return this.#units.has(path);
  }

  /** Sets `unit` at `path`: as its entry when it is derived, found nothing and its entry serves its file. */
  set(path: string, unit: DocumentUnit): this {
    const entry = unit instanceof ReadDocumentUnit ? unit.entry : undefined;
    const kept =
      entry !== undefined &&
      unit.readDiagnostics.length === 0 &&
      readDescribed(entry) === unit.document &&
      readContentFile(readDerivedContent(entry)) === unit.file
        ? entry
        : unit;
    this.#units.set(path, kept);
    return this;
  }

  delete(path: string): boolean {
    return this.#units.delete(path);
  }

  keys(): MapIterator<string> {
    return this.#units.keys();
  }

  *values(): MapIterator<DocumentUnit> {
    for (const value of this.#units.values()) yield unitOf(value)!;
  }

  *entries(): MapIterator<[string, DocumentUnit]> {
    for (const [path, value] of this.#units) yield [path, unitOf(value)!];
  }

  [Symbol.iterator](): MapIterator<[string, DocumentUnit]> {
    return this.entries();
  }

  forEach(
    callback: (unit: DocumentUnit, path: string, map: ReadonlyMap<string, DocumentUnit>) => void,
    thisArg?: unknown,
  ): void {
    for (const [path, unit] of this.entries()) callback.call(thisArg, unit, path, this);
  }

  get [Symbol.toStringTag](): string {
    return 'DocumentUnits';
  }
}

function unitOf(value: DocumentUnit | DocumentEntry | undefined): DocumentUnit | undefined {
  return value === undefined || !isTextBackedDocument(value)
    ? (value as DocumentUnit | undefined)
    : new DerivedDocumentUnit(value);
}

/** Sets on `unit` the entry derived for it (from `buildTextBackedDocument`), and so its content and resource. */
export function setDerived(unit: DocumentUnit, entry: DocumentEntry): void {
  if (unit instanceof ReadDocumentUnit) unit.entry = entry;
  else {
    const derived = unit as { content?: ServedContent; entry?: DocumentEntry; resource?: ListedResource };
    derived.content = readDerivedContent(entry);
    derived.entry = entry;
    derived.resource = readDerivedResource(entry);
  }
}

/** What one skill directory derived. */
export interface SkillUnit {
  readonly id: string;
  /** Keyed by the path inside the skill directory; replaced, never mutated, so `readSkill`'s memo holds. */
  readonly files: ReadonlyMap<string, SourceFile>;
  /** Parsed from `files`, or while held from the last good version's files. */
  readonly skill?: ParsedSkill;
  /** The findings of the files on disk (not of the held version). */
  readonly readDiagnostics: readonly Diagnostic[];
  readonly held?: HeldItem;
  /** Root-relative paths of the version served (for `BuildResult.lastGood`); empty when none is. */
  readonly servedPaths: readonly string[];
  readonly servedFiles: readonly SourceFile[];
  entry?: SkillEntry;
  resource?: ListedResource;
}

/** What reading a unit needs besides its own files. */
export interface UnitContext {
  readonly frame: Frame;
  readonly availability: Availability;
  /** The last good versions the caller handed over (`Snapshot.lastGood`). */
  readonly fallback: ReadonlyMap<string, SourceFile>;
  /** Whether a skill that parsed is served: published, or a draft when the build includes drafts. */
  readonly servesSkill: (skill: ParsedSkill | undefined) => skill is ParsedSkill;
  /** Whether a skill in this state is served (a draft only when the build includes drafts). */
  readonly servedPresence: (presence: Presence) => boolean;
  /** The builder's memo. */
  readonly memo: Memo;
}

/** A document file's read, the findings on its declared fields included: they are the file's own. */
function readDocumentFile(file: SourceFile, context: UnitContext): DocumentRead {
  const read = readDocument(file, context.memo);
  const fields = read.keys
    ? checkDocumentFields(read.keys, context.frame.documentFields, context.memo).diagnostics
    : [];
  return fields.length === 0 ? read : { ...read, diagnostics: [...read.diagnostics, ...fields] };
}

/**
 * What a document path derives: the file on disk when it parses; else, while it is on disk (or could not be
 * read just now) and has a last good version, that version, held; else the broken file, served nowhere.
 * Undefined when there is nothing at the path (deleted, or kept out by a file problem).
 */
export function readDocumentUnit(
  id: string,
  path: string,
  file: SourceFile | undefined,
  context: UnitContext,
): DocumentUnit | undefined {
  const unavailable = file === undefined && context.availability.unavailableAt(path);
  if (file === undefined && !unavailable) return undefined;
  const read = file ? readDocumentFile(file, context) : undefined;
  if (file && read?.document) {
    return new ReadDocumentUnit(file, read.diagnostics, read.document);
  }
  const last = context.fallback.get(path);
  const lastRead = last ? readDocument(last, context.memo) : undefined;
  if (last && lastRead?.document) {
    return {
      file: last,
      readDiagnostics: read?.diagnostics ?? [],
      document: lastRead.document,
      held: {
        kind: 'document',
        id,
        path,
        reason: unavailable ? 'unavailable' : 'invalid',
        modifiedMs: last.mtimeMs,
      },
    };
  }
  return file && read ? { file, readDiagnostics: read.diagnostics } : undefined;
}

/** The files of a skill's last good version, keyed by the path inside its directory. */
function fallbackSkillFiles(id: string, fallback: ReadonlyMap<string, SourceFile>): Map<string, SourceFile> {
  const prefix = `${SKILLS_DIR}${id}/`;
  const files = new Map<string, SourceFile>();
  for (const [path, file] of fallback)
    if (path.startsWith(prefix)) files.set(path.slice(prefix.length), file);
  return files;
}

/**
 * What a skill directory derives, the same way: its files when they make a whole skill (one that parses,
 * every file read, none dropped as invalid UTF-8), else its last good version, whole — a skill's files never
 * mix two states —, else the broken skill, served nowhere. A draft is a good state: it is never held.
 */
export function readSkillUnit(
  id: string,
  files: ReadonlyMap<string, SourceFile>,
  context: UnitContext,
): SkillUnit | undefined {
  const { frame, servesSkill } = context;
  const unavailable = context.availability.skillUnavailable(id);
  if (files.size === 0 && !unavailable) return undefined;
  const baseSize = frame.base?.bytes.byteLength ?? 0;
  const prefix = `${SKILLS_DIR}${id}/`;
  const read = files.size > 0 ? readSkill(id, files, baseSize, frame.draftMarker, context.memo) : undefined;
  const whole =
    read?.skill !== undefined &&
    !unavailable &&
    !read.diagnostics.some((d) => d.code === codes.invalidUtf8.code);
  // A skill this build does not serve (a draft) has nothing to hold; one it serves, a draft included, is held.
  if (read?.skill && (whole || !servesSkill(read.skill))) {
    const served = servesSkill(read.skill) ? [...files] : [];
    return {
      id,
      files,
      skill: read.skill,
      readDiagnostics: read.diagnostics,
      servedPaths: served.map(([path]) => `${prefix}${path}`),
      servedFiles: served.map(([, file]) => file),
    };
  }
  const lastFiles = fallbackSkillFiles(id, context.fallback);
  const lastRead =
    lastFiles.size > 0 ? readSkill(id, lastFiles, baseSize, frame.draftMarker, context.memo) : undefined;
  if (lastRead?.skill && servesSkill(lastRead.skill)) {
    let modifiedMs = 0;
    for (const file of lastFiles.values()) modifiedMs = Math.max(modifiedMs, file.mtimeMs);
    return {
      id,
      files,
      skill: lastRead.skill,
      readDiagnostics: read?.diagnostics ?? [],
      held: {
        kind: 'skill',
        id,
        path: prefix,
        reason: unavailable ? 'unavailable' : 'invalid',
        modifiedMs,
      },
      servedPaths: [...lastFiles.keys()].map((path) => `${prefix}${path}`),
      servedFiles: [...lastFiles.values()],
    };
  }
  if (read === undefined) return undefined;
  // With nothing to hold, a skill that parses but lost a file (invalid UTF-8) is served without that file,
  // and one that does not parse is served nowhere; neither is a last good version.
  return {
    id,
    files,
    readDiagnostics: read.diagnostics,
    servedPaths: [],
    servedFiles: [],
    ...(read.skill === undefined ? {} : { skill: read.skill }),
  };
}
