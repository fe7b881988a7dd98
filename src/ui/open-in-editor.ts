/**
 * Opening a finding's file at its line: the command for `$VISUAL` / `$EDITOR` (each editor family takes the
 * line its own way), or, where none is set, an OSC 8 hyperlink a terminal can open.
 */
import { hostname } from 'node:os';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface EditorTarget {
  /** Absolute path. */
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
}

export interface EditorCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** The editor as the user named it, for the screen. */
  readonly label: string;
}

/** The editor the environment names: `$VISUAL`, else `$EDITOR`; undefined when neither is set. */
export function findEditor(env: NodeJS.ProcessEnv): string | undefined {
  for (const name of ['VISUAL', 'EDITOR'] as const) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

/** Splits an editor setting like `code --wait` or `"/opt/My Editor/bin/ed" -n` into words (quotes group). */
export function splitCommand(text: string): string[] {
  const words: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    words.push(match[1] ?? match[2] ?? match[3] ?? '');
  }
  return words;
}

/** Editors that take `+LINE file`. */
const PLUS_LINE = new Set([
  'vi',
  'vim',
  'nvim',
  'gvim',
  'mvim',
  'view',
  'nano',
  'pico',
  'micro',
  'emacs',
  'emacsclient',
  'kak',
  'joe',
  'jed',
  'mg',
  'ne',
  'ed',
  'ex',
]);
/** Editors that take `-g file:line:col` (VS Code and its forks). */
const GOTO_FLAG = new Set(['code', 'code-insiders', 'codium', 'vscodium', 'cursor', 'windsurf']);
/** Editors that take `file:line:col`. */
const COLON_SUFFIX = new Set(['subl', 'sublime_text', 'zed', 'hx', 'helix', 'mate']);
/** JetBrains launchers: `--line N file`. */
const LINE_FLAG = new Set([
  'idea',
  'webstorm',
  'pycharm',
  'phpstorm',
  'goland',
  'clion',
  'rubymine',
  'rider',
  'fleet',
]);

/** The command that opens `target` in `editor` at its line (and column where the editor takes one). */
export function buildEditorCommand(editor: string, target: EditorTarget): EditorCommand {
  const [command = editor, ...rest] = splitCommand(editor);
  const name = basename(command).replace(/\.exe$/i, '');
  const { file, line, column } = target;
  const at = line === undefined ? '' : `:${line}${column === undefined ? '' : `:${column}`}`;
  let args: string[];
  if (line === undefined) args = [file];
  else if (PLUS_LINE.has(name)) args = [`+${line}`, file];
  else if (GOTO_FLAG.has(name)) args = ['-g', `${file}${at}`];
  else if (COLON_SUFFIX.has(name)) args = [`${file}${at}`];
  else if (LINE_FLAG.has(name)) args = ['--line', String(line), file];
  else args = [file];
  return { command, args: [...rest, ...args], label: editor };
}

/**
 * An OSC 8 hyperlink to the file, labelled `label`: terminals that support it (iTerm2, WezTerm, kitty, VS Code's,
 * GNOME's, Windows Terminal) open it on click; others show the label alone.
 */
export function formatFileLink(target: EditorTarget, label: string): string {
  const url = pathToFileURL(target.file);
  url.hostname = hostname();
  return `\u001b]8;;${url.href}\u001b\\${label}\u001b]8;;\u001b\\`;
}
