import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DocumentRecord } from '@atrium/shared/contract/chat-docs';
import { renderWithFreshCache } from '@/test-utils/render';
import { DocumentsBar } from './documents-bar';

const doc = (over: Partial<DocumentRecord>): DocumentRecord => ({
  id: 1,
  conversationId: 5,
  path: '/data/file/0123456789abcdef01234567/a.pdf',
  name: 'a.pdf',
  ext: 'pdf',
  status: 'done',
  progress: 100,
  pages: 0,
  passages: 0,
  error: '',
  createdAt: 0,
  ...over,
});

describe('DocumentsBar', () => {
  it("shows each document's state: waiting, reading with progress, ready with pages, unreadable", () => {
    renderWithFreshCache(
      <DocumentsBar
        roomId={1}
        conversationId={5}
        disabled={false}
        onCreated={() => undefined}
        documents={[
          doc({ id: 1, name: 'queued.txt', status: 'queued', progress: 0 }),
          doc({ id: 2, name: 'big.pdf', status: 'running', progress: 42 }),
          doc({ id: 3, name: 'manual.pdf', status: 'done', pages: 12 }),
          doc({
            id: 4,
            name: 'scan.pdf',
            status: 'failed',
            // As the server renders it in the page's language.
            error: '无法读取这个文件：没有可读的文字（扫描的 PDF 只含图片）',
          }),
        ]}
      />,
    );
    const state = (name: string) =>
      screen.getByText(name).closest('[data-status]')?.querySelector('.atrium-doc-state')
        ?.textContent;
    expect(state('queued.txt')).toMatch(/^(等待读取|Waiting)$/);
    expect(state('big.pdf')).toMatch(/^(读取中 42%|Reading 42%)$/);
    expect(state('manual.pdf')).toMatch(/^(已就绪 · 12 页|Ready · 12 pages)$/);
    expect(state('scan.pdf')).toMatch(/^(无法读取|Cannot be read)$/);
    expect(screen.getByText('scan.pdf').closest('[data-status]')?.getAttribute('aria-label')).toBe(
      'scan.pdf: 无法读取这个文件：没有可读的文字（扫描的 PDF 只含图片）',
    );
    expect(screen.getAllByRole('button', { name: /移除参考文档|Remove document/ })).toHaveLength(4);
  });
});
