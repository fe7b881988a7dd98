#!/usr/bin/env node
/**
 * Where the in-process store's heap goes: loads `createCatalogStore` on a root, runs 3 full GCs, prints
 * `process.memoryUsage()`, writes a V8 heap snapshot and aggregates its self sizes (in a child process, so the
 * analysis does not sit in the measured heap) by constructor and by what holds each node (the retaining
 * object's constructor and the edge's name, e.g. `ParsedDocument.body`).
 *
 *   node --expose-gc bench/lab/heap-breakdown.mjs <root> [--top N] [--keep FILE] [--no-snapshot]
 *   node bench/lab/heap-breakdown.mjs --analyze FILE [--top N]
 *
 * COMPANION_BENCH_BUILD=<dir> loads another build's dist/ (as the benches do). The snapshot parser reads the
 * numeric arrays byte by byte, so an XL snapshot (larger than a V8 string may be) parses too.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
};
const top = Number(option('--top', 40));
/** `--only KIND`: the holder tables list only nodes of that kind (say `string`, `Object{heading}`). */
const only = option('--only', undefined);
const MB = 1048576;
// Piped into `head`: stop quietly when the reader goes.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

/** Parses the numbers of the JSON array that starts after `marker`, into a typed array of `count` numbers. */
function readNumbers(buffer, marker, count) {
  let at = buffer.indexOf(marker);
  if (at === -1) throw new Error(`no ${marker} in the snapshot`);
  at += marker.length;
  const out = new Float64Array(count);
  let n = 0;
  let value = 0;
  let inNumber = false;
  for (; n < count; at++) {
    const c = buffer[at];
    if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      inNumber = true;
    } else {
      if (inNumber) out[n++] = value;
      value = 0;
      inNumber = false;
      if (c === 93 /* ] */) break;
    }
  }
  if (n !== count) throw new Error(`${marker}: ${n} numbers, expected ${count}`);
  return out;
}

function analyze(file) {
  const buffer = readFileSync(file);
  const headEnd = buffer.indexOf('"nodes":');
  const head = JSON.parse(`${buffer.subarray(0, headEnd).toString('utf8').replace(/,\s*$/, '')}}`);
  const meta = head.snapshot.meta;
  const nodeFields = meta.node_fields.length;
  const edgeFields = meta.edge_fields.length;
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const nodes = readNumbers(buffer, '"nodes":[', head.snapshot.node_count * nodeFields);
  const edges = readNumbers(buffer, '"edges":[', head.snapshot.edge_count * edgeFields);
  const stringsAt = buffer.indexOf('"strings":[');
  const strings = JSON.parse(
    buffer.subarray(stringsAt + '"strings":'.length, buffer.lastIndexOf(']') + 1).toString('utf8'),
  );
  const fType = meta.node_fields.indexOf('type');
  const fName = meta.node_fields.indexOf('name');
  const fSize = meta.node_fields.indexOf('self_size');
  const fEdges = meta.node_fields.indexOf('edge_count');
  const eType = meta.edge_fields.indexOf('type');
  const eName = meta.edge_fields.indexOf('name_or_index');
  const eTo = meta.edge_fields.indexOf('to_node');
  const count = head.snapshot.node_count;

  const typeOf = (i) => nodeTypes[nodes[i * nodeFields + fType]];
  const firstEdge = new Float64Array(count + 1);
  for (let i = 0; i < count; i++) firstEdge[i + 1] = firstEdge[i] + nodes[i * nodeFields + fEdges];
  /** A plain object's property names (its shape, as a reader knows it): `Object{a,b,c}`. */
  const shapeOf = (i) => {
    const names = [];
    for (let e = firstEdge[i]; e < firstEdge[i + 1]; e++) {
      if (edgeTypes[edges[e * edgeFields + eType]] !== 'property') continue;
      const name = strings[edges[e * edgeFields + eName]];
      if (name !== '__proto__' && name !== 'map') names.push(name);
    }
    return names.length > 8 ? `${names.slice(0, 8).join(',')},…` : names.join(',');
  };
  /** What a node is, for grouping: an object's constructor, else its type (a string's content is not a kind). */
  const kindOf = (i) => {
    const type = typeOf(i);
    const name = strings[nodes[i * nodeFields + fName]];
    if (type === 'object' && name === 'Object') return `Object{${shapeOf(i)}}`;
    if (type === 'object' || type === 'native' || type === 'closure' || type === 'hidden')
      return `${type}:${name.length > 60 ? `${name.slice(0, 60)}…` : name}`;
    if (type === 'array' || type === 'code')
      return `${type}:${name.length > 60 ? `${name.slice(0, 60)}…` : name}`;
    return type;
  };

  // The first retainer of every node (by a non-weak edge), and the edge's name.
  const retainer = new Int32Array(count).fill(-1);
  const retainerEdge = new Array(count);
  let edge = 0;
  for (let i = 0; i < count; i++) {
    const edgeCount = nodes[i * nodeFields + fEdges];
    for (let k = 0; k < edgeCount; k++, edge++) {
      const type = edgeTypes[edges[edge * edgeFields + eType]];
      if (type === 'weak' || type === 'shortcut') continue;
      const to = edges[edge * edgeFields + eTo] / nodeFields;
      if (retainer[to] !== -1) continue;
      retainer[to] = i;
      const nameOrIndex = edges[edge * edgeFields + eName];
      retainerEdge[to] =
        type === 'element' || type === 'hidden' ? `[${type}]` : String(strings[nameOrIndex] ?? nameOrIndex);
    }
  }

  const byKind = new Map();
  const byHolder = new Map();
  const add = (map, key, size) => {
    const row = map.get(key);
    if (row) {
      row.size += size;
      row.count++;
    } else map.set(key, { size, count: 1 });
  };
  let total = 0;
  for (let i = 0; i < count; i++) {
    const size = nodes[i * nodeFields + fSize];
    total += size;
    const kind = kindOf(i);
    add(byKind, kind, size);
    if (only !== undefined && kind !== only) continue;
    const holder = retainer[i] === -1 ? '(root)' : `${kindOf(retainer[i])} .${retainerEdge[i]}`;
    add(byHolder, `${kind}  ←  ${holder}`, size);
  }
  // Two levels up: what holds the holder (an array's elements are anonymous; its owner says whose they are).
  const byHolder2 = new Map();
  for (let i = 0; i < count; i++) {
    const size = nodes[i * nodeFields + fSize];
    const r = retainer[i];
    if (r === -1 || (only !== undefined && kindOf(i) !== only)) continue;
    const r2 = retainer[r];
    const up = r2 === -1 ? '(root)' : `${kindOf(r2)} .${retainerEdge[r]}`;
    add(byHolder2, `${kindOf(i)}  ←  ${kindOf(r)} .${retainerEdge[i]}  ←  ${up}`, size);
  }
  const print = (title, map) => {
    process.stdout.write(`\n${title}\n`);
    const rows = [...map].sort((a, b) => b[1].size - a[1].size).slice(0, top);
    for (const [key, { size, count }] of rows)
      process.stdout.write(`${(size / MB).toFixed(2).padStart(8)} MB ${String(count).padStart(9)}  ${key}\n`);
  };
  process.stdout.write(`heap snapshot: ${(total / MB).toFixed(1)} MB in ${count} nodes\n`);
  print('self size by kind', byKind);
  print('self size by kind and first holder', byHolder);
  print('self size by kind and two holders', byHolder2);
}

if (args[0] === '--analyze') {
  analyze(args[1]);
} else {
  if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
  const root = resolve(args[0] ?? 'bench/.corpus/L-g3');
  const build = resolve(process.env.COMPANION_BENCH_BUILD ?? new URL('../..', import.meta.url).pathname);
  const { createCatalogStore } = await import(pathToFileURL(join(build, 'dist/fs/catalog-store.js')).href);
  const t = performance.now();
  const cpu = process.cpuUsage();
  const store = createCatalogStore({ root });
  const loadMs = performance.now() - t;
  const used = process.cpuUsage(cpu);
  await new Promise((done) => setTimeout(done, 0));
  for (let i = 0; i < 3; i++) globalThis.gc();
  const m = process.memoryUsage();
  const row = {
    build,
    root,
    files: store.snapshot().files.size,
    loadMs: Math.round(loadMs),
    loadCpuMs: Math.round((used.user + used.system) / 1000),
    rssMb: +(m.rss / MB).toFixed(1),
    heapUsedMb: +(m.heapUsed / MB).toFixed(1),
    externalMb: +(m.external / MB).toFixed(1),
    arrayBuffersMb: +(m.arrayBuffers / MB).toFixed(1),
  };
  process.stdout.write(`${JSON.stringify(row)}\n`);
  // Where the resident set is: V8's spaces (committed and physical) and the process's mappings.
  for (const space of getHeapSpaceStatistics())
    process.stdout.write(
      `  ${space.space_name.padEnd(26)} size ${(space.space_size / MB).toFixed(1).padStart(6)} MB, used ${(space.space_used_size / MB).toFixed(1).padStart(6)} MB, physical ${(space.physical_space_size / MB).toFixed(1).padStart(6)} MB\n`,
    );
  const smaps = readFileSync('/proc/self/smaps', 'utf8').split('\n');
  const resident = new Map();
  let mapping = '';
  for (const line of smaps) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) mapping = head[1].startsWith('/') ? 'file-backed' : head[1] || '(anonymous)';
    else if (line.startsWith('Rss:'))
      resident.set(mapping, (resident.get(mapping) ?? 0) + Number(line.split(/\s+/)[1]));
  }
  for (const [name, kb] of [...resident].sort((a, b) => b[1] - a[1]))
    process.stdout.write(`  rss ${name.padEnd(22)} ${(kb / 1024).toFixed(1).padStart(7)} MB\n`);
  if (!args.includes('--no-snapshot')) {
    const file = option('--keep', join(tmpdir(), `heap-breakdown-${process.pid}.heapsnapshot`));
    writeHeapSnapshot(file);
    execFileSync(
      process.execPath,
      [
        '--max-old-space-size=8192',
        import.meta.filename ?? process.argv[1],
        '--analyze',
        file,
        '--top',
        String(top),
        ...(only === undefined ? [] : ['--only', only]),
      ],
      {
        stdio: 'inherit',
      },
    );
    if (!args.includes('--keep')) rmSync(file);
  }
}
