import { modstartOnlyActions } from '@atrium/shared/contract/files';
import { ApiError, message } from '../../http/envelope';

/**
 * Refuses, naming it, an action ModStart's widgets send beside the dialog (issue 31) however it
 * comes: in a JSON or form body, in the query (ModStart reads its input from both), or as a field
 * of a multipart post (its editor's direct upload), which would otherwise read as a bad chunk.
 */
export function refuseActionNotOffered(...sent: unknown[]): void {
  const action = sent.find(notOffered);
  if (action === undefined) return;
  throw new ApiError({
    ...message('files.actionNotOffered', { action: String(action) }),
    field: 'action',
  });
}

/** Whether a sent action is one of those ModStart-only ones. */
export function notOffered(action: unknown): boolean {
  return (modstartOnlyActions as readonly unknown[]).includes(action);
}
