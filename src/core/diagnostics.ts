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
    hint: 'Only Markdown documents under knowledge/documents/, skill directories, skills/base.md and prompts/<name>.md are served. Move the file or delete it.',
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
  proseUnknownTool: {
    code: 'CMP108',
    severity: 'warning',
    title: 'Scope prose names a tool this server does not serve',
    hint: 'The model reads the instructions, routing and "not covered" entries as written and calls what they name. Name one of the tools companion serves (document_lookup, task_guide, skill_load), or reword the text.',
  },
  toolUnreached: {
    code: 'CMP109',
    severity: 'warning',
    title: 'A tool no topic reaches',
    hint: 'Add the tool to the "tools" of the topics it answers, or exclude it from the server (COMPANION_EXCLUDE_TOOLS) if nothing here needs it: a tool no topic names is offered with nothing to say about it.',
  },
  routingUnknownTarget: {
    code: 'CMP110',
    severity: 'error',
    title: 'Routing names a document or skill that does not exist',
    hint: 'Correct the id in "with" (a skill id for skill_load, a document id or URI for document_lookup), or write the document or skill. The model passes it to the tool as written, and the call fails.',
  },
  fieldDeclaration: {
    code: 'CMP150',
    severity: 'error',
    title: 'Declared document field contradicts itself',
    hint: 'Give "items" only to a field of "type": "array", write "enum" values of the declared type, and list an array\'s allowed values under its "items".',
  },
  fieldShadowsBuiltin: {
    code: 'CMP151',
    severity: 'error',
    title: 'Declared document field is a built-in one',
    hint: 'description and whenToUse are fields every document already has; declare only fields of your own under documents.fields.',
  },
  iconSource: {
    code: 'CMP152',
    severity: 'error',
    title: 'Icon source is not https or a data: image',
    hint: 'Hosts fetch only https icons or read data: URIs; use "https://…" or "data:image/png;base64,…" (svg+xml, png, jpeg, webp).',
  },
  iconTooLarge: {
    code: 'CMP153',
    severity: 'warning',
    title: 'Icon data: URI over 64 KiB',
    hint: 'Every initialize answer carries the icon: shrink the image, or serve it from an https URL.',
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
    hint: 'Documents take `description` (required) and `whenToUse` (optional), both strings, and the fields the scope file declares under documents.fields: declare this one there, or remove it.',
  },
  documentFieldValue: {
    code: 'CMP306',
    severity: 'error',
    title: 'Document field does not match its declaration',
    hint: 'Give the field a value of the type (and one of the values) the scope file declares under documents.fields; the document is served as written, but the field is left out of its index entry.',
  },
  documentFieldMissing: {
    code: 'CMP307',
    severity: 'error',
    title: 'Document lacks a required field',
    hint: 'Add the field to the front matter, or declare it with "required": false under documents.fields in the scope file.',
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
  descriptionAngleBrackets: {
    code: 'CMP420',
    severity: 'error',
    title: 'Description holds an angle bracket',
    hint: 'Remove "<" and ">" from `description`: Anthropic\'s skill validator (quick_validate.py) and claude.ai refuse a description with XML-like tags. Write "less than", or quote the term with backticks in the body instead.',
  },
  descriptionShort: {
    code: 'CMP421',
    severity: 'warning',
    title: 'Description too short to be picked',
    hint: 'Say what the skill does and when to use it, in the words a request would contain; a model picks a skill by its description alone. The minimum is `check.rules.minDescriptionLength` in the scope file (default 40 characters).',
  },
  descriptionNoTrigger: {
    code: 'CMP422',
    severity: 'warning',
    title: 'Description says no when',
    hint: 'Add the situations that should trigger the skill, as "Use when …": the Agent Skills specification asks for what the skill does and when to use it, and hosts match requests against that half.',
  },
  descriptionStuffed: {
    code: 'CMP423',
    severity: 'warning',
    title: 'Description is a list of keywords',
    hint: 'Write the description as one or two sentences of what the skill does and when to use it; a bare list of terms reads as noise to the model and matches requests it does not own.',
  },
  descriptionPerson: {
    code: 'CMP424',
    severity: 'warning',
    title: 'Description in the first or second person',
    hint: 'Write in the third person, as an outcome ("Converts PDF forms …"), not "I can help you …" or "You can use this …": the description is injected into the model\'s context beside other skills, and a shifting point of view hurts discovery.',
  },
  descriptionDuplicate: {
    code: 'CMP425',
    severity: 'warning',
    title: 'Two skills share a description',
    hint: 'Give each skill a description that tells it apart: with the same words the model cannot choose, and hosts may drop one. Merge the skills if they really do the same.',
  },
  descriptionPlaceholder: {
    code: 'CMP426',
    severity: 'warning',
    title: 'Description is a placeholder or filler',
    hint: 'Replace the template text ("TODO", "Description goes here", "This skill …") with what the skill does and when to use it, starting with the verb.',
  },
  skillBodyEmpty: {
    code: 'CMP427',
    severity: 'warning',
    title: 'SKILL.md has no instructions',
    hint: 'Write the workflow under the title: the steps to follow and the files to read at each. A skill with an empty body is picked and then does nothing.',
  },
  requiredLink: {
    code: 'CMP428',
    severity: 'warning',
    title: 'Skill does not link a file the house rules require',
    hint: 'Link the file from SKILL.md (for example "Start with [references/base.md](references/base.md)."), as `check.rules.requireLinks` in the scope file asks of every published skill.',
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
  unclosedFence: {
    code: 'CMP503',
    severity: 'error',
    title: 'Code fence never closed',
    hint: 'Close the block with a line of the same fence (at least as many backticks or tildes) after its last line: everything below an unclosed fence renders, and reaches the model, as code — headings, links and instructions included.',
  },
  brokenFragment: {
    code: 'CMP504',
    severity: 'warning',
    title: 'Link fragment names no heading',
    hint: 'Point the "#fragment" at a heading of the target as GitHub spells its anchor (lowercase, spaces as "-", punctuation dropped: "## Set up a host" is #set-up-a-host), or rename the heading.',
  },
  backslashLink: {
    code: 'CMP505',
    severity: 'error',
    title: 'Link path with backslashes',
    hint: 'Write the path with "/": links are URI references, resolved against the file\'s URI by every host, and a backslash is part of a file name there, not a separator.',
  },
  absoluteLink: {
    code: 'CMP506',
    severity: 'error',
    title: 'Link to an absolute local path',
    hint: 'Link relative to the file (references/guide.md), or to a served URI: a path on your machine (/home/…, C:\\…, file://, ~/…) resolves to nothing for a host, and shows how your disk is laid out.',
  },
  crlf: {
    code: 'CMP507',
    severity: 'warning',
    title: 'CRLF line endings',
    hint: 'Save the file with LF line endings (`companion check --fix` converts it): validators that match front matter as "---\\n" (Anthropic\'s quick_validate.py among them) do not find it in a CRLF file.',
  },
  frontMatterWhitespace: {
    code: 'CMP508',
    severity: 'warning',
    title: 'Trailing whitespace in front matter',
    hint: 'Remove the spaces or tabs at the end of the line (`companion check --fix` does): after a "---" line strict readers do not see the front matter at all, and after a value they are a change no one sees in review.',
  },

  // CMP6xx: secrets, shipped files, progressive disclosure, host rules; CMP69x: the check configuration.
  secret: {
    code: 'CMP600',
    severity: 'error',
    title: 'Served text holds a credential',
    hint: 'Remove the credential, revoke it at its issuer (it is in your history now), and refer to it by name ("set OPENAI_API_KEY") instead. Everything companion serves reaches every connected host. A documented example value can be suppressed with `<!-- companion-disable-next-line CMP600 -->` on the line above it.',
  },
  credentialFile: {
    code: 'CMP601',
    severity: 'error',
    title: 'Credential file in a skill',
    hint: 'Delete the file from the skill and revoke what it holds: a key store or private key is never served (it is left out of the skill), and a skill needs none to be followed.',
  },
  binaryFile: {
    code: 'CMP610',
    severity: 'warning',
    title: 'Binary file where text is expected',
    hint: "Hosts read skill files into the model's context: ship source or text, not compiled binaries, and save text files as UTF-8. A file whose name says text but whose bytes are not is served as an opaque blob.",
  },
  largeFile: {
    code: 'CMP611',
    severity: 'warning',
    title: 'File over the size budget',
    hint: 'Shrink the asset, or move it out of the skill and link where it lives: every file counts toward the 16 MiB a host accepts per skill. The budget is `check.rules.maxFileBytes` in the scope file (default 1 MiB).',
  },
  extraneousFile: {
    code: 'CMP612',
    severity: 'warning',
    title: 'File for a repository, not for a skill',
    hint: 'README, CHANGELOG, CONTRIBUTING, Makefile and the like are served as files of the skill, and hosts may load them as its content. Move them out of the skill directory; put the license in the `license` field.',
  },
  bodyLines: {
    code: 'CMP620',
    severity: 'warning',
    title: 'SKILL.md body over the line budget',
    hint: 'Keep SKILL.md to the workflow and move detail into files under references/ that the body links at the step that needs them: the Agent Skills guidance is about 500 lines. The budget is `check.rules.maxBodyLines` in the scope file.',
  },
  bodyTokens: {
    code: 'CMP621',
    severity: 'warning',
    title: 'SKILL.md body over the token budget',
    hint: "Move detail into references/ files linked from the step that needs them: the whole body enters the model's context when the skill is picked (guidance: about 5,000 tokens). Tokens are estimated offline, one per 4 ASCII characters and one per other character; the budget is `check.rules.maxBodyTokens`.",
  },
  referenceTokens: {
    code: 'CMP622',
    severity: 'warning',
    title: 'Reference over the token budget',
    hint: 'Split the file by topic, each linked from the step that needs it, or add a table of contents at its top so a model can read the part it needs. Tokens are estimated offline as for SKILL.md; the budget is `check.rules.maxReferenceTokens` (default 10,000).',
  },
  nestedReference: {
    code: 'CMP623',
    severity: 'warning',
    title: 'Reference reached only through another reference',
    hint: 'Link the file from SKILL.md too, at the step that needs it: models read files linked from SKILL.md, and often only part of a file a reference links on to. Keep references one level deep.',
  },
  orphanFile: {
    code: 'CMP624',
    severity: 'warning',
    title: 'File nothing links to',
    hint: 'Link the file from SKILL.md (or a reference) at the step that uses it, or delete it: a model learns that a file exists only from a link or a path written in the skill.',
  },
  reservedMetadata: {
    code: 'CMP640',
    severity: 'error',
    title: 'metadata key under the reserved io.modelcontextprotocol/ prefix',
    hint: 'Rename the key: SEP-2640 reserves `metadata` keys prefixed io.modelcontextprotocol/ for MCP extensions, and hosts ignore the ones they do not know (or read them as an extension defines them).',
  },
  allowedToolsIgnored: {
    code: 'CMP641',
    severity: 'info',
    title: 'allowed-tools has no effect over MCP',
    hint: 'SEP-2640 hosts ignore `allowed-tools` on a skill served over MCP unless the user grants it; it still applies where the skill is installed as files (companion install). Keep it if that is where it matters.',
  },
  hostField: {
    code: 'CMP642',
    severity: 'warning',
    title: 'Front matter field only some hosts read',
    hint: 'Hosts that do not define the field ignore it, and over MCP it has no effect. Keep it if the hosts named rely on it; otherwise remove it, or move it under `metadata`.',
  },
  reservedName: {
    code: 'CMP643',
    severity: 'warning',
    title: 'Skill name a host reserves',
    hint: 'Rename the skill (directory and `name`): the Claude API and claude.ai refuse skill names that contain "anthropic" or "claude".',
  },
  multilineDescription: {
    code: 'CMP644',
    severity: 'warning',
    title: 'Description spans several lines',
    hint: 'Write the description as one line, or as a folded block (`>-`), which YAML joins into one: Codex and Claude Code list each skill on one line as "name: description", and a line break inside it breaks that listing.',
  },
  configUnknownCode: {
    code: 'CMP690',
    severity: 'warning',
    title: 'Check configuration names an unknown code',
    hint: 'Use a code from the diagnostic code reference (knowledge/documents/any/reference/diagnostic-codes.md); a setting for a code that does not exist does nothing.',
  },
  directiveUnknownCode: {
    code: 'CMP691',
    severity: 'warning',
    title: 'companion-disable names no known code',
    hint: 'Name the codes to suppress: `<!-- companion-disable CMP504 -->` for the whole file, `<!-- companion-disable-next-line CMP600 -->` for the line below, `<!-- companion-disable-line CMP504 -->` for its own line (in YAML front matter and scripts, the same words after `#`).',
  },
  directiveUnused: {
    code: 'CMP692',
    severity: 'info',
    title: 'companion-disable suppresses nothing',
    hint: 'Remove the comment, or correct its code or line: a suppression that matches no finding would hide the next real one.',
  },

  // CMP9xx: prompts (prompts/<name>.md).
  promptFrontMatterMissing: {
    code: 'CMP900',
    severity: 'error',
    title: 'Prompt has no front matter',
    hint: 'Start the file with a "---" line, a `description:` line (and `arguments:` if it takes any), and a closing "---" line.',
  },
  promptYaml: {
    code: 'CMP901',
    severity: 'error',
    title: 'Prompt front matter is not valid YAML',
    hint: 'Fix the YAML at the line shown; quote values that contain ": " or start with a special character.',
  },
  promptDescription: {
    code: 'CMP902',
    severity: 'error',
    title: 'Prompt has no description',
    hint: 'Add `description:` to the front matter: what the prompt does, in a sentence. Hosts show it beside the slash command.',
  },
  promptName: {
    code: 'CMP903',
    severity: 'error',
    title: 'Invalid prompt name',
    hint: 'A prompt is prompts/<name>.md, where <name> is 1–64 lowercase letters and digits, with single inner "-" or "_".',
  },
  promptUnknownField: {
    code: 'CMP904',
    severity: 'warning',
    title: 'Unexpected prompt front matter field',
    hint: 'Prompts take `description` (required), `title` and `arguments`.',
  },
  promptArgument: {
    code: 'CMP905',
    severity: 'error',
    title: 'Invalid prompt argument',
    hint: 'Each argument is a mapping with `name` (a letter, then letters, digits, "_" or "-") and optionally `title`, `description`, `required` (true or false), `enum` (a list of strings), `default` (a string; not on a required argument) and `kind` (text, document, skill or topic).',
  },
  promptArgumentDuplicate: {
    code: 'CMP906',
    severity: 'error',
    title: 'Prompt argument declared twice',
    hint: 'Give every argument of a prompt its own name.',
  },
  promptArgumentValues: {
    code: 'CMP907',
    severity: 'error',
    title: 'Prompt argument values are not a valid set',
    hint: 'An `enum` is a non-empty list of distinct strings, only on a text argument; a `default` is one of its values, or for a document, skill or topic argument an id this server serves.',
  },
  promptPlaceholder: {
    code: 'CMP908',
    severity: 'error',
    title: 'Unknown placeholder',
    hint: 'Placeholders are {{name}}, {{name.uri}} and {{name.title}} (document, skill and topic arguments; topics have no uri), {{#name}}…{{/name}} and {{^name}}…{{/name}}, each on one line; write \\{{ for a literal "{{".',
  },
  promptUndeclaredArgument: {
    code: 'CMP909',
    severity: 'error',
    title: 'Placeholder names an undeclared argument',
    hint: 'Declare the argument under `arguments` in the front matter, or correct the name in the placeholder.',
  },
  promptUnusedArgument: {
    code: 'CMP910',
    severity: 'warning',
    title: 'Prompt argument the body never uses',
    hint: 'Use the argument in the body ({{name}}, or a {{#name}}…{{/name}} section), or remove it: a host asks the user for it.',
  },
  promptArgumentDescription: {
    code: 'CMP911',
    severity: 'warning',
    title: 'Prompt argument has no description',
    hint: 'Add a `description` to the argument: hosts show it where the user types the value.',
  },
  promptEmpty: {
    code: 'CMP912',
    severity: 'error',
    title: 'Prompt has no body',
    hint: 'Write the message the prompt sends below the front matter.',
  },
  promptDuplicateName: {
    code: 'CMP913',
    severity: 'error',
    title: 'Two prompts of one name',
    hint: 'With prompts.fromSkills on, every served skill is also a prompt of its name: rename the file under prompts/ or the skill.',
  },
  promptNotCovered: {
    code: 'CMP914',
    severity: 'error',
    title: 'Prompt named by no topic',
    hint: 'Add the prompt name to the "prompts" of a topic in knowledge/server-scope.json.',
  },
  unknownPrompt: {
    code: 'CMP915',
    severity: 'error',
    title: 'Topic names a prompt that does not exist',
    hint: 'Correct the name (the file name under prompts/ without .md), or write the prompt.',
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
export function sortDiagnostics<T extends Diagnostic>(diagnostics: readonly T[]): T[] {
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
