import type { FileUse } from '@atrium/shared/contract/files';
import type { FileRefKind } from '@atrium/shared/file-refs';
import type { FilesKey, useFilesT } from '@/components/file-library/i18n';

type FilesT = ReturnType<typeof useFilesT>;

const keyOfUse = (kind: FileRefKind) => `files.use.${kind}` as FilesKey;

/** A place that uses a file, in words: "聊天室「欢迎」的封面", "Site settings: logo". */
export function describeUse(t: FilesT, use: FileUse): string {
  return t(keyOfUse(use.kind), { label: use.label || `#${use.holderId}` });
}
