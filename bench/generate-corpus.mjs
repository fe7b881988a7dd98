#!/usr/bin/env node
/**
 * Deterministic corpus generator for the benchmarks.
 *
 *   node bench/generate-corpus.mjs <S|M|L|XL> [dir]
 *
 * Without `dir`, the corpus is cached under `bench/.corpus/<size>-g<GENERATOR_VERSION>/` and reused when it is
 * already complete. The same size and generator version always give the same bytes (seeded PRNG, no
 * Math.random, no clock in the content).
 *
 * - S: 30 documents, 15 skills (the size of a real server today)
 * - M: 1,000 documents, 100 skills
 * - L: 10,000 documents (6–10 KB of Markdown each), 1,000 skills (SKILL.md + 2–4 references, some assets), ~100 MB
 * - XL: 100,000 small documents (0.4–2 KB each, about 0.9 KB on average) and 100 skills, ~110 MB in 100,000 files: the shape of a large
 *   generated knowledge base (issue 18's outside test). Never part of `npm run bench`'s default: `run.mjs --xl`.
 *
 * Every size is valid content with a scope file whose topics cover every document and skill. S and M pass
 * `companion check` with zero findings (M's scope file raises the listing budget to what its 100 descriptions
 * take). L cannot: `companion check` keeps a 3970-character listing budget for
 * all skill names and descriptions together (CMP410), and 1,000 skills need at least 6,000 characters (a name
 * and a description of one character each, plus 4) — so L carries exactly one finding, CMP410, and the benches
 * tolerate exactly that.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchDir, createRandom, distDir } from './lib.mjs';

/** Bump when the output changes: cached corpora are keyed by it. */
export const GENERATOR_VERSION = 3;
/** The sizes of the files the edit benches rewrite, in every corpus (the nearest file is picked). */
const EDIT_DOCUMENT_BYTES = 6500;
const EDIT_REFERENCE_BYTES = 4000;
export const SCHEME = 'bench';
/** The listing budget `companion check` enforces (src/core/catalog.ts DEFAULT_DESCRIPTION_BUDGET). */
const DESCRIPTION_BUDGET = 3970;
const MARKER = '.bench-corpus.json';
const schemaModulePath = join(distDir, 'core/scope-schema.js');
const scopeSchema = existsSync(schemaModulePath)
  ? (await import(pathToFileURL(schemaModulePath).href)).buildScopeJsonSchema()
  : undefined;

export const SIZES = {
  S: {
    documents: 30,
    skills: 15,
    docBytes: [3000, 7000],
    areas: 3,
    subareas: 2,
    assetShare: 0.2,
    budget: true,
  },
  M: {
    documents: 1000,
    skills: 100,
    docBytes: [4000, 9000],
    areas: 6,
    subareas: 3,
    assetShare: 0.1,
    // 100 realistic descriptions cannot fit 3970 characters (companion check asks 40 or more each, CMP421): M's
    // scope file raises the listing budget instead, as a server whose hosts load skills on demand would.
    budget: 'raise',
  },
  L: {
    documents: 10000,
    skills: 1000,
    docBytes: [6000, 10000],
    areas: 9,
    subareas: 4,
    assetShare: 0.05,
    budget: false,
  },
  XL: {
    documents: 100000,
    skills: 100,
    docBytes: [200, 900],
    // 3 scopes × 30 areas × 10 subareas: about 330 documents per directory.
    areas: 30,
    subareas: 10,
    assetShare: 0.1,
    budget: 'raise',
  },
};

/** The sizes `npm run bench` generates by default; XL only on request. */
export const DEFAULT_SIZES = ['S', 'M', 'L'];

const SCOPES = [
  { id: 'any', title: 'Everyone who writes content', transfers: true, sentence: 'Holds wherever you work.' },
  { id: 'team', title: 'The platform team', transfers: false, sentence: 'Stops at the platform team.' },
  { id: 'repo', title: 'This repository', transfers: false, sentence: 'Stops at this repository.' },
];

const NOUNS = (
  'release deployment pipeline cache index manifest schema service gateway queue worker cluster node volume ' +
  'snapshot backup policy review budget metric alert dashboard incident runbook migration contract token ' +
  'session request response header payload endpoint config secret certificate domain tenant region replica ' +
  'shard partition ledger invoice customer account report template checklist glossary changelog branch commit ' +
  'artifact bundle package dependency license audit permission role group owner reviewer author editor draft'
).split(' ');
const VERBS = (
  'review deploy audit migrate rotate verify triage publish archive restore validate measure profile ' +
  'document plan estimate tag release patch refactor index upgrade clean schedule reconcile summarize'
).split(' ');
const ADJECTIVES = (
  'stable fast small large shared local remote primary secondary stale fresh pending active idle broken ' +
  'healthy critical optional required default custom internal external public private weekly daily'
).split(' ');
const FILLER = (
  'the a an this that each every when before after while because so then also only never always often ' +
  'should must can may will would could is are was were be been has have had it its their our your with ' +
  'without into onto from to of in on at by for as about over under between through across against'
).split(' ');
const REFERENCE_NAMES = ['checklist.md', 'examples.md', 'pitfalls.md', 'glossary.md', 'templates.md'];
const LANGS = ['sh', 'json', 'yaml', 'ts'];

/** Where a size's corpus is cached. */
export function corpusDir(size) {
  return join(benchDir, '.corpus', `${size}-g${GENERATOR_VERSION}`);
}

/** The marker the generator writes last; undefined when the corpus is missing or incomplete. */
export function readCorpusInfo(dir) {
  const path = join(dir, MARKER);
  if (!existsSync(path)) return undefined;
  const info = JSON.parse(readFileSync(path, 'utf8'));
  return info.generatorVersion === GENERATOR_VERSION ? { ...info, root: dir } : undefined;
}

/** Returns the cached corpus of `size`, generating it first when needed. */
export function ensureCorpus(size, options = {}) {
  const dir = options.dir ? resolve(options.dir) : corpusDir(size);
  const info = readCorpusInfo(dir);
  if (info && info.size === size) return info;
  return generateCorpus(size, dir, options);
}

/** Writes the corpus into `dir` (replaced whole, through a temporary sibling) and returns its marker. */
export function generateCorpus(size, dir, options = {}) {
  const config = SIZES[size];
  if (!config) throw new Error(`unknown size ${size}: use ${Object.keys(SIZES).join(', ')}`);
  const started = performance.now();
  const log = options.log ?? (() => {});
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const random = createRandom(`companion-bench:${size}:g${GENERATOR_VERSION}`);
  const text = createTextSource(random);
  let files = 0;
  let bytes = 0;
  const sizes = new Map();
  const write = (path, content) => {
    const full = join(tmp, path);
    mkdirSync(dirname(full), { recursive: true });
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    writeFileSync(full, data);
    sizes.set(path, data.byteLength);
    files++;
    bytes += data.byteLength;
  };

  // Areas: <scope>/<area>/<subarea>/; one topic per (scope, area).
  const areas = [];
  const usedAreaNames = new Set();
  for (const scope of SCOPES) {
    for (let a = 0; a < config.areas; a++) {
      let name;
      do name = `${random.pick(NOUNS)}-${random.pick(NOUNS)}`;
      while (usedAreaNames.has(name) || name.split('-')[0] === name.split('-')[1]);
      usedAreaNames.add(name);
      const subareas = [];
      for (let s = 0; s < config.subareas; s++) subareas.push(`${random.pick(ADJECTIVES)}-${s + 1}`);
      areas.push({ scope: scope.id, name, subareas, documents: [], skills: [] });
    }
  }

  // Document ids first, so content can name any of them.
  const documents = [];
  for (let i = 0; i < config.documents; i++) {
    const area = areas[i % areas.length];
    const sub = area.subareas[Math.floor(i / areas.length) % area.subareas.length];
    const id = `${area.scope}/${area.name}/${sub}/${random.pick(VERBS)}-${random.pick(NOUNS)}-${String(i).padStart(5, '0')}`;
    documents.push({ id, area });
    area.documents.push(id);
  }

  // Skill names: short under a budget (so S and M pass check), realistic otherwise.
  const skills = [];
  const perSkillBudget = Math.floor(DESCRIPTION_BUDGET / config.skills) - 4;
  for (let i = 0; i < config.skills; i++) {
    const area = areas[(i * 7) % areas.length];
    const id = config.budget
      ? config.skills > 30
        ? `${random.pick(VERBS).slice(0, 6)}-${String(i).padStart(3, '0')}`
        : `${random.pick(VERBS)}-${random.pick(NOUNS)}-${i + 1}`
      : `${random.pick(VERBS)}-${random.pick(NOUNS)}-${String(i).padStart(4, '0')}`;
    // Third person, as companion check asks of a description (CMP424): the filler's pronouns become "the"
    // without drawing again, so everything else the generator writes stays as it was in version 2.
    let description = `${capitalize(random.pick(VERBS))} the ${random.pick(ADJECTIVES)} ${random.pick(NOUNS)} ${text.words(random.int(8, 18)).replace(/\b(?:our|your)\b/g, 'the')}. Use when the ${random.pick(NOUNS)} changes.`;
    if (config.budget === true) description = fitWords(description, perSkillBudget - id.length - 1);
    skills.push({ id, area, description });
    area.skills.push(id);
  }

  // Documents.
  for (const [i, document] of documents.entries()) {
    const target = random.int(config.docBytes[0], config.docBytes[1]);
    write(
      `knowledge/documents/${document.id}.md`,
      renderDocument(random, text, documents, skills, target, i),
    );
  }

  // Skills.
  write(
    'skills/base.md',
    [
      '# Where every task starts',
      '',
      `Read the index at ${SCHEME}://guides first; it names every document and skill this server serves.`,
      '',
      '## Before you begin',
      '',
      text.paragraph(5),
      '',
      'Go back to [the skill](../SKILL.md) once the checks below pass.',
      '',
      '## Checks',
      '',
      ...Array.from({ length: 6 }, () => `- ${capitalize(text.words(random.int(6, 12)))}.`),
      '',
    ].join('\n'),
  );
  const editable = [];
  for (const skill of skills) {
    const references = shuffle(random, REFERENCE_NAMES).slice(0, random.int(2, 4));
    const assets = [];
    if (random.chance(config.assetShare))
      assets.push({ path: 'assets/diagram.png', size: random.int(64, 256) * 1024 });
    if (random.chance(0.2)) assets.push({ path: 'assets/schema.json' });
    if (random.chance(0.15)) assets.push({ path: 'scripts/run.sh' });
    write(`skills/${skill.id}/SKILL.md`, renderSkill(random, text, skill, references, assets, documents));
    for (const name of references) {
      write(`skills/${skill.id}/references/${name}`, renderReference(random, text, skill, name));
    }
    for (const asset of assets)
      write(`skills/${skill.id}/${asset.path}`, renderAsset(random, text, skill, asset));
    for (const reference of references) editable.push({ skill: skill.id, reference });
  }

  // The scope file and its schema.
  const topics = areas.map((area) => ({
    id: `${area.scope}-${area.name}`,
    title: `${capitalize(area.name.replace('-', ' and '))} (${area.scope})`,
    scope: area.scope,
    depth: 'How-to and reference',
    tools:
      area.skills.length > 0
        ? ['document_lookup', 'task_guide', 'skill_load']
        : ['document_lookup', 'task_guide'],
    documents: area.documents,
    skills: area.skills,
  }));
  const scopeFile = {
    $schema: './server-scope.schema.json',
    server: {
      name: `bench-${size.toLowerCase()}`,
      title: `Benchmark corpus ${size}`,
      version: '1.0.0',
      scheme: SCHEME,
    },
    purpose: `A generated corpus of ${config.documents} documents and ${config.skills} skills for companion's benchmarks.`,
    instructions: {
      start: 'Read the index first; it lists every document and skill with its URI.',
      index: [
        { question: 'Which skill owns the task in front of me?', tool: 'task_guide' },
        { question: 'What does a document say about a topic?', tool: 'document_lookup' },
        { question: 'How do I follow a skill?', tool: 'skill_load' },
      ],
      // biome-ignore lint/suspicious/noThenProperty: the scope file's own key, a string; only a callable `then` makes a thenable.
      then: 'Follow the skill the task guide names, one step at a time.',
    },
    scopes: SCOPES,
    topics,
    routing: [{ when: 'When a task starts', tool: 'task_guide', with: 'the task in one sentence' }],
    notCovered: [{ topic: 'Anything outside the generated areas', why: 'Generated content only.' }],
    ...(config.budget === 'raise'
      ? {
          descriptionBudget:
            Math.ceil(skills.reduce((sum, s) => sum + s.id.length + s.description.length + 4, 0) / 1000) *
            1000,
        }
      : {}),
  };
  write('knowledge/server-scope.json', `${JSON.stringify(scopeFile, null, 2)}\n`);
  write('knowledge/server-scope.schema.json', renderSchema());

  // The edit benches compare the same edit on corpora of different sizes, so every size edits files of about the
  // same length (the one closest to these sizes): what grows is the corpus, not the file re-read and re-parsed.
  const closest = (items, pathOf, bytes) =>
    items.reduce((best, item) =>
      Math.abs(sizes.get(pathOf(item)) - bytes) < Math.abs(sizes.get(pathOf(best)) - bytes) ? item : best,
    );
  const middle = closest(documents, (d) => `knowledge/documents/${d.id}.md`, EDIT_DOCUMENT_BYTES);
  const edit = closest(editable, (e) => `skills/${e.skill}/references/${e.reference}`, EDIT_REFERENCE_BYTES);
  const info = {
    generatorVersion: GENERATOR_VERSION,
    size,
    documents: documents.length,
    skills: skills.length,
    files,
    bytes,
    scheme: SCHEME,
    /** What the edit benches rewrite (and restore afterwards). */
    editTargets: {
      document: { path: `knowledge/documents/${middle.id}.md`, uri: `${SCHEME}://guides/${middle.id}` },
      reference: {
        path: `skills/${edit.skill}/references/${edit.reference}`,
        uri: `${SCHEME}://skill/${edit.skill}/references/${edit.reference}`,
        skillUri: `${SCHEME}://skill/${edit.skill}/SKILL.md`,
      },
    },
    /** check findings this size is expected to carry: L exceeds the listing budget, by design. */
    expectedCodes: config.budget ? [] : ['CMP410'],
    generatedInMs: Math.round(performance.now() - started),
  };
  writeFileSync(join(tmp, MARKER), `${JSON.stringify(info, null, 2)}\n`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  renameSync(tmp, dir);
  log(
    `generated ${size}: ${files} files, ${(bytes / 1e6).toFixed(1)} MB in ${info.generatedInMs} ms → ${dir}`,
  );
  return { ...info, root: dir };
}

function createTextSource(random) {
  const word = () => {
    const r = random.next();
    if (r < 0.45) return random.pick(FILLER);
    if (r < 0.75) return random.pick(NOUNS);
    if (r < 0.88) return random.pick(ADJECTIVES);
    return random.pick(VERBS);
  };
  const words = (n) => Array.from({ length: n }, word).join(' ');
  const sentence = () =>
    `${capitalize(words(random.int(7, 20)))}${random.chance(0.15) ? ', then check it' : ''}.`;
  const paragraph = (n = random.int(3, 6)) => Array.from({ length: n }, sentence).join(' ');
  return { word, words, sentence, paragraph };
}

function renderDocument(random, text, documents, skills, target, index) {
  const title = capitalize(`${text.words(random.int(3, 6))} ${random.pick(NOUNS)}`);
  const lines = [
    '---',
    `description: "${capitalize(text.words(random.int(10, 22)))}."`,
    `whenToUse: "When the ${random.pick(NOUNS)} is ${random.pick(ADJECTIVES)} and ${text.words(random.int(4, 9))}."`,
    '---',
    `# ${title}`,
    '',
    text.paragraph(),
    '',
  ];
  let size = lines.join('\n').length;
  let section = 0;
  while (size < target) {
    const block = [`## ${capitalize(text.words(random.int(2, 5)))} ${section + 1}`, '', text.paragraph(), ''];
    const kind = random.int(0, 5);
    if (kind === 0) {
      for (let i = 0; i < random.int(3, 7); i++)
        block.push(`- ${capitalize(text.words(random.int(5, 14)))}.`);
      block.push('');
    } else if (kind === 1) {
      for (let i = 0; i < random.int(3, 6); i++)
        block.push(`${i + 1}. ${capitalize(text.words(random.int(6, 16)))}.`);
      block.push('');
    } else if (kind === 2) {
      const lang = random.pick(LANGS);
      block.push(`\`\`\`${lang}`);
      for (let i = 0; i < random.int(3, 10); i++) block.push(codeLine(random, text, lang));
      block.push('```', '');
    } else if (kind === 3) {
      block.push('| Field | Default | Meaning |', '|---|---|---|');
      for (let i = 0; i < random.int(3, 6); i++) {
        block.push(
          `| \`${random.pick(NOUNS)}\` | ${random.int(0, 500)} | ${capitalize(text.words(random.int(4, 10)))} |`,
        );
      }
      block.push('');
    } else if (kind === 4) {
      const other = documents[(index * 31 + section * 17 + 1) % documents.length];
      block.push(`See ${SCHEME}://guides/${other.id} for the ${random.pick(NOUNS)} side of this.`, '');
    } else {
      const skill = skills[(index + section) % skills.length];
      block.push(`The skill ${SCHEME}://skill/${skill.id}/SKILL.md walks through it step by step.`, '');
    }
    block.push(text.paragraph(random.int(2, 5)), '');
    const chunk = block.join('\n');
    lines.push(chunk);
    size += chunk.length + 1;
    section++;
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function codeLine(random, text, lang) {
  const noun = random.pick(NOUNS);
  switch (lang) {
    case 'sh':
      return `companion ${random.pick(VERBS)} --${noun} ${random.pick(ADJECTIVES)}`;
    case 'json':
      return `  "${noun}": ${random.int(0, 9999)},`;
    case 'yaml':
      return `${noun}: ${random.pick(ADJECTIVES)}`;
    default:
      return `const ${noun} = ${random.pick(VERBS)}(${JSON.stringify(text.words(2))});`;
  }
}

function renderSkill(random, text, skill, references, assets, documents) {
  const lines = [
    '---',
    `name: ${skill.id}`,
    `description: "${skill.description}"`,
    'license: MIT',
    'metadata:',
    `  version: "1.${random.int(0, 20)}"`,
    `  owner: "${random.pick(NOUNS)}-team"`,
    '---',
    `# ${capitalize(skill.id.replace(/-\d+$/, '').replaceAll('-', ' '))}`,
    '',
    text.paragraph(),
    '',
    '## Steps',
    '',
    '1. Read [the shared base](references/base.md) first.',
  ];
  references.forEach((name, i) => {
    lines.push(
      `${i + 2}. ${capitalize(text.words(random.int(5, 12)))}: follow [${name.replace('.md', '')}](references/${name}).`,
    );
  });
  for (const asset of assets) lines.push(`- Uses [${asset.path.split('/')[1]}](${asset.path}).`);
  lines.push('', '## Background', '', text.paragraph(), '');
  const doc = documents[(skill.id.length * 97 + references.length) % documents.length];
  lines.push(`The document ${SCHEME}://guides/${doc.id} explains why.`, '', '## Done when', '');
  for (let i = 0; i < random.int(3, 6); i++) lines.push(`- ${capitalize(text.words(random.int(5, 12)))}.`);
  while (lines.join('\n').length < random.int(2000, 4000)) lines.push('', text.paragraph());
  return `${lines.join('\n')}\n`;
}

function renderReference(random, text, skill, name) {
  const lines = [`# ${capitalize(name.replace('.md', ''))} for ${skill.id}`, '', text.paragraph(), ''];
  const target = random.int(3000, 6000);
  let n = 1;
  while (lines.join('\n').length < target) {
    lines.push(`## ${capitalize(text.words(random.int(2, 4)))} ${n++}`, '');
    for (let i = 0; i < random.int(3, 6); i++)
      lines.push(`- [ ] ${capitalize(text.words(random.int(5, 14)))}.`);
    lines.push('', text.paragraph(), '');
  }
  lines.push('Back to [the skill](../SKILL.md).');
  return `${lines.join('\n')}\n`;
}

function renderAsset(random, text, skill, asset) {
  if (asset.path.endsWith('.png')) {
    // Incompressible bytes behind a PNG signature: a binary file served as a base64 blob.
    const bytes = Buffer.alloc(asset.size);
    const seed = createRandom(`${skill.id}:${asset.path}`);
    for (let i = 0; i < bytes.length; i += 4) bytes.writeUInt32LE(Math.floor(seed.next() * 4294967296), i);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
    return bytes;
  }
  if (asset.path.endsWith('.json')) {
    const properties = {};
    for (let i = 0; i < random.int(5, 20); i++)
      properties[random.pick(NOUNS) + i] = {
        type: random.pick(['string', 'number', 'boolean']),
        description: text.words(6),
      };
    return `${JSON.stringify({ $id: `${skill.id}.schema.json`, type: 'object', properties }, null, 2)}\n`;
  }
  return `#!/bin/sh\nset -eu\n# ${text.words(8)}\n${Array.from({ length: random.int(5, 15) }, () => `echo "${text.words(5)}"`).join('\n')}\n`;
}

function renderSchema() {
  // Known to check and never parsed as content; the real schema from the build, as `companion init` writes it.
  return `${JSON.stringify(scopeSchema ?? {}, null, 2)}\n`;
}

function shuffle(random, items) {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Cuts `text` to at most `max` characters on a word boundary and ends it with a period. */
function fitWords(text, max) {
  if (text.length <= max) return text;
  const cut = text.slice(0, Math.max(1, max - 1));
  const at = cut.lastIndexOf(' ');
  return `${(at > 0 ? cut.slice(0, at) : cut).replace(/[ ,.]+$/, '')}.`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [size, dir] = process.argv.slice(2);
  if (!size || !SIZES[size]) {
    process.stderr.write('usage: node bench/generate-corpus.mjs <S|M|L|XL> [dir]\n');
    process.exit(2);
  }
  const info = dir
    ? generateCorpus(size, resolve(dir), { log: (m) => process.stderr.write(`${m}\n`) })
    : ensureCorpus(size, { log: (m) => process.stderr.write(`${m}\n`) });
  process.stdout.write(`${JSON.stringify(info, null, 2)}\n`);
}
