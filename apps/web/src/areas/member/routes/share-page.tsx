import { useParams } from 'react-router';
import { SharedConversation } from '@/features/chat/components/shared-conversation';

/** A shared conversation (`#/share/:token`), read-only. */
export function SharePage() {
  const { token = '' } = useParams();
  return <SharedConversation key={token} token={token} />;
}
