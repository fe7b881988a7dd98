/**
 * Holds TurboFan's inlining to small functions for a command that builds once and exits (`check`).
 *
 * Measured on L (RESULTS.md, branch `checkread`): of `check`'s ~2 s of CPU, ~0.5 s ran on the other core as
 * TurboFan compiling the build's hot functions (~250 compiles, `--trace-opt`), most of it inlining whole call
 * trees into the big ones (one function's compile alone took 100–150 ms). A daemon earns that back over hours of
 * rebuilds and reads; a check, which runs each function's hot loop for about a second, does not. With V8's
 * cumulative inlining budget at 50 bytes of bytecode (default 920), small functions are still inlined, the main
 * thread's time stays the same within the noise, and the compiles cost ~40% less.
 *
 * V8 reads the budget at every compile, so setting it at run time holds for everything compiled after. Only the
 * CLI's composition root calls this, for `check` alone: `serve` and `dev` keep V8's defaults (their rebuilds and
 * reads run the same code for hours), and the core is a library that does not touch its host's V8 flags.
 */
import { setFlagsFromString } from 'node:v8';

/** The cumulative bytecode V8 may inline into one optimized function, for a one-shot build (default 920). */
export const ONE_SHOT_INLINING_BYTES = 50;

/** Sets V8's inlining budget for the rest of the process: call it once, at the start of a one-shot command. */
export function limitInlining(bytes: number = ONE_SHOT_INLINING_BYTES): void {
  setFlagsFromString(`--max-inlined-bytecode-size-cumulative=${bytes}`);
}
