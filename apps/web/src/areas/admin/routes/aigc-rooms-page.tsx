import { useState } from 'react';
import { Button, Card, Flex } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { AdminRoomRecord } from '@atrium/shared/contract/chat';
import { useAdminRooms } from '@/features/rooms/api/admin-rooms';
import { RoomEditor } from '@/features/rooms/components/room-editor';
import { RoomsTable } from '@/features/rooms/components/rooms-table';
import { useRoomsT } from '@/features/rooms/i18n';
import { PageHeader } from './page-header';
import { RuleGate } from './rule-gate';

/** `#/aigc/chat_room`: the chat rooms members see on the home page. */
export function AigcRoomsPage() {
  const t = useRoomsT();
  return (
    <RuleGate rule="aigc/chat_room" refusal={t('rooms.noPermission')}>
      <Rooms />
    </RuleGate>
  );
}

function Rooms() {
  const t = useRoomsT();
  const rooms = useAdminRooms();
  const [editing, setEditing] = useState<AdminRoomRecord | null>();
  return (
    <Flex vertical gap={16}>
      <PageHeader
        title={t('rooms.adminTitle')}
        subtitle={t('rooms.adminSubtitle')}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)}>
            {t('rooms.new')}
          </Button>
        }
      />
      <Card styles={{ body: { padding: 0 } }}>
        <RoomsTable rooms={rooms.data} loading={rooms.isFetching} onEdit={setEditing} />
      </Card>
      <RoomEditor room={editing} onClose={() => setEditing(undefined)} />
    </Flex>
  );
}
