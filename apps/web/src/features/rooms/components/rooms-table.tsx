import { Button, Space, Switch, Tag, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import type { AdminRoomRecord } from '@atrium/shared/contract/chat';
import { ImageCover } from '@/components/image-cover/image-cover';
import { RelativeTime } from '@/components/relative-time';
import { RowActions } from '@/components/row-actions';
import { useDeleteRoom } from '../api/delete-room';
import { useEnableRoom } from '../api/enable-room';
import { useSortRooms } from '../api/sort-rooms';
import { useRoomsT } from '../i18n';
import { ResponsiveTable } from '@/components/responsive-table/responsive-table';

export interface RoomsTableProps {
  rooms: AdminRoomRecord[] | undefined;
  loading: boolean;
  onEdit: (room: AdminRoomRecord) => void;
}

/** Moves the room at `index` one place up or down; the ids in their new order. */
export function moveRoom(rooms: readonly AdminRoomRecord[], index: number, by: -1 | 1): number[] {
  const ids = rooms.map((r) => r.id);
  const target = index + by;
  if (target < 0 || target >= ids.length) return ids;
  const [moved] = ids.splice(index, 1);
  if (moved !== undefined) ids.splice(target, 0, moved);
  return ids;
}

/** Rooms in display order: cover, title, model, enable switch, order arrows, edit and delete. */
export function RoomsTable({ rooms, loading, onEdit }: RoomsTableProps) {
  const t = useRoomsT();
  const remove = useDeleteRoom();
  const enable = useEnableRoom();
  const sort = useSortRooms();
  const list = rooms ?? [];

  return (
    <ResponsiveTable<AdminRoomRecord>
      rowKey="id"
      loading={loading}
      dataSource={list}
      pagination={false}
      scroll={{ x: 'max-content' }}
      columns={[
        {
          title: t('rooms.colCover'),
          key: 'cover',
          width: 120,
          render: (_, room) => (
            <div style={{ width: 96, borderRadius: 6, overflow: 'hidden' }}>
              <ImageCover src={room.cover} ratio="16:9" />
            </div>
          ),
        },
        {
          title: t('rooms.colTitle'),
          dataIndex: 'title',
          key: 'title',
          render: (title: string) => <Typography.Text strong>{title}</Typography.Text>,
        },
        {
          title: t('rooms.colModel'),
          key: 'model',
          render: (_, room) =>
            room.modelId === 0 ? (
              <Tag>{t('rooms.none')}</Tag>
            ) : room.modelTitle ? (
              <Tag color="blue">{room.modelTitle}</Tag>
            ) : (
              <Tag color="red">{t('rooms.modelMissing')}</Tag>
            ),
        },
        {
          title: t('rooms.colEnabled'),
          key: 'enabled',
          render: (_, room) => (
            <Switch
              checked={room.enabled}
              aria-label={`${t('rooms.colEnabled')} ${room.title}`}
              loading={enable.isPending && enable.variables?.id === room.id}
              onChange={(enabled) => enable.mutate({ id: room.id, enabled })}
            />
          ),
        },
        {
          title: t('rooms.colSort'),
          key: 'sort',
          render: (_, room, index) => (
            <Space size={0}>
              <Button
                type="text"
                size="small"
                aria-label={t('rooms.moveUp')}
                icon={<ArrowUpOutlined />}
                disabled={index === 0 || sort.isPending}
                onClick={() => sort.mutate(moveRoom(list, index, -1))}
              />
              <Button
                type="text"
                size="small"
                aria-label={t('rooms.moveDown')}
                icon={<ArrowDownOutlined />}
                disabled={index === list.length - 1 || sort.isPending}
                onClick={() => sort.mutate(moveRoom(list, index, 1))}
              />
              <Typography.Text type="secondary" style={{ marginLeft: 4 }}>
                {room.sort}
              </Typography.Text>
            </Space>
          ),
        },
        {
          title: t('rooms.colUpdated'),
          key: 'updated',
          responsive: ['md'],
          render: (_, room) => <RelativeTime value={room.updatedAt} />,
        },
        {
          title: t('rooms.colActions'),
          key: 'actions',
          render: (_, room) => (
            <RowActions
              editLabel={t('common.edit')}
              deleteLabel={t('common.delete')}
              confirmDelete={t('rooms.confirmDelete', { title: room.title })}
              onEdit={() => onEdit(room)}
              onDelete={() => remove.mutate(room.id)}
            />
          ),
        },
      ]}
    />
  );
}
