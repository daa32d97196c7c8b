import type { MessageVars } from '@/lib/i18n';
import type { FilesKey } from '@/components/file-library/i18n';
import { shouldRetryUpload } from '@atrium/shared/limits';
import { outageText } from '@/lib/api';
import type { UploadError } from './upload-engine';
import type { CheckFailure } from './upload-rules';

type Translate = (key: FilesKey, vars?: MessageVars) => string;

/** SPEC 5: the checks' exact messages. */
export function checkFailureText(failure: CheckFailure, t: Translate): string {
  if (failure.kind === 'type')
    return t('files.badType', { extensions: failure.extensions.join(',') });
  return t('files.badSize');
}

/** The upload protocol's restart marker (SPEC 4.5) is for the uploader, not for people. */
const marker = new RegExp(`\\s*\\(${shouldRetryUpload}\\)$`);

/**
 * SPEC 8.2: what the user reads for each way an upload can fail. A refusal's text is already in
 * the page's language, rendered from its catalogue key when the answer was read (lib/api.ts).
 */
export function uploadErrorText(error: UploadError, t: Translate): string {
  if (error.outage) return outageText(error.outage);
  if (error.stage === 'hash') return t('files.uploadFailedWith', { error: error.message });
  if (error.kind === 'code') return error.message.replace(marker, '');
  if (error.stage === 'init') return t('files.uploadFailed');
  if (error.kind === 'server') return t('files.uploadError', { error: t('files.serverError') });
  return t('files.uploadError', { error: error.message });
}
