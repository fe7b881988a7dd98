import { describe, expect, it } from 'vitest';
import {
  extractTerms,
  type SearchableDocument,
  searchDocuments,
  termMatchesWord,
  truncateBody,
} from '../../src/core/search.js';

function document(id: string, title: string, sections: [string, string][]): SearchableDocument {
  const body = sections.map(([heading, text]) => (heading ? `## ${heading}\n\n${text}` : text)).join('\n\n');
  return {
    id,
    title,
    uri: `companion://guides/${id}`,
    body,
    sections: sections.map(([heading, text], index) => ({ heading, body: text, line: index * 4 + 1 })),
  };
}

const corpus: SearchableDocument[] = [
  document('any/skills/budget', 'Description budget', [
    ['', 'Hosts keep every skill description in their listing.'],
    ['The listing budget', 'The sum of all published descriptions must stay under 3970 characters.'],
    ['Trimming descriptions', 'Cut the second sentence first; keep the trigger words.'],
  ]),
  document('any/hosts/codex', 'Connecting Codex', [
    ['Configuration', 'Add the server to config.toml under mcp_servers.'],
    ['Limits', 'Codex truncates a description at 1024 characters.'],
  ]),
  document('contributing/testing/tests', 'Running the tests', [
    ['Unit tests', 'Run vitest for the unit tests of the core.'],
    ['Protocol tests', 'The protocol tests spawn the server and connect a client.'],
  ]),
];

describe('extractTerms', () => {
  it('lowercases, drops stopwords and one-letter words, stems plurals, keeps each term once', () => {
    expect(extractTerms('How do I trim the Skill descriptions? Skills!')).toEqual([
      'trim',
      'skill',
      'description',
    ]);
    expect(extractTerms('the a of to')).toEqual([]);
    expect(extractTerms('CMP502 stories class status')).toEqual(['cmp502', 'stor', 'class', 'status']);
    expect(extractTerms('renaming renamed rename writing write changes')).toEqual(['renam', 'writ', 'chang']);
  });

  it('matches terms of four or more characters as prefixes, shorter ones whole', () => {
    expect(termMatchesWord('desc', 'descriptions')).toBe(true);
    expect(termMatchesWord('mcp', 'mcp')).toBe(true);
    expect(termMatchesWord('mcp', 'mcp_servers')).toBe(false);
    expect(termMatchesWord('cli', 'client')).toBe(false);
  });
});

describe('searchDocuments', () => {
  it('ranks sections by coverage and weight, heading above body, with coverage and score', () => {
    const result = searchDocuments(corpus, 'description budget listing');
    expect(result.terms).toEqual(['description', 'budget', 'list']);
    const first = result.matches[0]!;
    expect(first.documentId).toBe('any/skills/budget');
    expect(result.wholeDocument).toBe(true);
    expect(result.matchedHeadings).toContain('The listing budget');
    expect(first.coverage).toBe(1);
    expect(first.body).toBe(corpus[0]!.body);
  });

  it('answers sections from several documents, each cut to a section', () => {
    const result = searchDocuments(corpus, 'description characters');
    expect(result.wholeDocument).toBe(false);
    expect(new Set(result.matches.map((match) => match.documentId))).toEqual(
      new Set(['any/skills/budget', 'any/hosts/codex']),
    );
    for (const match of result.matches) {
      expect(match.coverage).toBeGreaterThanOrEqual(0.5);
      expect(match.score).toBeGreaterThan(0);
      expect(match.truncated).toBe(false);
    }
    const scores = result.matches.map((match) => [match.coverage, match.score] as const);
    const sorted = [...scores].sort((a, b) => b[0] - a[0] || b[1] - a[1]);
    expect(scores).toEqual(sorted);
  });

  it('drops sections below half the query weight, and answers nothing for nothing', () => {
    expect(searchDocuments(corpus, 'xylophone quasar').matches).toEqual([]);
    expect(searchDocuments(corpus, 'the of and').matches).toEqual([]);
    expect(searchDocuments(corpus, 'protocol xylophone quasar nebula').matches).toEqual([]);
  });

  it('is deterministic and answers identical bodies once', () => {
    const twin = document('any/hosts/codex-copy', 'Connecting Codex again', [
      ['Limits', 'Codex truncates a description at 1024 characters.'],
    ]);
    const once = searchDocuments([...corpus, twin], 'codex truncates description');
    const again = searchDocuments([...corpus, twin], 'codex truncates description');
    expect(once).toEqual(again);
    const bodies = once.matches.map((match) => match.body);
    expect(new Set(bodies).size).toBe(bodies.length);
  });

  it('respects the limit', () => {
    expect(searchDocuments(corpus, 'tests', { limit: 1 }).matches.length).toBeLessThanOrEqual(1);
  });
});

describe('truncateBody', () => {
  it('keeps a short body whole', () => {
    expect(truncateBody('a\nb', 10)).toEqual({ text: 'a\nb', truncated: false });
  });

  it('cuts on a line boundary', () => {
    const body = Array.from({ length: 50 }, (_, index) => `line ${index}`).join('\n');
    const { text, truncated } = truncateBody(body, 40);
    expect(truncated).toBe(true);
    expect(text.length).toBeLessThanOrEqual(40);
    expect(body.startsWith(text)).toBe(true);
    expect(body[text.length]).toBe('\n');
  });

  it('never leaves a code fence open', () => {
    const body = ['Intro.', '', '```json', '{', '  "a": 1,', '  "b": 2', '}', '```', 'After.'].join('\n');
    const { text } = truncateBody(body, 30);
    expect((text.match(/```/g) ?? []).length % 2).toBe(0);
    expect(text).toBe('Intro.');
    const fenceFirst = ['```', 'x'.repeat(20), 'y'.repeat(20), '```'].join('\n');
    const cut = truncateBody(fenceFirst, 30).text;
    expect((cut.match(/```/g) ?? []).length % 2).toBe(0);
  });
});

describe('searchDocuments on the index', () => {
  it('counts a term found only in the document title, and matches prefixes across word forms', () => {
    // "connect" is in the Codex title and in a body elsewhere; only the Codex section also has "configuration".
    const result = searchDocuments(corpus, 'connecting configuration');
    expect(result.wholeDocument).toBe(false);
    expect(result.matches[0]).toMatchObject({
      documentId: 'any/hosts/codex',
      heading: 'Configuration',
      coverage: 1,
    });
    const forms = searchDocuments(corpus, 'truncating');
    expect(forms.matches.map((match) => match.documentId)).toEqual(['any/hosts/codex']);
  });

  it('answers the same for an equal but new document list (a new generation)', () => {
    const copy = corpus.map((entry) => ({ ...entry }));
    expect(searchDocuments(copy, 'unit tests')).toEqual(searchDocuments(corpus, 'unit tests'));
  });
});
