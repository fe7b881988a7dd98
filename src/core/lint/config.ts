/**
 * The `check` section of the scope file, resolved: a severity per code and the house rules with their
 * defaults. One value per scope file (memoized on it), so every unit's memo can key on its identity.
 */
import { codes, type Diagnostic, diagnose, type Severity } from '../diagnostics.js';
import { DEFAULT_LINT_RULES, type LintRules } from '../limits.js';
import { type Memo, memoTable, NO_MEMO } from '../memo.js';
import type { ServerScope } from '../scope-schema.js';

export { DEFAULT_LINT_RULES, type LintRules };

export type SeveritySetting = Severity | 'off';

export interface CheckConfig {
  /** Codes whose severity the scope file sets. */
  readonly severity: ReadonlyMap<string, SeveritySetting>;
  readonly rules: LintRules;
}

export const DEFAULT_CHECK_CONFIG: CheckConfig = { severity: new Map(), rules: DEFAULT_LINT_RULES };

const RESOLVED = memoTable<ServerScope, CheckConfig>('lint.config');
const KNOWN_CODES: ReadonlySet<string> = new Set<string>(Object.values(codes).map((c) => c.code));

/** The configuration `scope` asks for; the defaults without a scope or a `check` section. */
export function resolveCheckConfig(scope: ServerScope | undefined, memo: Memo = NO_MEMO): CheckConfig {
  if (scope?.check === undefined) return DEFAULT_CHECK_CONFIG;
  const resolved = memo.table(RESOLVED);
  let config = resolved.get(scope);
  if (config === undefined) {
    const rules = scope.check.rules ?? {};
    config = {
      severity: new Map(Object.entries(scope.check.severity ?? {})),
      rules: {
        requireLinks: rules.requireLinks ?? DEFAULT_LINT_RULES.requireLinks,
        minDescriptionLength: rules.minDescriptionLength ?? DEFAULT_LINT_RULES.minDescriptionLength,
        maxBodyLines: rules.maxBodyLines ?? DEFAULT_LINT_RULES.maxBodyLines,
        maxBodyTokens: rules.maxBodyTokens ?? DEFAULT_LINT_RULES.maxBodyTokens,
        maxReferenceTokens: rules.maxReferenceTokens ?? DEFAULT_LINT_RULES.maxReferenceTokens,
        maxFileBytes: rules.maxFileBytes ?? DEFAULT_LINT_RULES.maxFileBytes,
      },
    };
    resolved.set(scope, config);
  }
  return config;
}

/** Whether `code` is one companion reports. */
export function isKnownCode(code: string): boolean {
  return KNOWN_CODES.has(code);
}

/** CMP690 for every code `check.severity` names that does not exist. */
export function checkConfigCodes(
  scope: ServerScope | undefined,
  file: string,
  positionOf: (path: readonly (string | number)[]) => { line: number; column: number } | undefined,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const code of Object.keys(scope?.check?.severity ?? {})) {
    if (isKnownCode(code)) continue;
    out.push(
      diagnose(codes.configUnknownCode, { code }, { file, ...positionOf(['check', 'severity', code]) }),
    );
  }
  return out;
}
