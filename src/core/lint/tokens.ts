/**
 * An offline token estimate for the progressive-disclosure budgets (CMP621, CMP622). No tokenizer ships with
 * companion and nothing is looked up over the network, so the count is a documented heuristic: one token per
 * four ASCII characters (the rule of thumb OpenAI and Anthropic publish for English text and code) and one per
 * other character (CJK text runs close to that; accented Latin text less, so the estimate errs high there).
 */

/** Estimated tokens of `text`. Never more than `text.length`, so a text that short is within any budget of it. */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) ascii++;
    // The second half of a surrogate pair belongs to the character its first half started.
    else if (c < 0xdc00 || c > 0xdfff) other++;
  }
  return Math.ceil(ascii / 4) + other;
}

/** The estimate of `text` when it is over `budget`, else undefined; a text too short to be over is not counted. */
export function tokensOverBudget(text: string, budget: number): number | undefined {
  if (text.length <= budget) return undefined;
  const tokens = estimateTokens(text);
  return tokens > budget ? tokens : undefined;
}
