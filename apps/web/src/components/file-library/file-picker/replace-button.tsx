import { useRef, useState } from 'react';
import { SwapOutlined } from '@ant-design/icons';
import type { FileRecord } from '@atrium/shared/contract/files';
import { Limits } from '@atrium/shared/limits';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Tooltip } from 'antd';
import { fetchUsage } from '@/components/file-library/api/file-usage';
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
import { confirmDialog, toast } from '@/lib/feedback';
import { placesOf, replaceQuestion } from './picker-questions';

export interface ReplaceButtonProps {
  url: string;
  category: string;
  /** The one file chosen; the button is off without exactly one. */
  record: FileRecord | undefined;
  onReplaced: (record: FileRecord) => void;
  /** An icon named for screen readers (a phone's footer). */
  iconOnly?: boolean;
}

/**
 * Replace in place (issue 17): uploads a new version of the chosen file (hashed, chunked and
 * verified like any upload, not filed as a new file) and gives it the file's address, so every
 * place using the file shows the new content.
 */
export function ReplaceButton({
  url,
  category,
  record,
  onReplaced,
  iconOnly = false,
}: ReplaceButtonProps) {
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
    // Asked before anything is sent (issue 28): the same address takes new bytes everywhere.
    let places: string[] = [];
    if ((target.useCount ?? 0) > 0) {
      try {
        places = target.usedBy
          ? placesOf(t, { usedBy: target.usedBy, hidden: target.usedByHidden ?? 0 })
          : (await fetchUsage(url, category, [target.id])).flatMap((use) => placesOf(t, use));
      } catch {
        return;
      }
    }
    const question = replaceQuestion(t, target.filename, file.name, places);
    if (!(await confirmDialog(question, { danger: true, okText: t('files.replaceOk') }))) return;
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
      toast.success(t('files.replaceDone', { name: target.filename }));
      onReplaced(replaced);
    } catch (error) {
      if (error instanceof UploadCancelled) return;
      if (error instanceof UploadError) toast.error(uploadErrorText(error, t));
      // A refused `replace` was already shown by the client's envelope handling.
    } finally {
      setPercent(undefined);
    }
  };

  const label = percent === undefined ? t('files.replace') : `${t('files.replace')} ${percent}%`;
  return (
    <>
      {iconOnly ? (
        <Tooltip title={label}>
          <Button
            icon={<SwapOutlined />}
            aria-label={label}
            disabled={!record}
            loading={percent !== undefined}
            onClick={() => input.current?.click()}
          />
        </Tooltip>
      ) : (
        <Button
          icon={<SwapOutlined />}
          disabled={!record}
          loading={percent !== undefined}
          onClick={() => input.current?.click()}
        >
          {label}
        </Button>
      )}
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
