import { useEffect, useState, useSyncExternalStore } from 'react';
import { Button } from 'antd';
import { useFilesT } from '@/components/file-library/i18n';
import { randomId } from '@/lib/random';
import type { UnfinishedUpload } from './unfinished-uploads';

/** Names listed before "…": the count says how many there are. */
const listed = 5;

/** The buttons mounted for each library, first mounted first: the first lists (one list a library). */
const holders = new Map<string, string[]>();
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/**
 * Whether this button lists the library's interrupted uploads: the first one mounted for a
 * library does (the next one once it goes), so a page with several buttons of it says it once.
 */
export function useListsInterrupted(url: string, category: string): boolean {
  const key = `${url}\u0000${category}`;
  const [id] = useState(randomId);
  useEffect(() => {
    holders.set(key, [...(holders.get(key) ?? []), id]);
    notify();
    return () => {
      holders.set(
        key,
        (holders.get(key) ?? []).filter((holder) => holder !== id),
      );
      notify();
    };
  }, [key, id]);
  return useSyncExternalStore(
    subscribe,
    () => holders.get(key)?.[0] === id,
    () => false,
  );
}

/**
 * "3 个上传被中断：重新选择这些文件即可继续" (issue 28): the uploads a reloaded or closed page left
 * unfinished, by name; choosing a file again resumes it and takes it off the list.
 */
export function InterruptedUploads({
  entries,
  onChoose,
  onDismiss,
  disabled,
}: {
  entries: readonly UnfinishedUpload[];
  onChoose: () => void;
  onDismiss: () => void;
  disabled?: boolean;
}) {
  const t = useFilesT();
  if (entries.length === 0) return null;
  const text =
    entries.length === 1
      ? t('files.interruptedOne')
      : t('files.interrupted', { n: entries.length });
  return (
    <div className="atrium-upload-interrupted" role="status">
      <div>{text}</div>
      <ul aria-label={t('files.interruptedList')}>
        {entries.slice(0, listed).map((entry) => (
          <li
            key={`${entry.name}\u0000${entry.size}\u0000${entry.lastModified}`}
            title={entry.name}
          >
            {entry.name}
          </li>
        ))}
        {entries.length > listed ? <li aria-hidden="true">…</li> : null}
      </ul>
      <div className="atrium-upload-interrupted-actions">
        <Button size="small" type="primary" disabled={disabled} onClick={onChoose}>
          {t('files.interruptedChoose')}
        </Button>
        <Button size="small" onClick={onDismiss}>
          {t('files.interruptedDismiss')}
        </Button>
      </div>
    </div>
  );
}
