import type { SaveResponse } from '@atrium/shared/contract/files';
import type { CallResult, SaveBody } from './upload-calls';
import { callFileManager, toCallResult } from './file-manager-client';

/** Files an uploaded path into the library (`save`, SPEC 3.6 "Saved file"). */
export async function saveFile(
  url: string,
  category: string,
  body: SaveBody,
  signal: AbortSignal,
): Promise<CallResult<SaveResponse>> {
  const answer = await callFileManager(url, category, 'save', body, {
    signal,
    errorToast: false,
  });
  return toCallResult(answer);
}
