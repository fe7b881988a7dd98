import { describe, expect, it } from 'vitest';
import { buildTaskGuide, type TaskGuideInput } from '../../src/core/task-guide.js';
import type { DocumentEntry, SkillEntry } from '../../src/core/types.js';

function skill(id: string, description: string): SkillEntry {
  return {
    id,
    uri: `companion://skill/${id}/SKILL.md`,
    title: id.replaceAll('-', ' '),
    description,
    frontmatter: { name: id, description },
    body: '',
    files: [],
    manifest: [],
  };
}

function document(id: string, title: string, description: string, whenToUse?: string): DocumentEntry {
  return {
    id,
    uri: `companion://guides/${id}`,
    path: `knowledge/documents/${id}.md`,
    title,
    scope: id.split('/')[0]!,
    description,
    ...(whenToUse === undefined ? {} : { whenToUse }),
    fields: {},
    body: `# ${title}\n`,
    sections: [],
  };
}

const input: TaskGuideInput = {
  tools: ['document_lookup', 'task_guide', 'skill_load'],
  skills: [
    skill(
      'release-a-service',
      'Releases a service to production: tag, changelog, deploy. Use when shipping.',
    ),
    skill('write-a-skill', 'Creates or restructures an Agent Skill. Use when adding a skill.'),
  ],
  documents: [
    document('any/release/checklist', 'Release checklist', 'Every step of a release.', 'Before tagging.'),
    document('any/skills/anatomy', 'Skill anatomy', 'The directory of a skill and its files.'),
    document('core/process/review', 'Code review', 'How the core team reviews changes.'),
  ],
  coverage: {
    purpose: 'Test content.',
    scopes: [
      { id: 'any', title: 'Everyone', transfers: true, sentence: 'Holds everywhere.' },
      { id: 'core', title: 'Core team', transfers: false, sentence: 'Core only.' },
    ],
    topics: [
      {
        id: 'releasing',
        title: 'Releasing services',
        scope: 'any',
        tools: ['task_guide'],
        documents: ['any/release/checklist'],
        skills: ['release-a-service'],
        prompts: [],
      },
      {
        id: 'authoring',
        title: 'Writing skills',
        scope: 'any',
        depth: 'Front matter, references, budget.',
        tools: ['skill_load'],
        documents: ['any/skills/anatomy'],
        skills: ['write-a-skill'],
        prompts: [],
      },
      {
        id: 'reviews',
        title: 'Code review',
        scope: 'core',
        tools: ['document_lookup'],
        documents: ['core/process/review'],
        skills: [],
        prompts: [],
      },
    ],
    routing: [
      { when: 'When shipping a release to production', tool: 'skill_load', with: 'release-a-service' },
      {
        when: 'When reviewing a change in the core',
        tool: 'document_lookup',
        with: 'documentId core/process/review',
      },
    ],
    notCovered: [],
  },
};

describe('buildTaskGuide', () => {
  it('names the skill and documents that own a task, with the calls that read them', () => {
    const guide = buildTaskGuide(input, 'Ship the billing service release to production');
    expect(guide.matched).toBe(true);
    expect(guide.skills.map((entry) => entry.id)).toEqual(['release-a-service']);
    expect(guide.skills[0]!.load).toEqual({
      tool: 'skill_load',
      arguments: { name: 'release-a-service' },
      why: expect.any(String),
    });
    expect(guide.documents.map((entry) => entry.id)).toContain('any/release/checklist');
    expect(guide.documents[0]!.lookup?.arguments).toEqual({ documentId: guide.documents[0]!.id });
    expect(guide.routing).toEqual([
      { when: 'When shipping a release to production', tool: 'skill_load', with: 'release-a-service' },
    ]);
    expect(guide.topics.map((topic) => topic.id)).toContain('releasing');
    expect(guide.nextTools.map((call) => call.tool)).toEqual(['skill_load', 'document_lookup']);
  });

  it('puts what a matching routing line names first', () => {
    const guide = buildTaskGuide(input, 'reviewing a change in the core');
    expect(guide.documents[0]!.id).toBe('core/process/review');
    expect(guide.routing.map((line) => line.tool)).toEqual(['document_lookup']);
  });

  it('a miss is an answer: nothing matched, every topic listed, a search suggested', () => {
    const guide = buildTaskGuide(input, 'bake sourdough bread');
    expect(guide.matched).toBe(false);
    expect(guide.skills).toEqual([]);
    expect(guide.documents).toEqual([]);
    expect(guide.topics.map((topic) => topic.id)).toEqual(['releasing', 'authoring', 'reviews']);
    expect(guide.nextTools).toEqual([
      { tool: 'document_lookup', arguments: { query: 'bake sourdough bread' }, why: expect.any(String) },
    ]);
    expect(buildTaskGuide(input, 'the of and').matched).toBe(false);
  });

  it('owns a task by its action, not by the words of its subject no candidate carries', () => {
    // "reviews pull requests" is what the skill will be about; "write a skill" says which workflow owns the task.
    const guide = buildTaskGuide(input, 'write a skill that reviews pull requests');
    expect(guide.matched).toBe(true);
    expect(guide.skills[0]?.id).toBe('write-a-skill');
    // The whole task still decides a routing line: none matches here.
    expect(guide.routing).toEqual([]);
  });

  it('offers no call to a tool the catalog does not offer', () => {
    const guide = buildTaskGuide({ ...input, tools: ['task_guide'] }, 'write a skill');
    expect(guide.skills.map((entry) => entry.id)).toContain('write-a-skill');
    for (const entry of guide.skills) expect(entry.load).toBeUndefined();
    for (const entry of guide.documents) expect(entry.lookup).toBeUndefined();
    expect(guide.nextTools).toEqual([]);
  });

  it('never names a skill or document the catalog does not hold', () => {
    const withGhost: TaskGuideInput = {
      ...input,
      coverage: {
        ...input.coverage,
        topics: [{ ...input.coverage.topics[0]!, skills: ['ghost-skill'], documents: ['any/ghost'] }],
      },
    };
    const guide = buildTaskGuide(withGhost, 'releasing services');
    expect(guide.skills.map((entry) => entry.id)).not.toContain('ghost-skill');
    expect(guide.documents.map((entry) => entry.id)).not.toContain('any/ghost');
  });

  it('is deterministic', () => {
    expect(buildTaskGuide(input, 'write a skill')).toEqual(buildTaskGuide(input, 'write a skill'));
  });
});
