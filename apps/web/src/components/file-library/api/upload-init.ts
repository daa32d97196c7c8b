import type { InitResponse } from '@atrium/shared/contract/files';
import type { CallResult, InitMeta } from './upload-calls';
import { callFileManager, toCallResult } from './file-manager-client';

/** Opens or resumes an upload session (`init`, SPEC 7.2); the upload button reports failures itself. */
export async function initUpload(
  url: string,
  category: string,
  meta: InitMeta,
  signal: AbortSignal,
): Promise<CallResult<InitResponse>> {
  const answer = await callFileManager(url, category, 'init', meta, {
    signal,
    errorToast: false,
  });
  return toCallResult(answer);
}
