#!/usr/bin/env node
/**
 * companion against the official SDK's skills catalog (`@modelcontextprotocol/server` 2.4, `loadSkills`), same
 * corpus, same run, every measurement in a fresh process (bench/peer-worker.mjs), sides interleaved A B A B.
 *
 * Rows:
 * - cold load: peer `loadSkills(<root>/skills)` against companion `readSnapshot + buildCatalog` of the whole
 *   corpus (what `check`/`serve` do; 10× the peer's files on L) and of `skills/` alone (the same bytes the peer
 *   reads; companion additionally parses and checks every Markdown file and serves `references/base.md`).
 * - skills/list: a full pagination over an in-memory transport with the same raw client, each side's default
 *   page size (peer 100, companion 100).
 * - edit → consistent new manifest: one skill reference rewritten, then peer `reload()` against companion
 *   `store.applyChanges([path])`, until the manifest carries the new digest.
 *
 *   node bench/peer.mjs <S|M|L> [--rounds N]
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureCorpus } from './generate-corpus.mjs';
import { assertBuilt, log, median } from './lib.mjs';

const worker = fileURLToPath(new URL('./peer-worker.mjs', import.meta.url));

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
        row: 'skills/list, full pagination',
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
  const result = await runPeer({ size, rounds: at >= 0 ? Number(args[at + 1]) : undefined });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
