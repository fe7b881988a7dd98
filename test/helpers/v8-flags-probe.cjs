/**
 * Preloaded into a companion child (`NODE_OPTIONS=--require test/helpers/v8-flags-probe.cjs`) by
 * test/cli/inlining-budget.test.ts: records every flag the process hands V8 at run time (`v8.setFlagsFromString`,
 * for ES module importers too), and as it exits writes one line to stderr: `v8-flags-probe ["--flag=value", …]`.
 * In a worker thread (which a pool may stop before it exits) it writes each flag as it is set instead:
 * `v8-flags-probe-thread --flag=value`.
 */
const v8 = require('node:v8');
const { isMainThread } = require('node:worker_threads');
const { syncBuiltinESMExports } = require('node:module');

const set = [];
const original = v8.setFlagsFromString;
v8.setFlagsFromString = (flags) => {
  set.push(flags);
  if (!isMainThread) process.stderr.write(`v8-flags-probe-thread ${flags}\n`);
  return original(flags);
};
syncBuiltinESMExports();
if (isMainThread) process.on('exit', () => process.stderr.write(`v8-flags-probe ${JSON.stringify(set)}\n`));
