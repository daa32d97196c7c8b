import { useDeferredValue, useMemo } from 'react';
import { Button, theme } from 'antd';
import type { RoomRecord } from '@atrium/shared/contract/chat';
import { useRoomsT } from '../i18n';
import { RoomCard } from './room-card';
import { htmlToText } from './rich-text';
import './rooms.css';

export interface RoomsGridProps {
  rooms: RoomRecord[] | undefined;
  init: boolean;
  failed: boolean;
  onRetry: () => void;
  keyword: string;
}

/** Rooms whose title or description contains the keyword (case-insensitive). */
export function filterRooms<T extends { title: string; excerpt: string }>(
  rooms: T[],
  keyword: string,
): T[] {
  const needle = keyword.trim().toLowerCase();
  if (!needle) return rooms;
  return rooms.filter(
    (r) => r.title.toLowerCase().includes(needle) || r.excerpt.toLowerCase().includes(needle),
  );
}

function Notice({ text, children }: { text: string; children?: React.ReactNode }) {
  const { token } = theme.useToken();
  return (
    <div className="atrium-rooms-notice" style={{ color: token.colorTextSecondary }} role="status">
      <p>{text}</p>
      {children}
    </div>
  );
}

/** The home grid of rooms: as many columns as fit, filtered by the search box. */
export function RoomsGrid({ rooms, init, failed, onRetry, keyword }: RoomsGridProps) {
  const t = useRoomsT();
  const deferred = useDeferredValue(keyword);
  const withText = useMemo(
    () =>
      (rooms ?? []).map((room) => ({
        room,
        title: room.title,
        excerpt: htmlToText(room.description),
      })),
    [rooms],
  );
  const shown = useMemo(() => filterRooms(withText, deferred), [withText, deferred]);

  if (!init) {
    if (failed) {
      return (
        <Notice text={t('rooms.loadFailed')}>
          <Button onClick={onRetry}>{t('rooms.retry')}</Button>
        </Notice>
      );
    }
    return (
      <div className="atrium-rooms-grid" aria-busy="true">
        {Array.from({ length: 4 }, (_, i) => (
          <div key={i} className="atrium-skeleton" />
        ))}
      </div>
    );
  }
  if (withText.length === 0) return <Notice text={t('rooms.empty')} />;
  if (shown.length === 0) return <Notice text={t('rooms.noMatch', { keyword: deferred.trim() })} />;
  return (
    <div className="atrium-rooms-grid">
      {shown.map(({ room, excerpt }) => (
        <RoomCard key={room.id} room={room} excerpt={excerpt} keyword={deferred} />
      ))}
    </div>
  );
}
