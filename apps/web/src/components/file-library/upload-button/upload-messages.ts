import type { MessageVars } from '@/lib/i18n';
import type { FilesKey } from '@/components/file-library/i18n';
import { outageText } from '@/lib/api';
import { serverText } from '@/lib/server-text';
import type { UploadError } from './upload-engine';
import type { CheckFailure } from './upload-rules';

type Translate = (key: FilesKey, vars?: MessageVars) => string;

/** SPEC 5: the checks' exact messages. */
export function checkFailureText(failure: CheckFailure, t: Translate): string {
  if (failure.kind === 'type')
    return t('files.badType', { extensions: failure.extensions.join(',') });
  return t('files.badSize');
}

/** SPEC 8.2: what the user reads for each way an upload can fail. */
export function uploadErrorText(error: UploadError, t: Translate): string {
  if (error.outage) return outageText(error.outage);
  if (error.stage === 'hash') return t('files.uploadFailedWith', { error: error.message });
  if (error.kind === 'code') return serverText(error.message);
  if (error.stage === 'init') return t('files.uploadFailed');
  if (error.kind === 'server') return t('files.uploadError', { error: t('files.serverError') });
  return t('files.uploadError', { error: error.message });
}
