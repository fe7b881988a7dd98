/**
 * Preloaded into a companion child (`NODE_OPTIONS=--require test/helpers/young-probe.cjs`) by
 * test/cli/young-generation.test.ts: as the main thread exits it keeps ~48 MB of 16 KB arrays alive, far more
 * than V8 needs to grow an uncapped young generation to its maximum, then writes one line to stderr:
 * `young-probe {"before":<bytes>,"after":<bytes>}`: one semi-space's usable size (as young-generation.ts reads it)
 * as the process exits, and after that allocation.
 */
const v8 = require('node:v8');
const { isMainThread } = require('node:worker_threads');

const semiSpace = () => {
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  return space.space_used_size + space.space_available_size;
};

if (isMainThread) {
  process.on('exit', () => {
    const before = semiSpace();
    const kept = [];
    for (let i = 0; i < 3072; i++) kept.push(new Array(2048).fill(i));
    process.stderr.write(
      `young-probe ${JSON.stringify({ before, after: semiSpace(), kept: kept.length })}\n`,
    );
  });
}
