/**
 * The names this product goes by, defined once: the npm package, the command it installs, and how an author runs
 * that command. Every message, scaffold and host entry that names one reads it from here.
 */

/** The npm package (`npm install --save-dev companion-mcp`). `companion` on npm is an unrelated package. */
export const PACKAGE_NAME = 'companion-mcp';

/** The command the package installs (`bin`), and the name hosts and messages know it by. */
export const COMMAND_NAME = 'companion';

/**
 * How an author runs a command in a project that has the package installed: `npx` finds the project's own copy.
 * (Outside such a project, `npx companion` would download the unrelated package of that name.)
 */
export const RUN_PREFIX = `npx ${COMMAND_NAME}`;

/**
 * `npx companion check --root 'my content'`: the way messages print a command to run, each argument quoted for a
 * POSIX shell when it needs it, so the line can be pasted as it stands.
 */
export function formatRunCommand(...args: readonly string[]): string {
  return [RUN_PREFIX, ...args.map(quoteShellArg)].join(' ');
}

/** `arg` as a POSIX shell reads it back: unchanged when it is plain, else in single quotes. */
export function quoteShellArg(arg: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** The environment variable that hides tools from a server (`companion serve`, `companion dev`). */
export const EXCLUDE_TOOLS_VARIABLE = 'COMPANION_EXCLUDE_TOOLS';
