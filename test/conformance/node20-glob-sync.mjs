// `node --import` loader for @modelcontextprotocol/conformance ≥ 0.1.14 on Node 20: its bundle imports
// `globSync` from `fs`, which Node 22 added. A resolve hook hands it a copy of `fs` that has one: the `*`,
// `**` and `?` patterns of a relative glob, matched against a recursive listing of `cwd`.
import { register } from 'node:module';

const fsWithGlobSync = `data:text/javascript,${encodeURIComponent(`
import fs from 'node:fs';
export * from 'node:fs';
export default fs;
const toRegExp = (glob) => new RegExp('^' + glob.split('/').map((part) => part === '**' ? '(?:[^/]+/)*'
  : part.replace(/[.+^\${}()|[\\]\\\\]/g, '\\\\$&').replace(/\\*/g, '[^/]*').replace(/\\?/g, '[^/]') + '/').join('').replace(/\\/$/, '') + '$');
export function globSync(pattern, options = {}) {
  const patterns = (Array.isArray(pattern) ? pattern : [pattern]).map(toRegExp);
  const entries = fs.readdirSync(options.cwd ?? process.cwd(), { recursive: true }).map((entry) => String(entry).replaceAll('\\\\', '/'));
  return entries.filter((entry) => patterns.some((regExp) => regExp.test(entry)));
}`)}`;

register(
  `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && !context.parentURL?.startsWith('data:')) {
    return { url: ${JSON.stringify(fsWithGlobSync)}, shortCircuit: true };
  }
  return next(specifier, context);
}`)}`,
);
