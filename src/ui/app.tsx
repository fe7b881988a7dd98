/**
 * The Ink UI of `companion dev`: the live dashboard over a `DevModel`, with `q` and Ctrl+C to quit.
 *
 * `<Static>` prints the URL once, so it stays in the scrollback after the dashboard is gone; everything else is
 * the dynamic part, redrawn in place from the model's state.
 */
import { render, Static, Text, useInput, useStdin } from 'ink';
import { Dashboard } from './components/Dashboard.js';
import { ColorContext, Tint } from './components/Tint.js';
import type { DevModel } from './dev-state.js';
import { useFrameState } from './use-frame-state.js';
import { useTerminalSize } from './use-terminal-size.js';

export interface AppProps {
  readonly model: DevModel;
  /** Called on `q` or Ctrl+C. The caller shuts down and unmounts; the UI does not exit by itself. */
  readonly onQuit: () => void;
  /** Shown as `~` in the root path. */
  readonly home?: string;
}

/** The dashboard, sized to the terminal, listening for the quit keys when stdin is a TTY. */
export function App({ model, onQuit, home }: AppProps) {
  const state = useFrameState(model);
  const { columns, rows } = useTerminalSize();
  const { isRawModeSupported } = useStdin();
  useInput(
    (input, key) => {
      if (input === 'q' || input === 'Q' || (key.ctrl && input === 'c')) onQuit();
    },
    // Without a TTY on stdin there are no keys to read, and asking for raw mode would throw.
    { isActive: isRawModeSupported === true },
  );
  const banner = [{ key: 'banner', url: state.url }];
  return (
    <>
      <Static items={banner}>
        {(item) => (
          <Text key={item.key} wrap="truncate-end">
            <Tint dim>companion dev listening on </Tint>
            {item.url}
          </Text>
        )}
      </Static>
      {/* One row for the banner and one spare: an Ink frame as tall as the terminal redraws the whole screen. */}
      <Dashboard
        state={state}
        width={columns}
        height={Math.max(1, rows - 2)}
        {...(home === undefined ? {} : { home })}
      />
    </>
  );
}

export interface DevUiOptions {
  readonly stdout: NodeJS.WriteStream;
  readonly stdin: NodeJS.ReadStream;
  readonly stderr?: NodeJS.WriteStream;
  /** False under `NO_COLOR` or on a terminal without colour: no ANSI style anywhere. */
  readonly color: boolean;
  readonly home?: string;
  readonly onQuit: () => void;
}

export interface DevUi {
  /** Unmounts the UI, restoring the terminal (raw mode off, cursor shown). Idempotent. */
  close(): void;
}

/**
 * Mounts the UI on `stdout`. Console patching and Ink's own Ctrl+C handling are off: the command owns the
 * process, and quitting must go through its shutdown (close sessions, watcher, server) rather than Ink's exit.
 */
export function renderDevUi(model: DevModel, options: DevUiOptions): DevUi {
  const instance = render(
    <ColorContext.Provider value={options.color}>
      <App
        model={model}
        onQuit={options.onQuit}
        {...(options.home === undefined ? {} : { home: options.home })}
      />
    </ColorContext.Provider>,
    {
      stdout: options.stdout,
      stdin: options.stdin,
      ...(options.stderr === undefined ? {} : { stderr: options.stderr }),
      patchConsole: false,
      exitOnCtrlC: false,
    },
  );
  let closed = false;
  return {
    close() {
      if (closed) return;
      closed = true;
      instance.unmount();
      instance.cleanup();
    },
  };
}
