/**
 * The Ink UI of `companion dev`: the live dashboard over a `DevModel`, its views and keys, and opening a finding
 * in the author's editor — with Ink suspended while the editor owns the terminal, and remounted after.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { render, useInput, useStdin } from 'ink';
import { useRef, useState } from 'react';
import { Dashboard } from './components/Dashboard.js';
import { VIEWS, type ViewName } from './components/Header.js';
import { ColorContext } from './components/Tint.js';
import type { DevModel } from './dev-state.js';
import { installFastOutput } from './ink-output.js';
import { buildEditorCommand, type EditorTarget, findEditor, formatFileLink } from './open-in-editor.js';
import { useFrameState } from './use-frame-state.js';
import { useTerminalSize } from './use-terminal-size.js';
import { listFindings } from './views/ProblemsView.js';

// Before anything renders: Ink's frame serializer allocates per terminal cell (see ink-output.ts).
await installFastOutput();

/** What the UI remembers across a remount (after the editor): the view and the selected finding. */
export interface UiState {
  readonly view: ViewName;
  /** The selected finding's key, so the selection follows it as findings come and go. */
  readonly selectedKey?: string;
  readonly selected: number;
  readonly help: boolean;
}

export const INITIAL_UI: UiState = { view: 'overview', selected: 0, help: false };

export interface AppProps {
  readonly model: DevModel;
  /** Called on `q` or Ctrl+C. The caller shuts down and unmounts; the UI does not exit by itself. */
  readonly onQuit: () => void;
  /**
   * Opens a finding's file at its line; answers the message for the footer. Without it, Enter shows the file's
   * location and link only.
   */
  readonly onOpen?: (target: EditorTarget, label: string) => string;
  /** What Enter does, for the selected finding's row. @default 'Enter shows a link to the file' */
  readonly enterHint?: string;
  readonly initialUi?: UiState;
  /** A message for the footer on the first frame (back from the editor). */
  readonly initialMessage?: string;
  /** Shown as `~` in the root path. */
  readonly home?: string;
  readonly onUiChange?: (ui: UiState) => void;
}

/** The dashboard, sized to the terminal, listening for keys when stdin is a TTY. */
export function App({
  model,
  onQuit,
  onOpen,
  enterHint,
  initialUi,
  initialMessage,
  home,
  onUiChange,
}: AppProps) {
  const state = useFrameState(model);
  const { columns, rows } = useTerminalSize();
  const { isRawModeSupported } = useStdin();
  const [ui, setUiState] = useState<UiState>(initialUi ?? INITIAL_UI);
  const [message, setMessage] = useState<string | undefined>(initialMessage);
  const findings = listFindings(state.diagnostics);
  const keyed = ui.selectedKey === undefined ? -1 : findings.findIndex((item) => item.key === ui.selectedKey);
  const selected = keyed >= 0 ? keyed : Math.min(ui.selected, Math.max(0, findings.length - 1));
  // Keys can arrive between a render and the effect that hands Ink the new handler: read the latest from here.
  const latest = useRef({ ui, findings, selected });
  latest.current = { ui, findings, selected };
  const setUi = (next: UiState): void => {
    latest.current = { ...latest.current, ui: next };
    setUiState(next);
    onUiChange?.(next);
  };
  useInput(
    (input, key) => {
      const { ui, findings, selected } = latest.current;
      const select = (index: number): void => {
        const clamped = Math.max(0, Math.min(findings.length - 1, index));
        const item = findings[clamped];
        latest.current = { ...latest.current, selected: clamped };
        setUi({ ...ui, selected: clamped, ...(item === undefined ? {} : { selectedKey: item.key }) });
      };
      if (input === 'q' || input === 'Q' || (key.ctrl && input === 'c')) {
        onQuit();
        return;
      }
      if (input === '?') return setUi({ ...ui, help: !ui.help });
      if (key.escape) return setUi({ ...ui, help: false });
      const number = Number(input);
      if (input !== '' && Number.isInteger(number) && number >= 1 && number <= VIEWS.length) {
        setMessage(undefined);
        return setUi({ ...ui, view: VIEWS[number - 1]!, help: false });
      }
      if (key.tab) {
        const at = VIEWS.indexOf(ui.view);
        const next = (at + (key.shift ? VIEWS.length - 1 : 1)) % VIEWS.length;
        return setUi({ ...ui, view: VIEWS[next]!, help: false });
      }
      if (ui.view !== 'problems' || ui.help) return;
      if (key.upArrow || input === 'k') select(selected - 1);
      else if (key.downArrow || input === 'j') select(selected + 1);
      else if (key.return) {
        const item = findings[selected];
        const file = item?.diagnostic.file;
        if (item === undefined || file === undefined) return;
        const { line, column } = item.diagnostic;
        const target: EditorTarget = {
          file: resolve(state.root, file),
          ...(line === undefined ? {} : { line }),
          ...(column === undefined ? {} : { column }),
        };
        const label = `${file}${line === undefined ? '' : `:${line}`}${column === undefined ? '' : `:${column}`}`;
        setMessage(onOpen ? onOpen(target, label) : formatFileLink(target, label));
      }
    },
    // Without a TTY on stdin there are no keys to read, and asking for raw mode would throw.
    { isActive: isRawModeSupported === true },
  );
  return (
    // One spare row: an Ink frame as tall as the terminal redraws the whole screen on every frame.
    <Dashboard
      state={state}
      view={ui.view}
      selected={selected}
      help={ui.help}
      enterHint={enterHint ?? 'Enter shows a link to the file'}
      {...(message === undefined ? {} : { message })}
      {...(home === undefined ? {} : { home })}
      width={columns}
      height={Math.max(1, rows - 1)}
    />
  );
}

export interface DevUiOptions {
  readonly stdout: NodeJS.WriteStream;
  readonly stdin: NodeJS.ReadStream;
  readonly stderr?: NodeJS.WriteStream;
  /** False under `NO_COLOR` or on a terminal without colour: no ANSI style anywhere. */
  readonly color: boolean;
  /** Where `$VISUAL` / `$EDITOR` are read. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
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
 *
 * Enter on a finding runs `$VISUAL` (else `$EDITOR`) at the finding's line: Ink is unmounted first (raw mode
 * off, cursor back), the editor gets the terminal, and the UI is mounted again with the same view and
 * selection when it exits. The daemon keeps serving and notifying hosts meanwhile.
 */
export function renderDevUi(model: DevModel, options: DevUiOptions): DevUi {
  const env = options.env ?? process.env;
  const editor = findEditor(env);
  let ui = INITIAL_UI;
  let closed = false;
  let instance: ReturnType<typeof render> | undefined;

  /**
   * Unmounts Ink, hands the terminal to the editor until it exits, and mounts the UI again. The editor runs
   * beside the event loop, not on it: hosts keep hearing of every save made in it meanwhile.
   */
  const openInEditor = (target: EditorTarget, label: string): void => {
    if (editor === undefined || closed) return;
    const command = buildEditorCommand(editor, target);
    instance?.unmount();
    instance = undefined;
    // Nothing in this process may read the keys meant for the editor: Ink's unmount leaves its reader on the
    // stream, and a paused TTY stream still reads into its buffer until its handle stops reading.
    options.stdin.removeAllListeners('readable');
    options.stdin.removeAllListeners('data');
    options.stdin.pause();
    const handle = (
      options.stdin as unknown as {
        _handle?: { reading?: boolean; readStop?: () => number; readStart?: () => number };
      }
    )._handle;
    const stopped = handle?.reading === true && handle.readStop !== undefined;
    if (stopped) {
      handle.readStop!();
      handle.reading = false;
    }
    let back = false;
    const done = (message: string): void => {
      if (back) return;
      back = true;
      // The keys are ours again: the stream still counts a read as outstanding, so restart it by hand.
      if (stopped && handle.readStart !== undefined) {
        handle.reading = true;
        handle.readStart();
      }
      // The editor leaves the screen as it likes; the frame starts again on a clean one.
      options.stdout.write('\u001b[2J\u001b[H');
      if (!closed) mount(message);
    };
    const child = spawn(command.command, [...command.args], { stdio: 'inherit' });
    child.once('error', (error) => done(`could not start ${editor}: ${error.message}`));
    child.once('exit', () => done(`back from ${editor} (${label})`));
  };

  const mount = (message?: string): void => {
    instance = render(
      <ColorContext.Provider value={options.color}>
        <App
          model={model}
          onQuit={options.onQuit}
          onOpen={(target, label) => {
            if (editor === undefined) return `no $VISUAL or $EDITOR set: ${formatFileLink(target, label)}`;
            // After the key's handler returned: Ink is not taken down from inside its own input callback.
            setImmediate(() => openInEditor(target, label));
            return `opening ${label} in ${editor}…`;
          }}
          enterHint={
            editor === undefined
              ? 'Enter shows a link to the file (set $VISUAL or $EDITOR to open it there)'
              : `Enter opens it in ${editor}`
          }
          initialUi={ui}
          {...(message === undefined ? {} : { initialMessage: message })}
          {...(options.home === undefined ? {} : { home: options.home })}
          onUiChange={(next) => {
            ui = next;
          }}
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
  };
  mount();
  return {
    close() {
      if (closed) return;
      closed = true;
      instance?.unmount();
      instance?.cleanup();
      instance = undefined;
    },
  };
}
