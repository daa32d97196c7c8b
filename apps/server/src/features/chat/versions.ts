import type { MessageRecord } from '@atrium/shared/contract/chat';
import { ApiError, message } from '../../http/envelope';
import type { MemberPrincipal } from '../../http/principal';
import type { Asking } from './asking';
import { newestLeafUnder, versionsOf, type BranchNode } from './branches';
import { ChatRepository } from './chat.repository';
import type { ChatDb, ConversationRow, MessageRow } from './chat.tables';

const Messages = {
  busy: message('chat.busy'),
  notLast: message('chat.notLastAnswer'),
  notAnswer: message('chat.notAnswer'),
  stillStreaming: message('chat.stillStreaming'),
} as const;

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
 * Versions of a turn (issue 28, point 6). Messages form a tree (branches.ts): a question asked
 * again in other words and an answer written again are both a new child of the same parent, and
 * the conversation's leaf says which branch is shown. A regenerated answer is one more version
 * beside the earlier ones, which stay as they were (with anything asked after them), one switch
 * away; the shown version is what later prompts, exports and share links use.
 */
export class AnswerVersions {
  private readonly repo: ChatRepository;

  constructor(
    private readonly deps: { db: ChatDb; now: () => number },
    private readonly asking: Asking,
  ) {
    this.repo = new ChatRepository(deps.db);
  }

  /**
   * Writes the shown branch's latest answer again, with the room's current model and settings,
   * as a new version of it: the new version is shown and streams; the earlier ones are kept.
   */
  async regenerate(
    member: MemberPrincipal,
    conversation: ConversationRow,
    row: MessageRow,
  ): Promise<MessageRecord> {
    if (row.role !== 'assistant' || row.parentId === null) throw new ApiError(Messages.notAnswer);
    if (row.status === 'streaming') throw new ApiError(Messages.stillStreaming);
    if ((await this.repo.tipOf(conversation)) !== row.id) throw new ApiError(Messages.notLast);
    const questionId = row.parentId;
    const prepared = await this.asking.prepare(member, conversation, []);
    const plan = await this.asking.planAnswerTo(prepared, conversation.id, questionId);
    const now = this.deps.now();
    const { id, reservation } = await this.deps.db.transaction().execute(async (trx) => {
      const repo = new ChatRepository(trx);
      const id = await repo.insertMessage(
        this.asking.answerRow(conversation.id, questionId, prepared, now),
      );
      // Shown only if the shown branch is still the one read above: of two regenerations (or a
      // regeneration and a send or a switch) at once, the second is refused and leaves nothing.
      if (!(await repo.moveLeaf(conversation.id, conversation.leafId, id, now)))
        throw new ApiError(Messages.busy);
      const reservation = await this.asking.reserve(trx, member, prepared, id, plan, now);
      return { id, reservation };
    });
    this.asking.start(member, conversation.id, prepared, plan, reservation, id);
    const record: MessageRecord = {
      id,
      conversationId: conversation.id,
      role: 'assistant',
      content: '',
      images: [],
      status: 'streaming',
      error: '',
      promptTokens: 0,
      completionTokens: 0,
      tokensEstimated: false,
      createdAt: now,
      updatedAt: now,
    };
    return withVersions(await this.repo.branchNodes(conversation.id), record);
  }

  /**
   * Shows the branch through `row` (one version of a question or of an answer), at its newest
   * message: the version and the conversation that went on after it.
   */
  async show(row: MessageRow): Promise<void> {
    if ((await this.repo.streamingIn(row.conversationId)).length > 0)
      throw new ApiError(Messages.busy);
    const nodes = await this.repo.branchNodes(row.conversationId);
    await this.repo.updateConversation(row.conversationId, {
      leafId: newestLeafUnder(nodes, row.id),
    });
  }
}
