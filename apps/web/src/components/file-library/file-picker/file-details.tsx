import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyOutlined, ExportOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { copyText } from '@/lib/copy';
import { useFilesT } from '@/components/file-library/i18n';
import { useFileUsage } from '@/components/file-library/api/file-usage';
import { formatSize, isImageRecord, typeLabel, type FileRecord } from './file-record';
import { describeUse } from './file-usage-text';

interface Size {
  src: string;
  width: number;
  height: number;
}

/** The natural size of an image once it loads (undefined before, or for anything else). */
function useImageSize(src: string | undefined): Size | undefined {
  const [size, setSize] = useState<Size>();
  useEffect(() => {
    if (!src) return;
    const image = new Image();
    let live = true;
    image.onload = () => {
      if (live) setSize({ src, width: image.naturalWidth, height: image.naturalHeight });
    };
    image.src = src;
    return () => {
      live = false;
      image.onload = null;
    };
  }, [src]);
  return size && size.src === src ? size : undefined;
}

/** What the picker knows of the file last chosen: name, size, type, image size, upload date. */
export function FileDetails({
  record,
  url,
  category,
}: {
  record: FileRecord | undefined;
  url: string;
  category: string;
}) {
  const t = useFilesT();
  const { i18n } = useTranslation();
  const image = record && isImageRecord(record) ? record.fullPath : undefined;
  const size = useImageSize(image);
  const used = (record?.useCount ?? 0) > 0;
  // A record listed with its places carries them; one saved just now is asked about.
  const usage = useFileUsage(url, category, record?.id ?? 0, used && !record?.usedBy);
  if (!record) {
    return (
      <div className="atrium-fp-details is-empty" aria-live="polite">
        {t('files.detailsHint')}
      </div>
    );
  }
  const rows: [string, string][] = [
    [t('files.detailName'), record.filename],
    [t('files.detailSize'), formatSize(record.size)],
    [t('files.detailType'), typeLabel(record)],
  ];
  if (image)
    rows.push([t('files.detailDimensions'), size ? `${size.width} × ${size.height}` : '…']);
  rows.push([
    t('files.detailUploaded'),
    new Date(record.createdAt).toLocaleString(i18n.language, {
      dateStyle: 'medium',
      timeStyle: 'short',
    }),
  ]);
  if (record.useCount !== undefined) {
    const places = record.usedBy
      ? { usedBy: record.usedBy, hidden: record.usedByHidden ?? 0 }
      : usage.data?.[0];
    let text = t('files.notUsed');
    if (used && places) {
      text = [
        ...places.usedBy.map((use) => describeUse(t, use)),
        ...(places.hidden > 0 ? [t('files.usedElsewhere', { n: places.hidden })] : []),
      ].join(' · ');
    } else if (used) text = t('files.usedBy', { n: record.useCount });
    rows.push([t('files.detailUsedBy'), text]);
  }
  return (
    <>
      <dl className="atrium-fp-details" aria-label={t('files.details')} aria-live="polite">
        {rows.map(([label, value]) => (
          <div key={label} className="atrium-fp-detail">
            <dt>{label}</dt>
            <dd title={value}>{value}</dd>
          </div>
        ))}
      </dl>
      {/* The tile's "open" and "copy link" for the keyboard and screen readers (issue 29). */}
      <div className="atrium-fp-detail-actions">
        <Button
          size="small"
          icon={<ExportOutlined />}
          href={record.fullPath}
          target="_blank"
          rel="noopener noreferrer"
        >
          {t('files.open')}
        </Button>
        <Button size="small" icon={<CopyOutlined />} onClick={() => void copyText(record.fullPath)}>
          {t('files.copyLink')}
        </Button>
      </div>
    </>
  );
}
