import type { ExportedMessage } from '@atrium/shared/contract/chat-export';
import { finishedMessage } from '@atrium/shared/testing/messages';

/**
 * A message as an export file holds it, for import tests: a finished question with no images and
 * no usage, at time 1000, unless `fields` says otherwise.
 */
export function exportedMessage(
  fields: Pick<ExportedMessage, 'id' | 'parentId' | 'content'> & Partial<ExportedMessage>,
): ExportedMessage {
  return { role: 'user', ...finishedMessage(1000), ...fields };
}
