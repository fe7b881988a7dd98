/** The mounted UI: it follows the model live and hands the quit keys to its owner. */
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStaticSource } from '../../src/fs/catalog-store.js';
import { createSessionRegistry } from '../../src/mcp/session-registry.js';
import { App } from '../../src/ui/app.js';
import { ColorContext } from '../../src/ui/components/Tint.js';
import { createDevModel } from '../../src/ui/dev-state.js';
import { makeCatalog, makeGeneration } from './view-states.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function mountApp() {
  const sessions = createSessionRegistry();
  const model = createDevModel({
    store: createStaticSource(makeGeneration(1, [], makeCatalog({ documents: ['any/a'] }))),
    sessions,
    url: 'http://127.0.0.1:4000/mcp',
    root: '/srv/content',
  });
  const onQuit = vi.fn();
  const instance = render(
    <ColorContext.Provider value={false}>
      <App model={model} onQuit={onQuit} />
    </ColorContext.Provider>,
  );
  cleanups.push(() => {
    instance.unmount();
    model.close();
  });
  return { instance, model, sessions, onQuit };
}

/** Waits for the next frame to contain `text`; Ink renders state changes asynchronously. */
async function waitForFrame(instance: ReturnType<typeof render>, text: string): Promise<string> {
  const deadline = Date.now() + 2000;
  for (;;) {
    const frame = instance.lastFrame() ?? '';
    if (frame.includes(text)) return frame;
    if (Date.now() > deadline) throw new Error(`no frame contained ${JSON.stringify(text)}; last:\n${frame}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('App', () => {
  it('prints the URL once above the dashboard and redraws when the model changes', async () => {
    const { instance, model, sessions } = mountApp();
    const first = instance.lastFrame() ?? '';
    expect(first.split('\n')[0]).toBe('companion dev listening on http://127.0.0.1:4000/mcp');
    expect(first).toContain('! not covered: document any/a');
    expect(first).toContain('watcher starting…');

    const session = sessions.open({ id: 's1', transport: 'http' });
    session.setClientInfo({ name: 'vscode', version: '1.99.0' });
    model.recordWatcherStatus({ mode: 'polling', reason: 'forced' });
    const frame = await waitForFrame(instance, 'polling: forced');
    expect(frame).toContain('vscode 1.99.0 http · 0 subs · no notification yet');
  });

  it('calls onQuit for q and for Ctrl+C, and for nothing else', async () => {
    const { instance, onQuit } = mountApp();
    // Let the input hook attach before typing.
    await new Promise((resolve) => setTimeout(resolve, 20));
    instance.stdin.write('x');
    instance.stdin.write('q');
    await vi.waitFor(() => expect(onQuit).toHaveBeenCalledTimes(1));
    instance.stdin.write('\u0003');
    await vi.waitFor(() => expect(onQuit).toHaveBeenCalledTimes(2));
  });
});
