/**
 * The task guide: given what a caller is about to do, name the skills and documents that own it, the routing
 * lines that apply, and the tool calls to make next — from the scope file's routing and topics, never from a
 * guess about the caller's checkout.
 *
 * A task's words are matched against every candidate (routing `when` lines, topics, skills, documents); a word
 * counts by how rare it is among the candidates (IDF), and a candidate must carry a third of the task's weight
 * (what its id and title carry counts half again). A word no candidate carries counts for nothing: it is what the
 * task is about ("write a skill that reviews pull requests"), not which workflow owns it, so it cannot lower every
 * candidate alike. But a common word alone is not ownership: what a candidate shares with the task must weigh at
 * least half as much as a word only one candidate carries ("write a kubernetes operator" is no skill-writing task;
 * "fix CMP403" is a check-failure task). A topic that matches brings in the documents and skills it
 * covers; a routing line that matches (half the weight) puts the skill or document it names first. A miss is an answer too: it says nothing
 * matched and lists the topics, so the caller can rephrase.
 */
import { routingCalls } from './coverage.js';
import { TOOLS } from './names.js';
import { extractTerms, splitWords, termMatchesWord, weighTerms } from './search/terms.js';
import type { Catalog, RoutingEntry } from './types.js';

/** The parts of a catalog the guide reads. */
export type TaskGuideInput = Pick<Catalog, 'coverage' | 'documents' | 'skills' | 'tools'>;

export interface GuideCall {
  readonly tool: string;
  readonly arguments: Readonly<Record<string, string>>;
  /** Why to make this call, one sentence. */
  readonly why: string;
}

export interface GuideSkill {
  readonly id: string;
  readonly uri: string;
  readonly description: string;
  /** `skill_load` with this skill's name, when that tool is offered. */
  readonly load?: GuideCall;
}

export interface GuideDocument {
  readonly id: string;
  readonly title: string;
  readonly uri: string;
  readonly description: string;
  /** `document_lookup` with this document's id, when that tool is offered. */
  readonly lookup?: GuideCall;
}

export interface GuideTopic {
  readonly id: string;
  readonly title: string;
  readonly scope: string;
  readonly depth?: string;
}

export interface TaskGuide {
  readonly task: string;
  /** False when nothing matched: `topics` then lists every topic so the caller can rephrase. */
  readonly matched: boolean;
  readonly topics: readonly GuideTopic[];
  readonly skills: readonly GuideSkill[];
  readonly documents: readonly GuideDocument[];
  /** The routing lines that apply, best first, as the scope file writes them (`then`: the calls after the first). */
  readonly routing: readonly RoutingEntry[];
  readonly nextTools: readonly GuideCall[];
}

export interface TaskGuideOptions {
  /** Most skills named. @default 3 */
  readonly maxSkills?: number;
  /** Most documents named. @default 5 */
  readonly maxDocuments?: number;
  /** Share of the task's weight a candidate must carry. @default 0.34 */
  readonly minCoverage?: number;
}

interface Scored<T> {
  readonly item: T;
  readonly score: number;
}

/** Builds the guide for `task`. Pure and deterministic; an empty or stopword-only task is a miss. */
export function buildTaskGuide(
  input: TaskGuideInput,
  task: string,
  options: TaskGuideOptions = {},
): TaskGuide {
  return guide(input, task, options, splitEntries);
}

/** `buildTaskGuide`, answered by one that keeps each entry list's words (see `createTaskGuide`). */
export type TaskGuideBuilder = (input: TaskGuideInput, task: string, options?: TaskGuideOptions) => TaskGuide;

/**
 * A task guide that splits the words of each skill and document list once, not once per task: a catalog's lists
 * are immutable for one generation, so they key what it keeps, and it forgets a list with the list. What it
 * answers is `buildTaskGuide`'s. Owned by whoever answers `task_guide` (the MCP door).
 */
export function createTaskGuide(): TaskGuideBuilder {
  const kept = new WeakMap<readonly object[], EntryWords>();
  const wordsOf: WordsOf = (items, texts) => {
    let words = kept.get(items);
    if (!words) {
      words = splitEntries(items, texts);
      kept.set(items, words);
    }
    return words;
  };
  return (input, task, options = {}) => guide(input, task, options, wordsOf);
}

function guide(input: TaskGuideInput, task: string, options: TaskGuideOptions, wordsOf: WordsOf): TaskGuide {
  const maxSkills = options.maxSkills ?? 3;
  const maxDocuments = options.maxDocuments ?? 5;
  const minCoverage = options.minCoverage ?? 0.34;
  const terms = extractTerms(task);
  const { coverage } = input;
  const offers = (tool: string): boolean => input.tools.includes(tool);

  const routingWords = coverage.routing.map((line) => splitWords(line.when));
  const topicWords = coverage.topics.map((topic) => splitWords(`${topic.title} ${topic.depth ?? ''}`));
  const { names: skillNames, words: skillWords } = wordsOf(input.skills, (skill) => [
    `${skill.id} ${skill.title}`,
    skill.description,
  ]);
  const { names: documentNames, words: documentWords } = wordsOf(input.documents, (document) => [
    `${document.id} ${document.title}`,
    `${document.description} ${document.whenToUse ?? ''}`,
  ]);
  const candidates = [...routingWords, ...topicWords, ...skillWords, ...documentWords];
  // Every term's weight; one that no candidate carries weighs half a unique word's (see weighTerms).
  const weights = weighTerms(terms, candidates);
  const known = terms.filter((term) =>
    candidates.some((words) => words.some((word) => termMatchesWord(term, word))),
  );
  const sum = (list: readonly string[]): number =>
    list.reduce((total, term) => total + weights.get(term)!, 0);
  const knownTotal = sum(known);
  const wholeTotal = sum(terms);
  // The weight of a word exactly one candidate carries is log(1 + n); evidence must reach half of it.
  const minEvidence = Math.log(1 + Math.max(candidates.length, 1)) / 2;
  /**
   * The share of the task's weight `words` carry. Over the known terms for a candidate to own the task; over all
   * of them (`whole`) for a routing line, the author's own rule, which must fit the task as it is written.
   */
  const coverageOf = (words: readonly string[], whole = false): number => {
    const matched = weightIn(words);
    return matched >= minEvidence ? matched / (whole ? wholeTotal : knownTotal) : 0;
  };
  /** The weight of the task's known terms that `words` carry. */
  const weightIn = (words: readonly string[]): number => {
    let matched = 0;
    for (const term of known)
      if (words.some((word) => termMatchesWord(term, word))) matched += weights.get(term)!;
    return matched;
  };
  const rank = <T>(
    items: readonly T[],
    words: readonly (readonly string[])[],
    min: number,
    whole = false,
  ): Scored<T>[] =>
    items
      .map((item, index) => ({ item, score: coverageOf(words[index]!, whole) }))
      .filter((scored) => scored.score >= min);
  /** Coverage over all its words, plus half again for the share its id and title alone carry. */
  const rankEntries = <T extends { id: string }>(
    items: readonly T[],
    words: readonly (readonly string[])[],
    names: readonly (readonly string[])[],
  ): Map<string, number> => {
    const scores = new Map<string, number>();
    items.forEach((item, index) => {
      const score = coverageOf(words[index]!);
      if (score >= minCoverage) scores.set(item.id, score + (0.5 * weightIn(names[index]!)) / knownTotal);
    });
    return scores;
  };

  const topics = rank(coverage.topics, topicWords, minCoverage);
  // A routing line is the author's own "when X, call Y": it must match well, and then it outranks any guess.
  const routing = rank(coverage.routing, routingWords, Math.max(minCoverage, 0.5), true);
  const skillScores = rankEntries(input.skills, skillWords, skillNames);
  const documentScores = rankEntries(input.documents, documentWords, documentNames);
  const raise = (scores: Map<string, number>, id: string, score: number): void => {
    scores.set(id, Math.max(scores.get(id) ?? 0, score));
  };
  // A matching topic vouches for what it covers, a little below a direct match.
  for (const { item: topic, score } of topics) {
    for (const id of topic.skills) raise(skillScores, id, score * 0.9);
    for (const id of topic.documents) raise(documentScores, id, score * 0.9);
  }
  for (const { item: line, score } of routing) {
    for (const call of routingCalls(line)) {
      const target = call.with ?? '';
      if (call.tool === TOOLS.load) {
        for (const skill of input.skills)
          if (mentions(target, skill.id)) raise(skillScores, skill.id, 2 + score);
      } else if (call.tool === TOOLS.lookup) {
        for (const document of input.documents) {
          if (mentions(target, document.id)) raise(documentScores, document.id, 2 + score);
        }
      }
    }
  }

  const byScore = <T extends { id: string }>(items: readonly T[], scores: Map<string, number>): T[] =>
    items
      .filter((item) => scores.has(item.id))
      .sort((a, b) => scores.get(b.id)! - scores.get(a.id)! || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  const skills: GuideSkill[] = byScore(input.skills, skillScores)
    .slice(0, maxSkills)
    .map((skill) => {
      const base = { id: skill.id, uri: skill.uri, description: skill.description };
      return offers(TOOLS.load)
        ? {
            ...base,
            load: {
              tool: TOOLS.load,
              arguments: { name: skill.id },
              why: `Load the ${skill.id} workflow and follow it.`,
            },
          }
        : base;
    });
  const documents: GuideDocument[] = byScore(input.documents, documentScores)
    .slice(0, maxDocuments)
    .map((document) => {
      const base = {
        id: document.id,
        title: document.title,
        uri: document.uri,
        description: document.description,
      };
      return offers(TOOLS.lookup)
        ? {
            ...base,
            lookup: {
              tool: TOOLS.lookup,
              arguments: { documentId: document.id },
              why: `Read "${document.title}" whole.`,
            },
          }
        : base;
    });

  const matchedTopics = topics
    .sort((a, b) => b.score - a.score)
    .map(({ item }) => toGuideTopic(item))
    .slice(0, 5);
  const matched = skills.length > 0 || documents.length > 0 || routing.length > 0 || matchedTopics.length > 0;

  const nextTools: GuideCall[] = [];
  if (skills[0]?.load) nextTools.push(skills[0].load);
  if (documents[0]?.lookup) nextTools.push(documents[0].lookup);
  if (offers(TOOLS.lookup) && terms.length > 0 && nextTools.length < 2) {
    nextTools.push({
      tool: TOOLS.lookup,
      arguments: { query: task },
      why: matched
        ? 'Search the documents for the sections that answer the task.'
        : 'Search the documents directly; the task named no topic this server covers.',
    });
  }

  return {
    task,
    matched,
    topics: matched ? matchedTopics : coverage.topics.map(toGuideTopic),
    skills,
    documents,
    routing: routing.sort((a, b) => b.score - a.score).map(({ item }) => formatRoutingLine(item)),
    nextTools,
  };
}

/** A routing line with only the keys it sets (the scope file's parse leaves unset optional keys out too). */
function formatRoutingLine(line: RoutingEntry): RoutingEntry {
  const [first, ...rest] = routingCalls(line);
  // biome-ignore lint/suspicious/noThenProperty: a routing line's calls after the first; an array, never callable.
  return rest.length === 0 ? { when: line.when, ...first! } : { when: line.when, ...first!, then: rest };
}

interface EntryWords {
  /** Per entry: the words of its id and title. */
  readonly names: readonly (readonly string[])[];
  /** Per entry: those plus the words of its description (and when-to-use). */
  readonly words: readonly (readonly string[])[];
}

/** The words of each entry of `items`: `texts` gives its id and title, then the rest of what is matched. */
type WordsOf = <T extends object>(items: readonly T[], texts: (item: T) => [string, string]) => EntryWords;

const splitEntries: WordsOf = (items, texts) => {
  const names = items.map((item) => splitWords(texts(item)[0]));
  const words = items.map((item, position) => [...names[position]!, ...splitWords(texts(item)[1])]);
  return { names, words };
};

/** True when `text` names `id` as a whole token (`write-a-skill`, `documentId any/hosts/codex`). */
function mentions(text: string, id: string): boolean {
  return text.split(/[\s,;"'`()]+/).includes(id);
}

function toGuideTopic(topic: { id: string; title: string; scope: string; depth?: string }): GuideTopic {
  return topic.depth === undefined
    ? { id: topic.id, title: topic.title, scope: topic.scope }
    : { id: topic.id, title: topic.title, scope: topic.scope, depth: topic.depth };
}
