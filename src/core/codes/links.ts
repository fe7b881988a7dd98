/**
 * CMP5xx: links and Markdown — relative links and URIs that reach nothing served (CMP501–CMP502), and Markdown
 * that breaks: unclosed fences, fragments, link paths, line endings (CMP503–CMP599).
 */
import type { DiagnosticData } from '../diagnostics.js';
import { BASE_PATH } from '../names.js';
import { COMMAND_NAME } from '../product.js';
import { buildDocumentUri, buildSkillUri } from '../uris.js';

const BACKSLASH_HINT =
  'Write the path with "/": links are URI references, resolved against the file\'s URI by every host, and a backslash is part of a file name there, not a separator.';

export const linkCodes = {
  brokenLink: {
    code: 'CMP501',
    severity: 'error',
    title: 'Relative link resolves to nothing served',
    message: (found) => {
      if (found.kind === 'skill') {
        return `The link "${found.target}" resolves to ${found.resolved === undefined ? 'a path outside the skill' : `"${found.resolved}"`}, which skill "${found.skill}" does not serve.`;
      }
      const { missing } = found;
      return `The link "${found.target}" in base.md (served as ${BASE_PATH}) resolves to nothing in ${found.everywhere ? 'any skill' : `skill${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`}.`;
    },
    hint: () => `Link to a file inside the same skill (${BASE_PATH} is always there), or fix the path.`,
    examples: [
      { kind: 'skill', target: 'references/gone.md', resolved: 'references/gone.md', skill: 'release' },
      { kind: 'skill', target: '../other/SKILL.md', skill: 'release' },
      { kind: 'base', target: 'checklist.md', missing: ['release', 'review'], everywhere: false },
      { kind: 'base', target: '../notes.md', missing: ['release'], everywhere: true },
    ],
  } satisfies DiagnosticData<
    | {
        /** A link in a skill's own files. */
        readonly kind: 'skill';
        readonly target: string;
        /** The path inside the skill it resolves to; absent when it leaves the skill. */
        readonly resolved?: string;
        readonly skill: string;
      }
    | {
        /** A link in skills/base.md, which every skill serves as references/base.md. */
        readonly kind: 'base';
        readonly target: string;
        /** The skills it resolves to nothing in. */
        readonly missing: readonly string[];
        /** It resolves in no skill at all. */
        readonly everywhere: boolean;
      }
  >,
  unknownUri: {
    code: 'CMP502',
    severity: 'error',
    title: 'URI names no served resource',
    message: ({ uri }) => `${uri} names no resource this server serves.`,
    hint: () =>
      `Correct the URI: every document is at ${buildDocumentUri('<scheme>', '<id>')}, every skill at ${buildSkillUri('<scheme>', '<id>')}.`,
    examples: [{ uri: '<scheme>://guides/any/none/such' }],
  } satisfies DiagnosticData<{ readonly uri: string }>,
  unclosedFence: {
    code: 'CMP503',
    severity: 'error',
    title: 'Code fence never closed',
    message: ({ line }) =>
      `The code fence opened on line ${line} is never closed; everything after it is code.`,
    hint: () =>
      'Close the block with a line of the same fence (at least as many backticks or tildes) after its last line: everything below an unclosed fence renders, and reaches the model, as code — headings, links and instructions included.',
    examples: [{ line: 12 }],
  } satisfies DiagnosticData<{ readonly line: number }>,
  brokenFragment: {
    code: 'CMP504',
    severity: 'warning',
    title: 'Link fragment names no heading',
    message: ({ target, fragment, file }) =>
      `The link "${target}" names "#${fragment}", which no heading of ${file === '' ? 'this file' : `"${file}"`} has.`,
    hint: () =>
      'Point the "#fragment" at a heading of the target as GitHub spells its anchor (lowercase, spaces as "-", punctuation dropped: "## Set up a host" is #set-up-a-host), or rename the heading.',
    examples: [
      { target: 'references/setup.md#install', fragment: 'install', file: 'references/setup.md' },
      { target: '#usage', fragment: 'usage', file: '' },
    ],
  } satisfies DiagnosticData<{
    readonly target: string;
    /** The fragment, decoded. */
    readonly fragment: string;
    /** The target's path part as written; `''` for a fragment into the file itself. */
    readonly file: string;
  }>,
  backslashLink: {
    code: 'CMP505',
    severity: 'error',
    title: 'Link path with backslashes',
    message: ({ target }) =>
      `The link "${target}" separates its path with backslashes; hosts read them as part of a name.`,
    hint: ({ target }) => `Write it as "${target.replaceAll('\\', '/')}". ${BACKSLASH_HINT}`,
    examples: [{ target: 'references\\setup.md' }],
  } satisfies DiagnosticData<{ readonly target: string }>,
  absoluteLink: {
    code: 'CMP506',
    severity: 'error',
    title: 'Link to an absolute local path',
    message: ({ target }) => `The link "${target}" is an absolute local path; no host can follow it.`,
    hint: () =>
      'Link relative to the file (references/guide.md), or to a served URI: a path on your machine (/home/…, C:\\…, file://, ~/…) resolves to nothing for a host, and shows how your disk is laid out.',
    examples: [{ target: '/home/me/notes/setup.md' }],
  } satisfies DiagnosticData<{ readonly target: string }>,
  crlf: {
    code: 'CMP507',
    severity: 'warning',
    title: 'CRLF line endings',
    message: ({ line }) => `The file ends its lines with CRLF (the first on line ${line}).`,
    hint: () =>
      `Save the file with LF line endings (\`${COMMAND_NAME} check --fix\` converts it): validators that match front matter as "---\\n" (Anthropic's quick_validate.py among them) do not find it in a CRLF file.`,
    examples: [{ line: 1 }],
  } satisfies DiagnosticData<{ readonly line: number }>,
  frontMatterWhitespace: {
    code: 'CMP508',
    severity: 'warning',
    title: 'Trailing whitespace in front matter',
    message: ({ line }) => `Front matter line ${line} ends in whitespace.`,
    hint: () =>
      `Remove the spaces or tabs at the end of the line (\`${COMMAND_NAME} check --fix\` does): after a "---" line strict readers do not see the front matter at all, and after a value they are a change no one sees in review.`,
    examples: [{ line: 3 }],
  } satisfies DiagnosticData<{ readonly line: number }>,
};
