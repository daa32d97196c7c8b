/**
 * What hot paths of the features tell the operators' metrics, one call each (issue 26). Listeners
 * are added only while metrics are kept (ATRIUM_METRICS_TOKEN set), so without them a tap is a
 * loop over an empty set. Module-level like `outageListeners`: a feature reports without knowing
 * whether, or by which app, it is measured.
 */

/** Told of every upload chunk whose bytes were stored and recorded as held. */
export const uploadChunkListeners = new Set<(bytes: number) => void>();

/** Told of every answer whose end was saved, with the tokens it is charged for. */
export const answerTokenListeners = new Set<(prompt: number, completion: number) => void>();

export function tapUploadChunk(bytes: number): void {
  for (const listener of uploadChunkListeners) listener(bytes);
}

export function tapAnswerTokens(prompt: number, completion: number): void {
  for (const listener of answerTokenListeners) listener(prompt, completion);
}
