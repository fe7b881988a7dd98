#!/usr/bin/env node
/**
 * One measurement of the peer comparison in a fresh process, so neither side inherits the other's heap, JIT
 * state or memo caches. Prints one JSON line.
 *
 *   node bench/peer-worker.mjs <op> <root> [reps]
 *
 * ops:
 *   cold-peer               loadSkills(<root>/skills) from @modelcontextprotocol/server 2.4
 *   cold-companion          readSnapshot(<root>) + buildCatalog: the whole corpus (documents and skills)
 *   cold-companion-skills   the same over skills/ only (the bytes the peer reads)
 *   list-peer / list-companion   full skills/list pagination over an in-memory transport, `reps` times
 *   edit-peer / edit-companion   rewrite one skill reference, then a consistent new manifest: peer `reload()`,
 *                                companion `store.applyChanges([path])`; `reps` times
 *   warm-peer / warm-companion   one load, then list-* with `reps`, then edit-* with `editReps` (one process)
 *
 * The skills/list client is the same raw JSON-RPC client for both sides (no client SDK): it sends the request
 * and JSON-serializes each response, as a wire would, so both sides pay the same client-side costs.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distDir } from './lib.mjs';

const importDist = (path) => import(pathToFileURL(join(distDir, path)).href);
const [op, root, repsArg, editRepsArg] = process.argv.slice(2);
const reps = Number(repsArg ?? 5);
const editReps = Number(editRepsArg ?? 0);
const info = JSON.parse(readFileSync(join(root, '.bench-corpus.json'), 'utf8'));
const sha256 = (bytes) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const rssMb = () => process.memoryUsage().rss / 1024 / 1024;
const out = (result) => process.stdout.write(`${JSON.stringify({ op, ...result })}\n`);

/** A JSON-RPC client over any transport with start/send/onmessage (SDK v1 and v2 in-memory transports). */
async function rawClient(transport) {
  let nextId = 1;
  const pending = new Map();
  let bytes = 0;
  transport.onmessage = (message) => {
    const text = JSON.stringify(message);
    bytes += text.length;
    const entry = pending.get(message.id);
    if (entry) {
      pending.delete(message.id);
      if (message.error) entry.reject(new Error(`${message.error.code} ${message.error.message}`));
      else entry.resolve(message.result);
    }
  };
  await transport.start();
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      transport.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    });
  await request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'companion-bench', version: '1.0.0' },
  });
  await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    request,
    takeBytes() {
      const b = bytes;
      bytes = 0;
      return b;
    },
  };
}

async function listAll(client) {
  let cursor;
  let pages = 0;
  let skills = 0;
  client.takeBytes();
  do {
    const result = await client.request('skills/list', cursor === undefined ? {} : { cursor });
    pages++;
    skills += result.skills.length;
    cursor = result.nextCursor;
  } while (cursor !== undefined);
  return { pages, skills, bytes: client.takeBytes() };
}

async function timeListing(client) {
  await listAll(client); // warm-up: JIT and first-use schema construction
  const times = [];
  let last;
  for (let i = 0; i < reps; i++) {
    const started = performance.now();
    last = await listAll(client);
    times.push(performance.now() - started);
  }
  return { times, ...last };
}

async function loadPeer() {
  const { loadSkills } = await import('@modelcontextprotocol/server/ext/skills/node');
  let warnings = 0;
  const started = performance.now();
  const catalog = await loadSkills(join(root, 'skills'), {
    onWarning: () => {
      warnings++;
    },
  });
  return { catalog, ms: performance.now() - started, warnings };
}

async function loadCompanion(skillsOnly) {
  const { readSnapshot, createReader, createReadResult, buildSnapshot } =
    await importDist('fs/read-snapshot.js');
  const { buildCatalog } = await importDist('core/catalog.js');
  const started = performance.now();
  let snapshot;
  if (skillsOnly) {
    const reader = createReader(root);
    const result = createReadResult();
    reader.read('skills', result);
    snapshot = buildSnapshot(result.files, result.problems);
  } else snapshot = readSnapshot(root);
  const { catalog, diagnostics } = buildCatalog(snapshot);
  return { catalog, diagnostics, ms: performance.now() - started };
}

/** Rewrites the edit target `reps` times; `apply` must make a manifest with the new digest current. */
async function timeEdits(apply, findDigest, count = reps) {
  const target = info.editTargets.reference;
  const path = join(root, target.path);
  const original = readFileSync(path);
  const times = [];
  try {
    for (let i = 0; i < count; i++) {
      const bytes = Buffer.concat([original, Buffer.from(`\n\nPeer edit ${i + 1} at rep ${i}.\n`)]);
      writeFileSync(path, bytes);
      const started = performance.now();
      await apply(target);
      const elapsed = performance.now() - started;
      const digest = findDigest(target);
      if (digest !== sha256(bytes))
        throw new Error(`${op}: manifest digest ${digest} is not the new bytes' ${sha256(bytes)}`);
      times.push(elapsed);
    }
  } finally {
    writeFileSync(path, original);
  }
  return times;
}

const peerUri = (target) => target.uri.replace(`${info.scheme}://skill/`, 'skill://');

switch (op) {
  case 'cold-peer': {
    const { catalog, ms, warnings } = await loadPeer();
    out({ ms, skills: catalog.entries.length, warnings, rssMb: rssMb() });
    break;
  }
  case 'cold-companion':
  case 'cold-companion-skills': {
    const { catalog, diagnostics, ms } = await loadCompanion(op === 'cold-companion-skills');
    out({
      ms,
      skills: catalog.skills.length,
      documents: catalog.documents.length,
      diagnostics: diagnostics.length,
      rssMb: rssMb(),
    });
    break;
  }
  case 'list-peer':
  case 'edit-peer':
  case 'warm-peer': {
    const { McpServer, InMemoryTransport } = await import('@modelcontextprotocol/server');
    const { catalog, ms } = await loadPeer();
    const result = { loadMs: ms };
    if (op !== 'edit-peer') {
      const mcp = new McpServer({ name: 'peer', version: '1.0.0' });
      catalog.attach(mcp);
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await mcp.connect(serverSide);
      Object.assign(result, await timeListing(await rawClient(clientSide)));
    }
    if (op !== 'list-peer') {
      result.editTimes = await timeEdits(
        () => catalog.reload(),
        (target) => {
          const uri = peerUri(target);
          for (const skill of catalog.entries)
            for (const r of skill.resources) if (r.uri === uri) return r.digest;
          return undefined;
        },
        op === 'edit-peer' ? reps : editReps,
      );
    }
    out(result);
    break;
  }
  case 'list-companion':
  case 'edit-companion':
  case 'warm-companion': {
    // The same SDK and transport as the peer: both sides measure the server, not the plumbing.
    const { InMemoryTransport } = await import('@modelcontextprotocol/server');
    const { createCompanionServer } = await importDist('mcp/create-server.js');
    const { createSessionRegistry } = await importDist('mcp/session-registry.js');
    const { createCatalogStore } = await importDist('fs/catalog-store.js');
    const started = performance.now();
    // The store is what `dev` serves from: the listing reads its current generation, the edits go through it.
    const store = createCatalogStore({ root });
    const result = { loadMs: performance.now() - started };
    if (op !== 'edit-companion') {
      const companion = createCompanionServer(store, {
        era: 'legacy',
        host: createSessionRegistry().open({ id: 'bench', transport: 'stdio' }),
        cacheTtlMs: 0,
      });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await companion.connect(serverSide);
      Object.assign(result, await timeListing(await rawClient(clientSide)));
    }
    if (op !== 'list-companion') {
      result.editTimes = await timeEdits(
        (target) => store.applyChanges([target.path]),
        (target) => {
          for (const skill of store.current().catalog.skills) {
            for (const r of skill.manifest) if (r.uri === target.uri) return r.digest;
          }
          return undefined;
        },
        op === 'edit-companion' ? reps : editReps,
      );
    }
    out(result);
    break;
  }
  default:
    process.stderr.write(`unknown op ${op}\n`);
    process.exit(2);
}
