import { ApiError, message } from '../../../http/envelope';
import type { MessageRow } from '../chat.tables';
import { newestLeafUnder, versionsOf, type BranchNode } from './branches';
import type { ChatRepository } from './chat.repository';

/**
 * Versions of a turn (issue 28, point 6). Messages form a tree (branches.ts): a question asked
 * again in other words and an answer written again are both a new child of the same parent, and
 * the conversation's leaf says which branch is shown. A regenerated answer is one more version
 * beside the earlier ones (ask.service.ts), which stay as they were (with anything asked after
 * them), one switch away; the shown version is what later prompts, exports and share links use.
 */

/** The record with the ids of its versions, when it has more than one. */
export function withVersions<T extends { id: number }>(
  nodes: readonly BranchNode[],
  record: T,
): T & { versions?: number[] } {
  const node = nodes.find((n) => n.id === record.id);
  const versions = node && versionsOf(nodes, node);
  return versions ? { ...record, versions } : record;
}

/**
 * Shows the branch through `row` (one version of a question or of an answer), at its newest
 * message: the version and the conversation that went on after it.
 */
export async function showVersion(repo: ChatRepository, row: MessageRow): Promise<void> {
  if ((await repo.streamingIn(row.conversationId)).length > 0)
    throw new ApiError(message('chat.busy'));
  const nodes = await repo.branchNodes(row.conversationId);
  await repo.updateConversation(row.conversationId, {
    leafId: newestLeafUnder(nodes, row.id),
  });
}
