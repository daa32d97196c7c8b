import { useEffect, useState } from 'react';
import { Button } from 'antd';
import { useFilesT } from '@/components/file-library/i18n';
import type { UnfinishedUpload } from './unfinished-uploads';

/** Names listed before "…": the count says how many there are. */
const listed = 5;

/** Libraries whose interrupted uploads some mounted button already lists (one list per library). */
const holders = new Set<string>();

/**
 * Whether this button lists the library's interrupted uploads: the first one mounted for a
 * library does, so a page with several buttons of it says it once.
 */
export function useListsInterrupted(url: string, category: string): boolean {
  const key = `${url}\u0000${category}`;
  const [holds, setHolds] = useState(false);
  useEffect(() => {
    if (holders.has(key)) return;
    holders.add(key);
    setHolds(true);
    return () => {
      holders.delete(key);
      setHolds(false);
    };
  }, [key]);
  return holds;
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
  entries: UnfinishedUpload[];
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
