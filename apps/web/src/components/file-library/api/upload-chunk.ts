import type { ChunkResponse } from '@atrium/shared/contract/files';
import type { CallResult, ChunkFields } from './upload-calls';
import { sendChunk, toCallResult } from './file-manager-client';

/** Sends one chunk as multipart (SPEC 7.2): the bytes in "file", the rest as form fields. */
export async function uploadChunk(
  url: string,
  category: string,
  fields: ChunkFields,
  body: Blob,
  signal: AbortSignal,
  onProgress: (loaded: number) => void,
): Promise<CallResult<ChunkResponse>> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, String(value));
  // The file part goes last so the server has read every field before the bytes arrive.
  form.append('file', body, String(fields.name));
  const answer = await sendChunk(url, category, form, {
    signal,
    errorToast: false,
    onUploadProgress: onProgress,
  });
  return toCallResult(answer);
}
