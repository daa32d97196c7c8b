import { Limits } from '@atrium/shared/limits';
import type { UploadConfig } from '@atrium/shared/contract/files';
import { useQuery } from '@tanstack/react-query';
import { fileKeys, fileManagerData } from './file-manager-client';

/**
 * How many days a deleted file stays in the trash (the upload settings' trashDays), read from the
 * same `config` answer (and cache entry) the upload button uses; SPEC 9's default until it comes.
 */
export function useTrashDays(url: string, category: string): number {
  const config = useQuery({
    queryKey: fileKeys.uploadConfig(url),
    queryFn: ({ signal }): Promise<UploadConfig> =>
      fileManagerData(url, category, 'config', {}, { signal }),
    staleTime: Infinity,
    select: (answer) => answer.trashDays ?? Limits.trashDays,
  });
  return config.data ?? Limits.trashDays;
}
