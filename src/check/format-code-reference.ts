/**
 * Renders the diagnostic-code catalogue as a knowledge document, so the reference a host serves and the codes
 * `companion check` reports can never drift apart. `scripts/generate.mjs` writes the result to
 * `knowledge/documents/any/reference/diagnostic-codes.md`; a test keeps the committed file equal to it.
 */
import { compare, type DiagnosticData } from '../core/diagnostics.js';
import { CODE_REFERENCE_PATH } from '../core/names.js';

/** Where the generated document lives, relative to the content root. */
export { CODE_REFERENCE_PATH };

const FRONT_MATTER = [
  '---',
  'description: Every diagnostic code companion check reports, with its severity, what it means and how to fix it.',
  'whenToUse: When companion check, the dev daemon or a CI annotation reports a CMP code and you want to know what it means and what to do about it.',
  '---',
];

const INTRO = [
  '# Diagnostic codes',
  '',
  '`companion check`, and the dev daemon on every save, report each problem they find as a diagnostic: a permanent code, a severity, the file, line and column where they exist, a message that says what is wrong and why, and a hint that says what to do. A code never changes its meaning and is never reused, so you can search for it; this page lists every one, generated from the catalogue the checks themselves use.',
  '',
  'Severities decide the exit code of `companion check`:',
  '',
  '- **error**: hosts would be served something broken, incomplete or misleading. The check fails.',
  '- **warning**: it works, but some hosts read it differently or it is most likely a mistake. The check passes, unless you run it with `--strict`, which fails on warnings as it does on errors. Run `companion check --strict` in CI to keep your content free of warnings too.',
  '- **info**: worth knowing. Never fails the check.',
  '',
  'These are the defaults. The `check` section of `knowledge/server-scope.json` can give any code another severity or turn it off, and a comment in a file (`<!-- companion-disable-next-line CMP600 -->`) suppresses one finding; the document on checking content in CI shows both. A severity never changes what is served: only findings that make an item impossible to serve withhold it.',
  '',
  '`companion check` exits 0 when the check passes, 1 when it finds errors (or warnings under `--strict`), and 2 for a usage error or a content root it cannot read. `--format json` prints the same diagnostics for tools, and `--format github` as annotations on the pull request.',
];

/**
 * The knowledge document for `codes` (any record of `DiagnosticData`, normally the `codes` catalogue): front
 * matter, `# Diagnostic codes`, an intro on severities, `--strict` and exit codes, then one
 * `## CMPxxx — title` section per code in code order, with its severity, the message it reports (one example
 * per case it words differently, written by the catalogue from its example arguments) and its hint, for the
 * first example, as "How to fix". Newline-terminated.
 */
export function formatCodeReference(codes: Readonly<Record<string, DiagnosticData>>): string {
  const entries = Object.values(codes).sort((a, b) => compare(a.code, b.code));
  const sections = entries.flatMap((entry) => {
    const messages = entry.examples.map((args) => entry.message(args));
    return [
      '',
      `## ${entry.code} — ${escapeMarkdown(entry.title)}`,
      '',
      `**Severity:** ${entry.severity}`,
      '',
      ...(messages.length === 1
        ? [`**Example:** ${escapeMarkdown(messages[0]!)}`]
        : ['**Examples:**', '', ...messages.map((message) => `- ${escapeMarkdown(message)}`)]),
      '',
      `**How to fix:** ${escapeMarkdown(entry.hint(entry.examples[0]))}`,
    ];
  });
  return `${[...FRONT_MATTER, '', ...INTRO, ...sections].join('\n')}\n`;
}

/**
 * Catalogue text is plain prose that may use backticks for code. Outside code spans, `<` would open an HTML
 * tag (`<scheme>://…` would vanish from a rendered page), so it is escaped; everything else reads as written.
 */
function escapeMarkdown(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, index) => (index % 2 === 1 ? part : part.replaceAll('<', '\\<')))
    .join('');
}
