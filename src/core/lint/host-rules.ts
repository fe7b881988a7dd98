/**
 * MCP and host rules (CMP640–CMP644): what SEP-2640 reserves or tells hosts to ignore, fields only some hosts
 * define, and limits that differ by host. Each finding names the host it is about.
 */
import { codes, type Diagnostic, diagnose } from '../diagnostics.js';
import type { Position } from '../front-matter.js';
import { locateInValue } from './positions.js';

/**
 * Front matter fields that hosts define beyond the Agent Skills specification, with the hosts that read them
 * (VS Code: code.visualstudio.com/docs/copilot/chat/chat-agent-skills; Claude Code: code.claude.com/docs/en/skills).
 */
export const HOST_FIELDS: ReadonlyMap<string, readonly string[]> = new Map([
  ['argument-hint', ['VS Code', 'Claude Code']],
  ['user-invocable', ['VS Code', 'Claude Code']],
  ['disable-model-invocation', ['VS Code', 'Claude Code']],
  ['model', ['Claude Code']],
  ['context', ['Claude Code']],
  ['agent', ['Claude Code']],
  ['hooks', ['Claude Code']],
]);

/** SEP-2640: `metadata` keys with this prefix are reserved for MCP extensions. */
export const RESERVED_METADATA_PREFIX = 'io.modelcontextprotocol/';

export interface HostRulesInput {
  readonly file: string;
  /** The whole SKILL.md. */
  readonly text: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  readonly keys: ReadonlyMap<string, Position>;
  readonly bodyLine: number;
}

export function lintHostRules({ file, text, frontmatter, keys, bodyLine }: HostRulesInput): Diagnostic[] {
  const out: Diagnostic[] = [];
  const at = (key: string) => ({ file, ...(keys.get(key) ?? { line: 1 }) });
  const metadata = frontmatter.metadata;
  if (typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)) {
    for (const key of Object.keys(metadata)) {
      if (!key.startsWith(RESERVED_METADATA_PREFIX)) continue;
      const pos = locateInValue(text, keys, 'metadata', bodyLine, new RegExp(escapeRegExp(key)));
      out.push(
        diagnose(
          codes.reservedMetadata,
          `\`metadata.${key}\` uses the prefix ${RESERVED_METADATA_PREFIX}, which SEP-2640 reserves for MCP extensions.`,
          { file, ...pos },
        ),
      );
    }
  }
  if (frontmatter['allowed-tools'] !== undefined) {
    out.push(
      diagnose(
        codes.allowedToolsIgnored,
        '`allowed-tools` is ignored by SEP-2640 hosts when the skill is served over MCP, unless the user grants it.',
        at('allowed-tools'),
      ),
    );
  }
  for (const [key, hosts] of HOST_FIELDS) {
    if (!keys.has(key)) continue;
    const extra =
      key === 'hooks'
        ? ' Over MCP, SEP-2640 hosts must ignore hooks or ask the user before running them.'
        : ' Other hosts ignore it, and over MCP it has no effect.';
    out.push(
      diagnose(codes.hostField, `\`${key}\` is a field of ${hosts.join(' and ')} only.${extra}`, at(key)),
    );
  }
  const name = frontmatter.name;
  if (typeof name === 'string') {
    const reserved = ['anthropic', 'claude'].find((word) => name.includes(word));
    if (reserved) {
      out.push(
        diagnose(
          codes.reservedName,
          `The name "${name}" contains "${reserved}", which the Claude API and claude.ai refuse in skill names.`,
          at('name'),
        ),
      );
    }
  }
  const description = frontmatter.description;
  if (typeof description === 'string' && description.trim().includes('\n')) {
    out.push(
      diagnose(
        codes.multilineDescription,
        '`description` holds line breaks; Codex and Claude Code list every skill on one line as "name: description".',
        at('description'),
      ),
    );
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
