import { useState } from 'react';
import { Button, Modal, Typography } from 'antd';
import { FileTextOutlined } from '@ant-design/icons';
import type { CitationRecord } from '@atrium/shared/contract/chat-docs';
import { assetUrl } from '@/lib/urls';
import { useChatDocsT } from '../docs-i18n';
import './chat-docs.css';

/**
 * The passages an answer cites, as chips under it: "[1] report.pdf · page 3". A click shows the
 * passage as the model was given it, with its file (to open) and page.
 */
export function Citations({ citations }: { citations: readonly CitationRecord[] }) {
  const t = useChatDocsT();
  const [open, setOpen] = useState<CitationRecord | undefined>();
  if (citations.length === 0) return null;
  const where = (c: CitationRecord) =>
    c.page > 0 ? `${c.name} · ${t('chatDocs.page', { page: c.page })}` : c.name;
  return (
    <div className="atrium-citations" role="group" aria-label={t('chatDocs.citations')}>
      <Typography.Text type="secondary" className="atrium-citations-label">
        {t('chatDocs.citations')}
      </Typography.Text>
      {citations.map((c) => (
        <Button
          key={c.n}
          size="small"
          shape="round"
          className="atrium-citation"
          icon={<FileTextOutlined />}
          title={where(c)}
          onClick={() => setOpen(c)}
        >
          <span className="atrium-citation-text">
            [{c.n}] {where(c)}
          </span>
        </Button>
      ))}
      <Modal
        open={open !== undefined}
        title={open ? t('chatDocs.passageTitle', { n: open.n }) : ''}
        onCancel={() => setOpen(undefined)}
        footer={
          open ? (
            <>
              <Button href={assetUrl(open.path)} target="_blank" rel="noopener noreferrer">
                {t('chatDocs.openFile')}
              </Button>
              <Button type="primary" onClick={() => setOpen(undefined)}>
                {t('chatDocs.close')}
              </Button>
            </>
          ) : null
        }
      >
        {open && (
          <div className="atrium-passage">
            <Typography.Text strong className="atrium-passage-source">
              <FileTextOutlined aria-hidden /> {where(open)}
            </Typography.Text>
            <blockquote className="atrium-passage-text">{open.text}</blockquote>
          </div>
        )}
      </Modal>
    </div>
  );
}
