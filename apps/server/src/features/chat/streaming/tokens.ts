/** Ideographs and syllables of CJK scripts: about one token each. */
const cjk = /[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\u3040-\u30FF]/g;
const cjkChar = new RegExp(cjk.source);

/** Per message: role and separators cost a few tokens whatever the text. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** A typical cost of one image for vision models (a low-detail tile is 85, a large image more). */
export const IMAGE_TOKENS = 500;

/**
 * A rough token count for when the provider reports no usage (stopped answers, providers
 * without stream usage): CJK characters count one each, other text one per four characters.
 * Counts made this way are marked as estimates.
 */
export function estimateTokens(text: string): number {
  const wide = text.match(cjk)?.length ?? 0;
  return wide + Math.ceil((text.length - wide) / 4);
}

/** How a count weighs text: tokens per CJK character, and other characters per token. */
export interface TokenRates {
  perWide: number;
  narrowPerToken: number;
}

/** `estimateTokens`'s rates. */
export const ESTIMATE_RATES: TokenRates = { perWide: 1, narrowPerToken: 4 };

/**
 * The fewest tokens any tokenizer in use spends on a text (issue 26): Chinese-trained
 * tokenizers (Qwen, DeepSeek, GLM) spend about 0.6–0.7 a CJK character, where the estimate
 * says 1, and long English words reach 5–6 characters a token. An answer is cut at its
 * max_tokens by this count, so an honest answer is never cut before its provider would stop it,
 * and one that ignores max_tokens is stopped within a tokenizer's ratio of it.
 */
export const FLOOR_RATES: TokenRates = { perWide: 0.5, narrowPerToken: 6 };

const countOf = (rates: TokenRates, wide: number, narrow: number) =>
  Math.ceil(wide * rates.perWide + narrow / rates.narrowPerToken);

/** `FLOOR_RATES`' count of a whole text. */
export function floorTokens(text: string): number {
  const wide = text.match(cjk)?.length ?? 0;
  return countOf(FLOOR_RATES, wide, text.length - wide);
}

/**
 * A count (by `rates`: `estimateTokens`'s by default) of a text that grows piece by piece,
 * without reading it again: a stream's running count stays linear in its length however many
 * pieces it arrives in.
 */
export class TokenCounter {
  private wide = 0;
  private narrow = 0;

  constructor(private readonly rates: TokenRates = ESTIMATE_RATES) {}

  get tokens(): number {
    return countOf(this.rates, this.wide, this.narrow);
  }

  /**
   * How much of `text` can be added while the count stays at or below `limit` (all of it when
   * it fits): the cut never splits a surrogate pair.
   */
  fit(text: string, limit: number): number {
    const wide = text.match(cjk)?.length ?? 0;
    if (countOf(this.rates, this.wide + wide, this.narrow + text.length - wide) <= limit)
      return text.length;
    let w = this.wide;
    let n = this.narrow;
    let i = 0;
    for (; i < text.length; i += 1) {
      const isWide = cjkChar.test(text.charAt(i));
      const nextW = isWide ? w + 1 : w;
      const nextN = isWide ? n : n + 1;
      if (countOf(this.rates, nextW, nextN) > limit) break;
      w = nextW;
      n = nextN;
    }
    return whole(text, i);
  }

  add(text: string): void {
    const wide = text.match(cjk)?.length ?? 0;
    this.wide += wide;
    this.narrow += text.length - wide;
  }
}

/** `end`, moved back one when it would split a surrogate pair. */
export function whole(text: string, end: number): number {
  if (end <= 0 || end >= text.length) return Math.max(0, Math.min(end, text.length));
  const last = text.charCodeAt(end - 1);
  return last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}
