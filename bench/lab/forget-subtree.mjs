#!/usr/bin/env node
/**
 * What a failed release costs the cold read (src/fs/read-snapshot.ts): a held directory that changes during its
 * own walk is forgotten and walked again. Round four forgot it by scanning every print and link the walk had
 * recorded (O(all files) a failure); `forgetRecorded` drops the journal's tail since the directory's walk began
 * (O(what it recorded)). This measures both builds on one synthetic tree, `--changing` of whose leaf
 * directories change at the very end of their walk (an entry with a hidden name made and removed, just before
 * the release: the ctime moves, the content does not — what a `git checkout` touching thousands of directories
 * does to a start), and with none changing (the journal's own cost).
 *
 * Each run is a fresh process (`readSnapshot` of the whole tree, through that build's dist/) after the tree has
 * been quiet for 2.1 s (a directory changed in the last 2 s is never held), A B B A; wall and CPU (user+sys) of
 * the read alone. The runs of both builds must read the same snapshot (a digest of every path, byte and
 * problem), and every changed directory must have failed its release.
 *
 *   node bench/lab/forget-subtree.mjs [--old /work/base5] [--new .] [--files 100000] [--changing 1000]
 *     [--rounds 3] [--dir /tmp/forget-tree] [--keep]
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const FILES_PER_DIR = 50;
const DIRS_PER_TOPIC = 40;

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
}

/** The leaf directories of the tree, in walk order: knowledge/documents/t<i>/d<j>. */
function leafDirectories(root, files) {
  const leaves = Math.ceil(files / FILES_PER_DIR);
  const dirs = [];
  for (let i = 0; i < leaves; i++) {
    const topic = String(Math.floor(i / DIRS_PER_TOPIC)).padStart(3, '0');
    const dir = String(i % DIRS_PER_TOPIC).padStart(2, '0');
    dirs.push(join(root, 'knowledge', 'documents', `t${topic}`, `d${dir}`));
  }
  return dirs;
}

function makeTree(root, files) {
  const marker = join(root, '.complete');
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === String(files)) return;
  fs.rmSync(root, { recursive: true, force: true });
  let made = 0;
  for (const dir of leafDirectories(root, files)) {
    fs.mkdirSync(dir, { recursive: true });
    for (let f = 0; f < FILES_PER_DIR && made < files; f++, made++) {
      fs.writeFileSync(join(dir, `f${String(f).padStart(2, '0')}.md`), `# ${dir} ${f}\n\nSome text.\n`);
    }
  }
  fs.writeFileSync(marker, String(files));
}

/** In a child: reads the tree once with `build`, the chosen directories changing at their release. */
async function child(build, root, files, changing) {
  const { readSnapshot } = await import(pathToFileURL(join(build, 'dist/fs/read-snapshot.js')).href);
  const leaves = leafDirectories(root, files);
  // Every (leaves / changing)-th leaf changes: spread over the whole walk.
  const step = changing === 0 ? Infinity : leaves.length / changing;
  const chosen = new Set();
  for (let i = 0; i < changing; i++) chosen.add(leaves[Math.floor(i * step)]);
  const readdir = fs.readdirSync;
  const readlink = fs.readlinkSync;
  const fstat = fs.fstatSync;
  const listed = new Map();
  let changed = 0;
  let relisted = 0;
  fs.readdirSync = (path, options) => {
    const held = /^\/proc\/\d+\/fd\/(\d+)$/.exec(String(path));
    if (held) listed.set(Number(held[1]), readlink(path));
    else if (chosen.has(String(path))) relisted++;
    return readdir(path, options);
  };
  fs.fstatSync = (fd, options) => {
    const dir = options?.bigint ? listed.get(fd) : undefined;
    if (dir !== undefined) {
      // The first bigint fstat of a held directory after its listing is its release.
      listed.delete(fd);
      if (chosen.has(dir)) {
        fs.writeFileSync(join(dir, '.touch'), '');
        fs.unlinkSync(join(dir, '.touch'));
        changed++;
      }
    }
    return fstat(fd, options);
  };
  const cpu = process.cpuUsage();
  const started = performance.now();
  const snapshot = readSnapshot(root);
  const wallMs = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  const hash = createHash('sha256');
  for (const [path, file] of snapshot.files) hash.update(path).update(file.bytes);
  hash.update(JSON.stringify(snapshot.problems));
  process.stdout.write(
    JSON.stringify({
      wallMs,
      cpuMs: (user + system) / 1000,
      files: snapshot.files.size,
      changed,
      relisted,
      digest: hash.digest('hex').slice(0, 16),
    }),
  );
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function main() {
  const builds = { old: resolve(option('old', '/work/base5')), new: resolve(option('new', '.')) };
  const files = Number(option('files', '100000'));
  const changing = Number(option('changing', '1000'));
  const rounds = Number(option('rounds', '3'));
  const root = resolve(option('dir', join(tmpdir(), 'companion-forget-tree')));
  const leaves = leafDirectories(root, files).length;
  if (changing > leaves)
    throw new Error(`--changing ${changing}: the tree has only ${leaves} leaf directories`);
  makeTree(root, files);
  console.log(
    `tree: ${files} files in ${leaves} leaf directories (${root}); load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
  );
  const rows = [];
  for (const count of new Set([0, changing])) {
    const results = { old: [], new: [] };
    for (let round = 0; round < rounds; round++) {
      for (const name of round % 2 === 0 ? ['old', 'new'] : ['new', 'old']) {
        // Quiet for 2.1 s: the last run's changed directories may be held again.
        await new Promise((done) => setTimeout(done, 2100));
        const out = execFileSync(
          process.execPath,
          [process.argv[1], '--child', builds[name], root, String(files), String(count)],
          { encoding: 'utf8', maxBuffer: 1 << 20 },
        );
        const run = JSON.parse(out);
        if (run.changed !== count || run.relisted !== count) {
          throw new Error(`${name}: ${run.changed} changed, ${run.relisted} read again, of ${count}`);
        }
        results[name].push(run);
      }
    }
    const digests = new Set([...results.old, ...results.new].map((run) => run.digest));
    if (digests.size !== 1) throw new Error(`the builds read different snapshots: ${[...digests]}`);
    const summary = (runs) => ({
      wall: median(runs.map((r) => r.wallMs)),
      cpu: median(runs.map((r) => r.cpuMs)),
    });
    const o = summary(results.old);
    const n = summary(results.new);
    rows.push({
      'failed releases': count,
      'old wall ms': o.wall.toFixed(0),
      'new wall ms': n.wall.toFixed(0),
      'old CPU ms': o.cpu.toFixed(0),
      'new CPU ms': n.cpu.toFixed(0),
      'old/new CPU': (o.cpu / n.cpu).toFixed(2),
      files: results.new[0].files,
    });
  }
  console.table(rows);
  console.log(
    `${rounds} rounds, medians, interleaved; load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
  );
  if (!process.argv.includes('--keep')) fs.rmSync(root, { recursive: true, force: true });
}

if (process.argv[2] === '--child') {
  const [, , , build, root, files, changing] = process.argv;
  await child(build, root, Number(files), Number(changing));
} else {
  await main();
}
