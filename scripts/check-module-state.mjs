#!/usr/bin/env node
/**
 * No module-level mutable state in the pure core: every cache, memo, index or scratch buffer is created by the
 * builder (or an object it owns) and dropped with it, never kept by a module for the life of the process (#17.2).
 * Biome has no rule that says this, so this script does, with the TypeScript compiler's parser and binder. At the
 * top level of every `.ts` file below the root (default `src/core`) it rejects:
 *
 * - `let` and `var` declarations;
 * - `new WeakMap / WeakSet / WeakRef / FinalizationRegistry` (a memo: declare a `memoTable` and let the
 *   builder's `Memo` hold it);
 * - `new Map / Set` unless declared `ReadonlyMap` / `ReadonlySet` (a constant lookup table);
 * - `new` of anything else but TextDecoder, TextEncoder, RegExp and URL, and a call of a `create*` factory
 *   (what a factory makes is state);
 * - a top-level binding mutated anywhere in its file: assigned through (`X.a = …`, `X[i] = …`, `delete X.a`,
 *   `X.a++`), or called with a mutating method (`push`, `set`, `add`, `clear`, `sort`, …);
 * - a global or sticky regular expression at top level used with `exec` or `test` (its `lastIndex` is state).
 *
 *   node scripts/check-module-state.mjs [root …]
 *
 * Prints one line per finding (`file:line:column message`) and exits 1 when there is any.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const MEMO_CLASSES = new Set(['WeakMap', 'WeakSet', 'WeakRef', 'FinalizationRegistry']);
const READONLY_TYPES = { Map: 'ReadonlyMap', Set: 'ReadonlySet' };
const STATELESS_CLASSES = new Set(['TextDecoder', 'TextEncoder', 'RegExp', 'URL']);
const MUTATORS = new Set([
  'push',
  'pop',
  'shift',
  'unshift',
  'splice',
  'sort',
  'reverse',
  'fill',
  'copyWithin',
  'set',
  'add',
  'delete',
  'clear',
]);

function listFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The expression under parentheses, `as`, `satisfies`, `!` and `Object.freeze(…)`. */
function unwrap(node) {
  for (;;) {
    if (
      ts.isParenthesizedExpression(node) ||
      ts.isAsExpression(node) ||
      ts.isSatisfiesExpression(node) ||
      ts.isNonNullExpression(node)
    ) {
      node = node.expression;
    } else if (
      ts.isCallExpression(node) &&
      node.expression.getText() === 'Object.freeze' &&
      node.arguments.length === 1
    ) {
      node = node.arguments[0];
    } else return node;
  }
}

/** The identifier an access chain starts from (`a` of `a.b[c].d`), if any. */
function rootOf(node) {
  while (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) node = node.expression;
  return ts.isIdentifier(node) ? node : undefined;
}

export function checkModuleState(roots) {
  const files = roots.flatMap((root) => listFiles(resolve(root)));
  const program = ts.createProgram(files, {
    noResolve: true,
    noLib: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
  });
  const checker = program.getTypeChecker();
  const findings = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    const report = (node, message) => {
      const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
      findings.push(`${relative(repoRoot, file)}:${line + 1}:${character + 1} ${message}`);
    };
    /** Top-level bindings, by symbol: what each is, for the mutation checks below. */
    const topLevel = new Map();
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      const list = statement.declarationList;
      const isConst = (list.flags & ts.NodeFlags.Const) !== 0;
      for (const declaration of list.declarations) {
        const name = declaration.name.getText(source);
        if (!isConst) {
          report(declaration, `\`${name}\`: a module-level \`let\`/\`var\` is state with no owner`);
          continue;
        }
        if (ts.isIdentifier(declaration.name)) {
          const symbol = checker.getSymbolAtLocation(declaration.name);
          const init = declaration.initializer && unwrap(declaration.initializer);
          const globalRegExp =
            init !== undefined &&
            ts.isRegularExpressionLiteral(init) &&
            /\/[a-z]*[gy][a-z]*$/.test(init.text);
          if (symbol) topLevel.set(symbol, { name, globalRegExp });
        }
        const init = declaration.initializer && unwrap(declaration.initializer);
        if (init === undefined) continue;
        if (ts.isNewExpression(init)) {
          const cls = init.expression.getText(source);
          if (MEMO_CLASSES.has(cls)) {
            report(
              declaration,
              `\`${name}\`: a module-level ${cls} is a cache with no owner (use memoTable)`,
            );
          } else if (cls in READONLY_TYPES) {
            const type = declaration.type?.getText(source) ?? '';
            if (!type.startsWith(READONLY_TYPES[cls])) {
              report(
                declaration,
                `\`${name}\`: a module-level ${cls} must be declared ${READONLY_TYPES[cls]} (a constant table), or owned`,
              );
            }
          } else if (!STATELESS_CLASSES.has(cls)) {
            report(declaration, `\`${name}\`: a module-level \`new ${cls}\` is state with no owner`);
          }
        } else if (ts.isCallExpression(init)) {
          const callee = init.expression;
          const called = ts.isIdentifier(callee)
            ? callee.text
            : ts.isPropertyAccessExpression(callee)
              ? callee.name.text
              : '';
          if (/^create[A-Z]/.test(called)) {
            report(
              declaration,
              `\`${name}\`: what \`${called}\` makes is state; create it where it is owned`,
            );
          }
        }
      }
    }
    const bindingOf = (node) => {
      const root = rootOf(node);
      const symbol = root && checker.getSymbolAtLocation(root);
      return symbol && topLevel.get(symbol);
    };
    const visit = (node) => {
      if (ts.isBinaryExpression(node) && isAssignment(node.operatorToken.kind)) {
        const target = node.left;
        if (ts.isPropertyAccessExpression(target) || ts.isElementAccessExpression(target)) {
          const binding = bindingOf(target);
          if (binding) report(node, `\`${binding.name}\` is module-level and mutated here`);
        }
      } else if (
        (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
        (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)
      ) {
        const binding =
          (ts.isPropertyAccessExpression(node.operand) || ts.isElementAccessExpression(node.operand)) &&
          bindingOf(node.operand);
        if (binding) report(node, `\`${binding.name}\` is module-level and mutated here`);
      } else if (ts.isDeleteExpression(node)) {
        const binding = bindingOf(node.expression);
        if (binding) report(node, `\`${binding.name}\` is module-level and mutated here`);
      } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const method = node.expression.name.text;
        const binding = bindingOf(node.expression.expression);
        if (binding && MUTATORS.has(method)) {
          report(node, `\`${binding.name}\` is module-level and mutated here (\`${method}\`)`);
        } else if (binding?.globalRegExp && (method === 'exec' || method === 'test')) {
          report(
            node,
            `\`${binding.name}\` is a module-level global RegExp: \`${method}\` keeps its lastIndex`,
          );
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return findings;
}

function isAssignment(kind) {
  return kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const roots = process.argv.slice(2);
  const findings = checkModuleState(roots.length > 0 ? roots : [join(repoRoot, 'src/core')]);
  for (const finding of findings) process.stdout.write(`${finding}\n`);
  if (findings.length > 0) {
    process.stderr.write(
      `${findings.length} module-level state finding(s): state in src/core has an owner (see src/core/memo.ts).\n`,
    );
    process.exit(1);
  }
}
