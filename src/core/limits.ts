/**
 * The numbers companion enforces or reports against, each defined once: what hosts and the specifications
 * accept, and the defaults of the house rules (`check.rules` in the scope file). The rules read them from here,
 * and so do the messages and hints of the diagnostics catalogue, which therefore never restate one by hand.
 */

/** What hosts keep of `instructions`; one client measured cuts silently beyond this. */
export const INSTRUCTIONS_BUDGET = 2048;

/** Claude Code's listing budget for all skill names and descriptions together (CMP410). */
export const DEFAULT_DESCRIPTION_BUDGET = 3970;

/** SEP-2640: the most files hosts accept in one skill, SKILL.md and references/base.md included. */
export const MAX_SKILL_FILES = 512;

/** SEP-2640: the most bytes hosts accept in one skill. */
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;

/** Agent Skills: `name` is at most this many characters. */
export const MAX_SKILL_NAME_LENGTH = 64;

/** Agent Skills: `description` is at most this many characters (Codex refuses a longer one). */
export const MAX_SKILL_DESCRIPTION_LENGTH = 1024;

/** Agent Skills: `compatibility` is at most this many characters. */
export const MAX_COMPATIBILITY_LENGTH = 500;

/** A prompt name (the file name under prompts/) is at most this many characters. */
export const MAX_PROMPT_NAME_LENGTH = 64;

/** A `data:` icon longer than this weighs down every `initialize` answer (CMP153). */
export const MAX_DATA_ICON_CHARS = 64 * 1024;

/** House rules and budgets (see `check.rules` in the scope file's schema for each). */
export interface LintRules {
  readonly requireLinks: readonly string[];
  readonly minDescriptionLength: number;
  readonly maxBodyLines: number;
  readonly maxBodyTokens: number;
  readonly maxReferenceTokens: number;
  readonly maxFileBytes: number;
}

/** The house rules without a `check.rules` section: the guidance of the Agent Skills documentation. */
export const DEFAULT_LINT_RULES: LintRules = {
  requireLinks: [],
  minDescriptionLength: 40,
  maxBodyLines: 500,
  maxBodyTokens: 5000,
  maxReferenceTokens: 10_000,
  maxFileBytes: 1024 * 1024,
};

/** `10,000` for 10000: digits grouped by three with commas, the same on every machine (no locale). */
export function formatNumber(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `16 MiB` for 16 × 2²⁰, `64 KiB` for 64 × 2¹⁰: a size that is a whole number of MiB or KiB, else bytes. */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
