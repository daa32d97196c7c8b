import { useRef, useState } from 'react';
import { SwapOutlined } from '@ant-design/icons';
import type { FileRecord } from '@atrium/shared/contract/files';
import { Limits } from '@atrium/shared/limits';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { fileManagerData } from '@/components/file-library/api/file-manager-client';
import { resolveUploadConfig } from '@/components/file-library/api/upload-config';
import { createUploadTransport } from '@/components/file-library/api/upload-transport';
import { useFilesT } from '@/components/file-library/i18n';
import { computeMd5 } from '@/components/file-library/upload-button/md5';
import {
  runUpload,
  UploadCancelled,
  UploadError,
} from '@/components/file-library/upload-button/upload-engine';
import { uploadErrorText } from '@/components/file-library/upload-button/upload-messages';
import { toast } from '@/lib/feedback';

export interface ReplaceButtonProps {
  url: string;
  category: string;
  /** The one file chosen; the button is off without exactly one. */
  record: FileRecord | undefined;
  onReplaced: (record: FileRecord) => void;
}

/**
 * Replace in place (issue 17): uploads a new version of the chosen file (hashed, chunked and
 * verified like any upload, not filed as a new file) and gives it the file's address, so every
 * place using the file shows the new content.
 */
export function ReplaceButton({ url, category, record, onReplaced }: ReplaceButtonProps) {
  const t = useFilesT();
  const client = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [percent, setPercent] = useState<number>();

  const replaceWith = async (file: File, target: FileRecord) => {
    const ext = file.name.split('.').pop()?.toLowerCase();
    if (ext !== target.type) {
      toast.warning(t('files.replaceSameType', { type: target.type }));
      return;
    }
    setPercent(0);
    try {
      const config = await resolveUploadConfig(client, url, category);
      const stored = await runUpload({
        file,
        id: `replace-${target.id}`,
        chunkSize: config?.chunkSize ?? Limits.uploadChunkSize,
        parallel: config?.parallelChunks ?? Limits.uploadParallelChunks,
        transport: createUploadTransport(url, category),
        hash: computeMd5,
        signal: new AbortController().signal,
        onProgress: ({ phase, percent: done }) =>
          setPercent(Math.floor(phase === 'hash' ? done / 10 : 10 + (done * 9) / 10)),
      });
      const replaced = await fileManagerData(url, category, 'replace', {
        id: target.id,
        path: stored.path,
      });
      toast.success(t('files.replaceSuccess'));
      onReplaced(replaced);
    } catch (error) {
      if (error instanceof UploadCancelled) return;
      if (error instanceof UploadError) toast.error(uploadErrorText(error, t));
      // A refused `replace` was already shown by the client's envelope handling.
    } finally {
      setPercent(undefined);
    }
  };

  return (
    <>
      <Button
        icon={<SwapOutlined />}
        disabled={!record}
        loading={percent !== undefined}
        onClick={() => input.current?.click()}
      >
        {percent === undefined ? t('files.replace') : `${t('files.replace')} ${percent}%`}
      </Button>
      <input
        ref={input}
        type="file"
        hidden
        aria-label={t('files.replace')}
        accept={record ? `.${record.type}` : undefined}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file && record) void replaceWith(file, record);
        }}
      />
    </>
  );
}
