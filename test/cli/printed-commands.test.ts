/**
 * Every companion command this project prints — in the README, the bundled documents and skills, the scope file
 * (the index and instructions every host receives) and the CLI's own output — is one the CLI has, with options
 * that command accepts, spelled the way it runs in an author's repository.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/run-cli.js';

/** Every text file whose words reach a user: the README, the bundled content. */
function readPrintedSources(): { file: string; text: string }[] {
  const files = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(repoRoot, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/\.(md|json)$/.test(entry.name) && !entry.name.endsWith('.schema.json')) files.push(path);
    }
  };
  walk('knowledge');
  walk('skills');
  return files.map((file) => ({ file, text: readFileSync(join(repoRoot, file), 'utf8') }));
}

interface Mention {
  readonly where: string;
  readonly command: string;
  readonly options: readonly string[];
  /** The whole mention as written. */
  readonly text: string;
}

/**
 * The companion commands `text` names: `npx [--no] [--prefix DIR] companion CMD …` anywhere, `companion CMD …` in
 * a code span, and a line of a code block that starts `companion CMD`. The options are the `--long` words up to
 * the end of the span or line, or up to a shell separator. On a line that runs the MCP Inspector, the options
 * after the server's command are the Inspector's (`--method`), so only the command name is checked there.
 */
function findMentions(where: string, text: string): Mention[] {
  const found: Mention[] = [];
  const add = (match: RegExpMatchArray, line: string): void => {
    const options = line.includes('@modelcontextprotocol/inspector')
      ? []
      : [...(match[2] ?? '').matchAll(/(?:^|\s)(--[a-z][a-z-]*)/g)].map((m) => m[1]!);
    found.push({ where, command: match[1]!, options, text: match[0].trim() });
  };
  for (const line of text.split('\n')) {
    for (const match of line.matchAll(
      /npx(?: --no)?(?: --prefix \S+)? companion ([a-z][a-z-]*)([^`|;&)]*)/g,
    )) {
      add(match, line);
    }
    for (const match of line.matchAll(/`companion ([a-z][a-z-]*)([^`]*)`/g)) add(match, line);
  }
  for (const block of text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
    for (const line of block[1]!.split('\n')) {
      const match = /^\s*companion ([a-z][a-z-]*)([^|;&]*)$/.exec(line);
      if (match) add(match, line);
    }
  }
  return found;
}

/** The commands `companion --help` lists, each with the options its own `--help` lists. */
async function readCommandTable(): Promise<Map<string, Set<string>>> {
  const help = await runCli(['--help']);
  const section = help.stdout.slice(
    help.stdout.indexOf('Commands:'),
    help.stdout.indexOf('\n\n', help.stdout.indexOf('Commands:')),
  );
  const commands = [...section.matchAll(/^ {2}([a-z]+) +\S/gm)].map((m) => m[1]!);
  const table = new Map<string, Set<string>>();
  for (const command of commands) {
    const usage = await runCli([command, '--help']);
    expect(usage.code, `${command} --help`).toBe(0);
    table.set(command, new Set([...usage.stdout.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0])));
  }
  return table;
}

describe('every companion command this project prints', () => {
  it('is a command the CLI has, with options that command accepts', { timeout: 60_000 }, async () => {
    const table = await readCommandTable();
    expect([...table.keys()]).toEqual(expect.arrayContaining(['check', 'init', 'serve', 'dev', 'install']));

    // What the CLI itself prints to an author: init's next steps and doctor's advice in a fresh repository.
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const temp = mkdtempSync(join(tmpdir(), 'companion-printed-'));
    try {
      const init = await runCli(['init', join(temp, 'content')]);
      const doctor = await runCli(['doctor', '--project', join(temp, 'content')], {
        cwd: join(temp, 'content'),
      });
      const printed = [
        ...readPrintedSources(),
        { file: 'companion init (output)', text: init.stdout + init.stderr },
        { file: 'companion doctor (output)', text: doctor.stdout + doctor.stderr },
      ];
      const mentions = printed.flatMap(({ file, text }) => findMentions(file, text));
      // The search must find what is there: the README alone names check, dev, serve, init and install.
      expect(mentions.length).toBeGreaterThan(40);
      const wrong = mentions.flatMap((mention) => {
        const options = table.get(mention.command);
        if (!options) return [`${mention.where}: \`${mention.text}\` names no command`];
        const unknown = mention.options.filter((option) => !options.has(option));
        return unknown.length === 0
          ? []
          : [`${mention.where}: \`${mention.text}\`: ${mention.command} has no ${unknown.join(', ')}`];
      });
      expect(wrong).toEqual([]);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });

  it('is spelled to run in an author repository: npx companion, never a bare companion on a shell line', () => {
    // A bare `companion …` line in a shell block only runs where the package is installed globally, which the
    // README never asks for; inside a project, `npx companion` runs the project's copy.
    const bare = readPrintedSources().flatMap(({ file, text }) => {
      const lines: string[] = [];
      for (const block of text.matchAll(/```(?:sh|bash|shell|console)\n([\s\S]*?)```/g)) {
        for (const line of block[1]!.split('\n')) {
          if (/^\s*(\$ )?companion /.test(line)) lines.push(`${relative('.', file)}: ${line.trim()}`);
        }
      }
      return lines;
    });
    expect(bare).toEqual([]);
  });
});
