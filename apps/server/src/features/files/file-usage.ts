import type { FileUse } from '@atrium/shared/contract/files';
import type { FileRefKind } from '@atrium/shared/file-refs';
import type { FilesDb } from '../../db/files.tables';
import type { UsageRow } from './file-refs';

/** The columns of other features' tables a usage label reads (read only, by id). */
type LabelTables = {
  chatRooms: { id: number; title: string };
  members: { id: number; username: string; nickname: string };
  admins: { id: number; username: string; nickname: string };
  chatMessages: { id: number; conversationId: number };
  chatConversations: { id: number; roomId: number; title: string };
};

const ids = (refs: readonly UsageRow[], kinds: (kind: FileRefKind) => boolean) => [
  ...new Set(refs.filter((ref) => kinds(ref.kind)).map((ref) => ref.holderId)),
];

/**
 * Each reference as the library shows it: which room, member, admin or conversation holds it,
 * by name. Holders are read by id in one query per table.
 */
export async function labelUsage(
  db: FilesDb,
  refs: readonly UsageRow[],
): Promise<Map<UsageRow, FileUse>> {
  const read = db.withTables<LabelTables>();
  const roomIds = ids(refs, (kind) => kind.startsWith('room'));
  const memberIds = ids(refs, (kind) => kind === 'memberAvatar');
  const adminIds = ids(refs, (kind) => kind === 'adminAvatar');
  const messageIds = ids(refs, (kind) => kind === 'chatImage');
  const conversationIds = ids(refs, (kind) => kind === 'chatDocument');
  const people = (table: 'members' | 'admins', list: number[]) =>
    list.length
      ? read
          .selectFrom(table)
          .select(['id', 'username', 'nickname'])
          .where('id', 'in', list)
          .execute()
      : [];
  const [rooms, members, admins, messages, conversations] = await Promise.all([
    roomIds.length
      ? read.selectFrom('chatRooms').select(['id', 'title']).where('id', 'in', roomIds).execute()
      : [],
    people('members', memberIds),
    people('admins', adminIds),
    messageIds.length
      ? read
          .selectFrom('chatMessages')
          .innerJoin('chatConversations', 'chatConversations.id', 'chatMessages.conversationId')
          .select([
            'chatMessages.id as id',
            'chatConversations.id as conversationId',
            'chatConversations.roomId as roomId',
            'chatConversations.title as title',
          ])
          .where('chatMessages.id', 'in', messageIds)
          .execute()
      : [],
    conversationIds.length
      ? read
          .selectFrom('chatConversations')
          .select(['id', 'roomId', 'title'])
          .where('id', 'in', conversationIds)
          .execute()
      : [],
  ]);
  const roomTitle = new Map(rooms.map((row) => [row.id, row.title]));
  const person = (row: { id: number; username: string; nickname: string }) =>
    [row.id, row.nickname || row.username] as const;
  const memberName = new Map(members.map(person));
  const adminName = new Map(admins.map(person));
  const message = new Map(messages.map((row) => [row.id, row]));
  const conversation = new Map(conversations.map((row) => [row.id, row]));

  const labels = new Map<UsageRow, FileUse>();
  for (const ref of refs) {
    const use: FileUse = { kind: ref.kind, holderId: ref.holderId, label: '' };
    if (ref.kind.startsWith('room')) use.label = roomTitle.get(ref.holderId) ?? '';
    else if (ref.kind === 'memberAvatar') use.label = memberName.get(ref.holderId) ?? '';
    else if (ref.kind === 'adminAvatar') use.label = adminName.get(ref.holderId) ?? '';
    else if (ref.kind === 'chatImage') {
      const found = message.get(ref.holderId);
      if (found) {
        use.label = found.title;
        use.conversationId = found.conversationId;
        use.roomId = found.roomId;
      }
    } else if (ref.kind === 'chatDocument') {
      const found = conversation.get(ref.holderId);
      if (found) {
        use.label = found.title;
        use.conversationId = found.id;
        use.roomId = found.roomId;
      }
    }
    labels.set(ref, use);
  }
  return labels;
}

/** What each field is called in a message (English: the API's messages are English). */
const fieldNames: Record<FileRefKind, string> = {
  roomCover: 'cover',
  roomDescription: 'description',
  roomIntroVideo: 'intro video',
  roomIntroAudio: 'intro audio',
  roomDownload: 'downloads',
  siteLogo: 'logo',
  siteFavicon: 'favicon',
  siteBanner: 'banners',
  siteAbout: 'about text',
  memberAvatar: 'avatar',
  adminAvatar: 'avatar',
  chatImage: 'image',
  chatDocument: 'document',
};

/** The places in words, for a refusal: `room "Welcome" (cover)`, `site settings (logo)`. */
export async function describeUsage(db: FilesDb, refs: readonly UsageRow[]): Promise<string[]> {
  const labels = await labelUsage(db, refs);
  return refs.map((ref) => {
    const use = labels.get(ref);
    const field = fieldNames[ref.kind];
    const name = use?.label ? ` "${use.label}"` : ` #${ref.holderId}`;
    if (ref.kind.startsWith('room')) return `room${name} (${field})`;
    if (ref.kind.startsWith('site')) return `site settings (${field})`;
    if (ref.kind === 'memberAvatar') return `member${name} (${field})`;
    if (ref.kind === 'adminAvatar') return `admin${name} (${field})`;
    return `conversation${name} (${field})`;
  });
}
