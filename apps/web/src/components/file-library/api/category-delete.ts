import { mutationOptions, useMutation } from '@tanstack/react-query';
import { fileManagerData } from './file-manager-client';

/** Deletes a category; its files and sub-categories move to its parent (`categoryDelete`). */
function deleteCategory(url: string, category: string, id: number): Promise<unknown> {
  return fileManagerData(url, category, 'categoryDelete', { id });
}

function deleteCategoryMutationOptions(url: string, category: string) {
  return mutationOptions({ mutationFn: (id: number) => deleteCategory(url, category, id) });
}

export function useDeleteCategory(url: string, category: string) {
  return useMutation(deleteCategoryMutationOptions(url, category));
}
