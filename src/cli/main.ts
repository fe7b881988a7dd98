/**
 * The composition root of the `companion` CLI: the one module that reads `process.argv`, hands the real process
 * streams and env to a command as its `CommandIo`, and sets `process.exitCode`. It picks a command by its first
 * argument and imports that command's module only then, so `companion check` never loads React, Ink or the MCP
 * SDK. Commands (`src/cli/**`) may also touch the process for what `CommandIo` does not carry (signals, the
 * platform, the Node binary); no module outside `src/cli` does (the lint holds it, `test/lint/rooms.test.ts`).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { limitInlining } from './inlining-budget.js';
import type { Command, CommandIo } from './io.js';
import { capYoungGeneration } from './young-generation.js';

interface CommandEntry {
  readonly summary: string;
  /** Builds a whole catalog: the young generation is capped before it does (young-generation.ts). */
  readonly builds?: true;
  /** Builds once and exits: V8 inlines only small functions (inlining-budget.ts). */
  readonly once?: true;
}

/** Every command, in the order usage lists them; each is `./commands/<name>.js` exporting `run: Command`. */
const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  check: {
    summary: 'Check a content repository and report every problem (CI runs this).',
    builds: true,
    once: true,
  },
  init: { summary: 'Scaffold a new content repository that passes check.' },
  serve: { summary: 'Serve the content to an MCP host.', builds: true },
  dev: { summary: 'Serve live while you edit: watch, rebuild, show coverage and problems.', builds: true },
  install: { summary: 'Put the server and its skills where each host looks.' },
  uninstall: { summary: 'Take back exactly what install wrote, and nothing else.' },
  doctor: { summary: 'Say whether each host found here points at this server and has fresh skills.' },
};

const USAGE = `Usage: companion <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, entry]) => `  ${name.padEnd(11)}${entry.summary}`)
  .join('\n')}

Options:
  -h, --help     Show this help.
  --version      Print the version.

Run \`companion <command> --help\` for the options of a command.
`;

async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.stderr.write(USAGE);
    return 2;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    io.stdout.write(USAGE);
    return 0;
  }
  if (first === '--version') {
    io.stdout.write(`${readVersion()}\n`);
    return 0;
  }
  if (!Object.hasOwn(COMMANDS, first)) {
    const what = first.startsWith('-') ? `unknown option '${first}'` : `unknown command '${first}'`;
    io.stderr.write(`companion: ${what}\n\n${USAGE}`);
    return 2;
  }
  if (COMMANDS[first]?.builds) capYoungGeneration();
  if (COMMANDS[first]?.once) limitInlining();
  const run = await loadCommand(first);
  return run(rest, io);
}

async function loadCommand(name: string): Promise<Command> {
  const url = new URL(`./commands/${name}.js`, import.meta.url);
  let module: { run?: Command };
  try {
    module = (await import(url.href)) as { run?: Command };
  } catch (error) {
    // Only the command's own module missing is "not available"; a missing import inside it is a real error.
    // Node names the missing module in quotes, and its importer after "imported from".
    if (isModuleNotFound(error) && error.message.includes(`'${fileURLToPath(url)}'`)) {
      throw new Error(`the ${name} command is not available in this build`);
    }
    throw error;
  }
  if (typeof module.run !== 'function') throw new Error(`the ${name} command module exports no run()`);
  return module.run;
}

function isModuleNotFound(error: unknown): error is Error {
  return error instanceof Error && (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND';
}

/** The version in package.json, two directories up from `src/cli/`, `dist/cli/` and `dist/bundle/` alike. */
function readVersion(): string {
  const require = createRequire(import.meta.url);
  return (require('../../package.json') as { version: string }).version;
}

/** One line on stderr; the stack only when `COMPANION_DEBUG` is set, because users need the what, not the where. */
function reportCrash(error: unknown): void {
  const debug = process.env.COMPANION_DEBUG !== undefined && process.env.COMPANION_DEBUG !== '';
  if (debug && error instanceof Error && error.stack !== undefined) {
    process.stderr.write(`companion: ${error.stack}\n`);
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`companion: ${message.split('\n')[0]}\n`);
}

// A reader that closes the pipe early (`companion check | head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.on('uncaughtException', (error) => {
  reportCrash(error);
  process.exit(1);
});
process.on('unhandledRejection', (reason) => {
  reportCrash(reason);
  process.exit(1);
});

const io: CommandIo = {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
};

try {
  process.exitCode = await main(process.argv.slice(2), io);
} catch (error) {
  reportCrash(error);
  process.exitCode = 1;
}
