/**
 * The words of a text as search sees them, for the document search and the task guide alike: lowercase runs of
 * letters and digits, a crude stem, stopwords left out, and how rare a term is among units (IDF).
 */

/** Words too common to say anything about what a section is about. */
const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be by can do does for from how i if in into is it its me my of on or our should so that ' +
    'the their them then there these this to use used using was what when where which who why will with you your'
  ).split(' '),
);

/** Lowercased words of `text`: runs of letters and digits. */
export function splitWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * A crude stem, so a query word also finds its other forms by prefix: plurals (`skills` → `skill`, `stories` →
 * `stor`), `-ing` and `-ed` (`renaming`, `renamed` → `renam`), and a final `e` (`rename` → `renam`, `write` →
 * `writ`, which then matches `writing` and `written`). Words under five characters stay as written.
 */
function stem(word: string): string {
  if (word.length < 5 || /\d/.test(word)) return word;
  if (word.endsWith('ies')) return word.slice(0, -3);
  if (word.length >= 7 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length >= 6 && word.endsWith('ed') && !word.endsWith('eed')) return word.slice(0, -2);
  if (word.endsWith('s') && !/(ss|us|is)$/.test(word)) return stem(word.slice(0, -1));
  if (word.endsWith('e')) return word.slice(0, -1);
  return word;
}

/**
 * The search terms of a query or task: lowercase words of two or more characters, stopwords removed, crudely
 * stemmed, each once, in the order written.
 */
export function extractTerms(query: string): string[] {
  const terms: string[] = [];
  for (const word of splitWords(query)) {
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    const term = stem(word);
    if (!terms.includes(term)) terms.push(term);
  }
  return terms;
}

/** A term of four or more characters matches as a word prefix; a shorter one only as a whole word. */
export function termMatchesWord(term: string, word: string): boolean {
  return term.length >= 4 ? word.startsWith(term) : word === term;
}

/**
 * Inverse document frequency of each term over `units` (each entry one searchable unit's words). A term no unit
 * carries weighs half the maximum, so it still lowers the coverage of every unit.
 */
export function weighTerms(
  terms: readonly string[],
  units: readonly (readonly string[])[],
): Map<string, number> {
  const n = Math.max(units.length, 1);
  const weights = new Map<string, number>();
  for (const term of terms) {
    let df = 0;
    for (const words of units) if (words.some((word) => termMatchesWord(term, word))) df++;
    weights.set(term, df === 0 ? Math.log(1 + n) / 2 : Math.log(1 + n / df));
  }
  return weights;
}
