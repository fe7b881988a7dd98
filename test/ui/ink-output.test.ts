/**
 * The dashboard's frame serializer (`src/ui/ink-output.ts`) against Ink's own `Output.get`: the same text, byte
 * for byte, on random styled, clipped, wide and linked text over many frames (so the tables kept across frames are
 * used and rotated), and on the dashboard's real frames in every view at 80×24 and 120×40.
 */
import fc from 'fast-check';
import { render } from 'ink-testing-library';
import { createElement } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

import { Dashboard } from '../../src/ui/components/Dashboard.js';
import { VIEWS } from '../../src/ui/components/Header.js';
import { ColorContext } from '../../src/ui/components/Tint.js';
import { reduceDevState } from '../../src/ui/dev-state.js';
import { createFastGet, installFastOutput, loadInkOutput, type OutputGet } from '../../src/ui/ink-output.js';
import {
  makeCatalog,
  makeChange,
  makeDiagnostic,
  makeGeneration,
  makeSession,
  makeState,
  T0,
} from './view-states.js';

type InkOutput = {
  write(
    x: number,
    y: number,
    text: string,
    options: { transformers: ((line: string, index: number) => string)[] },
  ): void;
  clip(clip: { x1?: number; x2?: number; y1?: number; y2?: number }): void;
  unclip(): void;
};

const loaded = await loadInkOutput();
if (loaded === undefined) throw new Error('ink is not the release src/ui/ink-output.ts was written for');
const OutputClass = loaded.Output as unknown as new (options: { width: number; height: number }) => InkOutput;

const ESC = '\u001b[';
const STYLES = [
  `${ESC}31m`,
  `${ESC}39m`,
  `${ESC}1m`,
  `${ESC}22m`,
  `${ESC}2m`,
  `${ESC}36m`,
  `${ESC}90m`,
  `${ESC}38;5;208m`,
  `${ESC}4m`,
  `${ESC}24m`,
  `${ESC}0m`,
  `${ESC}1;35m`,
  '\u001b]8;;file:///tmp/a.md\u0007',
  '\u001b]8;;\u0007',
];
const PIECES = ['a', 'bc', ' ', 'wörd', '日本', '👍🏽', 'e\u0301', '…', '✓ clean', '│', '─', 'Ｘ', '  '];

const piece = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PIECES) },
  { weight: 2, arbitrary: fc.constantFrom(...STYLES) },
);
const line = fc.array(piece, { maxLength: 14 }).map((parts) => parts.join(''));
const text = fc.array(line, { minLength: 1, maxLength: 3 }).map((lines) => lines.join('\n'));
const operation = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      type: fc.constant('write' as const),
      x: fc.integer({ min: 0, max: 30 }),
      y: fc.integer({ min: 0, max: 12 }),
      text,
      transform: fc.constantFrom('none', 'dim', 'upper'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('clip' as const),
      x1: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
      x2: fc.option(fc.integer({ min: 5, max: 40 }), { nil: undefined }),
      y1: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
      y2: fc.option(fc.integer({ min: 2, max: 12 }), { nil: undefined }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ type: 'unclip' as const }) },
);
const frame = fc.record({
  width: fc.integer({ min: 1, max: 40 }),
  height: fc.integer({ min: 1, max: 12 }),
  operations: fc.array(operation, { maxLength: 20 }),
});

const TRANSFORMS = {
  none: [],
  dim: [(value: string) => `${ESC}2m${value}${ESC}22m`],
  upper: [(value: string, index: number) => (index === 0 ? value.toUpperCase() : value)],
};

function build(spec: { width: number; height: number; operations: unknown[] }): InkOutput {
  const output = new OutputClass({ width: spec.width, height: spec.height });
  for (const op of spec.operations as ({ type: string } & Record<string, unknown>)[]) {
    if (op.type === 'write') {
      const transformers = TRANSFORMS[op.transform as keyof typeof TRANSFORMS];
      output.write(op.x as number, op.y as number, op.text as string, { transformers: [...transformers] });
    } else if (op.type === 'clip') {
      output.clip({ x1: op.x1 as number, x2: op.x2 as number, y1: op.y1 as number, y2: op.y2 as number });
    } else output.unclip();
  }
  return output;
}

describe('the fast Output.get', () => {
  const inkGet = loaded.Output.prototype.get;

  it('writes exactly what Ink writes, frame after frame', () => {
    fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 6 }), (frames) => {
        // One serializer for the whole sequence, as one dashboard has: its tables carry from frame to frame.
        const fastGet = createFastGet(loaded.helpers);
        for (const spec of frames) {
          const output = build(spec);
          expect(fastGet.call(output as never)).toEqual(inkGet.call(output as never));
          // The same frame again: every line now comes from the tables.
          expect(fastGet.call(output as never)).toEqual(inkGet.call(output as never));
          // The same lines one column over: a row is the same text only when its writes are the same.
          const shifted = build({
            ...spec,
            operations: (spec.operations as ({ type: string } & Record<string, unknown>)[]).map((op) =>
              op.type === 'write' ? { ...op, x: (op.x as number) + 1 } : op,
            ),
          });
          expect(fastGet.call(shifted as never)).toEqual(inkGet.call(shifted as never));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('the dashboard through the fast Output.get', () => {
  let original: OutputGet | undefined;
  const prototype = loaded.Output.prototype as { get: OutputGet };
  let frames = 0;
  beforeAll(async () => {
    original = await installFastOutput();
    const fast = prototype.get;
    // Every frame Ink draws is serialized both ways and compared.
    prototype.get = function compare(this: ThisParameterType<OutputGet>) {
      const mine = fast.call(this);
      expect(mine).toEqual(original!.call(this));
      frames++;
      return mine;
    };
  });
  afterAll(() => {
    if (original !== undefined) prototype.get = original;
  });

  it('is installed once, on this Ink, keeping Ink’s own get', async () => {
    expect(original).toBeTypeOf('function');
    expect(await installFastOutput()).toBe(original);
  });

  it('draws every view of a changing dashboard exactly as Ink would', () => {
    const catalog = makeCatalog({
      documents: ['any/guide', 'team/runbook', 'repo/notes'],
      skills: ['release', 'review'],
      topics: [{ id: 'ship', documents: ['any/guide'], skills: ['release'] }],
    });
    const diagnostics = [
      makeDiagnostic({ message: 'The front matter does not parse: 日本語 “quoted” 👍🏽', column: 4 }),
      makeDiagnostic({
        code: 'CMP510',
        severity: 'warning',
        file: 'knowledge/documents/any/guide.md',
        line: 9,
      }),
    ];
    let state = makeState(makeGeneration(1, diagnostics, catalog), [
      makeSession({
        clientInfo: { name: 'claude-code', version: '2.1.0' },
        subscriptions: ['demo://guides'],
      }),
    ]);
    for (const [columns, rows] of [
      [80, 24],
      [120, 40],
    ] as const) {
      for (const view of VIEWS) {
        for (const help of [false, true]) {
          const element = (selected: number) =>
            createElement(
              ColorContext.Provider,
              { value: true },
              createElement(Dashboard, {
                state,
                view,
                selected,
                help,
                enterHint: 'Enter opens it in vim',
                width: columns,
                height: rows - 1,
              }),
            );
          const instance = render(element(0));
          for (let save = 2; save < 8; save++) {
            const previous = makeGeneration(save - 1, diagnostics, catalog);
            const next = makeGeneration(save, save % 2 === 0 ? diagnostics : diagnostics.slice(1), catalog);
            state = reduceDevState(state, {
              type: 'generation',
              change: makeChange(previous, { ...next, builtAt: T0 + save * 61_000 }),
              hosts: 1,
              sent: [
                {
                  id: 'h',
                  name: 'claude-code',
                  listChanged: false,
                  promptsListChanged: false,
                  updated: save,
                },
              ],
            });
            instance.rerender(element(save % 2));
          }
          instance.unmount();
        }
      }
    }
    expect(frames).toBeGreaterThan(100);
  });
});
