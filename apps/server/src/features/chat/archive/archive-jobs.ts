import { sql, type Kysely, type QueryExecutorProvider } from 'kysely';
import type { Database, Db } from '../../../db/index';
import { ApiError, message } from '../../../http/envelope';
import type { Instances } from '../../../instances/instances';
import { releaseConversationFiles } from '../../library/index';

/** Table shape of the one archive job a member runs (migration 2026_12_01_1000_chat_bounds). */
interface ChatArchiveJobsTable {
  memberId: number;
  kind: ArchiveJobKind;
  instanceId: string;
  /** JSON list of the conversations an unfinished import has written. */
  conversationIds: string;
  startedAt: number;
}

type JobTables = {
  chatArchiveJobs: ChatArchiveJobsTable;
  chatConversations: { id: number; memberId: number };
};
type JobsDb = Kysely<Database & JobTables>;

export type ArchiveJobKind = 'import' | 'export';

const Messages = {
  running: (kind: ArchiveJobKind) =>
    kind === 'import' ? message('chat.importRunning') : message('chat.exportRunning'),
} as const;

const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * One import or export at a time per member, on any instance (issue 26, point 8): a row per
 * member names the instance running the job. Taking it is one conditional statement (an insert
 * that does nothing when a row is there, or an update of a row whose instance is dead), so two
 * requests at once cannot both pass. A dead instance's import is undone by whoever takes the
 * member's row next: it deletes the conversations the import had written.
 */
export class ArchiveJobs {
  private readonly db: JobsDb;

  constructor(
    db: Db,
    private readonly instances: Instances,
    private readonly now: () => number,
  ) {
    this.db = db.withTables<JobTables>();
  }

  /** Takes the member's job slot for `kind`, or refuses naming what is running. */
  async start(memberId: number, kind: ArchiveJobKind): Promise<ArchiveJob> {
    const me = this.instances.id;
    const fresh = { memberId, kind, instanceId: me, conversationIds: '[]', startedAt: this.now() };
    const inserted = await this.db
      .insertInto('chatArchiveJobs')
      .values(fresh)
      .onConflict((oc) => oc.column('memberId').doNothing())
      .returning('memberId')
      .executeTakeFirst();
    if (!inserted) {
      const held = await this.db
        .selectFrom('chatArchiveJobs')
        .select(['kind', 'instanceId', 'conversationIds'])
        .where('memberId', '=', memberId)
        .executeTakeFirst();
      if (!held || (await this.instances.isAlive(held.instanceId)))
        throw new ApiError(Messages.running(held?.kind ?? kind));
      // Its instance died: taken only if still that instance's (another request may be first).
      const taken = await this.db
        .updateTable('chatArchiveJobs')
        .set({
          kind,
          instanceId: me,
          conversationIds: held.conversationIds,
          startedAt: fresh.startedAt,
        })
        .where('memberId', '=', memberId)
        .where('instanceId', '=', held.instanceId)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 0) throw new ApiError(Messages.running(held.kind));
      await this.undo(memberId, parseIds(held.conversationIds));
      await this.record(memberId, []);
    }
    return {
      record: (ids, trx) => this.record(memberId, ids, trx),
      undo: (ids) => this.undo(memberId, ids),
      end: () => this.end(memberId),
    };
  }

  private async record(
    memberId: number,
    ids: readonly number[],
    trx: QueryExecutorProvider = this.db,
  ): Promise<void> {
    await sql`update chat_archive_jobs set conversation_ids = ${JSON.stringify(ids)}
      where member_id = ${memberId} and instance_id = ${this.instances.id}`.execute(trx);
  }

  /** Deletes these conversations of the member, one transaction each, yielding between them. */
  private async undo(memberId: number, ids: readonly number[]): Promise<void> {
    for (const id of ids) {
      await this.db.transaction().execute(async (trx) => {
        await releaseConversationFiles(trx, [id]);
        await trx
          .deleteFrom('chatConversations')
          .where('id', '=', id)
          .where('memberId', '=', memberId)
          .execute();
      });
      await turn();
    }
  }

  private async end(memberId: number): Promise<void> {
    await this.db
      .deleteFrom('chatArchiveJobs')
      .where('memberId', '=', memberId)
      .where('instanceId', '=', this.instances.id)
      .execute();
  }
}

/** A member's running import or export. */
export interface ArchiveJob {
  /**
   * Remembers the conversations an import has written so far (undone if it never ends), in the
   * transaction `trx` that writes them when given.
   */
  record(ids: readonly number[], trx?: QueryExecutorProvider): Promise<void>;
  /** Deletes conversations an import wrote before it failed. */
  undo(ids: readonly number[]): Promise<void>;
  /** Frees the member's slot. */
  end(): Promise<void>;
}

function parseIds(text: string): number[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((id): id is number => typeof id === 'number') : [];
  } catch {
    return [];
  }
}
