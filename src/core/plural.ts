/**
 * Counted nouns in English, the one way every renderer (check reports, serve's log lines, the dev UI) says
 * "1 error" and "2 errors".
 */

/** `1 document`, `2 documents`, `0 skills`; `plural` for nouns that do not just take an `s`. */
export function formatCount(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'] as const;

/** A count as prose writes it: `three` up to nine, digits from ten (`12`). */
export function formatNumberWord(count: number): string {
  return NUMBER_WORDS[count] ?? String(count);
}
