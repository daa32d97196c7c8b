import { useState } from 'react';
import { DeleteOutlined, RollbackOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePurgeFiles, useRestoreFiles, useTrash } from '@/components/file-library/api/file-trash';
import { useFilesT } from '@/components/file-library/i18n';
import { confirmDialog, toast } from '@/lib/feedback';
import { FileGrid } from './file-grid';
import type { FileRecord } from './file-record';
import { pageToShow } from './paging';

export interface TrashPanelProps {
  url: string;
  category: string;
  /** Restore and delete for good need the Delete right. */
  canDelete: boolean;
  /** Called after files went back to the library (its list reloads). */
  onRestored: () => void;
}

/**
 * The library's trash (issue 17): deleted files with when they go for good; restore them where
 * they were, or delete them for good, a selection or all at once.
 */
export function TrashPanel({ url, category, canDelete, onRestored }: TrashPanelProps) {
  const t = useFilesT();
  const { i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const [checked, setChecked] = useState<ReadonlySet<number>>(new Set());
  const trash = useTrash(url, category, page, true);
  const restore = useRestoreFiles(url, category);
  const purge = usePurgeFiles(url, category);
  const records = trash.data?.records ?? [];
  const ids = [...checked];
  const days = trash.data?.days;
  const active = records.find((record) => checked.has(record.id));
  // Restoring or purging every file of the last page shows the page before it.
  const correction = trash.isPlaceholderData ? undefined : pageToShow(trash.data);
  // Set while rendering (React's way to adjust state to what a render found), not in an effect.
  if (correction !== undefined && correction !== page) setPage(correction);

  const toggle = (record: FileRecord) =>
    setChecked((current) => {
      const next = new Set(current);
      if (next.has(record.id)) next.delete(record.id);
      else next.add(record.id);
      return next;
    });
  const done = async () => {
    setChecked(new Set());
    await trash.refetch();
  };
  const restoreChecked = async () => {
    try {
      await restore.mutateAsync(ids);
    } catch {
      return;
    }
    toast.success(t('files.restoreSuccess'));
    onRestored();
    await done();
  };
  const purgeChecked = async (all: boolean) => {
    const question = all ? t('files.confirmEmptyTrash') : t('files.confirmPurge');
    if (!(await confirmDialog(question, { danger: true }))) return;
    try {
      await purge.mutateAsync(all ? 'all' : ids);
    } catch {
      return;
    }
    toast.success(t('files.deleteSuccess'));
    setPage(1);
    await done();
  };

  return (
    <div className="atrium-fp-trash">
      {canDelete ? (
        <div className="atrium-fp-toolbar">
          <div className="atrium-fp-actions">
            <Button
              icon={<RollbackOutlined />}
              disabled={ids.length === 0}
              loading={restore.isPending}
              onClick={() => void restoreChecked()}
            >
              {t('files.restore')}
            </Button>
            <Button
              danger
              icon={<DeleteOutlined />}
              disabled={ids.length === 0}
              loading={purge.isPending}
              onClick={() => void purgeChecked(false)}
            >
              {t('files.purge')}
            </Button>
            <Button danger disabled={records.length === 0} onClick={() => void purgeChecked(true)}>
              {t('files.emptyTrash')}
            </Button>
          </div>
        </div>
      ) : null}
      {days !== undefined ? (
        <p className="atrium-fp-trash-hint">{t('files.trashHint', { n: days })}</p>
      ) : null}
      <FileGrid
        records={records}
        checkedIds={checked}
        onToggle={toggle}
        loading={trash.isFetching}
        page={trash.data?.page ?? page}
        pageSize={trash.data?.pageSize ?? 10}
        total={trash.data?.total ?? 0}
        onPage={setPage}
      />
      {active ? (
        <p className="atrium-fp-trash-hint" aria-live="polite">
          {t('files.trashedOn', {
            name: active.filename,
            deleted: new Date(active.deletedAt).toLocaleString(i18n.language, {
              dateStyle: 'medium',
              timeStyle: 'short',
            }),
            expires: new Date(active.expiresAt).toLocaleDateString(i18n.language, {
              dateStyle: 'medium',
            }),
          })}
        </p>
      ) : null}
    </div>
  );
}
