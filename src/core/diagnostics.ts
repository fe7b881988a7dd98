/**
 * Diagnostics are values: a permanent code, a severity, where, what and why, and what to do.
 *
 * Every renderer (text, JSON and GitHub annotations for `companion check`, the terminal UI, the MCP
 * diagnostics resource) draws the same `Diagnostic`. Codes are permanent: a code is never reused for another
 * meaning, and a retired code stays reserved here.
 */

export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  /** Permanent code, e.g. `CMP403`. */
  readonly code: string;
  readonly severity: Severity;
  /** Posix path relative to the content root. */
  readonly file?: string;
  /** 1-based. */
  readonly line?: number;
  /** 1-based. */
  readonly column?: number;
  /** What happened and why, one or two full sentences. */
  readonly message: string;
  /** What to do about it. */
  readonly hint: string;
}

export interface DiagnosticData {
  readonly code: string;
  readonly severity: Severity;
  /** A short name for the code, used as the heading of its documentation. */
  readonly title: string;
  /** The default advice; a call site may give a more specific one. */
  readonly hint: string;
}

/** The catalogue of every code companion reports. Keys are for code; `code` is for people and machines. */
export const codes = {
  // CMP0xx: files, as the loader found them.
  symlinkEscape: {
    code: 'CMP001',
    severity: 'error',
    title: 'Symlink leaves the content root',
    hint: 'Replace the link with the file itself, or point it at a file inside the repository. companion never serves bytes from outside the root.',
  },
  symlinkBroken: {
    code: 'CMP002',
    severity: 'error',
    title: 'Symlink does not resolve',
    hint: 'The link is dangling or part of a loop. Remove it, or point it at an existing file inside the repository.',
  },
  unreadable: {
    code: 'CMP003',
    severity: 'error',
    title: 'File cannot be read',
    hint: 'Give the user running companion read permission on the file (chmod a+r), or remove it.',
  },
  tooLarge: {
    code: 'CMP004',
    severity: 'error',
    title: 'File over the size cap',
    hint: 'Split the file, or move large assets out of the served tree. Hosts read every served file whole.',
  },
  invalidUtf8: {
    code: 'CMP005',
    severity: 'error',
    title: 'Invalid UTF-8',
    hint: 'Re-save the file as UTF-8. Markdown must be valid UTF-8 to be parsed and served as text.',
  },
  notRegular: {
    code: 'CMP006',
    severity: 'error',
    title: 'Not a regular file',
    hint: 'Remove the FIFO, socket or device from the content tree.',
  },
  unsafePath: {
    code: 'CMP007',
    severity: 'error',
    title: 'Path cannot be a URI',
    hint: 'Rename the file or directory using only letters, digits, ".", "_" and "-" in each segment, not starting with "." — the path becomes part of a URI verbatim.',
  },
  strayFile: {
    code: 'CMP008',
    severity: 'warning',
    title: 'File companion does not serve',
    hint: 'Only Markdown documents under knowledge/documents/, skill directories and skills/base.md are served. Move the file or delete it.',
  },
  linkOutsideArea: {
    code: 'CMP009',
    severity: 'error',
    title: 'Symlink leaves its content area',
    hint: 'A skill serves only files inside its own directory, a document only files under knowledge/documents/, and skills/base.md and knowledge/server-scope.json only themselves. Copy the file into the area, or remove the link.',
  },
  linkToHidden: {
    code: 'CMP010',
    severity: 'error',
    title: 'Symlink to a hidden or ignored file',
    hint: 'Dotfiles, dot-directories (.git, .env), backups (~) and temporary files are never served, not even through a link. Remove the link; if the target is content, give it a name without the leading dot.',
  },
  hardlinked: {
    code: 'CMP011',
    severity: 'error',
    title: 'File has more than one hard link',
    hint: 'Give the file bytes of its own: copy it and move the copy over it (cp file file.copy && mv file.copy file). companion serves a file only when its one name lies in the content.',
  },
  // CMP050–CMP099: the live loop (dev, serve --watch).
  fileUnavailable: {
    code: 'CMP050',
    severity: 'error',
    title: 'File could not be read just now',
    hint: 'The machine ran out of file descriptors or the disk was busy (EMFILE, ENFILE, EAGAIN, EIO, EBUSY). companion dev retries by itself and serves the last good version meanwhile; for check, close what holds the descriptors (or raise `ulimit -n`) and run it again.',
  },

  // CMP1xx: knowledge/server-scope.json.
  scopeMissing: {
    code: 'CMP100',
    severity: 'error',
    title: 'Scope file missing',
    hint: 'Create knowledge/server-scope.json (run `companion init` in an empty directory to see one), or point --root at the repository that has it.',
  },
  scopeJsonSyntax: {
    code: 'CMP101',
    severity: 'error',
    title: 'Scope file is not valid JSON',
    hint: 'Fix the JSON at the position shown: a missing comma, a trailing comma or a comment are the usual causes.',
  },
  scopeSchema: {
    code: 'CMP102',
    severity: 'error',
    title: 'Scope file does not match its schema',
    hint: 'Keep "$schema": "./server-scope.schema.json" in the file so your editor completes and checks every field.',
  },
  unknownScope: {
    code: 'CMP103',
    severity: 'error',
    title: 'Unknown scope',
    hint: 'Use one of the ids declared under "scopes", or declare the scope there.',
  },
  unknownTool: {
    code: 'CMP104',
    severity: 'error',
    title: 'Unknown tool',
    hint: 'Name one of the tools companion serves: document_lookup, task_guide, skill_load.',
  },
  instructionsOverBudget: {
    code: 'CMP105',
    severity: 'error',
    title: 'Instructions over 2048 characters',
    hint: 'Shorten "instructions" (start, index, then): hosts silently cut what does not fit.',
  },
  duplicateId: {
    code: 'CMP106',
    severity: 'error',
    title: 'Duplicate id',
    hint: 'Give every scope and every topic its own id.',
  },
  schemaReference: {
    code: 'CMP107',
    severity: 'warning',
    title: 'Scope file does not reference its JSON Schema',
    hint: 'Add "$schema": "./server-scope.schema.json" as the first key so editors complete and check the file.',
  },

  // CMP2xx: coverage, in both directions.
  documentNotCovered: {
    code: 'CMP201',
    severity: 'error',
    title: 'Document named by no topic',
    hint: 'Add the document id to the "documents" of a topic in knowledge/server-scope.json; its description and priority derive from that topic.',
  },
  skillNotCovered: {
    code: 'CMP202',
    severity: 'error',
    title: 'Skill named by no topic',
    hint: 'Add the skill id to the "skills" of a topic in knowledge/server-scope.json; its description and priority derive from that topic.',
  },
  unknownDocument: {
    code: 'CMP203',
    severity: 'error',
    title: 'Topic names a document that does not exist',
    hint: 'Correct the id (the path below knowledge/documents/ without .md), or write the document.',
  },
  unknownSkill: {
    code: 'CMP204',
    severity: 'error',
    title: 'Topic names a skill that is not published',
    hint: 'Correct the id (the directory name under skills/), write the skill, or remove the draft flag from its metadata.',
  },
  scopeMismatch: {
    code: 'CMP205',
    severity: 'error',
    title: "Document's directory disagrees with its topic's scope",
    hint: "Move the document under the directory of its topic's scope, or name it from a topic of the scope it is filed under.",
  },
  documentScopeUnknown: {
    code: 'CMP206',
    severity: 'error',
    title: 'Document filed under an unknown scope',
    hint: 'The first directory below knowledge/documents/ is the scope: use a declared scope id or declare this one.',
  },
  conflictingScopes: {
    code: 'CMP207',
    severity: 'error',
    title: 'Covered by topics of different scopes',
    hint: 'A document or skill holds for one audience: name it only from topics of one scope.',
  },

  // CMP3xx: knowledge documents.
  documentFrontMatterMissing: {
    code: 'CMP301',
    severity: 'error',
    title: 'Document has no front matter',
    hint: 'Start the file with a "---" line, a `description:` line, and a closing "---" line.',
  },
  documentYaml: {
    code: 'CMP302',
    severity: 'error',
    title: 'Document front matter is not valid YAML',
    hint: 'Fix the YAML at the line shown; quote values that contain ": " or start with a special character.',
  },
  documentDescription: {
    code: 'CMP303',
    severity: 'error',
    title: 'Document has no description',
    hint: 'Add `description:` to the front matter: one or two sentences on what the page is. Hosts pick documents by it.',
  },
  documentTitle: {
    code: 'CMP304',
    severity: 'error',
    title: 'Document does not have exactly one "# " title',
    hint: 'Give the document one top-level "# Title" line; use "## " for its sections.',
  },
  documentField: {
    code: 'CMP305',
    severity: 'warning',
    title: 'Unexpected document front matter field',
    hint: 'Documents take `description` (required) and `whenToUse` (optional), both strings.',
  },

  // CMP4xx: skills.
  skillMissingBody: {
    code: 'CMP401',
    severity: 'error',
    title: 'Skill directory has no SKILL.md',
    hint: 'Add SKILL.md with `name` and `description` front matter, or remove the directory.',
  },
  skillFrontMatterMissing: {
    code: 'CMP402',
    severity: 'error',
    title: 'SKILL.md has no front matter',
    hint: 'Start SKILL.md with a "---" line, `name:` and `description:` lines, and a closing "---" line.',
  },
  skillYaml: {
    code: 'CMP403',
    severity: 'error',
    title: 'SKILL.md front matter is not valid YAML',
    hint: 'Fix the YAML at the line shown; quote values that contain ": " or start with a special character.',
  },
  skillName: {
    code: 'CMP404',
    severity: 'error',
    title: 'Invalid skill name',
    hint: '`name` is 1–64 characters of lowercase letters, digits and single inner hyphens, and equals the directory name.',
  },
  skillDescription: {
    code: 'CMP405',
    severity: 'error',
    title: 'Invalid skill description',
    hint: '`description` is 1–1024 characters and says what the skill does and when to use it.',
  },
  skillCompatibility: {
    code: 'CMP406',
    severity: 'error',
    title: 'compatibility over 500 characters',
    hint: 'Keep `compatibility` to what the skill needs from its environment, in at most 500 characters.',
  },
  skillMetadata: {
    code: 'CMP407',
    severity: 'error',
    title: 'metadata is not a map of strings',
    hint: 'Quote every `metadata` value (version: "1.0"), so every host reads the same string.',
  },
  skillUnknownField: {
    code: 'CMP408',
    severity: 'warning',
    title: 'Front matter field the Agent Skills spec does not define',
    hint: 'Agent Skills defines name, description, license, compatibility, metadata and allowed-tools; put anything else under `metadata`.',
  },
  ambiguousYaml: {
    code: 'CMP409',
    severity: 'warning',
    title: 'YAML that parsers read differently',
    hint: 'Quote the value. Some hosts still parse YAML 1.1, where yes/no/on/off are booleans, and an unquoted ": " or a stray carriage return changes the value.',
  },
  descriptionBudget: {
    code: 'CMP410',
    severity: 'error',
    title: 'Skill descriptions over the listing budget',
    hint: 'Shorten descriptions: hosts keep only this many characters of all skill names and descriptions together, and drop the rest.',
  },
  skillTooManyFiles: {
    code: 'CMP411',
    severity: 'error',
    title: 'Skill has more than 512 files',
    hint: 'SEP-2640 hosts accept at most 512 files per skill. Move material out, or split the skill.',
  },
  skillTooLarge: {
    code: 'CMP412',
    severity: 'error',
    title: 'Skill larger than 16 MiB',
    hint: 'SEP-2640 hosts accept at most 16 MiB per skill. Move large assets out, or split the skill.',
  },
  baseMissing: {
    code: 'CMP413',
    severity: 'error',
    title: 'skills/base.md is missing',
    hint: 'Create skills/base.md: the order every task starts in, which every published skill receives as references/base.md.',
  },
  baseShadowed: {
    code: 'CMP414',
    severity: 'error',
    title: 'Skill has its own references/base.md',
    hint: 'references/base.md is served from skills/base.md in every skill. Delete the copy, or rename it.',
  },
  skillField: {
    code: 'CMP415',
    severity: 'error',
    title: 'Front matter field has the wrong type',
    hint: '`license`, `compatibility` and `allowed-tools` are strings; `metadata` is a map.',
  },
  skillTitle: {
    code: 'CMP416',
    severity: 'warning',
    title: 'SKILL.md has no "# " title',
    hint: 'Give SKILL.md a "# Title" line; hosts show it as the resource title.',
  },

  // CMP5xx: links.
  brokenLink: {
    code: 'CMP501',
    severity: 'error',
    title: 'Relative link resolves to nothing served',
    hint: 'Link to a file inside the same skill (references/base.md is always there), or fix the path.',
  },
  unknownUri: {
    code: 'CMP502',
    severity: 'error',
    title: 'URI names no served resource',
    hint: 'Correct the URI: every document is at <scheme>://guides/<id>, every skill at <scheme>://skill/<id>/SKILL.md.',
  },
} as const satisfies Record<string, DiagnosticData>;

export type CodeKey = keyof typeof codes;

export interface Location {
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
}

/** Builds a diagnostic from its catalogue entry. `hint` overrides the entry's default advice. */
export function diagnose(
  data: DiagnosticData,
  message: string,
  location: Location = {},
  hint?: string,
): Diagnostic {
  return {
    code: data.code,
    severity: data.severity,
    ...(location.file === undefined ? {} : { file: location.file }),
    ...(location.line === undefined ? {} : { line: location.line }),
    ...(location.column === undefined ? {} : { column: location.column }),
    message,
    hint: hint ?? data.hint,
  };
}

/** Sorts by file, line, column, then code: deterministic, so output can be compared byte for byte. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      compare(a.file ?? '', b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      compare(a.code, b.code) ||
      compare(a.message, b.message),
  );
}

export interface DiagnosticSummary {
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
}

export function summarizeDiagnostics(diagnostics: readonly Diagnostic[]): DiagnosticSummary {
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  for (const d of diagnostics) {
    if (d.severity === 'error') errors++;
    else if (d.severity === 'warning') warnings++;
    else infos++;
  }
  return { errors, warnings, infos };
}

/** True when the diagnostics fail a check: any error, or under `strict` any warning. */
export function failsCheck(diagnostics: readonly Diagnostic[], strict: boolean): boolean {
  return diagnostics.some((d) => d.severity === 'error' || (strict && d.severity === 'warning'));
}

/** Code-point order, independent of locale, so sorting is the same on every machine. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
