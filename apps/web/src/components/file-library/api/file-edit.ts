import { mutationOptions, useMutation } from '@tanstack/react-query';
import { fileManagerData } from './file-manager-client';

interface EditFilesInput {
  ids: readonly number[];
  categoryId: number;
}

/** Moves files to another category (`fileEdit`, SPEC 7.3). */
function editFiles(url: string, category: string, input: EditFilesInput): Promise<unknown> {
  return fileManagerData(url, category, 'fileEdit', {
    categoryId: input.categoryId,
    id: input.ids.join(','),
  });
}

function editFilesMutationOptions(url: string, category: string) {
  return mutationOptions({
    mutationFn: (input: EditFilesInput) => editFiles(url, category, input),
  });
}

export function useEditFiles(url: string, category: string) {
  return useMutation(editFilesMutationOptions(url, category));
}
