/**
 * `companion check --fix --dry-run`: the fix plan as a unified diff (git's flavour, so `git apply` takes it),
 * with rename headers for the skill directories it would rename. Pure.
 */
import { decodeUtf8 } from '../core/content.js';
import type { FixPlan } from '../core/lint/fixes.js';

const CONTEXT = 3;

/** The whole plan as one diff; empty when the plan changes nothing. */
export function formatFixDiff(plan: FixPlan): string {
  const renamed = (path: string) => {
    for (const r of plan.renames)
      if (path === r.from || path.startsWith(`${r.from}/`)) return r.to + path.slice(r.from.length);
    return path;
  };
  let out = '';
  const fixed = new Set(plan.files.map((f) => f.path));
  for (const fix of plan.files) {
    const to = renamed(fix.path);
    out += formatFileDiff(fix.path, to, decodeUtf8(fix.before) ?? '', decodeUtf8(fix.after) ?? '');
  }
  for (const r of plan.renames) {
    if ([...fixed].some((p) => p.startsWith(`${r.from}/`))) continue; // already shown with its content change
    out += `diff --git a/${r.from} b/${r.to}\nrename from ${r.from}\nrename to ${r.to}\n`;
  }
  return out;
}

/** One file's diff; lines keep their endings, so a CRLF → LF change shows on every line, as it is. */
export function formatFileDiff(from: string, to: string, before: string, after: string): string {
  const a = splitKeepingEnds(before);
  const b = splitKeepingEnds(after);
  let out = `diff --git a/${from} b/${to}\n`;
  if (from !== to) out += `rename from ${from}\nrename to ${to}\n`;
  // The fixes change lines in place and never add or remove one, so lines pair up by index.
  const changed: number[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) changed.push(i);
  if (changed.length === 0) return from === to ? '' : out;
  out += `--- a/${from}\n+++ b/${to}\n`;
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k]! - CONTEXT);
    let end = changed[k]! + CONTEXT + 1;
    while (k + 1 < changed.length && changed[k + 1]! - CONTEXT <= end) end = changed[++k]! + CONTEXT + 1;
    k++;
    end = Math.min(end, Math.max(a.length, b.length));
    const removed: string[] = [];
    const added: string[] = [];
    let hunk = '';
    const flush = () => {
      for (const l of removed) hunk += formatLine('-', l);
      for (const l of added) hunk += formatLine('+', l);
      removed.length = 0;
      added.length = 0;
    };
    for (let i = start; i < end; i++) {
      if (a[i] === b[i]) {
        flush();
        hunk += formatLine(' ', a[i]!);
      } else {
        if (a[i] !== undefined) removed.push(a[i]!);
        if (b[i] !== undefined) added.push(b[i]!);
      }
    }
    flush();
    const count = (lines: string[]) => Math.max(0, Math.min(end, lines.length) - start);
    out += `@@ -${range(start, count(a))} +${range(start, count(b))} @@\n${hunk}`;
  }
  return out;
}

function range(start: number, count: number): string {
  return count === 1 ? `${start + 1}` : `${count === 0 ? start : start + 1},${count}`;
}

function formatLine(mark: string, line: string): string {
  return line.endsWith('\n') ? `${mark}${line}` : `${mark}${line}\n\\ No newline at end of file\n`;
}

function splitKeepingEnds(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/(?<=\n)/);
  return lines;
}
