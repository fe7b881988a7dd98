#!/usr/bin/env node
/**
 * The memory floor of any server that keeps a corpus in memory: a bare Node process that walks `knowledge/` and
 * `skills/` and holds every file's bytes (`bytes`), or the bytes and the decoded text of every UTF-8 file
 * (`text`: what a server that reads bytes to answer `resources/read` and searches text holds at least). Prints
 * RSS and heap after a full GC as JSON. Run with `--expose-gc`; `memory.mjs` runs it beside the store.
 *
 *   node --expose-gc bench/memory-floor.mjs <root> <bytes|text>
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [root, mode] = process.argv.slice(2);
const held = [];
const strict = new TextDecoder('utf-8', { fatal: true });
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (entry.isFile()) {
      const bytes = readFileSync(path);
      held.push(bytes);
      if (mode === 'text') {
        try {
          held.push(strict.decode(bytes));
        } catch {
          // Binary: bytes only.
        }
      }
    }
  }
};
for (const dir of ['knowledge', 'skills']) walk(join(root, dir));
for (let i = 0; i < 3; i++) globalThis.gc();
const m = process.memoryUsage();
process.stdout.write(
  `${JSON.stringify({ mode, files: held.length, rssMb: m.rss / 1048576, heapUsedMb: m.heapUsed / 1048576 })}\n`,
);
