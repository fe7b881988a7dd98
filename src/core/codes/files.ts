/**
 * CMP0xx: files, as the loader found them (CMP001–CMP049), and the live loop (CMP050–CMP099). A file problem's
 * message names the path and, where the loader knew it, a detail: an errno code, a size, a link's target.
 */
import type { DiagnosticData } from '../diagnostics.js';
import { BASE_FILE, DOCUMENTS_DIR, PROMPTS_DIR, SCOPE_FILE, SKILLS_DIR } from '../names.js';

/** A file the loader could not hand over: its path, and what the loader knew about why. */
export interface Problem {
  readonly path: string;
  readonly detail?: string;
}

/** ` (EACCES)`: the detail in parentheses, or nothing. */
const inParentheses = (detail: string | undefined): string => (detail ? ` (${detail})` : '');

/** The content area a path is served from, as a message names it (the loader's areas). */
function describeArea(path: string): string {
  if (path.startsWith(DOCUMENTS_DIR)) return DOCUMENTS_DIR;
  const skill = /^skills\/([^/]+)\//.exec(path);
  if (skill !== null) return `its skill's directory ${SKILLS_DIR}${skill[1]}/`;
  return 'its own path (it must be the file or directory itself, not a link to another)';
}

export const fileCodes = {
  symlinkEscape: {
    code: 'CMP001',
    severity: 'error',
    title: 'Symlink leaves the content root',
    message: ({ path, detail }) =>
      `${path} is a symlink${detail ? ` to ${detail}` : ''} that resolves outside the content root; it is not served.`,
    hint: () =>
      'Replace the link with the file itself, or point it at a file inside the repository. companion never serves bytes from outside the root.',
    examples: [{ path: 'skills/alpha/references/notes.md', detail: '../../../../etc/hosts' }],
  } satisfies DiagnosticData<Problem>,
  symlinkBroken: {
    code: 'CMP002',
    severity: 'error',
    title: 'Symlink does not resolve',
    message: ({ path, detail }) =>
      `${path} is a symlink that does not resolve${inParentheses(detail)}; it is not served.`,
    hint: () =>
      'The link is dangling or part of a loop. Remove it, or point it at an existing file inside the repository.',
    examples: [{ path: 'skills/alpha/references/gone.md', detail: 'ENOENT' }],
  } satisfies DiagnosticData<Problem>,
  unreadable: {
    code: 'CMP003',
    severity: 'error',
    title: 'File cannot be read',
    message: ({ path, detail }) => `${path} cannot be read${inParentheses(detail)}; it is not served.`,
    hint: () => 'Give the user running companion read permission on the file (chmod a+r), or remove it.',
    examples: [{ path: 'knowledge/documents/any/private.md', detail: 'EACCES' }],
  } satisfies DiagnosticData<Problem>,
  tooLarge: {
    code: 'CMP004',
    severity: 'error',
    title: 'File over the size cap',
    message: ({ path, detail }) => `${path} is over the size cap${inParentheses(detail)}; it is not served.`,
    hint: () =>
      'Split the file, or move large assets out of the served tree. Hosts read every served file whole.',
    examples: [{ path: 'skills/alpha/assets/video.mp4', detail: '104857600 bytes' }],
  } satisfies DiagnosticData<Problem>,
  invalidUtf8: {
    code: 'CMP005',
    severity: 'error',
    title: 'Invalid UTF-8',
    message: ({ file }) => {
      switch (file) {
        case 'scope':
          return 'The scope file is not valid UTF-8.';
        case 'base':
          return `${BASE_FILE} is not valid UTF-8; it is not served.`;
        case 'skill':
          return 'SKILL.md is not valid UTF-8.';
        case 'skill-file':
          return 'The Markdown file is not valid UTF-8; it is not served.';
        case 'document':
          return 'The document is not valid UTF-8.';
        case 'prompt':
          return 'The prompt is not valid UTF-8.';
      }
    },
    hint: () => 'Re-save the file as UTF-8. Markdown must be valid UTF-8 to be parsed and served as text.',
    examples: [
      { file: 'document' },
      { file: 'skill' },
      { file: 'skill-file' },
      { file: 'base' },
      { file: 'prompt' },
      { file: 'scope' },
    ],
  } satisfies DiagnosticData<{
    /** Which file it is: the scope file, base.md, a SKILL.md, another Markdown file of a skill, … */
    readonly file: 'scope' | 'base' | 'skill' | 'skill-file' | 'document' | 'prompt';
  }>,
  notRegular: {
    code: 'CMP006',
    severity: 'error',
    title: 'Not a regular file',
    message: ({ path, detail }) => `${path} is not a regular file${inParentheses(detail)}; it is not served.`,
    hint: () => 'Remove the FIFO, socket or device from the content tree.',
    examples: [{ path: 'skills/alpha/pipe', detail: 'a FIFO' }],
  } satisfies DiagnosticData<Problem>,
  unsafePath: {
    code: 'CMP007',
    severity: 'error',
    title: 'Path cannot be a URI',
    message: (found) => {
      switch (found.kind) {
        case 'skill':
          return `The skill directory "${found.id}" cannot go into a URI verbatim.`;
        case 'skill-file':
          return `"${found.path}" has a segment that cannot go into a URI verbatim; it is not served.`;
        case 'document':
          return `The document path "${found.id}" has a segment that cannot go into a URI verbatim.`;
      }
    },
    hint: () =>
      'Rename the file or directory using only letters, digits, ".", "_" and "-" in each segment, not starting with "." — the path becomes part of a URI verbatim.',
    examples: [
      { kind: 'document', id: 'any/my notes' },
      { kind: 'skill', id: 'My Skill' },
      { kind: 'skill-file', path: 'references/a b.md' },
    ],
  } satisfies DiagnosticData<
    | { readonly kind: 'skill' | 'document'; readonly id: string }
    | { readonly kind: 'skill-file'; readonly path: string }
  >,
  strayFile: {
    code: 'CMP008',
    severity: 'warning',
    title: 'File companion does not serve',
    message: ({ path, area }) => {
      switch (area) {
        case 'knowledge':
          return `${path} is neither a document nor the scope file.`;
        case 'prompts':
          return `${path} is not a prompt: prompts are ${PROMPTS_DIR}<name>.md.`;
        case 'skills':
          return `${path} sits directly in ${SKILLS_DIR}, outside any skill directory.`;
      }
    },
    hint: () =>
      `Only Markdown documents under ${DOCUMENTS_DIR}, skill directories, ${BASE_FILE} and ${PROMPTS_DIR}<name>.md are served. Move the file or delete it.`,
    examples: [
      { path: 'knowledge/notes.txt', area: 'knowledge' },
      { path: 'skills/notes.md', area: 'skills' },
      { path: 'prompts/notes.txt', area: 'prompts' },
    ],
  } satisfies DiagnosticData<{
    readonly path: string;
    /** The folder it sits in: knowledge/, prompts/, or directly in skills/. */
    readonly area: 'knowledge' | 'prompts' | 'skills';
  }>,
  linkOutsideArea: {
    code: 'CMP009',
    severity: 'error',
    title: 'Symlink leaves its content area',
    message: ({ path, detail }) =>
      `${path} is a symlink to ${detail ?? 'another place'}, outside ${describeArea(path)}; it is not served.`,
    hint: () =>
      `A skill serves only files inside its own directory, a document only files under ${DOCUMENTS_DIR}, and ${BASE_FILE} and ${SCOPE_FILE} only themselves. Copy the file into the area, or remove the link.`,
    examples: [
      { path: 'skills/alpha/references/shared.md', detail: 'skills/beta/references/shared.md' },
      { path: 'knowledge/documents/any/readme.md', detail: 'README.md' },
      { path: 'skills/base.md', detail: 'docs/base.md' },
    ],
  } satisfies DiagnosticData<Problem>,
  linkToHidden: {
    code: 'CMP010',
    severity: 'error',
    title: 'Symlink to a hidden or ignored file',
    message: ({ path, detail }) =>
      `${path} is a symlink to ${detail ?? 'a hidden file'}, a name companion never serves (hidden, backup and temporary files are not content); it is not served.`,
    hint: () =>
      'Dotfiles, dot-directories (.git, .env), backups (~) and temporary files are never served, not even through a link. Remove the link; if the target is content, give it a name without the leading dot.',
    examples: [{ path: 'skills/alpha/references/env.md', detail: '.env' }],
  } satisfies DiagnosticData<Problem>,
  hardlinked: {
    code: 'CMP011',
    severity: 'error',
    title: 'File has more than one hard link',
    message: ({ path, detail }) =>
      `${path} has ${detail ?? 'more than one'} hard links: the same bytes live under another name, which may not be content; it is not served.`,
    hint: () =>
      'Give the file bytes of its own: copy it and move the copy over it (cp file file.copy && mv file.copy file). companion serves a file only when its one name lies in the content.',
    examples: [{ path: 'knowledge/documents/any/guide.md', detail: '2' }],
  } satisfies DiagnosticData<Problem>,
  fileUnavailable: {
    code: 'CMP050',
    severity: 'error',
    title: 'File could not be read just now',
    message: ({ path, detail }) =>
      `${path} could not be read just now${inParentheses(detail)}; until it can, it is served as it last was, if it was.`,
    hint: () =>
      'The machine ran out of file descriptors or the disk was busy (EMFILE, ENFILE, EAGAIN, EIO, EBUSY). companion dev retries by itself and serves the last good version meanwhile; for check, close what holds the descriptors (or raise `ulimit -n`) and run it again.',
    examples: [{ path: 'knowledge/documents/any/guide.md', detail: 'EMFILE' }],
  } satisfies DiagnosticData<Problem>,
};
