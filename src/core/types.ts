/**
 * The data that flows through companion, from the files on disk to the bytes on the wire.
 *
 * Everything here is plain, readonly data. `buildCatalog` turns a `Snapshot` into a `Catalog`; every adapter
 * (the MCP surface, the terminal UI, `companion check`) reads a `Catalog` and never the disk.
 */
import type { Diagnostic } from './diagnostics.js';
import type { SuppressedDiagnostic } from './lint/directives.js';
import type { PromptEntry } from './prompt-types.js';
import type { Icon } from './scope-schema-content.js';

export type { PromptArgumentEntry, PromptEntry } from './prompt-types.js';

/** One file as the loader read it. `path` is posix, relative to the content root (`skills/a/SKILL.md`). */
export interface SourceFile {
  readonly path: string;
  readonly bytes: Uint8Array;
  /** Modification time in ms since the epoch; becomes `annotations.lastModified`. */
  readonly mtimeMs: number;
  /** Permission bits (`0o755`); `companion install` gives published copies the same. Unset: `0o644`. */
  readonly mode?: number;
}

/** Why the loader could not hand over a file's bytes. The file is never served. */
export type FileProblemKind =
  /** A symlink (or a path through one) that resolves outside the content root. */
  | 'symlink-escape'
  /**
   * A symlink that resolves inside the root but outside the area its path is served from (a skill's
   * directory, `knowledge/documents/`, or the file's own path). `detail`: the root-relative target.
   */
  | 'link-outside-area'
  /** A symlink to a name that is never content (`.env`, `.git/…`, `notes.md~`). `detail`: the target. */
  | 'link-to-hidden'
  /** A regular file with more than one hard link: its bytes also live under a name that is not content. */
  | 'hardlinked'
  /** A symlink that never resolves (dangling, or a loop). */
  | 'symlink-broken'
  /** The file exists but could not be read (EACCES and friends). */
  | 'unreadable'
  /** Larger than the loader's per-file cap; its bytes were not read. */
  | 'too-large'
  /** Not a regular file (a FIFO, a socket, a device). */
  | 'not-regular'
  /**
   * Could not be read just now (EMFILE, ENFILE, EAGAIN, EIO, EBUSY): a busy machine, not the file. Whoever
   * reads again later may well succeed; under `dev` the item keeps its last good version meanwhile.
   */
  | 'unavailable';

export interface FileProblem {
  readonly path: string;
  readonly kind: FileProblemKind;
  /**
   * Human detail for the diagnostic (an errno code, the size, a link's root-relative target or, for a link
   * out of the root, its text as written). Never served to a host.
   */
  readonly detail?: string;
}

/** The content tree at one moment: what the loader could read, and what it could not. */
export interface Snapshot {
  /** Keyed by posix path relative to the content root. */
  readonly files: ReadonlyMap<string, SourceFile>;
  readonly problems: readonly FileProblem[];
  /**
   * The last good versions (`dev`, `serve --watch`): the files of every item — the scope file, skills/base.md,
   * a document, a skill directory — as they were the last time the item was good. An item that is still on
   * disk but no longer parses or validates, or could not be read just now, is served from these, whole, and
   * reported in `BuildResult.held`. An item that was deleted, or that a file problem other than `unavailable`
   * keeps from being served (a link out of the root), is never held. Pass `BuildResult.lastGood` of the
   * previous build; absent (`check`, a cold start), nothing is held and a broken item is withheld.
   */
  readonly lastGood?: ReadonlyMap<string, SourceFile>;
}

/** An item served from its last good version while the file on disk does not parse, validate or read. */
export interface HeldItem {
  readonly kind: 'scope' | 'base' | 'document' | 'skill' | 'prompt';
  /** The document, skill or prompt id; the file path for the scope file and base.md. */
  readonly id: string;
  /** The file — for a skill, its directory (`skills/<id>/`) — that the findings are about. */
  readonly path: string;
  /** It does not parse or validate (its findings say why), or it could not be read just now. */
  readonly reason: 'invalid' | 'unavailable';
  /** The newest modification time among the files of the version served: when that version was saved. */
  readonly modifiedMs: number;
}

/** Options that change what `buildCatalog` derives. All have defaults. */
export interface BuildOptions {
  /** Treat warnings as errors for `ok`. @default false */
  readonly strict?: boolean;
  /** Tool names hidden from this server (`COMPANION_EXCLUDE_TOOLS`). @default [] */
  readonly excludeTools?: readonly string[];
  /** Sum of all published skill descriptions a host keeps in its listing; overrides the scope file's
   * `descriptionBudget`. @default 3970 */
  readonly descriptionBudget?: number;
  /** A notice put in front of the instructions (e.g. that published copies are stale). */
  readonly notice?: string;
  /**
   * Serve draft skills too, each marked as a draft (`SkillEntry.draft`, its description, its index entry and
   * its prompt). For `companion dev --drafts` only: the author's own hosts. `serve`, `check` and `install`
   * never set it. @default false
   */
  readonly includeDrafts?: boolean;
  /**
   * The result is read once and no build follows from it (`companion check`): the build keeps nothing only a
   * next, incremental build reads — `BuildResult.lastGood` stays empty, and the index of which link checks
   * mention which document or skill is not made. Every other part of the result is the same. A builder made
   * with it builds from scratch at every `update`. @default false
   */
  readonly once?: boolean;
}

/** A resource's `annotations`, exactly as they go on the wire. `audience` is never set. */
export interface ResourceAnnotations {
  readonly priority: number;
  /** ISO 8601. */
  readonly lastModified?: string;
}

/** One `resources/list` entry. `size` is the byte length of what a read returns. */
export interface ListedResource {
  readonly uri: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly mimeType: string;
  readonly size: number;
  readonly annotations: ResourceAnnotations;
}

/** One `resources/templates/list` entry. */
export interface ResourceTemplateEntry {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly mimeType?: string;
  readonly annotations: { readonly priority: number };
}

/**
 * The bytes behind one readable URI, with their digest. A read answers `text` when `text` is set (the bytes
 * are valid UTF-8 and of a textual type, so re-encoding the text gives the same bytes), else a base64 `blob`.
 */
export interface ServedContent {
  readonly uri: string;
  readonly mimeType: string;
  readonly bytes: Uint8Array;
  readonly text?: string;
  /** `sha256:<64 lowercase hex>` of `bytes`. */
  readonly digest: string;
  readonly size: number;
  readonly lastModified?: string;
}

/** One file of a skill's manifest (SEP-2640 `resources[]`). */
export interface ManifestEntry {
  readonly uri: string;
  readonly digest: string;
  readonly size: number;
}

/** A `## ` section of a document: the unit the document lookup tool searches and answers with. */
export interface DocumentSection {
  /** The heading text without `## `; empty for the text before the first `## `. */
  readonly heading: string;
  /** The section's Markdown, heading line excluded. */
  readonly body: string;
  /** 1-based line of the heading (or of the first body line) in the file. */
  readonly line: number;
}

export interface DocumentEntry {
  /** Path below `knowledge/documents/` without `.md`; its first segment is its scope. */
  readonly id: string;
  readonly uri: string;
  readonly path: string;
  readonly title: string;
  readonly scope: string;
  readonly description: string;
  readonly whenToUse?: string;
  /**
   * The declared front matter fields (the scope file's `documents.fields`) this document carries with a valid
   * value, as JSON, in declaration order. Empty when none are declared.
   */
  readonly fields: Readonly<Record<string, unknown>>;
  /** The Markdown after the front matter. */
  readonly body: string;
  readonly sections: readonly DocumentSection[];
}

export interface SkillFile {
  /** Path inside the skill directory (`references/base.md`, `scripts/run.sh`). */
  readonly path: string;
  readonly uri: string;
  /** Where the bytes come from, relative to the content root (`skills/base.md` for the shared base). */
  readonly source: string;
  /** The source's permission bits, when the loader knew them (`SourceFile.mode`). */
  readonly mode?: number;
}

export interface SkillEntry {
  /** The directory name, which equals the front matter `name`. */
  readonly id: string;
  /** The `SKILL.md` URI, which is the skill's identity. */
  readonly uri: string;
  readonly title: string;
  /** Front matter `description`. */
  readonly description: string;
  /** The covering topic's scope id. */
  readonly scope?: string;
  /** Set on a draft, which a catalog holds only when built with `includeDrafts`. */
  readonly draft?: true;
  /** The YAML front matter as written, as JSON (YAML 1.2 core types: a date stays a string). */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** The Markdown after the front matter. */
  readonly body: string;
  /** `SKILL.md` first, then every other file sorted by path; `references/base.md` always included. */
  readonly files: readonly SkillFile[];
  /** The SEP-2640 manifest: one entry per file, same order as `files`. */
  readonly manifest: readonly ManifestEntry[];
}

/** A scope (audience) this server knows. */
export interface ScopeDefinition {
  readonly id: string;
  readonly title: string;
  /** True when its content holds wherever the caller works; false when it stops at its own area. */
  readonly transfers: boolean;
  /** The sentence every description of content in this scope ends with. */
  readonly sentence: string;
  /** The sentence a skill's description ends with instead, when the scope file gives one. */
  readonly skillSentence?: string;
}

export interface TopicEntry {
  readonly id: string;
  readonly title: string;
  readonly scope: string;
  readonly depth?: string;
  readonly tools: readonly string[];
  readonly documents: readonly string[];
  readonly skills: readonly string[];
  /** Prompt names (files under `prompts/`). */
  readonly prompts: readonly string[];
}

/** One call of a routing line. */
export interface RoutingCall {
  readonly tool: string;
  readonly with?: string;
}

/** "When X, call `tool` (with …), then …": the first call in `tool`/`with`, the calls after it in `then`. */
export interface RoutingEntry extends RoutingCall {
  readonly when: string;
  /** The calls that follow the first, in order. */
  readonly then?: readonly RoutingCall[];
}

export interface NotCoveredEntry {
  readonly topic: string;
  readonly why: string;
  readonly instead?: string;
}

/** What this server says it covers, after `excludeTools` removed what only excluded tools answered. */
export interface Coverage {
  readonly purpose: string;
  readonly scopes: readonly ScopeDefinition[];
  readonly topics: readonly TopicEntry[];
  readonly routing: readonly RoutingEntry[];
  readonly notCovered: readonly NotCoveredEntry[];
}

export interface ServerIdentity {
  readonly name: string;
  readonly title: string;
  readonly version: string;
  /** URI scheme without `://`. */
  readonly scheme: string;
  /** `serverInfo.websiteUrl`. */
  readonly websiteUrl?: string;
  /** `serverInfo.icons` (MCP 2025-11-25 `Icon[]`), validated: each `src` is https or a `data:image/…` URI. */
  readonly icons?: readonly Icon[];
}

/** Everything the server will serve, derived from one snapshot. Immutable; a rebuild makes a new one. */
export interface Catalog {
  readonly server: ServerIdentity;
  /** The instructions a host shows the model; at most 2048 characters. */
  readonly instructions: string;
  /** The notice put in front of the instructions (`BuildOptions.notice`), for the UI to show too. */
  readonly notice?: string;
  readonly coverage: Coverage;
  /** Tool names offered (all known tools minus `excludeTools`). */
  readonly tools: readonly string[];
  readonly indexUri: string;
  /** `resources/list` in order: the index, documents by id, skills by id. */
  readonly resources: readonly ListedResource[];
  readonly templates: readonly ResourceTemplateEntry[];
  /** Every readable URI (listed or reached through a template) → the bytes a read returns. */
  readonly contents: ReadonlyMap<string, ServedContent>;
  readonly documents: readonly DocumentEntry[];
  /** Published skills only; drafts appear nowhere unless built with `includeDrafts` (then `draft: true`). */
  readonly skills: readonly SkillEntry[];
  /** The listing budget all published skill names and descriptions share (CMP410). @default 3970 */
  readonly descriptionBudget?: number;
  /**
   * Every prompt served, by name: the files under `prompts/`, and each served skill when the scope file's
   * `prompts.fromSkills` is on. `prompts/list` is `prompts.map((p) => p.listed)`; `renderPrompt` answers
   * `prompts/get` and `listPromptArgumentValues` completion (src/core/prompt-render.ts).
   */
  readonly prompts: readonly PromptEntry[];
}

export interface BuildResult {
  readonly catalog: Catalog;
  /** Every finding, after the scope file's `check` severities; suppressed ones are not among them. */
  readonly diagnostics: readonly Diagnostic[];
  /** Findings an inline `companion-disable` directive suppressed, each with where that directive is (always set
   * by the builder; optional so hand-made results stay valid). */
  readonly suppressed?: readonly SuppressedDiagnostic[];
  /** Items served from `Snapshot.lastGood`, by kind and id. Absent or empty: none. */
  readonly held?: readonly HeldItem[];
  /**
   * The files of every item's last good version after this build: a good item's current files, a held item's
   * held ones. What the next build of the same content is given as `Snapshot.lastGood`.
   */
  readonly lastGood?: ReadonlyMap<string, SourceFile>;
}

/** One immutable build, swapped in whole. Every read, list and manifest is answered from one generation. */
export interface Generation {
  /** 1 for the first build, +1 for each rebuild that was published. */
  readonly number: number;
  readonly catalog: Catalog;
  readonly diagnostics: readonly Diagnostic[];
  /** Items served from their last good version (`BuildResult.held`). Absent or empty: none. */
  readonly held?: readonly HeldItem[];
  /** Wall-clock ms since the epoch when it was built (set by the adapter, never by the core). */
  readonly builtAt: number;
}

/** What a rebuild changed, as a host sees it. Computed by `diffCatalogs`. */
export interface CatalogDiff {
  /** The set of listed URIs, or any listed field (title, description, size, priority, lastModified), changed. */
  readonly listChanged: boolean;
  /**
   * URIs whose bytes a host should re-fetch: every readable URI whose digest changed or that vanished, plus the
   * index when its JSON changed, plus a skill's `SKILL.md` when any file of the skill changed.
   */
  readonly updatedUris: readonly string[];
  /**
   * `prompts/list` would answer differently: a prompt came or went, or a listed field (title, description, an
   * argument) changed. The cue for `notifications/prompts/list_changed` (modern era: `promptsListChanged`).
   */
  readonly promptsListChanged: boolean;
}

/** What happened to one file in a change, as an author would say it. */
export interface FileChange {
  readonly path: string;
  /**
   * `renamed`: a file that vanished and one that appeared with the same bytes, in one change. `unavailable`: it
   * (or the directory it is in) could not be read just now; `read again`: it can be again.
   */
  readonly kind: 'added' | 'saved' | 'deleted' | 'renamed' | 'unavailable' | 'read again';
  /** For `renamed`: where the bytes were before. */
  readonly from?: string;
}

export interface CatalogChange extends CatalogDiff {
  readonly previous: Generation;
  readonly current: Generation;
  /** Content-root-relative paths whose change caused this rebuild. */
  readonly changedPaths: readonly string[];
  /** Time spent re-reading and rebuilding, in ms. */
  readonly rebuildMs: number;
  /** The files behind `changedPaths`: added, saved, deleted or renamed (problems appearing or clearing: saved). */
  readonly files?: readonly FileChange[];
}

/**
 * The one state owner's read side: the current generation, and a way to hear about the next one. `serve`
 * without a watcher uses a source that never changes; `dev` uses the watching catalog store.
 */
export interface CatalogSource {
  current(): Generation;
  /** Calls `listener` after each published rebuild; returns the unsubscribe function. */
  subscribe(listener: (change: CatalogChange) => void): () => void;
}
