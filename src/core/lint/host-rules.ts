/**
 * MCP and host rules (CMP640–CMP644): what SEP-2640 reserves or tells hosts to ignore, fields only some hosts
 * define, and limits that differ by host. Each finding names the host it is about.
 */
import { codes, type Diagnostic, diagnose } from '../diagnostics.js';
import type { Position } from '../front-matter.js';
import { RESERVED_METADATA_PREFIX, RESERVED_NAME_WORDS } from '../names.js';
import { locateInValue } from './positions.js';

export { RESERVED_METADATA_PREFIX };

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
      out.push(diagnose(codes.reservedMetadata, { key }, { file, ...pos }));
    }
  }
  if (frontmatter['allowed-tools'] !== undefined) {
    out.push(diagnose(codes.allowedToolsIgnored, {}, at('allowed-tools')));
  }
  for (const [key, hosts] of HOST_FIELDS) {
    if (!keys.has(key)) continue;
    out.push(diagnose(codes.hostField, { key, hosts }, at(key)));
  }
  const name = frontmatter.name;
  if (typeof name === 'string') {
    const word = RESERVED_NAME_WORDS.find((reserved) => name.includes(reserved));
    if (word) out.push(diagnose(codes.reservedName, { name, word }, at('name')));
  }
  const description = frontmatter.description;
  if (typeof description === 'string' && description.trim().includes('\n')) {
    out.push(diagnose(codes.multilineDescription, {}, at('description')));
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
