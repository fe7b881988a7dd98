/** The mounted UI: it follows the model live, switches views, walks findings and hands keys to its owner. */
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSessionRegistry } from '../../src/mcp/session-registry.js';
import { App } from '../../src/ui/app.js';
import { ColorContext } from '../../src/ui/components/Tint.js';
import { createDevModel } from '../../src/ui/dev-state.js';
import type { EditorTarget } from '../../src/ui/open-in-editor.js';
import { createManualSource } from '../helpers/manual-source.js';
import { makeCatalog, makeChange, makeDiagnostic, makeGeneration } from './view-states.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function mountApp(onOpen?: (target: EditorTarget, label: string) => string) {
  const sessions = createSessionRegistry();
  const findings = [
    makeDiagnostic({
      code: 'CMP303',
      file: 'knowledge/documents/any/a.md',
      line: 1,
      message: 'No description.',
    }),
    makeDiagnostic({
      code: 'CMP304',
      file: 'knowledge/documents/any/a.md',
      line: 4,
      column: 2,
      message: 'No title.',
    }),
  ];
  const manual = createManualSource(
    makeGeneration(1, findings, makeCatalog({ documents: ['any/a'] })),
    makeChange,
  );
  const model = createDevModel({
    store: manual.source,
    sessions,
    url: 'http://127.0.0.1:4000/mcp',
    root: '/srv/content',
  });
  const onQuit = vi.fn();
  const instance = render(
    <ColorContext.Provider value={false}>
      <App
        model={model}
        onQuit={onQuit}
        {...(onOpen === undefined ? {} : { onOpen })}
        enterHint="Enter opens it"
      />
    </ColorContext.Provider>,
  );
  cleanups.push(() => {
    instance.unmount();
    model.close();
  });
  const stdin = instance.stdin as unknown as NodeJS.EventEmitter;
  settle = () =>
    vi.waitFor(
      () => expect(stdin.listenerCount('readable') + stdin.listenerCount('data')).toBeGreaterThan(0),
      {
        timeout: 3000,
      },
    );
  return { instance, model, sessions, onQuit, manual };
}

/** Waits for the next frame to contain `text`; frames are drawn on a timer. */
async function waitForFrame(instance: ReturnType<typeof render>, text: string): Promise<string> {
  const deadline = Date.now() + 3000;
  for (;;) {
    const frame = instance.lastFrame() ?? '';
    if (frame.includes(text)) return frame;
    if (Date.now() > deadline) throw new Error(`no frame contained ${JSON.stringify(text)}; last:\n${frame}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Lets the input hook attach before typing: keys sent earlier are lost. */
let settle: () => Promise<void>;

describe('App', () => {
  it('shows the overview, and redraws when the model changes', async () => {
    const { instance, model, sessions } = mountApp();
    const first = instance.lastFrame() ?? '';
    expect(first).toContain('companion dev');
    expect(first).toContain('http://127.0.0.1:4000/mcp');
    expect(first).toContain('✗ 2 errors');
    expect(first).toContain('watcher starting…');
    // The URL is on the header only: no second "listening on" line above the dashboard.
    expect(first).not.toContain('listening on');

    const session = sessions.open({ id: 's1', transport: 'http' });
    session.setClientInfo({ name: 'vscode', version: '1.99.0' });
    model.recordWatcherStatus({ mode: 'polling', reason: 'forced' });
    const frame = await waitForFrame(instance, 'polling: forced');
    expect(frame).toContain('hosts: 1 connected — vscode 1.99.0 (http)');
  });

  it('switches views with number keys and Tab, and shows the keys on ?', async () => {
    const { instance } = mountApp();
    await settle();
    instance.stdin.write('2');
    await waitForFrame(instance, '[2 Problems (2)]');
    instance.stdin.write('\t');
    await waitForFrame(instance, '[3 Coverage');
    instance.stdin.write('?');
    await waitForFrame(instance, 'Tab / Shift+Tab');
    instance.stdin.write('\u001b');
    await waitForFrame(instance, 'skill listing');
  });

  it('walks findings with ↑/↓ and j/k, expands the selected one and opens it with Enter', async () => {
    const opened: [EditorTarget, string][] = [];
    const { instance } = mountApp((target, label) => {
      opened.push([target, label]);
      return `opened ${label}`;
    });
    await settle();
    instance.stdin.write('2');
    let frame = await waitForFrame(instance, '▸ ✗ error CMP303');
    expect(frame).toContain('hint: Write one.');
    instance.stdin.write('j');
    frame = await waitForFrame(instance, '▸ ✗ error CMP304');
    expect(frame).toContain('knowledge/documents/any/a.md:4:2');
    instance.stdin.write('\r');
    frame = await waitForFrame(instance, 'opened knowledge/documents/any/a.md:4:2');
    expect(opened).toEqual([
      [
        { file: '/srv/content/knowledge/documents/any/a.md', line: 4, column: 2 },
        'knowledge/documents/any/a.md:4:2',
      ],
    ]);
    instance.stdin.write('\u001b[A');
    await waitForFrame(instance, '▸ ✗ error CMP303');
    instance.stdin.write('k');
    await waitForFrame(instance, '▸ ✗ error CMP303');
  });

  it('calls onQuit for q and for Ctrl+C, and for nothing else', async () => {
    const { instance, onQuit } = mountApp();
    await settle();
    instance.stdin.write('x');
    instance.stdin.write('q');
    await vi.waitFor(() => expect(onQuit).toHaveBeenCalledTimes(1));
    instance.stdin.write('\u0003');
    await vi.waitFor(() => expect(onQuit).toHaveBeenCalledTimes(2));
  });

  it('draws a burst of changes as a few frames, not one per change', async () => {
    const { instance, manual } = mountApp();
    const before = instance.frames.length;
    for (let i = 2; i <= 200; i++) manual.publish(makeGeneration(i));
    await waitForFrame(instance, 'generation 200');
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(instance.frames.length - before).toBeLessThan(6);
  });
});
