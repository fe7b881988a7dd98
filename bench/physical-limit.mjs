#!/usr/bin/env node
/**
 * The physical limit of a cold build: one Node process that walks the same tree companion reads (`knowledge/`
 * and `skills/` under a root, hidden names skipped) and reads and SHA-256-hashes every file with
 * `readFileSync`. Nothing is parsed, checked or kept.
 *
 *   node bench/physical-limit.mjs <root>   → prints {"files","bytes","ms"} (ms: the walk alone, in-process)
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function hashTree(root) {
  const started = performance.now();
  let files = 0;
  let bytes = 0;
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const data = readFileSync(path);
        createHash('sha256').update(data).digest('hex');
        files++;
        bytes += data.byteLength;
      }
    }
  };
  walk(join(root, 'knowledge'));
  walk(join(root, 'skills'));
  return { files, bytes, ms: performance.now() - started };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv[2];
  if (!root) {
    process.stderr.write('usage: node bench/physical-limit.mjs <root>\n');
    process.exit(2);
  }
  process.stdout.write(`${JSON.stringify(hashTree(root))}\n`);
}
