import { useParams } from 'react-router';
import { NotFound } from '@/components/not-found';
import { PageSpinner } from '@/components/page-spinner';
import { useRooms } from '@/features/rooms/api/rooms';
import { ChatRoom } from '@/features/chat/components/chat-room';
import { useChatT } from '@/features/chat/i18n';

/** A chat room by id (`#/:id`), found in the "Rooms" set so it follows admin changes live. */
export function DetailPage() {
  const t = useChatT();
  const { id = '' } = useParams();
  const { rooms, init, failed } = useRooms();
  if (!init && !failed) return <PageSpinner />;
  const room = /^\d+$/.test(id) ? rooms?.find((r) => r.id === Number(id)) : undefined;
  if (!room)
    return <NotFound title={t('chat.roomNotFound')} text={t('chat.roomNotFoundText', { id })} />;
  return <ChatRoom key={room.id} room={room} />;
}
