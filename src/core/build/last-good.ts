/**
 * A build's last good files (`BuildResult.lastGood`: what the next build serves from while an item is broken or
 * unreadable), read through what the build keeps anyway. A served document's last good file is the file its
 * served content serves (`readContentFile`): the catalog's `contents` holds it under the document's URI, so it is
 * not kept a second time; every other file (a skill's, a prompt, the scope file, base.md, a document whose content
 * does not serve that very file) is kept in a map of its own. On XL the documents' 100,000 entries were a table of
 * ~3.5 MB holding nothing the contents did not.
 */
import { DOCUMENTS_DIR } from '../names.js';
import type { ServedContent, SourceFile } from '../types.js';
import { readContentFile } from './text-backed-content.js';

export class LastGood implements ReadonlyMap<string, SourceFile> {
  readonly #contents: ReadonlyMap<string, ServedContent>;
  readonly #others: ReadonlyMap<string, SourceFile>;
  /** `<scheme>://guides/`: a document's URI is this and its id. */
  readonly #prefix: string;
  #size: number | undefined;

  /**
   * `contents`: a catalog's, whose every document content is of a last good file; `others`: every other last good
   * file, and a document's whose content does not serve it; `prefix`: the scheme's document prefix.
   */
  constructor(
    contents: ReadonlyMap<string, ServedContent>,
    others: ReadonlyMap<string, SourceFile>,
    prefix: string,
  ) {
    this.#contents = contents;
    this.#others = others;
    this.#prefix = prefix;
  }

  get(path: string): SourceFile | undefined {
    const other = this.#others.get(path);
    if (other !== undefined) return other;
    const uri = this.#uriOf(path);
    const content = uri === undefined ? undefined : this.#contents.get(uri);
    const file = content && readContentFile(content);
    return file?.path === path ? file : undefined;
  }

  /** The URI of the document at `path`; undefined when it is no document's path. */
  #uriOf(path: string): string | undefined {
    return path.startsWith(DOCUMENTS_DIR) && path.endsWith('.md')
      ? this.#prefix + path.slice(DOCUMENTS_DIR.length, -'.md'.length)
      : undefined;
  }

  has(path: string): boolean {
    return this.get(path) !== undefined;
  }

  get size(): number {
    if (this.#size === undefined) {
      let size = this.#others.size;
      for (const _ of this.#documents()) size++;
      this.#size = size;
    }
    return this.#size;
  }

  /** The documents' files read through the contents (those `others` does not hold). */
  *#documents(): Generator<[string, SourceFile]> {
    for (const [uri, content] of this.#contents) {
      if (!uri.startsWith(this.#prefix)) continue;
      const file = readContentFile(content);
      if (file !== undefined && !this.#others.has(file.path) && this.#uriOf(file.path) === uri)
        yield [file.path, file];
    }
  }

  *entries(): MapIterator<[string, SourceFile]> {
    yield* this.#others.entries();
    yield* this.#documents();
  }

  *keys(): MapIterator<string> {
    for (const [path] of this.entries()) yield path;
  }

  *values(): MapIterator<SourceFile> {
    for (const [, file] of this.entries()) yield file;
  }

  [Symbol.iterator](): MapIterator<[string, SourceFile]> {
    return this.entries();
  }

  forEach(
    callback: (file: SourceFile, path: string, map: ReadonlyMap<string, SourceFile>) => void,
    thisArg?: unknown,
  ): void {
    for (const [path, file] of this.entries()) callback.call(thisArg, file, path, this);
  }

  get [Symbol.toStringTag](): string {
    return 'LastGood';
  }
}

/**
 * Whether the last good file of a document served as `content` must be kept of its own (`LastGood`'s `others`):
 * when the content does not serve that very file.
 */
export function keepsLastGoodApart(content: ServedContent, file: SourceFile): boolean {
  return readContentFile(content) !== file;
}
