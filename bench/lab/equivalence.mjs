#!/usr/bin/env node
/**
 * Do two builds derive the same catalog? For checking a performance fix: every diagnostic-code fixture, the S
 * and M corpora (each built twice, so memo paths run), and a sequence of incremental edits through the catalog
 * store (documents, skill references, a new and a deleted document, a prompt added, broken, covered and deleted, the
 * scope file, skills/base.md) on a throwaway copy of M with fixed mtimes. Prints one line per check; exits 1 on any
 * difference. A baseline built before prompts existed differs on the prompt steps, as it should.
 *
 *   node bench/lab/equivalence.mjs <baseline build dir> <candidate build dir>
 *
 * A build dir holds `dist/` (and `node_modules`, or sits where Node resolves the repository's); e.g. the repo
 * itself, or a copy of it with a different `dist/`.
 */
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureCorpus } from '../generate-corpus.mjs';
import { log, repoRoot } from '../lib.mjs';

const [baseArg, candidateArg] = process.argv.slice(2);
if (!baseArg || !candidateArg) {
  process.stderr.write('usage: node bench/lab/equivalence.mjs <baseline build dir> <candidate build dir>\n');
  process.exit(2);
}
const load = async (root, path) => import(pathToFileURL(join(resolve(root), 'dist', path)).href);
const builds = [baseArg, candidateArg];
const modules = await Promise.all(
  builds.map(async (root) => ({
    catalog: await load(root, 'core/catalog.js'),
    read: await load(root, 'fs/read-snapshot.js'),
    store: await load(root, 'fs/catalog-store.js'),
  })),
);
const sha = (value) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
const digestResult = ({ catalog: c, diagnostics }) =>
  sha([
    diagnostics,
    c.resources,
    c.templates,
    // The order of `contents` is not part of the contract (a structure-sharing map iterates by chunk).
    [...c.contents]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([uri, x]) => [uri, x.digest, x.size, x.mimeType, x.lastModified, x.text?.length]),
    c.skills.map((s) => [
      s.id,
      s.title,
      s.description,
      s.scope,
      s.frontmatter,
      s.manifest,
      s.files,
      s.body.length,
    ]),
    c.documents.map((d) => [
      d.id,
      d.title,
      d.description,
      d.whenToUse,
      d.scope,
      d.fields,
      d.body.length,
      d.sections,
    ]),
    // Prompts: what prompts/list lists, where each comes from, and the template prompts/get fills in.
    (c.prompts ?? []).map((p) => [p.listed, p.scope, p.source, p.draft, p.arguments, p.template]),
    c.instructions,
    c.coverage,
    c.tools,
  ]);
let failures = 0;
const report = (name, values) => {
  const same = new Set(values).size === 1;
  if (!same) failures++;
  process.stdout.write(`${same ? 'same' : 'DIFFERENT'}  ${name}${same ? '' : `  ${values.join(' ')}`}\n`);
};

// 1. Every diagnostic-code fixture (overlaid on the valid fixture, as test/core/diagnostic-codes.test.ts does).
const fixtures = join(repoRoot, 'test/fixtures');
const readTree = (dir, base = dir, out = {}) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) readTree(path, base, out);
    else out[path.slice(base.length + 1)] = new Uint8Array(readFileSync(path));
  }
  return out;
};
for (const name of readdirSync(join(fixtures, 'codes')).sort()) {
  const spec = JSON.parse(readFileSync(join(fixtures, 'codes', name, 'case.json'), 'utf8'));
  const files = readTree(join(fixtures, 'valid'));
  const overlay = join(fixtures, 'codes', name, 'files');
  if (existsSync(overlay)) Object.assign(files, readTree(overlay));
  for (const path of spec.remove ?? []) delete files[path];
  for (const [path, base64] of Object.entries(spec.binary ?? {}))
    files[path] = new Uint8Array(Buffer.from(base64, 'base64'));
  for (let i = 0; i < (spec.generate?.count ?? 0); i++) {
    files[`${spec.generate.prefix}${i}.bin`] = new Uint8Array(spec.generate.bytes);
  }
  const snapshot = () => ({
    files: new Map(
      Object.entries(files)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([path, bytes]) => [path, { path, bytes, mtimeMs: 1_700_000_000_000 }]),
    ),
    problems: spec.problems ?? [],
  });
  const shared = snapshot();
  const values = modules.flatMap((m) => [
    digestResult(m.catalog.buildCatalog(shared, spec.options)),
    digestResult(m.catalog.buildCatalog(shared, spec.options)),
    digestResult(m.catalog.buildCatalog(snapshot(), spec.options)),
  ]);
  report(`fixture ${name}`, values);
}

// 2. The S and M corpora, read from disk, built twice each.
for (const size of ['S', 'M']) {
  const info = ensureCorpus(size, { log });
  const values = modules.flatMap((m) => {
    const snapshot = m.read.readSnapshot(info.root);
    return [digestResult(m.catalog.buildCatalog(snapshot)), digestResult(m.catalog.buildCatalog(snapshot))];
  });
  report(`corpus ${size}`, values);
}

// 3. Incremental edits through the store, on a copy of M with every mtime fixed.
const info = ensureCorpus('M', { log });
const copy = join(tmpdir(), `companion-equivalence-${process.pid}`);
const stamp = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) stamp(path);
    else utimesSync(path, 1_700_000_000, 1_700_000_000);
  }
};
const sequences = [];
for (const m of modules) {
  rmSync(copy, { recursive: true, force: true });
  // The corpus may be a symlink to a shared one (a worktree's bench/.corpus/): copy what it points at, never the
  // link, or every edit and mtime below lands in the shared corpus.
  cpSync(realpathSync(info.root), copy, { recursive: true });
  stamp(copy);
  const write = (path, text) => {
    mkdirSync(dirname(join(copy, path)), { recursive: true });
    writeFileSync(join(copy, path), text);
    utimesSync(join(copy, path), 1_700_000_100, 1_700_000_100);
  };
  const text = (path) => readFileSync(join(copy, path), 'utf8');
  const doc = info.editTargets.document.path;
  const ref = info.editTargets.reference.path;
  const originals = {
    doc: text(doc),
    ref: text(ref),
    scope: text('knowledge/server-scope.json'),
    base: text('skills/base.md'),
  };
  const extra = 'knowledge/documents/any/new-area/extra.md';
  const prompt = 'prompts/extra.md';
  const promptText =
    '---\ndescription: "x"\narguments:\n  - name: doc\n    description: "d"\n    kind: document\n---\nRead {{doc.uri}}.\n';
  const covered = JSON.parse(originals.scope);
  covered.topics[0].prompts = ['extra'];
  // Each step: [path, new text] pairs (null deletes the file); the store is told exactly those paths.
  const steps = [
    [[doc, `${originals.doc}\nmore\n`]],
    [[ref, `${originals.ref}\n[broken](missing.md)\n`]],
    [[doc, `${originals.doc.replace(/^# .*$/m, '# Renamed')}\nbench://guides/none/such\n`]],
    [[extra, '---\ndescription: "x"\n---\n# Extra\n']],
    [['knowledge/server-scope.json', originals.scope.replace('Holds wherever you work.', 'Holds anywhere.')]],
    [['skills/base.md', `${originals.base}\nSee [x](../SKILL.md).\n`]],
    [[prompt, promptText]],
    [[prompt, promptText.replace('{{doc.uri}}', '{{nope}}')]],
    [
      [prompt, promptText],
      ['knowledge/server-scope.json', `${JSON.stringify(covered, null, 2)}\n`],
    ],
    [[prompt, null]],
    [[extra, null]],
    [
      [ref, originals.ref],
      [doc, originals.doc],
    ],
    [
      ['knowledge/server-scope.json', originals.scope],
      ['skills/base.md', originals.base],
    ],
  ];
  const store = m.store.createCatalogStore({ root: copy });
  const sequence = [digestResult(store.current())];
  for (const step of steps) {
    for (const [path, content] of step) {
      if (content === null) rmSync(join(copy, path));
      else write(path, content);
    }
    const change = store.applyChanges(step.map(([path]) => path));
    sequence.push(
      change ? `${digestResult(change.current)}/${change.updatedUris.length}/${change.listChanged}` : 'none',
    );
  }
  sequences.push(sequence);
}
rmSync(copy, { recursive: true, force: true });
for (let i = 0; i < sequences[0].length; i++) {
  report(
    `incremental step ${i}`,
    sequences.map((s) => s[i]),
  );
}

process.stdout.write(failures === 0 ? 'equivalent\n' : `${failures} differences\n`);
process.exit(failures === 0 ? 0 : 1);
