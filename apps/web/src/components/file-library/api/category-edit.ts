import { mutationOptions, useMutation } from '@tanstack/react-query';
import { fileManagerData } from './file-manager-client';

interface CategoryEditInput {
  /** 0 adds a category. */
  id: number;
  pid: number;
  title: string;
}

/** Adds or renames/moves a category (`categoryEdit`, SPEC 7.3). */
function editCategory(url: string, category: string, input: CategoryEditInput): Promise<unknown> {
  return fileManagerData(url, category, 'categoryEdit', input);
}

function editCategoryMutationOptions(url: string, category: string) {
  return mutationOptions({
    mutationFn: (input: CategoryEditInput) => editCategory(url, category, input),
  });
}

export function useEditCategory(url: string, category: string) {
  return useMutation(editCategoryMutationOptions(url, category));
}
