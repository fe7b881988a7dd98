/**
 * What a builder's texts leave alive during a build: a text read through a memo is held until the engine
 * releases it (`releaseHeldTexts`), not to the end of the job as a `WeakRef` holds it — a cold build is one job,
 * and every skill text it read stayed reachable to its end. Run in a child process of the built module, with
 * V8's `gc` to measure what stays reachable inside one job.
 */
import { describe, expect, it } from 'vitest';
import { runWithGc } from '../helpers/gc-child.js';

const content = new URL('../../dist/core/content.js', import.meta.url).href;
const memoModule = new URL('../../dist/core/memo.js', import.meta.url).href;

/**
 * In one synchronous job: reads 200 texts of ~50 KB through a memo, measures the heap they keep, releases
 * them, measures again and reads them back; then the same through no memo (a `WeakRef` each).
 */
const script = `
import { readFileText, releaseHeldTexts } from ${JSON.stringify(content)};
import { createMemo } from ${JSON.stringify(memoModule)};
const encoder = new TextEncoder();
const files = Array.from({ length: 200 }, (_, i) => encoder.encode('words '.repeat(8300) + i));
const memo = createMemo();
const base = heap();
const read = files.map((bytes) => readFileText(bytes, memo).read().length);
const heldMb = (heap() - base) / 1048576;
releaseHeldTexts(memo);
const releasedMb = (heap() - base) / 1048576;
const again = files.every((bytes, i) => readFileText(bytes, memo).read() === 'words '.repeat(8300) + i);
releaseHeldTexts(memo);
const weakBase = heap();
for (const bytes of files) readFileText(bytes).read();
const weakMb = (heap() - weakBase) / 1048576;
process.stdout.write(JSON.stringify({ heldMb, releasedMb, again, weakMb, lengths: read.length }));
`;

describe('texts a builder holds', () => {
  it('are held until released, then let go within the same job, and read back the same', () => {
    const out = runWithGc<{
      heldMb: number;
      releasedMb: number;
      again: boolean;
      weakMb: number;
      lengths: number;
    }>(script);
    expect(out.lengths).toBe(200);
    // 200 texts of ~50 KB are ~9.5 MB: held while the build needs them…
    expect(out.heldMb).toBeGreaterThan(8);
    // …and gone once released, though the job has not ended.
    expect(out.releasedMb).toBeLessThan(2);
    expect(out.again).toBe(true);
    // Through no memo, a WeakRef keeps each to the end of the job: what a build held before.
    expect(out.weakMb).toBeGreaterThan(8);
  });
});
