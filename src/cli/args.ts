/**
 * Argument parsing shared by the commands: `node:util` `parseArgs` in strict mode, with its errors turned into
 * one short sentence a command prints above its usage.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { CommandIo } from './io.js';

/** Exit code for a usage error (bad flag, bad value, missing or unreadable root). */
export const EXIT_USAGE = 2;

type Options = NonNullable<ParseArgsConfig['options']>;

export type ParsedArgs<T extends Options> =
  | {
      readonly ok: true;
      readonly values: ReturnType<
        typeof parseArgs<{ options: T; allowPositionals: true; strict: true }>
      >['values'];
      readonly positionals: string[];
    }
  | { readonly ok: false; readonly message: string };

/**
 * Parses `argv` strictly against `options`. Never throws for bad input: an unknown flag, a missing value or a
 * value given to a boolean answers `{ ok: false, message }`. Positionals are returned for the command to judge.
 */
export function parseCommandArgs<T extends Options>(argv: readonly string[], options: T): ParsedArgs<T> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options,
      allowPositionals: true,
      strict: true,
    });
    return { ok: true, values, positionals };
  } catch (error) {
    if (isParseArgsError(error)) return { ok: false, message: firstSentence(error.message) };
    throw error;
  }
}

/**
 * Prints `companion <command>: <message>`, the command's synopsis (the first line of `usage`) and a pointer to
 * `--help` to stderr, and answers `EXIT_USAGE`. The one way every command reports a usage error.
 */
export function writeUsageError(io: CommandIo, command: string, message: string, usage: string): number {
  const synopsis = usage.split('\n', 1)[0];
  io.stderr.write(
    `companion ${command}: ${message}\n${synopsis}\nRun \`companion ${command} --help\` for the options.\n`,
  );
  return EXIT_USAGE;
}

/** A whole number written in decimal digits only, within `min`..`max`; undefined otherwise ("1e3", "-1", "0x10"). */
export function parseWholeNumber(value: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(value)) return undefined;
  const number = Number(value);
  return number >= min && number <= max ? number : undefined;
}

function isParseArgsError(error: unknown): error is Error {
  const code: unknown = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

// Node's messages go on to explain `--` for positionals that start with a dash; the first sentence is the news.
function firstSentence(message: string): string {
  const end = message.search(/\.\s/);
  const sentence = end === -1 ? message.replace(/\.$/, '') : message.slice(0, end);
  return sentence.charAt(0).toLowerCase() + sentence.slice(1);
}
