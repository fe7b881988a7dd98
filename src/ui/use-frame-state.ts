/**
 * The dev model's state as frames to draw: a change schedules one frame on a timer, at most one every
 * `intervalMs`, and a burst of changes never queues more than that one. The timer runs after the model's own
 * deferred flush, so drawing never sits between a save and the notifications it causes.
 */
import { useEffect, useState } from 'react';
import type { DevModel, DevState } from './dev-state.js';

/** 50 ms: at most 20 frames a second, quicker than an author can read a change and slow enough to cost nothing. */
export const FRAME_INTERVAL_MS = 50;

export function useFrameState(model: DevModel, intervalMs = FRAME_INTERVAL_MS): DevState {
  const [state, setState] = useState(model.getState);
  useEffect(() => {
    let timer: NodeJS.Timeout | undefined;
    let lastFrameAt = Number.NEGATIVE_INFINITY;
    const draw = (): void => {
      timer = undefined;
      lastFrameAt = performance.now();
      setState(model.getState());
    };
    const schedule = (): void => {
      if (timer !== undefined) return;
      timer = setTimeout(draw, Math.max(0, lastFrameAt + intervalMs - performance.now()));
    };
    const stop = model.subscribe(schedule);
    // Anything that changed between the first render and this effect.
    schedule();
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [model, intervalMs]);
  return state;
}
