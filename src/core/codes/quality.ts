/**
 * CMP6xx: secrets (CMP600–CMP609), shipped files (CMP610–CMP619), progressive disclosure (CMP620–CMP639), host
 * rules (CMP640–CMP689) and the check configuration itself (CMP690–CMP699).
 */
import type { DiagnosticData } from '../diagnostics.js';
import { DEFAULT_LINT_RULES, formatNumber, formatSize, MAX_SKILL_BYTES } from '../limits.js';
import {
  CODE_REFERENCE_PATH,
  DISABLE_DIRECTIVE,
  formatList,
  RESERVED_METADATA_PREFIX,
  RESERVED_NAME_WORDS,
  SKILL_BODY,
} from '../names.js';
import { formatRule } from './skills.js';

/** Where a directive applies: the whole file, its own line, or the next. */
type DirectiveKind = 'file' | 'line' | 'next-line';

/** `companion-disable`, `companion-disable-line`, `companion-disable-next-line`. */
const directiveName = (kind: DirectiveKind): string =>
  `${DISABLE_DIRECTIVE}${kind === 'file' ? '' : `-${kind}`}`;

export const qualityCodes = {
  secret: {
    code: 'CMP600',
    severity: 'error',
    title: 'Served text holds a credential',
    message: ({ kind, masked }) => `This looks like ${kind}: ${masked}.`,
    hint: () =>
      `Remove the credential, revoke it at its issuer (it is in your history now), and refer to it by name ("set OPENAI_API_KEY") instead. Everything companion serves reaches every connected host. A documented example value can be suppressed with \`<!-- ${directiveName('next-line')} CMP600 -->\` on the line above it.`,
    examples: [{ kind: 'an AWS access key id', masked: 'AKIA…WXYZ' }],
  } satisfies DiagnosticData<{
    /** What kind of credential, as a noun phrase ("a GitHub token"). */
    readonly kind: string;
    /** The value with most of it hidden. */
    readonly masked: string;
  }>,
  credentialFile: {
    code: 'CMP601',
    severity: 'error',
    title: 'Credential file in a skill',
    message: ({ path }) => `"${path}" is a credential file; it is not served.`,
    hint: () =>
      'Delete the file from the skill and revoke what it holds: a key store or private key is never served (it is left out of the skill), and a skill needs none to be followed.',
    examples: [{ path: 'assets/id_rsa' }],
  } satisfies DiagnosticData<{ readonly path: string }>,
  binaryFile: {
    code: 'CMP610',
    severity: 'warning',
    title: 'Binary file where text is expected',
    message: ({ path, kind }) => {
      switch (kind) {
        case 'compiled':
          return `"${path}" is a compiled binary; a model cannot read it, and hosts must not run skill content unasked.`;
        case 'not-utf8':
          return `"${path}" has a text file name but is not UTF-8, so it is served as an opaque blob.`;
        case 'nul':
          return `"${path}" has a text file name but holds NUL bytes.`;
      }
    },
    hint: () =>
      "Hosts read skill files into the model's context: ship source or text, not compiled binaries, and save text files as UTF-8. A file whose name says text but whose bytes are not is served as an opaque blob.",
    examples: [
      { path: 'scripts/tool.exe', kind: 'compiled' },
      { path: 'references/notes.txt', kind: 'not-utf8' },
      { path: 'scripts/run.sh', kind: 'nul' },
    ],
  } satisfies DiagnosticData<{
    readonly path: string;
    /** A compiled binary, or a text file name over bytes that are not UTF-8 or hold NUL bytes. */
    readonly kind: 'compiled' | 'not-utf8' | 'nul';
  }>,
  largeFile: {
    code: 'CMP611',
    severity: 'warning',
    title: 'File over the size budget',
    message: ({ path, size, budget }) => `"${path}" is ${size} bytes; the budget for one file is ${budget}.`,
    hint: () =>
      `Shrink the asset, or move it out of the skill and link where it lives: every file counts toward the ${formatSize(MAX_SKILL_BYTES)} a host accepts per skill. The budget is \`${formatRule('maxFileBytes')}\` in the scope file (default ${formatSize(DEFAULT_LINT_RULES.maxFileBytes)}).`,
    examples: [{ path: 'assets/demo.gif', size: 2_400_000, budget: DEFAULT_LINT_RULES.maxFileBytes }],
  } satisfies DiagnosticData<{ readonly path: string; readonly size: number; readonly budget: number }>,
  extraneousFile: {
    code: 'CMP612',
    severity: 'warning',
    title: 'File for a repository, not for a skill',
    message: ({ path }) =>
      `"${path}" is a repository file; served in the skill, hosts may load it as skill content.`,
    hint: () =>
      'README, CHANGELOG, CONTRIBUTING, Makefile and the like are served as files of the skill, and hosts may load them as its content. Move them out of the skill directory; put the license in the `license` field.',
    examples: [{ path: 'README.md' }],
  } satisfies DiagnosticData<{ readonly path: string }>,
  bodyLines: {
    code: 'CMP620',
    severity: 'warning',
    title: 'SKILL.md body over the line budget',
    message: ({ lines, budget }) => `The body of ${SKILL_BODY} is ${lines} lines; the budget is ${budget}.`,
    hint: () =>
      `Keep ${SKILL_BODY} to the workflow and move detail into files under references/ that the body links at the step that needs them: the Agent Skills guidance is about ${DEFAULT_LINT_RULES.maxBodyLines} lines. The budget is \`${formatRule('maxBodyLines')}\` in the scope file.`,
    examples: [{ lines: 640, budget: DEFAULT_LINT_RULES.maxBodyLines }],
  } satisfies DiagnosticData<{ readonly lines: number; readonly budget: number }>,
  bodyTokens: {
    code: 'CMP621',
    severity: 'warning',
    title: 'SKILL.md body over the token budget',
    message: ({ tokens, budget }) =>
      `The body of ${SKILL_BODY} is about ${tokens} tokens (estimated); the budget is ${budget}.`,
    hint: () =>
      `Move detail into references/ files linked from the step that needs them: the whole body enters the model's context when the skill is picked (guidance: about ${formatNumber(DEFAULT_LINT_RULES.maxBodyTokens)} tokens). Tokens are estimated offline, one per 4 ASCII characters and one per other character; the budget is \`${formatRule('maxBodyTokens')}\`.`,
    examples: [{ tokens: 7420, budget: DEFAULT_LINT_RULES.maxBodyTokens }],
  } satisfies DiagnosticData<{ readonly tokens: number; readonly budget: number }>,
  referenceTokens: {
    code: 'CMP622',
    severity: 'warning',
    title: 'Reference over the token budget',
    message: ({ path, tokens, budget }) =>
      `"${path}" is about ${tokens} tokens (estimated); the budget for a reference is ${budget}.`,
    hint: () =>
      `Split the file by topic, each linked from the step that needs it, or add a table of contents at its top so a model can read the part it needs. Tokens are estimated offline as for ${SKILL_BODY}; the budget is \`${formatRule('maxReferenceTokens')}\` (default ${formatNumber(DEFAULT_LINT_RULES.maxReferenceTokens)}).`,
    examples: [{ path: 'references/api.md', tokens: 18_300, budget: DEFAULT_LINT_RULES.maxReferenceTokens }],
  } satisfies DiagnosticData<{ readonly path: string; readonly tokens: number; readonly budget: number }>,
  nestedReference: {
    code: 'CMP623',
    severity: 'warning',
    title: 'Reference reached only through another reference',
    message: ({ from, path }) =>
      `"${from}" links to "${path}", which ${SKILL_BODY} does not link: models often read only part of a file two links deep.`,
    hint: () =>
      `Link the file from ${SKILL_BODY} too, at the step that needs it: models read files linked from ${SKILL_BODY}, and often only part of a file a reference links on to. Keep references one level deep.`,
    examples: [{ from: 'references/setup.md', path: 'references/advanced.md' }],
  } satisfies DiagnosticData<{
    /** The reference that links it. */
    readonly from: string;
    readonly path: string;
  }>,
  orphanFile: {
    code: 'CMP624',
    severity: 'warning',
    title: 'File nothing links to',
    message: ({ path }) => `"${path}" is linked from no file of the skill and named in none.`,
    hint: () =>
      `Link the file from ${SKILL_BODY} (or a reference) at the step that uses it, or delete it: a model learns that a file exists only from a link or a path written in the skill.`,
    examples: [{ path: 'assets/old-logo.png' }],
  } satisfies DiagnosticData<{ readonly path: string }>,
  reservedMetadata: {
    code: 'CMP640',
    severity: 'error',
    title: `metadata key under the reserved ${RESERVED_METADATA_PREFIX} prefix`,
    message: ({ key }) =>
      `\`metadata.${key}\` uses the prefix ${RESERVED_METADATA_PREFIX}, which SEP-2640 reserves for MCP extensions.`,
    hint: () =>
      `Rename the key: SEP-2640 reserves \`metadata\` keys prefixed ${RESERVED_METADATA_PREFIX} for MCP extensions, and hosts ignore the ones they do not know (or read them as an extension defines them).`,
    examples: [{ key: `${RESERVED_METADATA_PREFIX}version` }],
  } satisfies DiagnosticData<{ readonly key: string }>,
  allowedToolsIgnored: {
    code: 'CMP641',
    severity: 'info',
    title: 'allowed-tools has no effect over MCP',
    message: () =>
      '`allowed-tools` is ignored by SEP-2640 hosts when the skill is served over MCP, unless the user grants it.',
    hint: () =>
      'SEP-2640 hosts ignore `allowed-tools` on a skill served over MCP unless the user grants it; it still applies where the skill is installed as files (companion install). Keep it if that is where it matters.',
    examples: [{}],
  } satisfies DiagnosticData<Record<string, never>>,
  hostField: {
    code: 'CMP642',
    severity: 'warning',
    title: 'Front matter field only some hosts read',
    message: ({ key, hosts }) =>
      `\`${key}\` is a field of ${hosts.join(' and ')} only.${key === 'hooks' ? ' Over MCP, SEP-2640 hosts must ignore hooks or ask the user before running them.' : ' Other hosts ignore it, and over MCP it has no effect.'}`,
    hint: () =>
      'Hosts that do not define the field ignore it, and over MCP it has no effect. Keep it if the hosts named rely on it; otherwise remove it, or move it under `metadata`.',
    examples: [
      { key: 'argument-hint', hosts: ['VS Code', 'Claude Code'] },
      { key: 'hooks', hosts: ['Claude Code'] },
    ],
  } satisfies DiagnosticData<{
    readonly key: string;
    /** The hosts that define the field. */
    readonly hosts: readonly string[];
  }>,
  reservedName: {
    code: 'CMP643',
    severity: 'warning',
    title: 'Skill name a host reserves',
    message: ({ name, word }) =>
      `The name "${name}" contains "${word}", which the Claude API and claude.ai refuse in skill names.`,
    hint: () =>
      `Rename the skill (directory and \`name\`): the Claude API and claude.ai refuse skill names that contain ${formatList(
        RESERVED_NAME_WORDS.map((w) => `"${w}"`),
        'or',
      )}.`,
    examples: [{ name: 'claude-helper', word: 'claude' }],
  } satisfies DiagnosticData<{
    readonly name: string;
    /** The reserved word it contains. */
    readonly word: string;
  }>,
  multilineDescription: {
    code: 'CMP644',
    severity: 'warning',
    title: 'Description spans several lines',
    message: () =>
      '`description` holds line breaks; Codex and Claude Code list every skill on one line as "name: description".',
    hint: () =>
      'Write the description as one line, or as a folded block (`>-`), which YAML joins into one: Codex and Claude Code list each skill on one line as "name: description", and a line break inside it breaks that listing.',
    examples: [{}],
  } satisfies DiagnosticData<Record<string, never>>,
  configUnknownCode: {
    code: 'CMP690',
    severity: 'warning',
    title: 'Check configuration names an unknown code',
    message: ({ code }) => `check.severity sets "${code}", which is not a code companion reports.`,
    hint: () =>
      `Use a code from the diagnostic code reference (${CODE_REFERENCE_PATH}); a setting for a code that does not exist does nothing.`,
    examples: [{ code: 'CMP999' }],
  } satisfies DiagnosticData<{ readonly code: string }>,
  directiveUnknownCode: {
    code: 'CMP691',
    severity: 'warning',
    title: `${DISABLE_DIRECTIVE} names no known code`,
    message: ({ kind, unknown }) =>
      unknown.length === 0
        ? `${directiveName(kind)} names no code; it suppresses nothing.`
        : `${unknown.map((c) => `"${c}"`).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not ${unknown.length === 1 ? 'a code' : 'codes'} companion reports.`,
    hint: () =>
      `Name the codes to suppress: \`<!-- ${directiveName('file')} CMP504 -->\` for the whole file, \`<!-- ${directiveName('next-line')} CMP600 -->\` for the line below, \`<!-- ${directiveName('line')} CMP504 -->\` for its own line (in YAML front matter and scripts, the same words after \`#\`).`,
    examples: [
      { kind: 'next-line', unknown: ['CMP999'] },
      { kind: 'file', unknown: ['CMP998', 'secrets'] },
      { kind: 'line', unknown: [] },
    ],
  } satisfies DiagnosticData<{
    readonly kind: DirectiveKind;
    /** What it names that is not a code companion reports; empty when it names nothing at all. */
    readonly unknown: readonly string[];
  }>,
  directiveUnused: {
    code: 'CMP692',
    severity: 'info',
    title: `${DISABLE_DIRECTIVE} suppresses nothing`,
    message: ({ kind, codes }) => `This ${directiveName(kind)} ${codes.join(', ')} matches no finding.`,
    hint: () =>
      'Remove the comment, or correct its code or line: a suppression that matches no finding would hide the next real one.',
    examples: [{ kind: 'next-line', codes: ['CMP600'] }],
  } satisfies DiagnosticData<{ readonly kind: DirectiveKind; readonly codes: readonly string[] }>,
};
