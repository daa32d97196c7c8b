import { QueryClient } from '@tanstack/react-query';
import type { FileRecord, ListResponse } from '@atrium/shared/contract/files';
import { describe, expect, it } from 'vitest';
import { showSavedFile } from './file-list';
import { fileKeys } from './file-manager-client';

const record = (id: number): FileRecord => ({
  id,
  category: 'image',
  categoryId: 3,
  filename: `f${id}.png`,
  name: `f${id}.png`,
  type: 'png',
  size: 10,
  path: `/data/image/${'a'.repeat(24)}/f${id}.png`,
  fullPath: `http://x/data/image/${'a'.repeat(24)}/f${id}.png`,
  createdAt: 1_795_000_000_000,
});

describe('showSavedFile', () => {
  const url = '/admin/data/file_manager';
  const key = fileKeys.list(url, 'image', 3, 1, '');

  it('puts the saved file first on page 1 of its category at once, the page keeping its size', () => {
    const client = new QueryClient();
    client.setQueryData<ListResponse>(key, {
      records: [record(2), record(1)],
      total: 7,
      pageSize: 2,
      page: 1,
    });
    showSavedFile(client, url, 'image', 3, record(9));
    expect(client.getQueryData<ListResponse>(key)).toEqual({
      records: [record(9), record(2)],
      total: 8,
      pageSize: 2,
      page: 1,
    });
    // Shown once, however often it is told.
    showSavedFile(client, url, 'image', 3, record(9));
    expect(client.getQueryData<ListResponse>(key)?.total).toBe(8);
  });

  it('leaves a page never loaded, and other categories, to the reload', () => {
    const client = new QueryClient();
    showSavedFile(client, url, 'image', 3, record(9));
    expect(client.getQueryData(key)).toBeUndefined();
    const other = fileKeys.list(url, 'image', 4, 1, '');
    client.setQueryData<ListResponse>(other, { records: [], total: 0, pageSize: 2, page: 1 });
    showSavedFile(client, url, 'image', 3, record(9));
    expect(client.getQueryData<ListResponse>(other)?.records).toEqual([]);
  });
});
