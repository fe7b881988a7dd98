/**
 * companion's entry in a host's YAML configuration (Goose's `config.yaml`: `extensions.<name>`). The `yaml` package
 * parses the file and gives every node its source range; each edit replaces the range of an owned value, removes
 * the lines of an owned key, or inserts whole lines after the last line of the map it extends — applied to the
 * bytes, so comments, key order, quoting, blank lines, other entries and bytes that are not UTF-8 stay as they were.
 *
 * Refused, with the reason said, is every file an edit could not change safely: one that is not valid YAML
 * (duplicate keys included), holds more than one document, ends its document with `...`, or is not a mapping; a
 * servers table or entry written in flow style (`{ … }`), reached through an alias, carrying an anchor or a tag,
 * or merging another map in (`<<`); an owned value that carries an anchor other nodes may refer to. Each result is
 * parsed again and must equal the old document with only companion's entry changed. Pure.
 *
 * Longer than ~400 lines on purpose: every refusal above is a case the edit must recognise before it touches a
 * byte, and each reads best beside the edit it protects.
 */
import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  parseAllDocuments,
  type YAMLMap,
} from 'yaml';
import { applyEdits, type ConfigText, decodeConfig, detectLineEnd, type TextEdit } from './config-bytes.js';
import {
  buildDocumentWithout,
  buildExpectedDocument,
  checkEditResult,
  type EditResult,
  type EntryRead,
  type EntrySpec,
  isSameValue,
} from './config-entry.js';

type AnyPair = Pair<unknown, unknown>;

/** Reads the entry `spec.key` of the servers map as a YAML reader sees it. */
export function readYamlEntry(config: ConfigText, spec: EntrySpec): EntryRead {
  const located = locateEntry(config.text, spec);
  if ('reason' in located) return { status: 'invalid', reason: located.reason };
  if (located.entry === undefined) return { status: 'missing' };
  return { status: 'found', entry: readEntryValue(located.value, spec) };
}

/**
 * Plans setting the owned fields of the entry to `owned` (fields absent from `owned` are removed), creating the
 * entry, the servers map or the whole file as needed. The caller has decided the entry is companion's.
 */
export function buildYamlEntryEdit(
  config: ConfigText | undefined,
  spec: EntrySpec,
  owned: Readonly<Record<string, unknown>>,
): EditResult {
  const created = { ...spec.createdWith, ...owned };
  if (config === undefined || config.text.trim() === '') {
    const lines = [
      `${formatYamlKey(spec.serversKey)}:`,
      ...formatEntryLines(spec.key, created, '  ', '    '),
    ];
    return { ok: true, bytes: new Uint8Array(Buffer.from(`${lines.join('\n')}\n`, 'utf8')) };
  }
  const first = locateEntry(config.text, spec);
  if ('reason' in first) return { ok: false, reason: first.reason };
  const before = first.value;
  const eol = detectLineEnd(config.text);
  let current = config;
  const apply = (edit: TextEdit) => {
    current = decodeConfig(applyEdits(current, [edit]));
  };
  if (first.entry === undefined) {
    const { text } = current;
    const unit = detectUnit(text, first);
    const rootIndent = first.root === undefined ? '' : readIndent(text, first.root.items[0]!);
    if (first.servers === undefined) {
      // A new servers map at the end of the file, at the root's indentation.
      const lines = [
        `${rootIndent}${formatYamlKey(spec.serversKey)}:`,
        ...formatEntryLines(spec.key, created, rootIndent + unit, rootIndent + unit + unit),
      ];
      apply(insertLines(text, text.length, lines, eol));
    } else if (first.servers.map === undefined) {
      // `extensions:` with nothing after it: the entry goes on the lines below the key.
      const indent = readIndent(text, first.servers.pair) + unit;
      const lines = formatEntryLines(spec.key, created, indent, indent + unit);
      apply(insertLines(text, findNextLine(text, first.servers.pair.key as Node), lines, eol));
    } else {
      const map = first.servers.map;
      const indent = readIndent(text, map.items[0]!);
      const lines = formatEntryLines(spec.key, created, indent, indent + unit);
      apply(insertLines(text, findLineAfter(text, map.range![1]), lines, eol));
    }
  } else {
    for (const field of spec.ownedFields) {
      // Ranges move with every edit: find the entry again in the current text.
      const located = locateEntry(current.text, spec) as Located;
      const entry = located.entry!;
      const pair = findPair(entry, field);
      const wanted = owned[field];
      const text = current.text;
      if (wanted === undefined) {
        if (pair !== undefined) apply(removePairLines(text, pair, eol));
      } else if (pair === undefined) {
        const indent = readIndent(text, entry.items[0]!);
        apply(
          insertLines(
            text,
            findLineAfter(text, entry.range![1]),
            formatFieldLines(field, wanted, indent),
            eol,
          ),
        );
      } else if (!isSameValue(readEntryValue(located.value, spec)[field], wanted)) {
        const edit = replaceValue(text, pair, wanted, eol);
        if ('reason' in edit) return { ok: false, reason: `${spec.shownPath} ${edit.reason}` };
        apply(edit);
      }
    }
  }
  return checkResult(current, [buildExpectedDocument(before, spec, owned)], spec);
}

/** Plans removing the entry: the lines of its key and its map. */
export function buildYamlEntryRemoval(config: ConfigText, spec: EntrySpec): EditResult {
  const located = locateEntry(config.text, spec);
  if ('reason' in located) return { ok: false, reason: located.reason };
  if (located.entry === undefined) return { ok: true, bytes: config.bytes };
  const text = config.text;
  const edit = removePairLines(text, located.entryPair!, detectLineEnd(text));
  const after = decodeConfig(applyEdits(config, [edit]));
  const expected = buildDocumentWithout(located.value, spec);
  // A servers map left with no entry reads as null (`extensions:` with nothing after it).
  const emptied = Object.keys(expected[spec.serversKey]!).length === 0;
  return checkResult(
    after,
    emptied ? [expected, { ...expected, [spec.serversKey]: null }] : [expected],
    spec,
  );
}

interface Located {
  /** The document as a YAML reader sees it. */
  readonly value: unknown;
  /** The root map, unless the document is empty (comments only). */
  readonly root?: YAMLMap;
  /** The servers key, and its map unless nothing follows the key. */
  readonly servers?: { readonly pair: AnyPair; readonly map?: YAMLMap };
  readonly entryPair?: AnyPair;
  readonly entry?: YAMLMap;
}

function locateEntry(text: string, spec: EntrySpec): Located | { readonly reason: string } {
  const { shownPath, serversKey, key } = spec;
  const parsed = parseDocuments(text, shownPath);
  if ('reason' in parsed) return parsed;
  const { doc, value } = parsed;
  const refuse = (how: string) => ({
    reason: `${shownPath} ${how}; companion install edits only a block-style mapping it can change by lines. Change it by hand, then run again.`,
  });
  const contents = (doc?.contents ?? null) as Node | null;
  if (contents === null) return { value };
  if (!isMap(contents))
    return { reason: `${shownPath} is not a YAML mapping; fix it by hand, then run again.` };
  if (contents.flow) return refuse('is written in flow style ({ … })');
  if (contents.items.length === 0) return { value };
  const root = contents as YAMLMap;
  const serversPair = findPair(root, serversKey);
  if (serversPair === undefined) return { value, root };
  const servers = serversPair.value as Node | null;
  const what = `"${serversKey}"`;
  if (
    servers === null ||
    (isScalar(servers) && servers.value === null && servers.range![0] === servers.range![1])
  ) {
    return { value, root, servers: { pair: serversPair } };
  }
  const problem = findNodeProblem(servers, what);
  if (problem !== undefined) return refuse(problem);
  if (!isMap(servers)) {
    return {
      reason: `${what} in ${shownPath} is not a mapping (it is ${describeNode(servers)}); fix it by hand, then run again.`,
    };
  }
  const serversMap = servers as YAMLMap;
  const entryPair = findPair(serversMap, key);
  const found = { value, root, servers: { pair: serversPair, map: serversMap } };
  if (entryPair === undefined) return found;
  const entry = entryPair.value as Node | null;
  const name = `the entry "${key}"`;
  if (entry === null || !isMap(entry) || isAlias(entry)) {
    const aliasProblem = entry === null ? undefined : findNodeProblem(entry, name);
    if (aliasProblem !== undefined) return refuse(aliasProblem);
    return {
      reason: `${shownPath} has an entry "${key}" that is not a mapping (it is ${describeNode(entry)}); companion install will not replace it.`,
    };
  }
  const entryProblem = findNodeProblem(entry, name);
  if (entryProblem !== undefined) return refuse(entryProblem);
  const entryMap = entry as YAMLMap;
  if (findPair(entryMap, '<<') !== undefined) return refuse(`merges another mapping into ${name} (<<)`);
  for (const field of spec.ownedFields) {
    const owned = findPair(entryMap, field)?.value as Node | null | undefined;
    if (owned !== undefined && owned !== null && !isAlias(owned) && owned.anchor !== undefined) {
      return refuse(
        `puts an anchor (&${owned.anchor}) on "${field}" of "${key}", which other parts of the file may refer to`,
      );
    }
  }
  return { ...found, entryPair, entry: entryMap };
}

/** The one document of the file (none for an empty one) and its value, or why the file is refused. */
function parseDocuments(
  text: string,
  shownPath: string,
): { readonly doc?: Document.Parsed; readonly value: unknown } | { readonly reason: string } {
  const invalid = (why: string) => ({
    reason: `${shownPath} is not valid YAML (${why}); fix it by hand, then run again.`,
  });
  // logLevel: a file with collection keys must not print the library's warnings into install's output.
  const docs = parseAllDocuments(text, { uniqueKeys: true, logLevel: 'error' });
  if (docs.length > 1) {
    return {
      reason: `${shownPath} holds ${docs.length} YAML documents; hosts read one. Keep one, then run again.`,
    };
  }
  const doc = docs[0];
  if (doc === undefined) return { value: null };
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem !== undefined) return invalid(problem.message.split(':\n')[0]!.replace(/\.$/, ''));
  if (/^\.\.\.(?:[ \t]|\r?$)/m.test(text)) {
    return {
      reason: `${shownPath} ends its YAML document with "..."; a line written after it would start a new document. Remove the marker, then run again.`,
    };
  }
  try {
    return { doc, value: doc.toJS({ maxAliasCount: 100 }) };
  } catch (error) {
    return invalid((error as Error).message);
  }
}

/** Why a node on the way to our entry cannot be edited by lines, or undefined. */
function findNodeProblem(node: Node, what: string): string | undefined {
  if (isAlias(node)) return `defines ${what} as an alias (*${node.source})`;
  if (node.anchor !== undefined)
    return `puts an anchor (&${node.anchor}) on ${what}, which other parts of the file may refer to`;
  if (node.tag !== undefined) return `tags ${what} (${node.tag})`;
  if (isMap(node) && node.flow) return `writes ${what} in flow style ({ … })`;
  return undefined;
}

function describeNode(node: Node | null): string {
  if (node === null || (isScalar(node) && node.value === null)) return 'empty';
  if (isSeq(node)) return 'a list';
  if (isScalar(node)) return `the value ${JSON.stringify(node.value) ?? String(node.value)}`;
  return 'not a mapping';
}

function findPair(map: YAMLMap, key: string): AnyPair | undefined {
  return (map.items as AnyPair[]).find((p) => isScalar(p.key) && p.key.value === key);
}

function readEntryValue(value: unknown, spec: EntrySpec): Record<string, unknown> {
  const document = value as Record<string, Record<string, Record<string, unknown>>> | null;
  return document?.[spec.serversKey]?.[spec.key] ?? {};
}

function checkResult(after: ConfigText, expected: readonly unknown[], spec: EntrySpec): EditResult {
  return checkEditResult(
    after,
    expected,
    spec,
    `the entry "${spec.key}" under ${spec.serversKey}`,
    (text) => {
      const parsed = parseDocuments(text, spec.shownPath);
      return 'reason' in parsed ? undefined : parsed;
    },
  );
}

// ---- Layout: where lines go and how they are indented ----

function findLineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The offset where the line after the one holding `offset` starts (the end of the text when there is none). */
function findNextLine(text: string, node: Node): number {
  const newline = text.indexOf('\n', node.range![1]);
  return newline === -1 ? text.length : newline + 1;
}

/** `offset` when a line starts there, else the start of the next line: where lines after a node go. */
function findLineAfter(text: string, offset: number): number {
  if (offset === 0 || text[offset - 1] === '\n') return offset;
  const newline = text.indexOf('\n', offset);
  return newline === -1 ? text.length : newline + 1;
}

/** The whitespace before a pair's key on its line. */
function readIndent(text: string, pair: unknown): string {
  const key = (pair as AnyPair).key as Node;
  return text.slice(findLineStart(text, key.range![0]), key.range![0]);
}

/** The file's indentation step: an entry's fields below its key, else the servers map's keys below it, else 2. */
function detectUnit(text: string, located: Located): string {
  const column = (pair: unknown) => readIndent(text, pair).length;
  const map = located.servers?.map;
  const firstEntry = map?.items[0];
  const inner = firstEntry?.value;
  if (firstEntry !== undefined && isMap(inner) && !inner.flow && inner.items.length > 0) {
    const step = column(inner.items[0]) - column(firstEntry);
    if (step > 0) return ' '.repeat(step);
  }
  if (firstEntry !== undefined && located.root !== undefined) {
    const step = column(firstEntry) - column(located.root.items[0]);
    if (step > 0) return ' '.repeat(step);
  }
  const indented = /\n( +)\S/.exec(text)?.[1];
  return indented === undefined ? '  ' : indented;
}

/** Inserts whole lines at the start of a line (or after the last line of a file that ends without a line end). */
function insertLines(text: string, at: number, lines: readonly string[], eol: string): TextEdit {
  const block = lines.join(eol);
  if (at === text.length && text.length > 0 && !text.endsWith('\n')) {
    return { start: at, end: at, insert: `${eol}${block}` };
  }
  return { start: at, end: at, insert: `${block}${eol}` };
}

/**
 * Removes the lines of a pair: from its key's line to the end of its value (a comment on the value's last line
 * goes with it; comment lines after it stay). At the end of a file without a final line end, the line end before
 * the pair goes too, which undoes `insertLines`.
 */
function removePairLines(text: string, pair: AnyPair, eol: string): TextEdit {
  const key = pair.key as Node;
  const value = pair.value as Node | null;
  const start = findLineStart(text, key.range![0]);
  const end = findLineAfter(text, (value ?? key).range![1]);
  if (end === text.length && !text.endsWith('\n') && start > 0) {
    const before = text.endsWith('\r\n', start) ? 2 : 1;
    return { start: start - Math.min(before, eol.length), end, insert: '' };
  }
  return { start, end, insert: '' };
}

/** Replaces a pair's value in the layout it has: a block list stays a block list, anything else one line. */
function replaceValue(
  text: string,
  pair: AnyPair,
  value: unknown,
  eol: string,
): TextEdit | { readonly reason: string } {
  const node = pair.value as Node | null;
  const key = pair.key as Node;
  if (node === null) return { reason: `has "${String(key)}" with no value companion can replace` };
  const [start, end] = node.range!;
  if (isSeq(node) && !node.flow && Array.isArray(value) && value.length > 0) {
    const indent = text.slice(findLineStart(text, start), start);
    const items = value.map((item) => `- ${formatYamlInline(item)}`).join(`${eol}${indent}`);
    return { start, end, insert: text.slice(start, end).endsWith('\n') ? `${items}${eol}` : items };
  }
  if (start === end) return { start, end, insert: ` ${formatYamlInline(value)}` };
  // Only the value's own characters: the line ends after a block value stay where they are.
  const span = text.slice(start, end);
  return { start, end: start + span.trimEnd().length, insert: formatYamlInline(value) };
}

// ---- Writing YAML ----

function formatEntryLines(
  key: string,
  fields: Readonly<Record<string, unknown>>,
  keyIndent: string,
  fieldIndent: string,
): string[] {
  return [
    `${keyIndent}${formatYamlKey(key)}:`,
    ...Object.entries(fields).flatMap(([field, value]) => formatFieldLines(field, value, fieldIndent)),
  ];
}

/** `field: value` on one line, or a block list below the key at the key's indentation, as libyaml writes it. */
function formatFieldLines(field: string, value: unknown, indent: string): string[] {
  if (Array.isArray(value) && value.length > 0) {
    return [
      `${indent}${formatYamlKey(field)}:`,
      ...value.map((item) => `${indent}- ${formatYamlInline(item)}`),
    ];
  }
  return [`${indent}${formatYamlKey(field)}: ${formatYamlInline(value)}`];
}

/** Words a YAML reader might take for something other than a string. */
const RESERVED = /^(?:true|false|yes|no|on|off|y|n|null|~)$/i;

/** A string as a plain scalar when nothing could misread it, else double-quoted (JSON's escapes are YAML's). */
export function formatYamlString(value: string): string {
  const plain = /^[A-Za-z_/][A-Za-z0-9_./-]*$/.test(value) && !RESERVED.test(value);
  return plain ? value : JSON.stringify(value);
}

function formatYamlKey(key: string): string {
  return formatYamlString(key);
}

/** A value on one line: scalars, and flow lists and maps of them. */
export function formatYamlInline(value: unknown): string {
  if (typeof value === 'string') return formatYamlString(value);
  if (value === null) return 'null';
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `[${value.map(formatYamlInline).join(', ')}]`;
  if (typeof value === 'object') {
    const pairs = Object.entries(value as Record<string, unknown>);
    return pairs.length === 0
      ? '{}'
      : `{ ${pairs.map(([k, v]) => `${formatYamlKey(k)}: ${formatYamlInline(v)}`).join(', ')} }`;
  }
  throw new TypeError(`cannot write ${String(value)} as YAML`);
}
