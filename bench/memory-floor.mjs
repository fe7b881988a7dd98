#!/usr/bin/env node
/**
 * The memory floor of any server that keeps a corpus in memory: a bare Node process that walks `knowledge/` and
 * `skills/` and holds every file's bytes (`bytes`), or the bytes and the decoded text of every UTF-8 file
 * (`text`: what a server that reads bytes to answer `resources/read` and searches text holds at least). Prints
 * RSS and heap after a full GC as JSON. `text-only` holds the text of every UTF-8 file instead of its bytes (and
 * the bytes of the rest): one representation per file, the text kept and encoded again when bytes are asked
 * for; it also prints how long decoding and encoding every file takes, what either choice pays on demand.
 * Run with `--expose-gc`; `memory.mjs` runs it beside the store.
 *
 *   node --expose-gc bench/memory-floor.mjs <root> <bytes|text|text-only>
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [root, mode] = process.argv.slice(2);
const held = [];
let decodeMs = 0;
const strict = new TextDecoder('utf-8', { fatal: true });
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (entry.isFile()) {
      const bytes = readFileSync(path);
      if (mode !== 'text-only') held.push(bytes);
      if (mode === 'text' || mode === 'text-only') {
        try {
          const started = performance.now();
          const text = strict.decode(bytes);
          decodeMs += performance.now() - started;
          held.push(text);
        } catch {
          // Binary: bytes only.
          if (mode === 'text-only') held.push(bytes);
        }
      }
    }
  }
};
for (const dir of ['knowledge', 'skills']) walk(join(root, dir));
for (let i = 0; i < 3; i++) globalThis.gc();
const m = process.memoryUsage();
// Encoding every held text again: what a text-only store pays to hash, or to answer a read as bytes.
const started = performance.now();
for (const item of held) if (typeof item === 'string') Buffer.from(item, 'utf8');
const encodeMs = performance.now() - started;
process.stdout.write(
  `${JSON.stringify({ mode, files: held.length, rssMb: m.rss / 1048576, heapUsedMb: m.heapUsed / 1048576, ...(mode === 'bytes' ? {} : { decodeMs, encodeMs }) })}\n`,
);
