/**
 * CMP2xx: coverage, in both directions — every document, skill and prompt is named by a topic, every name a
 * topic gives exists, and each is named from topics of one scope.
 */
import type { DiagnosticData } from '../diagnostics.js';
import { DOCUMENTS_DIR, SCOPE_FILE, SKILLS_DIR } from '../names.js';

export const coverageCodes = {
  documentNotCovered: {
    code: 'CMP201',
    severity: 'error',
    title: 'Document named by no topic',
    message: ({ id }) => `No topic names document "${id}".`,
    hint: () =>
      `Add the document id to the "documents" of a topic in ${SCOPE_FILE}; its description and priority derive from that topic.`,
    examples: [{ id: 'any/guides/first' }],
  } satisfies DiagnosticData<{ readonly id: string }>,
  skillNotCovered: {
    code: 'CMP202',
    severity: 'error',
    title: 'Skill named by no topic',
    message: ({ id }) => `No topic names skill "${id}".`,
    hint: () =>
      `Add the skill id to the "skills" of a topic in ${SCOPE_FILE}; its description and priority derive from that topic.`,
    examples: [{ id: 'release' }],
  } satisfies DiagnosticData<{ readonly id: string }>,
  unknownDocument: {
    code: 'CMP203',
    severity: 'error',
    title: 'Topic names a document that does not exist',
    message: ({ topic, id }) =>
      `Topic "${topic}" names document "${id}", but ${DOCUMENTS_DIR}${id}.md does not exist.`,
    hint: () => `Correct the id (the path below ${DOCUMENTS_DIR} without .md), or write the document.`,
    examples: [{ topic: 'releases', id: 'any/guides/release' }],
  } satisfies DiagnosticData<{ readonly topic: string; readonly id: string }>,
  unknownSkill: {
    code: 'CMP204',
    severity: 'error',
    title: 'Topic names a skill that is not published',
    message: ({ topic, id, draft }) =>
      draft
        ? `Topic "${topic}" names skill "${id}", which is a draft and so not published.`
        : `Topic "${topic}" names skill "${id}", but ${SKILLS_DIR}${id}/ does not exist.`,
    hint: () =>
      `Correct the id (the directory name under ${SKILLS_DIR}), write the skill, or remove the draft flag from its metadata.`,
    examples: [
      { topic: 'releases', id: 'release', draft: false },
      { topic: 'releases', id: 'release', draft: true },
    ],
  } satisfies DiagnosticData<{
    readonly topic: string;
    readonly id: string;
    /** The skill exists, as a draft. */
    readonly draft: boolean;
  }>,
  scopeMismatch: {
    code: 'CMP205',
    severity: 'error',
    title: "Document's directory disagrees with its topic's scope",
    message: ({ topic, topicScope, id, documentScope }) =>
      `Topic "${topic}" (scope "${topicScope}") names document "${id}", which is filed under scope "${documentScope}".`,
    hint: () =>
      "Move the document under the directory of its topic's scope, or name it from a topic of the scope it is filed under.",
    examples: [{ topic: 'releases', topicScope: 'local', id: 'any/guides/release', documentScope: 'any' }],
  } satisfies DiagnosticData<{
    readonly topic: string;
    readonly topicScope: string;
    readonly id: string;
    readonly documentScope: string;
  }>,
  documentScopeUnknown: {
    code: 'CMP206',
    severity: 'error',
    title: 'Document filed under an unknown scope',
    message: (found) =>
      found.kind === 'unfiled'
        ? `The document sits directly in ${DOCUMENTS_DIR}, so it is filed under no scope.`
        : `The document is filed under "${found.scope}/", which is not a scope the scope file declares (${found.declared.join(', ')}).`,
    hint: (found) =>
      found.kind === 'unfiled'
        ? `Move it into ${DOCUMENTS_DIR}<scope>/, where <scope> is a scope id declared in the scope file.`
        : `The first directory below ${DOCUMENTS_DIR} is the scope: use a declared scope id or declare this one.`,
    examples: [{ kind: 'unknown', scope: 'ops', declared: ['any', 'local'] }, { kind: 'unfiled' }],
  } satisfies DiagnosticData<
    | { readonly kind: 'unknown'; readonly scope: string; readonly declared: readonly string[] }
    /** Directly in knowledge/documents/, with no scope directory. */
    | { readonly kind: 'unfiled' }
  >,
  conflictingScopes: {
    code: 'CMP207',
    severity: 'error',
    title: 'Covered by topics of different scopes',
    message: ({ kind, id, first, second }) =>
      `${kind === 'skill' ? 'Skill' : 'Prompt'} "${id}" is named by topics of scope "${first}" and of scope "${second}".`,
    hint: () => 'A document or skill holds for one audience: name it only from topics of one scope.',
    examples: [
      { kind: 'skill', id: 'release', first: 'any', second: 'local' },
      { kind: 'prompt', id: 'review', first: 'any', second: 'local' },
    ],
  } satisfies DiagnosticData<{
    readonly kind: 'skill' | 'prompt';
    readonly id: string;
    /** The scope of the first topic that names it. */
    readonly first: string;
    readonly second: string;
  }>,
};
