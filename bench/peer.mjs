#!/usr/bin/env node
/**
 * companion against the official SDK's skills catalog (`@modelcontextprotocol/server` 2.4, `loadSkills`), same
 * corpus, same run, every measurement in a fresh process (bench/peer-worker.mjs), sides interleaved A B A B.
 *
 * Rows:
 * - cold load: peer `loadSkills(<root>/skills)` against companion `readSnapshot + buildCatalog` of the whole
 *   corpus (what `check`/`serve` do; 10× the peer's files on L) and of `skills/` alone (the same bytes the peer
 *   reads; companion additionally parses and checks every Markdown file and serves `references/base.md`).
 * - skills/list over stdio, as a host runs both: `companion serve --root <root>` beside bench/peer-server.mjs
 *   (`loadSkills` attached to an `McpServer` on `StdioServerTransport`), one raw line-delimited JSON-RPC client
 *   for both that parses every response (2025-11-25), full paginations taking turns A B B A. The goal row.
 *   What it measures is the steady thing a host sees when it lists again (after a `list_changed`, or in a new
 *   chat): a server that has finished starting. So both sides, alike: started, initialized and walked once (the
 *   host's connect burst), then left alone until the server process is idle — no CPU over two 500 ms windows in a
 *   row, from /proc (companion's background search warm-up, which begins once a host has been quiet for 250 ms,
 *   runs then; and both sides' collections after their start) — then 10 untimed walks each (JIT), then the timed
 *   rounds. Beside the wall time, each server's CPU per walk over the timed rounds (/proc: user+sys, 10 ms
 *   ticks summed over every timed walk, background work included), which load moves far less than wall, and
 *   the client's own CPU in each side's walks (parsing what that side sent).
 * - skills/list in process: the same pagination over an in-memory transport (no wire: the raw client
 *   serializes each response object itself), each side's default page size (peer 100, companion 100).
 * - edit → consistent new manifest: one skill reference rewritten, then peer `reload()` against companion
 *   `store.applyChanges([path])`, until the manifest carries the new digest.
 *
 *   node bench/peer.mjs <S|M|L> [--rounds N] [--stdio (the skills/list over stdio row alone)]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ensureCorpus } from './generate-corpus.mjs';
import { assertBuilt, binPath, log, median } from './lib.mjs';

const worker = fileURLToPath(new URL('./peer-worker.mjs', import.meta.url));
const peerServer = fileURLToPath(new URL('./peer-server.mjs', import.meta.url));

/**
 * A stdio MCP server as a host drives it: spawned, one JSON-RPC message per line each way, every response line
 * parsed. `request` resolves with the parsed result and the length of the line it came in; `cpuMs` is the
 * process's CPU so far (user+sys, from /proc; undefined where there is none).
 */
export async function startStdioServer(command, args) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let buffer = '';
  let stderr = '';
  const pending = new Map();
  let nextId = 1;
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-2000);
  });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    let at = buffer.indexOf('\n');
    while (at !== -1) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      const message = JSON.parse(line);
      const entry = pending.get(message.id);
      if (entry) {
        pending.delete(message.id);
        if (message.error) entry.reject(new Error(`${message.error.code} ${message.error.message}`));
        else entry.resolve({ result: message.result, bytes: line.length });
      }
      at = buffer.indexOf('\n');
    }
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      exited.then(() => reject(new Error(`${command} exited; stderr: ${stderr}`)));
    });
  await request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'companion-bench', version: '1.0.0' },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return {
    request,
    cpuMs: () => readCpuMs(child.pid),
    async close() {
      child.stdin.end();
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      child.kill('SIGKILL');
    },
  };
}

/** A process's CPU so far (user+sys, ms; 10 ms ticks), or undefined without /proc. */
function readCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
const TICKS_PER_SECOND = 100;

/**
 * Resolves once `server` has used no CPU (at most one tick) over two 500 ms windows in a row, or after
 * `timeoutMs`; answers how long that took, or undefined without /proc.
 */
export async function settle(server, timeoutMs = 60_000) {
  const began = performance.now();
  if (server.cpuMs() === undefined) return undefined;
  let quiet = 0;
  while (quiet < 2 && performance.now() - began < timeoutMs) {
    const before = server.cpuMs();
    await new Promise((resolve) => setTimeout(resolve, 500));
    quiet = server.cpuMs() - before <= 1000 / TICKS_PER_SECOND ? quiet + 1 : 0;
  }
  return performance.now() - began;
}

/** Every page of `skills/list`: pages, skills and the bytes of the response lines. */
export async function walkSkills(server) {
  let cursor;
  let pages = 0;
  let skills = 0;
  let bytes = 0;
  do {
    const answer = await server.request('skills/list', cursor === undefined ? {} : { cursor });
    pages++;
    skills += answer.result.skills.length;
    bytes += answer.bytes;
    cursor = answer.result.nextCursor;
  } while (cursor !== undefined);
  return { pages, skills, bytes };
}

/**
 * Full `skills/list` paginations over stdio of two settled servers (see the header), peer and companion taking
 * turns A B B A for `rounds` rounds: the median wall of each, and each server's CPU per timed walk.
 */
async function listOverStdio(info, rounds) {
  const servers = {
    peer: await startStdioServer(process.execPath, [peerServer, info.root]),
    companion: await startStdioServer(process.execPath, [binPath, 'serve', '--root', info.root]),
  };
  const sides = Object.keys(servers);
  const times = { peer: [], companion: [] };
  const cpu = { peer: 0, companion: 0 };
  /** The client's own CPU in each side's timed walks (parsing what that side sent). */
  const clientCpu = { peer: 0, companion: 0 };
  const settledMs = {};
  const walks = {};
  try {
    for (const side of sides) await walkSkills(servers[side]);
    for (const side of sides) settledMs[side] = await settle(servers[side]);
    for (let i = 0; i < 10; i++)
      for (const side of i % 2 ? [...sides].reverse() : sides) await walkSkills(servers[side]);
    const before = Object.fromEntries(sides.map((side) => [side, servers[side].cpuMs()]));
    for (let round = 0; round < rounds; round++) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const started = performance.now();
        const clientBefore = process.cpuUsage();
        walks[side] = await walkSkills(servers[side]);
        times[side].push(performance.now() - started);
        const { user, system } = process.cpuUsage(clientBefore);
        clientCpu[side] += (user + system) / 1000 / rounds;
      }
    }
    for (const side of sides) cpu[side] = (servers[side].cpuMs() - before[side]) / rounds;
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.close()));
  }
  if (walks.peer.skills !== info.skills || walks.companion.skills !== info.skills) {
    throw new Error(`skills/list over stdio: peer ${walks.peer.skills}, companion ${walks.companion.skills}`);
  }
  return {
    peerMs: median(times.peer),
    companionMs: median(times.companion),
    peerCpuMs: cpu.peer,
    companionCpuMs: cpu.companion,
    clientCpuMs: clientCpu,
    settledMs,
    walks,
  };
}

function runWorker(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [worker, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.once('error', reject);
    child.once('close', (code) => {
      const line = stdout.trim().split('\n').at(-1);
      if (code !== 0 || !line)
        reject(new Error(`peer-worker ${args.join(' ')} exited ${code}: ${stderr.slice(-800)}`));
      else resolve(JSON.parse(line));
    });
  });
}

export async function runPeer({ size = 'L', rounds } = {}) {
  assertBuilt();
  const info = ensureCorpus(size, { log });
  const n = rounds ?? (size === 'L' ? 2 : 3);
  const listReps = size === 'L' ? 30 : 20;
  const editReps = size === 'L' ? 3 : 10;
  const cold = { peer: [], companion: [], companionSkills: [] };
  const warm = { peer: [], companion: [] };
  for (let round = 0; round < n; round++) {
    const coldOrder =
      round % 2 === 0 ? ['peer', 'companion', 'companionSkills'] : ['companionSkills', 'companion', 'peer'];
    for (const side of coldOrder) {
      const op =
        side === 'peer' ? 'cold-peer' : side === 'companion' ? 'cold-companion' : 'cold-companion-skills';
      cold[side].push(await runWorker([op, info.root]));
    }
    const warmOrder = round % 2 === 0 ? ['peer', 'companion'] : ['companion', 'peer'];
    for (const side of warmOrder) {
      warm[side].push(await runWorker([`warm-${side}`, info.root, String(listReps), String(editReps)]));
    }
    log(
      `peer ${size} round ${round + 1}/${n}: cold peer ${cold.peer.at(-1).ms.toFixed(0)} ms / companion ${cold.companion.at(-1).ms.toFixed(0)} ms; reload ${median(warm.peer.at(-1).editTimes).toFixed(0)} ms / apply ${median(warm.companion.at(-1).editTimes).toFixed(0)} ms`,
    );
  }
  const coldMs = (side) => median(cold[side].map((r) => r.ms));
  const listMs = (side) => median(warm[side].flatMap((r) => r.times));
  const editMs = (side) => median(warm[side].flatMap((r) => r.editTimes));
  const stdio = await listOverStdio(info, 30);
  log(
    `peer ${size} skills/list over stdio: peer ${stdio.peerMs.toFixed(1)} ms, companion ${stdio.companionMs.toFixed(1)} ms; ` +
      `server CPU a walk ${stdio.peerCpuMs?.toFixed(1)} vs ${stdio.companionCpuMs?.toFixed(1)} ms, the client's ${stdio.clientCpuMs.peer.toFixed(1)} vs ${stdio.clientCpuMs.companion.toFixed(1)} ms; ` +
      `settled after ${stdio.settledMs.peer?.toFixed(0)} / ${stdio.settledMs.companion?.toFixed(0)} ms`,
  );
  const peerSkills = cold.peer[0].skills;
  const companionSkills = cold.companion[0].skills;
  if (peerSkills !== info.skills || companionSkills !== info.skills) {
    throw new Error(
      `skill counts differ: corpus ${info.skills}, peer ${peerSkills}, companion ${companionSkills}`,
    );
  }
  return {
    size,
    rounds: n,
    skills: info.skills,
    peerWarnings: cold.peer[0].warnings,
    rows: [
      {
        row: 'cold load: peer skills/ vs companion whole corpus',
        peerMs: coldMs('peer'),
        companionMs: coldMs('companion'),
      },
      {
        row: 'cold load: peer vs companion, skills/ only',
        peerMs: coldMs('peer'),
        companionMs: coldMs('companionSkills'),
      },
      {
        row: 'skills/list, full pagination over stdio (`serve`)',
        goal: 1.2,
        peerMs: stdio.peerMs,
        companionMs: stdio.companionMs,
        note: `${stdio.walks.peer.pages} vs ${stdio.walks.companion.pages} pages, ${(stdio.walks.peer.bytes / 1e3).toFixed(0)} vs ${(stdio.walks.companion.bytes / 1e3).toFixed(0)} KB on the wire; server CPU a walk ${stdio.peerCpuMs?.toFixed(1)} vs ${stdio.companionCpuMs?.toFixed(1)} ms (settled servers, 30 rounds)`,
      },
      {
        row: 'skills/list, full pagination in process (no wire)',
        peerMs: listMs('peer'),
        companionMs: listMs('companion'),
        note: `${warm.peer[0].pages} vs ${warm.companion[0].pages} pages, ${(warm.peer[0].bytes / 1e3).toFixed(0)} vs ${(warm.companion[0].bytes / 1e3).toFixed(0)} KB`,
      },
      { row: 'edit → consistent new manifest', peerMs: editMs('peer'), companionMs: editMs('companion') },
    ].map((r) => ({ ...r, ratio: r.peerMs / r.companionMs })),
    rssAfterLoadMb: {
      peerCold: median(cold.peer.map((r) => r.rssMb)),
      companionCold: median(cold.companion.map((r) => r.rssMb)),
      companionSkillsCold: median(cold.companionSkills.map((r) => r.rssMb)),
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const size = args.find((a) => !a.startsWith('--')) ?? 'L';
  const at = args.indexOf('--rounds');
  if (args.includes('--stdio')) {
    // The goal row alone.
    assertBuilt();
    const { walks, ...stdio } = await listOverStdio(ensureCorpus(size, { log }), 30);
    process.stdout.write(`${JSON.stringify({ ...stdio, ratio: stdio.peerMs / stdio.companionMs })}\n`);
    process.exit(0);
  }
  const result = await runPeer({ size, rounds: at >= 0 ? Number(args[at + 1]) : undefined });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
