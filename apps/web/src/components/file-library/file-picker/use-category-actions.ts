import { useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { fetchCategoryDeletePreview } from '@/components/file-library/api/category-delete-preview';
import { useDeleteCategory } from '@/components/file-library/api/category-delete';
import { useEditCategory } from '@/components/file-library/api/category-edit';
import { useFileCategories } from '@/components/file-library/api/file-categories';
import { fileKeys } from '@/components/file-library/api/file-manager-client';
import { useFilesT } from '@/components/file-library/i18n';
import { confirmDialog, toast } from '@/lib/feedback';
import { invalidateFresh } from '@/lib/query-client';
import { categoryName, categoryOptions, findCategory, subtreeIds } from './categories';
import type { CategoryDraft } from './category-dialog';
import { categoryDeleteQuestion } from './picker-questions';
import type { PickerList } from './use-picker-list';

/** The category tree and its add, edit and delete (SPEC 2.4, 4.4). */
export function useCategoryActions(
  url: string,
  category: string,
  childKey: string,
  list: PickerList,
) {
  const t = useFilesT();
  const client = useQueryClient();
  const categories = useFileCategories(url, category, true);
  const saveCategory = useEditCategory(url, category);
  const removeCategory = useDeleteCategory(url, category);
  const [draft, setDraft] = useState<CategoryDraft | null>(null);
  const { categoryId } = list;

  const tree = useMemo(() => categories.data?.categoryTreeAll ?? [], [categories.data]);
  const current = findCategory(tree, categoryId, childKey);
  const currentName = current ? categoryName(current) : '';

  // SPEC 4.4: after a category is added, edited or deleted, the root is current again.
  const afterChange = () => {
    list.chooseCategory(0);
    void invalidateFresh(client, { queryKey: fileKeys.categories(url, category) });
    void list.reload();
  };

  const submit = async (value: CategoryDraft) => {
    try {
      await saveCategory.mutateAsync(value);
    } catch {
      return;
    }
    toast.success(t('files.addSuccess'));
    setDraft(null);
    afterChange();
  };

  const deleteCurrent = async () => {
    if (categoryId <= 0) return;
    let question: string;
    try {
      const preview = await fetchCategoryDeletePreview(url, category, categoryId);
      question = categoryDeleteQuestion(t, currentName, preview);
    } catch {
      return;
    }
    if (!(await confirmDialog(question, { danger: true }))) return;
    try {
      await removeCategory.mutateAsync(categoryId);
    } catch {
      return;
    }
    toast.success(t('files.deleteSuccess'));
    afterChange();
  };

  const editCurrent = () => {
    if (!current || categoryId <= 0) return;
    setDraft({
      id: current.id,
      pid: typeof current.pid === 'number' ? current.pid : 0,
      title: current.title ?? current.name,
    });
  };

  const parentOptions = useMemo(() => {
    const blocked =
      draft && draft.id > 0 ? subtreeIds(tree, draft.id, childKey) : new Set<number>();
    return categoryOptions(categories.data?.categoryListParent ?? []).filter(
      (o) => !blocked.has(o.value),
    );
  }, [categories.data, tree, draft, childKey]);
  const moveOptions = useMemo(
    () => categoryOptions(categories.data?.categoryListAll ?? []),
    [categories.data],
  );

  return {
    categories,
    tree,
    currentName,
    draft,
    setDraft,
    submit,
    saving: saveCategory.isPending,
    deleteCurrent,
    editCurrent,
    parentOptions,
    moveOptions,
  };
}
