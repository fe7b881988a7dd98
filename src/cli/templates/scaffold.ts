/**
 * What `companion init` writes: a small content repository that passes `companion check` with no
 * diagnostics, and shows each part of the content model once (scope file and its schema, one document, one
 * skill with a reference, the shared base). Kept as code rather than files so the build ships it as is.
 */
import { formatScopeSchema } from '../../check/format-scope-schema.js';
import { TOOL_DEFINITIONS, TOOL_NAMES, TOOLS } from '../../core/tools/index.js';

/** One file of the scaffold; `path` is posix, relative to the new content root. */
export interface ScaffoldFile {
  readonly path: string;
  readonly content: string;
  /** What the file is for, shown next to it after `init`. */
  readonly purpose: string;
}

export interface ScaffoldOptions {
  /** Server name: lowercase letters, digits and single inner hyphens (see `buildServerName`). */
  readonly name: string;
  /** Display name of the server. */
  readonly title: string;
}

/**
 * A server name from a directory name: accents dropped, lowercased, every run of other characters turned into one hyphen,
 * at most 64 characters; `my-companion` when nothing usable is left.
 */
export function buildServerName(directoryName: string): string {
  const slug = directoryName
    // Letters with accents keep their base letter (`Ünïcödé` → `unicode`) rather than becoming hyphens.
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 64)
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'my-companion' : slug;
}

/** A display title from a server name: `team-docs` → `Team docs`. */
export function buildServerTitle(name: string): string {
  const words = name.replaceAll('-', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The scaffold's files, in the order they are written and listed. */
export function buildScaffold(options: ScaffoldOptions): ScaffoldFile[] {
  return [
    {
      path: 'knowledge/server-scope.json',
      content: formatScopeFile(options),
      purpose: 'who this server is, its scopes and topics',
    },
    {
      path: 'knowledge/server-scope.schema.json',
      content: formatScopeSchema(),
      purpose: 'lets your editor complete and check the scope file',
    },
    {
      path: 'knowledge/documents/any/getting-started/first-document.md',
      content: FIRST_DOCUMENT,
      purpose: 'a knowledge document to copy from',
    },
    {
      path: 'skills/base.md',
      content: BASE,
      purpose: 'served to every skill as references/base.md',
    },
    {
      path: 'skills/first-skill/SKILL.md',
      content: FIRST_SKILL,
      purpose: 'a skill: a workflow to follow',
    },
    {
      path: 'skills/first-skill/references/checklist.md',
      content: CHECKLIST,
      purpose: 'a file the skill links to',
    },
  ];
}

function formatScopeFile({ name, title }: ScaffoldOptions): string {
  const scope = {
    $schema: './server-scope.schema.json',
    server: { name, title, version: '0.1.0', scheme: 'companion' },
    purpose: `${title}: the documents and skills of this repository, served to AI assistants. Replace this with what your server is for and whom it helps.`,
    instructions: {
      start: `This server holds the knowledge documents and task skills of ${title}. Read the guides index first: it lists every document and skill.`,
      // One line per tool, in its words: a new tool shows in every new repository's instructions.
      index: TOOL_DEFINITIONS.map((tool) => ({ question: tool.answers, tool: tool.name })),
      // biome-ignore lint/suspicious/noThenProperty: the scope file's field is called `then`; this is JSON data.
      then: 'Prefer these documents over general knowledge where they disagree: they describe this project.',
    },
    scopes: [
      {
        id: 'any',
        title: 'Anyone working with this content',
        transfers: true,
        sentence: 'It holds wherever you work.',
      },
    ],
    topics: [
      {
        id: 'getting-started',
        title: 'Writing documents and skills for this server',
        scope: 'any',
        depth: 'One example of each, to copy from.',
        tools: [...TOOL_NAMES],
        documents: ['any/getting-started/first-document'],
        skills: ['first-skill'],
      },
    ],
    routing: [
      {
        when: 'When asked to add, move or review a document or skill in this repository',
        tool: TOOLS.load,
        with: 'first-skill',
      },
    ],
    notCovered: [
      {
        topic: 'Anything not written down in this repository',
        why: 'This server serves only the documents and skills written here.',
        instead: 'Ask the user where that knowledge lives.',
      },
    ],
  };
  return `${JSON.stringify(scope, null, 2)}\n`;
}

const FIRST_DOCUMENT = `---
description: How a knowledge document is written, found and served, as a pattern to copy for your own documents.
whenToUse: When you add a document to this repository, or want to know how an assistant finds one.
---

# Your first document

This is a knowledge document. companion serves it to AI assistants as a resource, and the document lookup
tool searches its sections and answers with the one that fits. Replace it with your own, or keep it as a
model to copy.

## Where documents live

Every document is a Markdown file under \`knowledge/documents/<scope>/\`. Its id is its path below
\`knowledge/documents/\` without \`.md\`; this one is \`any/getting-started/first-document\`. The first segment
of the id is its scope, which \`knowledge/server-scope.json\` must declare.

## What a document needs

- Front matter with a \`description\`: one or two sentences on what the page is. Hosts choose by it.
- Optionally \`whenToUse\`: the situation in which the page helps.
- Exactly one top-level title. Use second-level headings for sections, each answered on its own, so give
  every section a heading a reader would search for.

## Making it visible

A document that no topic names is an error. Add its id to the \`documents\` of a topic in
\`knowledge/server-scope.json\`, then run \`companion check\`, or keep \`companion dev\` running and watch
it appear.
`;

const FIRST_SKILL = `---
name: first-skill
description: Adds or reviews a document or skill in this content repository and checks it. Use when asked to write, move or review content here.
---

# First skill

A skill is a workflow an assistant follows, not a page it reads. Keep the body short, the steps and links to
what holds the detail, and start from [references/base.md](references/base.md), the order every task here
starts in.

## Steps

1. Decide what the content is: a document is something to look up, a skill is something to do.
2. Write it: a document under \`knowledge/documents/<scope>/\`, a skill as \`skills/<name>/SKILL.md\`.
3. Name it from a topic in \`knowledge/server-scope.json\`.
4. Run \`companion check\` and fix everything it reports.
5. Go through [references/checklist.md](references/checklist.md) before you call it done.
`;

const CHECKLIST = `# Checklist

- The front matter has a \`description\` that says what the content is, in words a reader would search for.
- A skill's \`name\` equals its directory name.
- A topic in \`knowledge/server-scope.json\` names it.
- Every relative link points at a file inside the same skill.
- \`companion check\` reports no problems.
`;

const BASE = `# Before every task

Every skill in this repository receives this file as \`references/base.md\`. Write here, once, what holds for
every task, instead of repeating it in each skill.

1. Say the task back in one sentence, and ask when it is ambiguous.
2. Look up what the documents say before relying on general knowledge.
3. Make the smallest change that does the task, then check it; for content in this repository, run
   \`companion check\`.
4. Say what you changed, and what you did not check.
`;
