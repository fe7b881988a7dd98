/**
 * How the search index's laid-out postings store one (unit, value) pair (posting-table.ts): as varints, seven bits
 * a byte, the high bit set on all but the last. `PostingTable.forEach` reads them back inline.
 */

/** Bytes of `n` (0 ≤ n < 2³¹) as a varint: seven bits a byte, the high bit set on all but the last. */
function varintLength(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
}

/** Writes `n` as a varint at `at`; answers where the next byte goes. */
function writeVarint(bytes: Uint8Array, at: number, n: number): number {
  let rest = n;
  while (rest >= 0x80) {
    bytes[at++] = (rest & 0x7f) | 0x80;
    rest >>>= 7;
  }
  bytes[at++] = rest;
  return at;
}

/**
 * A pair's first varint: its unit's distance from the pair before (never negative: a word's pairs are laid out in
 * unit order) shifted left by one, the low bit set when a second varint, the value, follows — clear when the value
 * is the table's `common` one (a body word once in a section, or any title word), which needs no byte of its own.
 */
const headOf = (distance: number, value: number, common: number): number =>
  distance * 2 + (value === common ? 0 : 1);
/** Bytes of the pair (`distance`, `value`) laid out (`headOf`). */
export function pairLength(distance: number, value: number, common: number): number {
  const head = headOf(distance, value, common);
  return varintLength(head) + ((head & 1) === 0 ? 0 : varintLength(value));
}

/** Writes the pair (`distance`, `value`) at `at` (`headOf`); answers where the next byte goes. */
export function writePair(
  bytes: Uint8Array,
  at: number,
  distance: number,
  value: number,
  common: number,
): number {
  const head = headOf(distance, value, common);
  const next = writeVarint(bytes, at, head);
  return (head & 1) === 0 ? next : writeVarint(bytes, next, value);
}
