/**
 * What the config formats (JSON, TOML, YAML) offer `companion install`, `uninstall` and `doctor`: read the one
 * entry companion may own, set its owned fields, remove it. Every answer is new bytes planned from old bytes,
 * never a write; the format modules edit only the ranges of companion's entry and check their own work by
 * parsing the result again. Also the digest that tells an entry companion wrote from any other.
 */
import { createHash } from 'node:crypto';
import { type ConfigText, formatCanonicalJson } from './config-bytes.js';

/** Which entry, in which table, and which of its fields companion owns. */
export interface EntrySpec {
  /** The table that holds the servers: `mcpServers`, `servers`, `mcp_servers`. */
  readonly serversKey: string;
  /** The entry's name: the server's name, or `--name`. */
  readonly key: string;
  /** The fields companion writes; every other field of the entry is the user's. */
  readonly ownedFields: readonly string[];
  /** The file as messages name it. */
  readonly shownPath: string;
  /** Fields written beside the owned ones when the entry is created, and never touched after. */
  readonly createdWith?: Readonly<Record<string, unknown>>;
}

/** What the entry looks like in a file. */
export type EntryRead =
  | { readonly status: 'found'; readonly entry: Readonly<Record<string, unknown>> }
  | { readonly status: 'missing' }
  | { readonly status: 'invalid'; readonly reason: string };

/** New bytes for the file, or why the edit cannot be made safely. */
export type EditResult =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly reason: string };

/**
 * The digest of the owned fields an entry holds (those of `ownedFields` it has, by value, key order and
 * formatting aside). The record keeps it for every entry companion writes; an entry whose owned fields still
 * digest the same is companion's to rewrite or remove.
 */
export function buildEntryDigest(
  entry: Readonly<Record<string, unknown>>,
  ownedFields: readonly string[],
): string {
  const owned = Object.fromEntries(
    ownedFields.filter((f) => Object.hasOwn(entry, f)).map((f) => [f, entry[f]]),
  );
  return `sha256:${createHash('sha256').update(formatCanonicalJson(owned)).digest('hex')}`;
}

/**
 * The fields of `entry` that are not owned: what the user added to an entry companion wrote. A field that holds
 * the value the host itself writes there (`hostValues`: what install created the entry with, the host's defaults)
 * is not the user's.
 */
export function listForeignFields(
  entry: Readonly<Record<string, unknown>>,
  ownedFields: readonly string[],
  hostValues: Readonly<Record<string, unknown>> = {},
): string[] {
  return Object.keys(entry).filter(
    (field) =>
      !ownedFields.includes(field) &&
      !(Object.hasOwn(hostValues, field) && isSameValue(entry[field], hostValues[field])),
  );
}

/** Whether two parsed config values are the same document (canonical JSON; dates by their ISO text). */
export function isSameValue(a: unknown, b: unknown): boolean {
  return formatCanonicalJson(a) === formatCanonicalJson(b);
}

/**
 * The document a set edit must produce: `before` with the entry's owned fields replaced by `owned` (owned
 * fields absent from `owned` gone) and every other field, entry and table as it was.
 */
export function buildExpectedDocument(
  before: unknown,
  spec: EntrySpec,
  owned: Readonly<Record<string, unknown>>,
): unknown {
  const document = structuredClone(before ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  const servers = document[spec.serversKey] ?? {};
  const entry = { ...(servers[spec.key] ?? spec.createdWith ?? {}) };
  for (const field of spec.ownedFields) delete entry[field];
  document[spec.serversKey] = { ...servers, [spec.key]: { ...entry, ...owned } };
  return document;
}

/** The document a removal must produce: `before` without the entry, every other entry and table as it was. */
export function buildDocumentWithout(
  before: unknown,
  spec: EntrySpec,
): Record<string, Record<string, unknown> | null> {
  const expected = structuredClone(before) as Record<string, Record<string, unknown>>;
  delete expected[spec.serversKey]![spec.key];
  return expected;
}

/**
 * How every format checks its own edit: `after`, read back by the format's parser (`readBack` answers undefined
 * for text that does not parse), must be one of the `expected` documents; else the edit is refused, and the
 * user is told to edit `what` (the entry, as the format names it) by hand.
 */
export function checkEditResult(
  after: ConfigText,
  expected: readonly unknown[],
  spec: EntrySpec,
  what: string,
  readBack: (text: string) => { readonly value: unknown } | undefined,
): EditResult {
  const read = readBack(after.text);
  if (read === undefined || !expected.some((e) => isSameValue(read.value, e))) {
    return {
      ok: false,
      reason: `${spec.shownPath} could not be edited safely (the result would not read back as intended); edit ${what} by hand.`,
    };
  }
  return { ok: true, bytes: after.bytes };
}
