import { mutationOptions, useMutation } from '@tanstack/react-query';
import { fileManagerData } from './file-manager-client';

/** Deletes files (`fileDelete`, SPEC 7.3). */
function deleteFiles(url: string, category: string, ids: readonly number[]): Promise<unknown> {
  return fileManagerData(url, category, 'fileDelete', { id: ids.join(',') });
}

function deleteFilesMutationOptions(url: string, category: string) {
  return mutationOptions({
    mutationFn: (ids: readonly number[]) => deleteFiles(url, category, ids),
  });
}

export function useDeleteFiles(url: string, category: string) {
  return useMutation(deleteFilesMutationOptions(url, category));
}
