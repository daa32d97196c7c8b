import type { FileUse } from '@atrium/shared/contract/files';
import type { FileRefKind } from '@atrium/shared/file-refs';
import type { FilesDb } from './library.tables';
import { message, refOf, type MessageRef } from '../../http/envelope';
import type { MessageKey } from '@atrium/shared/messages/catalogue';
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

/** What each field is called in a message. */
const useNames: Record<FileRefKind, MessageKey> = {
  roomCover: 'files.useCover',
  roomDescription: 'files.useDescription',
  roomIntroVideo: 'files.useIntroVideo',
  roomIntroAudio: 'files.useIntroAudio',
  roomDownload: 'files.useDownloads',
  siteLogo: 'files.useLogo',
  siteFavicon: 'files.useFavicon',
  siteBanner: 'files.useBanners',
  siteAbout: 'files.useAbout',
  memberAvatar: 'files.useAvatar',
  adminAvatar: 'files.useAvatar',
  chatImage: 'files.useImage',
  chatDocument: 'files.useDocument',
};

/** Places named in a refusal; the others are counted. */
const maxNamedPlaces = 10;

/**
 * The places in words, for a refusal: `room "Welcome" (cover); site settings (logo); and 3 more`,
 * one message rendered in the request's language.
 */
export async function describeUsage(db: FilesDb, refs: readonly UsageRow[]): Promise<MessageRef> {
  const labels = await labelUsage(db, refs);
  const places = refs.slice(0, maxNamedPlaces).map((ref): MessageRef => {
    const label = labels.get(ref)?.label;
    const use = refOf(useNames[ref.kind]);
    const name = label ? message('files.quoted', { text: label }) : `#${ref.holderId}`;
    if (ref.kind.startsWith('room')) return message('files.usedByRoom', { name, use });
    if (ref.kind.startsWith('site')) return message('files.usedBySite', { use });
    if (ref.kind === 'memberAvatar') return message('files.usedByMember', { name, use });
    if (ref.kind === 'adminAvatar') return message('files.usedByAdmin', { name, use });
    return message('files.usedByConversation', { name, use });
  });
  if (refs.length > maxNamedPlaces)
    places.push(message('files.andMore', { count: refs.length - maxNamedPlaces }));
  // Never empty: a refusal names at least one place.
  return places.reduceRight((rest, first) => message('files.listMore', { first, rest }));
}
