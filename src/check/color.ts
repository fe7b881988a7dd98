/**
 * When to colour, and the few ANSI styles the check renderers use. Renderers take a `color` flag and never look
 * at a stream or the environment themselves; the command decides once with `shouldUseColor`.
 */

/** The part of a stream `shouldUseColor` looks at. */
export interface ColorTarget {
  readonly isTTY?: boolean;
}

/**
 * True when output to `stream` should carry ANSI colour.
 *
 * - `NO_COLOR` set to anything non-empty: never (https://no-color.org), even under `FORCE_COLOR`, because
 *   the person who set it asked for plain text.
 * - `FORCE_COLOR` set: colour unless it is `0` or `false` (CI logs that render ANSI set it).
 * - otherwise colour only on a TTY whose `TERM` is not `dumb`.
 */
export function shouldUseColor(
  stream: ColorTarget,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** A style function: wraps text in one ANSI style, or returns it unchanged when colour is off. */
export type Style = (text: string) => string;

export interface Palette {
  readonly red: Style;
  readonly yellow: Style;
  readonly cyan: Style;
  readonly green: Style;
  readonly dim: Style;
  readonly bold: Style;
}

const identity: Style = (text) => text;

// Each style closes with its own reset code (not the full reset `0`), so styles nest.
const ansi =
  (open: number, close: number): Style =>
  (text) =>
    text === '' ? text : `\u001b[${open}m${text}\u001b[${close}m`;

const colored: Palette = {
  red: ansi(31, 39),
  yellow: ansi(33, 39),
  cyan: ansi(36, 39),
  green: ansi(32, 39),
  dim: ansi(2, 22),
  bold: ansi(1, 22),
};

const plain: Palette = {
  red: identity,
  yellow: identity,
  cyan: identity,
  green: identity,
  dim: identity,
  bold: identity,
};

/** The ANSI palette when `color` is true, else one whose styles return their input unchanged. */
export function createPalette(color: boolean): Palette {
  return color ? colored : plain;
}
