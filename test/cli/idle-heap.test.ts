import { getHeapSpaceStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { minorCollection, startIdleHeap } from '../../src/cli/idle-heap.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('minorCollection', () => {
  it('scavenges without leaving gc to any other context', () => {
    const scavenge = minorCollection();
    expect(scavenge).toBeTypeOf('function');
    const young = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    // Garbage in the young generation, then a scavenge: what it used drops.
    let garbage: unknown[] | undefined = Array.from({ length: 20_000 }, (_, i) => ({ i }));
    garbage = undefined;
    const before = young()!.space_used_size;
    scavenge!();
    expect(young()!.space_used_size).toBeLessThan(before);
    expect(garbage).toBeUndefined();
    // The flag was set only for the moment of taking the function.
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});

describe('startIdleHeap', () => {
  it('scavenges at each look while the young generation is larger than the bound, and stops', () => {
    vi.useFakeTimers();
    let young = 32 * 2 ** 20;
    const collect = vi.fn(() => {
      young = 2 ** 20;
    });
    const stop = startIdleHeap(collect, { everyMs: 1000, readYoung: () => young });
    vi.advanceTimersByTime(999);
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(collect).toHaveBeenCalledTimes(1);
    // Small now: looking costs nothing more.
    vi.advanceTimersByTime(5000);
    expect(collect).toHaveBeenCalledTimes(1);
    // Grown again (a large rebuild): collected at the next look.
    young = 16 * 2 ** 20;
    vi.advanceTimersByTime(1000);
    expect(collect).toHaveBeenCalledTimes(2);
    young = 16 * 2 ** 20;
    stop();
    vi.advanceTimersByTime(10_000);
    expect(collect).toHaveBeenCalledTimes(2);
  });

  it('does nothing without a way to collect', () => {
    expect(startIdleHeap(undefined)).toBeTypeOf('function');
  });
});
