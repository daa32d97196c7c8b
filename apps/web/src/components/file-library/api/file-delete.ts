import { mutationOptions, useMutation } from '@tanstack/react-query';
import { fileManagerData } from './file-manager-client';

/**
 * Deletes files (`fileDelete`, SPEC 7.3); `confirm` once the user agreed to delete files in use
 * (the admin library refuses them without it, issue 17).
 */
function deleteFiles(
  url: string,
  category: string,
  ids: readonly number[],
  confirm: boolean,
): Promise<unknown> {
  return fileManagerData(url, category, 'fileDelete', {
    id: ids.join(','),
    ...(confirm ? { confirm } : {}),
  });
}

function deleteFilesMutationOptions(url: string, category: string) {
  return mutationOptions({
    mutationFn: ({ ids, confirm = false }: { ids: readonly number[]; confirm?: boolean }) =>
      deleteFiles(url, category, ids, confirm),
  });
}

export function useDeleteFiles(url: string, category: string) {
  return useMutation(deleteFilesMutationOptions(url, category));
}
