/**
 * Ink's frame serializer without a megabyte of garbage per frame.
 *
 * Ink (6.8) turns every frame into text in `Output.get()`: a grid of one fresh object per terminal cell, and for
 * every cell of every row a diff of the styles before and after it — three `Set`s, four arrays and a joined string
 * per cell, whether or not the style changed. At 120×40 that was 8 MB of garbage per frame (measured with the
 * sampling heap profiler, collected objects included: 86% of everything the dashboard allocated), promoted to the
 * old generation at 20 frames a second faster than V8 collected it, so the dashboard's RSS climbed far above
 * plain-log mode's.
 *
 * `installFastOutput` replaces `Output.prototype.get` with the same algorithm written not to allocate per cell:
 * a row is drawn as two arrays (each cell's text and its styles; the characters of one style share one styles
 * array), consecutive cells of the same style emit nothing (what Ink's diff of two equal styles gives), and a row
 * is drawn at all only when the writes that make it differ from those of every row of the last frame: a frame's
 * rows are mostly the last frame's, or last frame's one row over (a list that scrolled). What outlives a frame is
 * one string per row and a few small tables (a clipped slice of a line, the escape codes between two styles, a
 * grapheme's width); caching a line's styled characters instead (one object and one styles array per character)
 * kept every changing line's characters alive for two frames, long enough to be promoted to the old generation
 * and collected only by a full GC (on L, 26–36 MB of every 420 saves). The result is the same text, byte for byte
 * (`test/ui/ink-output.test.ts` compares it with Ink's own `get` on the dashboard's frames and on random styled,
 * clipped and wide text), using Ink's own helpers (`@alcalzone/ansi-tokenize`, `slice-ansi`, `string-width`) for
 * everything but the per-cell loop.
 *
 * It is installed only on the Ink release it was written against: on any other, Ink's own `get` stays, and the
 * dashboard is slower but the same.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The Ink release whose `Output.get` this reimplements. */
export const INK_VERSION = '6.8.0';

interface StyleCode {
  readonly type: 'ansi';
  readonly code: string;
  readonly endCode: string;
}
/** What `tokenize` answers: escape codes and characters. */
type Token = (StyleCode & { readonly type: 'ansi' }) | { readonly type: 'char'; readonly value: string };
/** A row of cells: each cell's text and styles, by column. */
interface Cells {
  readonly values: (string | undefined)[];
  readonly styles: (readonly StyleCode[])[];
}
const NO_STYLES: readonly StyleCode[] = Object.freeze([]);
type Transformer = (line: string, index: number) => string;
type Operation =
  | { type: 'write'; x: number; y: number; text: string; transformers: readonly Transformer[] }
  | { type: 'clip'; clip: { x1?: number; x2?: number; y1?: number; y2?: number } }
  | { type: 'unclip' };

/** What `get` reads of an Ink `Output`. */
interface OutputLike {
  readonly width: number;
  readonly height: number;
  readonly operations: readonly Operation[];
}
export type OutputGet = (this: OutputLike) => { output: string; height: number };

/** Ink's helpers, loaded from where Ink itself resolves them. */
export interface InkHelpers {
  readonly tokenize: (line: string) => unknown[];
  readonly reduceAnsiCodesIncremental: (
    codes: readonly StyleCode[],
    add: readonly StyleCode[],
  ) => StyleCode[];
  readonly diffAnsiCodes: (from: readonly StyleCode[], to: readonly StyleCode[]) => StyleCode[];
  readonly ansiCodesToString: (codes: readonly StyleCode[]) => string;
  readonly sliceAnsi: (line: string, from: number, to: number) => string;
  readonly stringWidth: (text: string) => number;
}

/** Where Ink's own `get` is kept once the fast one is installed. */
const ORIGINAL = Symbol.for('companion.inkOutput.originalGet');

/**
 * A table of what the last two frames asked: an entry used in this frame or the one before is kept, anything
 * older is dropped when the next frame starts (`rotate`). A dashboard frame is mostly the previous frame, so this
 * hits for almost every line, and it holds no more than two frames' worth.
 */
interface FrameMemo<K, V> {
  (key: K): V;
  rotate(): void;
}

function frameMemo<K, V>(compute: (key: K) => V): FrameMemo<K, V> {
  let current = new Map<K, V>();
  let previous = new Map<K, V>();
  const lookup = ((key: K) => {
    let value = current.get(key);
    if (value === undefined) {
      value = previous.get(key) ?? compute(key);
      current.set(key, value);
    }
    return value;
  }) as FrameMemo<K, V>;
  lookup.rotate = () => {
    previous = current;
    current = new Map();
  };
  return lookup;
}

/** `Output.prototype.get`, as Ink 6.8 computes it, without per-cell allocation. */
export function createFastGet(helpers: InkHelpers): OutputGet {
  const width = frameMemo((text: string) => helpers.stringWidth(text));
  const widest = frameMemo((text: string) => {
    let max = 0;
    for (const line of text.split('\n')) max = Math.max(max, width(line));
    return max;
  });
  const slice = frameMemo((key: string) => {
    const [from, to, line] = splitSliceKey(key);
    return helpers.sliceAnsi(line, from, to);
  });
  // The escape codes that open a style, and that go from one style to the next, keyed by the styles' codes (a
  // code's end code follows from the code itself). Asked only where the style changes: a few times a row.
  const styleKey = (styles: readonly StyleCode[]): string => styles.map((code) => code.code).join('\u0001');
  const transitions = frameMemo((key: string) => {
    const [from, to] = key.split('\u0002') as [string, string];
    return helpers.ansiCodesToString(helpers.diffAnsiCodes(stylesByKey.get(from)!, stylesByKey.get(to)!));
  });
  const opening = frameMemo((key: string) => helpers.ansiCodesToString(stylesByKey.get(key)!));
  // The styles a key stands for, for the two tables above (a style seen this frame or the last).
  const stylesByKey = new Map<string, readonly StyleCode[]>();
  const keyOf = (styles: readonly StyleCode[]): string => {
    const key = styleKey(styles);
    if (!stylesByKey.has(key)) stylesByKey.set(key, styles);
    return key;
  };
  const transition = (from: readonly StyleCode[], to: readonly StyleCode[]): string =>
    transitions(`${keyOf(from)}\u0002${keyOf(to)}`);
  const open = (styles: readonly StyleCode[]): string => (styles.length === 0 ? '' : opening(keyOf(styles)));
  const memos = [width, widest, slice, transitions, opening];
  // The text of each row drawn in this frame and the last, by the writes that made it (`writesKey`): a row written
  // as in the last frame, or as another row was (a list that scrolled by one), is that text, neither drawn into
  // cells nor serialized again. One string a row is all that outlives a frame: the cells die young.
  let rowsNow = new Map<string, string>();
  let rowsBefore = new Map<string, string>();
  let lastWidth = -1;
  const sameStyles = (a: readonly StyleCode[], b: readonly StyleCode[]): boolean => {
    if (a === b) return true;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i]!.code !== b[i]!.code) return false;
    return true;
  };

  /**
   * Ink's `styledCharsToString(row.filter(defined)).trimEnd()`, one string per row, from a row drawn as two
   * arrays: each cell's text (`undefined` for a cell never drawn, past the grid's width) and its styles.
   */
  const serializeRow = (cells: Cells): string => {
    let out = '';
    let previous: readonly StyleCode[] | undefined;
    const { values, styles } = cells;
    for (let x = 0; x < values.length; x++) {
      const value = values[x];
      if (value === undefined) continue;
      const style = styles[x]!;
      if (previous === undefined) out += open(style);
      else if (!sameStyles(previous, style)) out += transition(previous, style);
      out += value;
      previous = style;
    }
    if (previous !== undefined && previous.length > 0) out += transition(previous, []);
    return out.trimEnd();
  };

  /** Puts one character at `x` (and, when wide, an empty cell of its style on each cell it covers); its width. */
  const put = (cells: Cells, x: number, value: string, style: readonly StyleCode[]): number => {
    cells.values[x] = value;
    cells.styles[x] = style;
    const characterWidth = Math.max(1, width(value));
    for (let cell = 1; cell < characterWidth; cell++) {
      cells.values[x + cell] = '';
      cells.styles[x + cell] = style;
    }
    return characterWidth;
  };

  /** Draws the writes a row received (`x`, line, in order) into cells: what Ink's grid holds for that row. */
  const drawRow = (writes: readonly (number | string)[], gridWidth: number): Cells => {
    const cells: Cells = {
      values: new Array<string>(gridWidth).fill(' '),
      styles: new Array<readonly StyleCode[]>(gridWidth).fill(NO_STYLES),
    };
    for (let at = 0; at < writes.length; at += 2) {
      let x = writes[at] as number;
      const line = writes[at + 1] as string;
      // styledCharsFromTokens without an object per character: a styles array is never changed once made, so
      // the characters of one style share it.
      let codes: readonly StyleCode[] = NO_STYLES;
      for (const token of helpers.tokenize(line) as Token[]) {
        if (token.type === 'ansi') codes = helpers.reduceAnsiCodesIncremental(codes, [token]);
        else if (token.type === 'char') x += put(cells, x, token.value, codes);
      }
    }
    return cells;
  };

  return function get(this: OutputLike) {
    for (const table of memos) table.rotate();
    // Styles are few (a handful of colours and weights): this table only grows with new ones, and is bounded.
    if (stylesByKey.size > 1024) stylesByKey.clear();
    // What each row receives, as Ink's grid would: (x, line) pairs in the order of the operations.
    const writes: (number | string)[][] = [];
    for (let y = 0; y < this.height; y++) writes.push([]);
    const clips: Extract<Operation, { type: 'clip' }>['clip'][] = [];
    for (const operation of this.operations) {
      if (operation.type === 'clip') clips.push(operation.clip);
      if (operation.type === 'unclip') clips.pop();
      if (operation.type !== 'write') continue;
      const { text, transformers } = operation;
      let { x, y } = operation;
      let lines = text.split('\n');
      const clip = clips.at(-1);
      if (clip) {
        const clipHorizontally = typeof clip.x1 === 'number' && typeof clip.x2 === 'number';
        const clipVertically = typeof clip.y1 === 'number' && typeof clip.y2 === 'number';
        if (clipHorizontally) {
          const textWidth = widest(text);
          if (x + textWidth < clip.x1! || x > clip.x2!) continue;
        }
        if (clipVertically) {
          if (y + lines.length < clip.y1! || y > clip.y2!) continue;
        }
        if (clipHorizontally) {
          lines = lines.map((line) => {
            const from = x < clip.x1! ? clip.x1! - x : 0;
            const lineWidth = width(line);
            const to = x + lineWidth > clip.x2! ? clip.x2! - x : lineWidth;
            return slice(`${from}:${to}:${line}`);
          });
          if (x < clip.x1!) x = clip.x1!;
        }
        if (clipVertically) {
          const from = y < clip.y1! ? clip.y1! - y : 0;
          const height = lines.length;
          const to = y + height > clip.y2! ? clip.y2! - y : height;
          lines = lines.slice(from, to);
          if (y < clip.y1!) y = clip.y1!;
        }
      }
      let offsetY = 0;
      for (let [index, line] of lines.entries()) {
        const row = writes[y + offsetY];
        // A line below the grid (text taller than the frame) is dropped, as Ink does.
        if (!row) continue;
        for (const transformer of transformers) line = transformer(line, index);
        row.push(x, line);
        offsetY++;
      }
    }
    // Past the grid's width cells are never drawn (`undefined`), so a row's text depends on the width too.
    rowsBefore = this.width === lastWidth ? rowsNow : new Map();
    rowsNow = new Map();
    lastWidth = this.width;
    const strings = writes.map((row) => {
      const key = writesKey(row);
      let text = rowsNow.get(key) ?? rowsBefore.get(key);
      if (text === undefined) text = serializeRow(drawRow(row, this.width));
      rowsNow.set(key, text);
      return text;
    });
    return { output: strings.join('\n'), height: writes.length };
  };
}

/** A row's writes as one string, each line prefixed by its x and its length, so two lists never read the same. */
function writesKey(writes: readonly (number | string)[]): string {
  let key = '';
  for (let at = 0; at < writes.length; at += 2) {
    const line = writes[at + 1] as string;
    key += `${writes[at]},${line.length},${line}`;
  }
  return key;
}

function splitSliceKey(key: string): [number, number, string] {
  const first = key.indexOf(':');
  const second = key.indexOf(':', first + 1);
  return [Number(key.slice(0, first)), Number(key.slice(first + 1, second)), key.slice(second + 1)];
}

/** Ink's `Output` class and the helpers its `get` uses, from the copies Ink itself loads; undefined if not 6.8. */
export async function loadInkOutput(): Promise<
  { Output: { prototype: { get: OutputGet } }; helpers: InkHelpers } | undefined
> {
  const require = createRequire(import.meta.url);
  const inkEntry = require.resolve('ink');
  const inkRoot = dirname(dirname(inkEntry));
  const version = (JSON.parse(readFileSync(join(inkRoot, 'package.json'), 'utf8')) as { version?: string })
    .version;
  if (version !== INK_VERSION) return undefined;
  const fromInk = createRequire(inkEntry);
  const load = async (file: string) => import(pathToFileURL(file).href);
  const tokenizeRoot = dirname(fromInk.resolve('@alcalzone/ansi-tokenize/package.json'));
  const [output, tokenize, sliceAnsi, stringWidth] = await Promise.all([
    load(join(dirname(inkEntry), 'output.js')),
    load(join(tokenizeRoot, 'build', 'index.js')),
    load(fromInk.resolve('slice-ansi')),
    load(fromInk.resolve('string-width')),
  ]);
  return {
    Output: output.default,
    helpers: {
      tokenize: tokenize.tokenize,
      reduceAnsiCodesIncremental: tokenize.reduceAnsiCodesIncremental,
      diffAnsiCodes: tokenize.diffAnsiCodes,
      ansiCodesToString: tokenize.ansiCodesToString,
      sliceAnsi: sliceAnsi.default,
      stringWidth: stringWidth.default,
    },
  };
}

/**
 * Puts the fast `get` on Ink's `Output` (once; later calls change nothing). Resolves with Ink's own `get`, kept
 * for comparison, or undefined when this Ink is not the release the fast path was written for.
 */
export async function installFastOutput(): Promise<OutputGet | undefined> {
  const loaded = await loadInkOutput();
  if (loaded === undefined) return undefined;
  const prototype = loaded.Output.prototype as { get: OutputGet; [ORIGINAL]?: OutputGet };
  if (prototype[ORIGINAL] === undefined) {
    prototype[ORIGINAL] = prototype.get;
    prototype.get = createFastGet(loaded.helpers);
  }
  return prototype[ORIGINAL];
}
