/**
 * The lint rules, as the catalog builder calls them. Each module holds one family of rules; every finding is
 * a diagnostic with a permanent code, and none changes what is served (the serving rules live in
 * documents.ts and skills.ts: a credential file, CMP601, is the one rule of this family that withholds).
 */
export { type CheckConfig, checkConfigCodes, DEFAULT_CHECK_CONFIG, resolveCheckConfig } from './config.js';
export {
  applyCheckConfig,
  type Directive,
  readDirectivesOf,
  type SuppressedDiagnostic,
} from './directives.js';
export { lintBase } from './document-rules.js';
export { classifyLinkPath, lintUnservedMarkdown, readMarkdownFacts } from './markdown-rules.js';
export { lintRouting, lintScope, type Presence } from './scope-rules.js';
export { lintSkill } from './skill-rules.js';
export { lintSkillSet } from './skill-set-rules.js';
