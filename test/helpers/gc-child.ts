/**
 * Memory facts a test can only read after full collections: `script` (an ES module, with `gc` exposed and
 * `heap()` defined as the heap used after three collections) runs in a Node child process and writes one JSON
 * value to stdout, which this answers parsed.
 */
import { execFileSync } from 'node:child_process';

const HEAP =
  'const heap = () => { for (let i = 0; i < 3; i++) gc(); return process.memoryUsage().heapUsed; };\n';

export function runWithGc<T>(script: string): T {
  const output = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', HEAP + script], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  return JSON.parse(output) as T;
}
