/**
 * Relative links inside a skill, resolved the way a URI reference resolves against the URI of the file that
 * holds it. Shared by the link check (CMP501) and the Markdown rules (fragments, orphans, nesting).
 */

/**
 * Resolves a relative link written in `fromPath` (a path inside a skill) the way a URI resolves against the
 * file's URI. `null` for links this check does not judge (absolute URIs, fragments); `undefined` when the link
 * climbs out of the skill.
 */
export function resolveLink(fromPath: string, target: string): string | null | undefined {
  if (
    target === '' ||
    target.startsWith('#') ||
    /^[A-Za-z][A-Za-z0-9+.-]*:/.test(target) ||
    target.startsWith('//')
  ) {
    return null;
  }
  const clean = target.replace(/[?#].*$/, '');
  if (clean === '') return null;
  if (clean.startsWith('/')) return undefined;
  const segments = fromPath.split('/').slice(0, -1);
  for (const part of clean.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else segments.push(part);
  }
  return segments.join('/');
}
