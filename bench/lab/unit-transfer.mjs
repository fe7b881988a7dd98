#!/usr/bin/env node
/**
 * What it costs to hand the per-file work of a cold build from one thread to another (issue 18.2): a worker that
 * parses documents must send what it derived to the thread that builds the catalog, and structured clone (what
 * `postMessage` uses) copies every string and object. In one process, on the corpus's files: parsing every
 * document (`readDocument`) against serializing and deserializing the parsed results; decoding and hashing every
 * file against deserializing the texts and the digests alone. Deserializing is what the building thread pays.
 *
 *   node bench/lab/unit-transfer.mjs <S|M|L|XL>
 */
import v8 from 'node:v8';
import { ensureCorpus } from '../generate-corpus.mjs';
import { distDir, log } from '../lib.mjs';

const size = process.argv[2] ?? 'L';
const info = ensureCorpus(size, { log });
const load = (path) => import(new URL(`${distDir}${path}`, 'file://').href);
const { readSnapshot } = await load('fs/read-snapshot.js');
const { readDocument } = await load('core/documents.js');
const { buildDigest, decodeUtf8 } = await load('core/content.js');

const time = (fn) => {
  const started = performance.now();
  const value = fn();
  return [value, performance.now() - started];
};
const snapshot = readSnapshot(info.root);
const files = [...snapshot.files.values()];
const documents = files.filter((f) => f.path.startsWith('knowledge/documents/') && f.path.endsWith('.md'));
// Decoding and hashing first, so that parsing below finds the text decoded (as a worker that did both would).
const [pairs, decodeAndHashMs] = time(() =>
  files.map((f) => [buildDigest(f.bytes), decodeUtf8(f.bytes) ?? null]),
);
const [parsed, parseMs] = time(() => documents.map((f) => readDocument(f)));
const [units, serializeMs] = time(() => v8.serialize(parsed));
const [, deserializeMs] = time(() => v8.deserialize(units));
const texts = v8.serialize(pairs.map(([, text]) => text));
const [, deserializeTextsMs] = time(() => v8.deserialize(texts));
const digests = v8.serialize(pairs.map(([digest]) => digest));
const [, deserializeDigestsMs] = time(() => v8.deserialize(digests));
const round = (n) => Math.round(n * 10) / 10;
process.stdout.write(
  `${JSON.stringify(
    {
      size,
      files: files.length,
      documents: documents.length,
      parseDocumentsMs: round(parseMs),
      serializeParsedMs: round(serializeMs),
      deserializeParsedMs: round(deserializeMs),
      parsedCloneMb: round(units.length / 1048576),
      decodeAndHashAllMs: round(decodeAndHashMs),
      deserializeTextsMs: round(deserializeTextsMs),
      textsCloneMb: round(texts.length / 1048576),
      deserializeDigestsMs: round(deserializeDigestsMs),
    },
    null,
    2,
  )}\n`,
);
