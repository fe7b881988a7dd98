/**
 * Rows are memoized (a row is drawn again only when what it shows changed): these tests hold that a row whose
 * content changes is redrawn, that rows which move keep their content, and that the comparison never calls two
 * different nodes the same.
 */
import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

import { isSameNode, type Row, Rows } from '../../src/ui/components/Rows.js';
import { ColorContext, Tint } from '../../src/ui/components/Tint.js';
import type { TimelineEntry } from '../../src/ui/dev-state.js';
import { buildTimelineRows } from '../../src/ui/views/TimelineView.js';
import { makeTimelineEntry } from './view-states.js';

const instances: { unmount(): void }[] = [];
afterEach(() => {
  for (const instance of instances.splice(0)) instance.unmount();
});

const row = (key: string, text: string, dim = true): Row => ({
  key,
  node: (
    <>
      <Tint dim={dim}>{`${key}: `}</Tint>
      {text}
    </>
  ),
});

const plain = (frame: string): string => frame.replace(/\u001b\[[0-9;]*m/g, '');

/** Renders each list of rows in turn into one instance; answers the frame after each. */
function framesOf(...lists: Row[][]): string[] {
  const first = render(<Rows lines={lists[0]!} rows={5} width={40} />);
  instances.push(first);
  const frames = [first.lastFrame() ?? ''];
  for (const lines of lists.slice(1)) {
    first.rerender(<Rows lines={lines} rows={5} width={40} />);
    frames.push(first.lastFrame() ?? '');
  }
  return frames;
}

describe('memoized rows', () => {
  it('redraws a row whose text, style or nesting changed, and only shows the new content', () => {
    const [before, text, style] = framesOf(
      [row('a', 'one'), row('b', 'two')],
      [row('a', 'one'), row('b', 'three')],
      [row('a', 'one', false), row('b', 'three')],
    );
    expect(plain(before!)).toContain('b: two');
    expect(plain(text!)).toContain('b: three');
    expect(plain(text!)).not.toContain('two');
    expect(style).not.toBe(text);
    // Each frame is what a fresh render of the same rows draws.
    const fresh = render(<Rows lines={[row('a', 'one', false), row('b', 'three')]} rows={5} width={40} />);
    instances.push(fresh);
    expect(style).toBe(fresh.lastFrame());
  });

  it('keeps each row with its content when a new row pushes the others down', () => {
    const [, after] = framesOf(
      [row('a', 'one'), row('b', 'two')],
      [row('c', 'new'), row('a', 'one'), row('b', 'two')],
    );
    expect(plain(after!).split('\n').slice(0, 3)).toEqual([
      expect.stringContaining('c: new'),
      expect.stringContaining('a: one'),
      expect.stringContaining('b: two'),
    ]);
  });

  it('redraws a skipped row when the colour context changes', () => {
    const lines = [row('a', 'one')];
    const instance = render(
      <ColorContext.Provider value={true}>
        <Rows lines={lines} rows={2} width={40} />
      </ColorContext.Provider>,
    );
    instances.push(instance);
    expect(instance.lastFrame()).toMatch(/\u001b\[/);
    instance.rerender(
      <ColorContext.Provider value={false}>
        <Rows lines={[row('a', 'one')]} rows={2} width={40} />
      </ColorContext.Provider>,
    );
    expect(instance.lastFrame()).not.toMatch(/\u001b\[/);
    expect(plain(instance.lastFrame() ?? '')).toContain('a: one');
  });
});

describe('isSameNode', () => {
  it('is true only for trees that draw the same', () => {
    expect(isSameNode(row('a', 'x').node, row('a', 'x').node)).toBe(true);
    expect(isSameNode(row('a', 'x').node, row('a', 'y').node)).toBe(false);
    expect(isSameNode(row('a', 'x').node, row('a', 'x', false).node)).toBe(false);
    expect(isSameNode(<Text>1</Text>, <Text>{1}</Text>)).toBe(false);
    expect(isSameNode(<Text key="a">x</Text>, <Text key="b">x</Text>)).toBe(false);
    expect(isSameNode(<Text>x</Text>, <Tint>x</Tint>)).toBe(false);
    expect(isSameNode(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(isSameNode(['a', 'b'], ['a', 'b', 'c'])).toBe(false);
    expect(isSameNode(<Text color="red">x</Text>, <Text>x</Text>)).toBe(false);
    // Objects that are not elements compare by identity only.
    expect(isSameNode({ a: 1 }, { a: 1 })).toBe(false);
  });
});

describe('timeline row keys', () => {
  const entry = (generation: number | undefined, at: number): TimelineEntry =>
    makeTimelineEntry({ ...(generation === undefined ? {} : { generation }), at });
  const keysOf = (timeline: TimelineEntry[]): string[] => buildTimelineRows(timeline).map((row) => row.key);

  it('follow their entry as newer entries arrive, and stay unique for two alike', () => {
    const older = [entry(undefined, 5), entry(undefined, 5), entry(1, 1)];
    const newer = [entry(2, 9), ...older];
    expect(new Set(keysOf(older)).size).toBe(3);
    expect(keysOf(newer).slice(1)).toEqual(keysOf(older));
  });
});
