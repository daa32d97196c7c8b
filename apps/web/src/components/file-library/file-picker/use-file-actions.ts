import { useState } from 'react';
import { useDeleteFiles } from '@/components/file-library/api/file-delete';
import { useEditFiles } from '@/components/file-library/api/file-edit';
import { fetchUsage } from '@/components/file-library/api/file-usage';
import { useTrashDays } from '@/components/file-library/api/trash-days';
import { useFilesT } from '@/components/file-library/i18n';
import { confirmDialog, toast } from '@/lib/feedback';
import { deleteQuestion, placesOf } from './picker-questions';
import type { PickerList } from './use-picker-list';

/** Delete and move (Edit) of the checked files, each asking or reporting what it did. */
export function useFileActions(
  url: string,
  category: string,
  list: PickerList,
  /** Reloads the list after a change (and forgets the file whose details were shown). */
  reload: () => void,
) {
  const t = useFilesT();
  const days = useTrashDays(url, category);
  const removeFiles = useDeleteFiles(url, category);
  const moveFiles = useEditFiles(url, category);
  const [moving, setMoving] = useState(false);
  const { selected } = list;

  const deleteChecked = async () => {
    if (selected.length === 0) return;
    const ids = selected.map((r) => r.id);
    // Files in use name their places before they go (issue 17).
    let places: string[];
    const used = selected.filter((r) => (r.useCount ?? 0) > 0);
    if (used.every((r) => r.usedBy)) {
      // Listed with their places: nothing to ask the server.
      places = used.flatMap((r) =>
        placesOf(t, { usedBy: r.usedBy ?? [], hidden: r.usedByHidden ?? 0 }),
      );
    } else {
      try {
        places = (await fetchUsage(url, category, ids)).flatMap((file) => placesOf(t, file));
      } catch {
        return;
      }
    }
    const question = deleteQuestion(t, ids.length, days, places);
    if (!(await confirmDialog(question, { danger: true }))) return;
    try {
      await removeFiles.mutateAsync({ ids, confirm: places.length > 0 });
    } catch {
      return;
    }
    toast.success(t('files.deleteSuccess'));
    list.setPage(1);
    reload();
  };

  const moveChecked = async (target: number) => {
    try {
      await moveFiles.mutateAsync({ ids: selected.map((r) => r.id), categoryId: target });
    } catch {
      return;
    }
    toast.success(t('files.editSuccess'));
    setMoving(false);
    // SPEC 4.4: the current page reloads; one left empty shows the last page (use-picker-list).
    reload();
  };

  return {
    deleteChecked,
    deleting: removeFiles.isPending,
    moving,
    setMoving,
    moveChecked,
    movePending: moveFiles.isPending,
  };
}
