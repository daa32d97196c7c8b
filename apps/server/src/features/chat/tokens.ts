/** Ideographs and syllables of CJK scripts: about one token each. */
const cjk = /[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\u3040-\u30FF]/g;

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

/** The UTC day of a timestamp, YYYY-MM-DD: quotas reset at 00:00 UTC. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
