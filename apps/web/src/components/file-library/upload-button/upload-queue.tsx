import { useId, useState } from 'react';
import { CloseOutlined, DownOutlined, RedoOutlined, UpOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useFilesT } from '@/components/file-library/i18n';

export type Phase = 'waiting' | 'hash' | 'upload' | 'done' | 'error';

export interface QueueItem {
  uid: string;
  key: string;
  name: string;
  phase: Phase;
  percent: number;
  error?: string;
  /** Why the upload is waiting (an outage it will try again after), shown instead of progress. */
  notice?: string;
  /** A failed upload whose file is still at hand: Retry sends it again. */
  retryable?: boolean;
  /** Done as the category's existing file with these bytes and name (no twin was filed). */
  existing?: boolean;
  leaving: boolean;
}

export const activePhases: readonly Phase[] = ['waiting', 'hash', 'upload'];

/** Rows shown open before the queue folds into its one-line summary (issue 28). */
export const openRows = 3;

/** Where the bar stands: the phase's own percent, full once done. */
function barPercent(item: QueueItem): number {
  return item.phase === 'done' ? 100 : Math.max(0, Math.min(100, Math.floor(item.percent)));
}

/** How far one file of the batch is, for the summary: hashing counts as not sent yet. */
function share(phase: Phase, percent: number): number {
  if (phase === 'done' || phase === 'error') return 100;
  return phase === 'upload' ? Math.max(0, Math.min(100, percent)) : 0;
}

/** Every file queued since the queue was last empty, also those that faded out, by uid. */
export interface QueueBatch {
  id: number;
  files: Readonly<Record<string, { phase: Phase; percent: number }>>;
}

export const firstBatch: QueueBatch = { id: 0, files: {} };

/** The batch once the queue holds `items`: an empty queue ends it, the next file starts another. */
export function nextBatch(batch: QueueBatch, items: readonly QueueItem[]): QueueBatch {
  if (items.length === 0)
    return Object.keys(batch.files).length > 0 ? { id: batch.id + 1, files: {} } : batch;
  const files = { ...batch.files };
  for (const { uid, phase, percent } of items) files[uid] = { phase, percent };
  return { id: batch.id, files };
}

interface UploadQueueProps {
  items: QueueItem[];
  batch: QueueBatch;
  onRemove: (uid: string) => void;
  onRetry: (uid: string) => void;
}

/**
 * The queue under the button (SPEC 4.5: a bar per file). Beyond `openRows` files it folds into
 * one line, "上传中 3/18 · 45%", that opens the rows (in a box of capped height with its own
 * scroll), so a batch never pushes the library below the fold (issue 28); folded, only failed
 * files keep their rows.
 */
export function UploadQueue({ items, batch, onRemove, onRetry }: UploadQueueProps) {
  const t = useFilesT();
  const listId = useId();
  // Opened or closed by the person, for this batch; the next batch starts by the rule again.
  const [choice, setChoice] = useState<{ batch: number; open: boolean }>();
  if (items.length === 0) return null;

  const files = Object.values(batch.files);
  const done = files.filter((f) => f.phase === 'done').length;
  const failed = files.filter((f) => f.phase === 'error').length;
  const running = files.some((f) => activePhases.includes(f.phase));
  const percent = Math.floor(
    files.reduce((sum, f) => sum + share(f.phase, f.percent), 0) / files.length,
  );
  const summary = [
    running
      ? t('files.queueSummary', { done, total: files.length, percent })
      : t('files.queueFinished', { done, total: files.length }),
    failed > 0 ? t('files.queueFailed', { n: failed }) : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const folds = files.length > 1;
  const open = choice?.batch === batch.id ? choice.open : undefined;
  const expanded = !folds || (open ?? files.length <= openRows);
  // Folded, a failed file still shows its row: what went wrong, and Retry where it can help.
  const shown = expanded ? items : items.filter((item) => item.phase === 'error');

  return (
    <div className="atrium-upload-queue-box">
      {folds ? (
        <>
          <Button
            type="text"
            size="small"
            block
            className="atrium-upload-summary"
            aria-expanded={expanded}
            aria-controls={listId}
            title={t(expanded ? 'files.queueHide' : 'files.queueShow')}
            icon={expanded ? <UpOutlined aria-hidden /> : <DownOutlined aria-hidden />}
            iconPlacement="end"
            onClick={() => setChoice({ batch: batch.id, open: !expanded })}
          >
            <span className="atrium-upload-summary-text">{summary}</span>
          </Button>
          <div
            className="atrium-upload-bar"
            role="progressbar"
            aria-label={t('files.queueLabel')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            data-phase={running ? 'upload' : failed > 0 ? 'error' : 'done'}
          >
            <div className="atrium-upload-bar-fill" style={{ width: `${percent}%` }} />
          </div>
        </>
      ) : null}
      <ul
        id={listId}
        className="atrium-upload-queue"
        aria-live="polite"
        aria-label={t('files.queueLabel')}
        hidden={shown.length === 0}
        // Scrolls by itself when open beyond a few rows: reachable by keyboard to scroll it.
        tabIndex={folds && shown.length > 0 ? 0 : undefined}
      >
        {shown.map((item) => (
          <QueueRow key={item.uid} item={item} onRemove={onRemove} onRetry={onRetry} />
        ))}
      </ul>
    </div>
  );
}

function QueueRow({
  item,
  onRemove,
  onRetry,
}: {
  item: QueueItem;
  onRemove: (uid: string) => void;
  onRetry: (uid: string) => void;
}) {
  const t = useFilesT();
  const status = () => {
    if (item.notice && activePhases.includes(item.phase)) return item.notice;
    if (item.phase === 'hash') return t('files.hashing', { percent: item.percent });
    if (item.phase === 'upload') return t('files.uploading', { percent: item.percent });
    if (item.phase === 'done') return t(item.existing ? 'files.alreadyThere' : 'files.uploaded');
    if (item.phase === 'error') return item.error ?? '';
    return '';
  };
  return (
    <li className={item.leaving ? 'is-leaving' : undefined} data-phase={item.phase}>
      <div className="atrium-upload-row">
        <span className="atrium-upload-name" title={item.name}>
          {item.name}
        </span>
        <Button
          type="text"
          size="small"
          icon={<CloseOutlined />}
          aria-label={t('files.remove')}
          onClick={() => onRemove(item.uid)}
        />
      </div>
      {/* The bar shows the very number the text says, with no eased catch-up. */}
      <div
        className="atrium-upload-bar"
        role="progressbar"
        aria-label={item.name}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={barPercent(item)}
        data-phase={item.phase}
      >
        <div className="atrium-upload-bar-fill" style={{ width: `${barPercent(item)}%` }} />
      </div>
      <div
        className={
          item.phase === 'error' ? 'atrium-upload-status is-error' : 'atrium-upload-status'
        }
      >
        {status()}
        {item.phase === 'error' && item.retryable ? (
          <Button
            type="link"
            size="small"
            icon={<RedoOutlined />}
            onClick={() => onRetry(item.uid)}
          >
            {t('files.retry')}
          </Button>
        ) : null}
      </div>
    </li>
  );
}
