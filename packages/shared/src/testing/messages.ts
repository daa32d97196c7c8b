/**
 * The fields of a finished chat message with no images and no usage, written at `at`: what tests
 * build messages from (the server's import files, the web's message records), in one place.
 */
export const finishedMessage = (at = 0) => ({
  images: [] as string[],
  status: 'done' as const,
  error: '',
  promptTokens: 0,
  completionTokens: 0,
  tokensEstimated: false,
  createdAt: at,
  updatedAt: at,
});
