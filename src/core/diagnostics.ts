/**
 * Diagnostics are values: a permanent code, a severity, where, what and why, and what to do.
 *
 * Every renderer (text, JSON and GitHub annotations for `companion check`, the terminal UI, the MCP
 * diagnostics resource) draws the same `Diagnostic`. Codes are permanent: a code is never reused for another
 * meaning, and a retired code stays reserved here.
 *
 * The catalogue owns the words (as Astro's error catalogue does): each code has a title, a `message(args)` and a
 * `hint(args)` with typed arguments, and a call site passes values — a path, a count, which case it found —, never
 * prose. The codes live by range in `codes/`; `codes` below is all of them.
 */
import { coverageCodes } from './codes/coverage.js';
import { documentCodes } from './codes/documents.js';
import { fileCodes } from './codes/files.js';
import { linkCodes } from './codes/links.js';
import { promptCodes } from './codes/prompts.js';
import { qualityCodes } from './codes/quality.js';
import { scopeFileCodes } from './codes/scope-file.js';
import { skillCodes } from './codes/skills.js';

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

/** What a call site hands `diagnose`: the entry's code, severity and words, whatever else it holds. */
export interface DiagnosticWords<A> {
  readonly code: string;
  readonly severity: Severity;
  /** What happened and why, one or two full sentences, from the values the call site found. */
  message(args: A): string;
  /** What to do about it. */
  hint(args: A): string;
}

/**
 * One code of the catalogue. `A` is what its message and hint are written from; `DiagnosticData` alone is any
 * code, whose examples are its own arguments.
 */
export interface DiagnosticData<A = unknown> extends DiagnosticWords<A> {
  /** A short name for the code, used as the heading of its documentation. */
  readonly title: string;
  /**
   * Arguments the code reference renders its example messages from: one per case the message words differently
   * (the first is the usual one).
   */
  readonly examples: readonly [A, ...A[]];
}

/** The catalogue of every code companion reports. Keys are for code; `code` is for people and machines. */
export const codes = {
  ...fileCodes,
  ...scopeFileCodes,
  ...coverageCodes,
  ...documentCodes,
  ...skillCodes,
  ...linkCodes,
  ...qualityCodes,
  ...promptCodes,
};

export type CodeKey = keyof typeof codes;

export interface Location {
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
}

/**
 * No findings: one shared empty list for what keeps a list per file (a memo entry), rather than an array of its
 * own per file (32 bytes each; XL holds 100,000 files' lists).
 */
export const NO_DIAGNOSTICS: readonly Diagnostic[] = Object.freeze([]);

/** A diagnostic of `data`'s code at `location`, its message and hint written by the catalogue from `args`. */
export function diagnose<A>(data: DiagnosticWords<A>, args: NoInfer<A>, location: Location = {}): Diagnostic {
  return {
    code: data.code,
    severity: data.severity,
    ...(location.file === undefined ? {} : { file: location.file }),
    ...(location.line === undefined ? {} : { line: location.line }),
    ...(location.column === undefined ? {} : { column: location.column }),
    message: data.message(args),
    hint: data.hint(args),
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
