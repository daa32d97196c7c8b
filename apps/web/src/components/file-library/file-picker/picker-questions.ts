import type { CategoryDeletePreviewResponse, FileUse } from '@atrium/shared/contract/files';
import type { useFilesT } from '@/components/file-library/i18n';
import { describeUse } from './file-usage-text';

type FilesT = ReturnType<typeof useFilesT>;

/** The places one file is used, in words, with those the caller may not see counted. */
export function placesOf(
  t: FilesT,
  file: { usedBy: readonly FileUse[]; hidden: number },
): string[] {
  return [
    ...file.usedBy.map((use) => describeUse(t, use)),
    ...(file.hidden > 0 ? [t('files.usedElsewhere', { n: file.hidden })] : []),
  ];
}

/**
 * SPEC's "Confirm Delete ?" before files are deleted, saying where they go (the trash, for the
 * setting's days) and, for files in use, the places that will lose them (issue 28).
 */
export function deleteQuestion(t: FilesT, n: number, days: number, places: readonly string[]) {
  return places.length > 0
    ? t('files.confirmDeleteUsedToTrash', {
        n,
        days,
        places: places.join(t('files.listSeparator')),
      })
    : t('files.confirmDeleteToTrash', { n, days });
}

/** Asked before a file's bytes are replaced: which file by which, and where it shows (issue 28). */
export function replaceQuestion(
  t: FilesT,
  target: string,
  file: string,
  places: readonly string[],
): string {
  return places.length > 0
    ? t('files.confirmReplaceUsed', { target, file, places: places.join(t('files.listSeparator')) })
    : t('files.confirmReplace', { target, file });
}

/**
 * SPEC's "Confirm Delete ?" before a category goes, saying what moves where (DESIGN 6: its files
 * and sub-categories go to its parent) and naming the files in use with their places (issue 28).
 */
export function categoryDeleteQuestion(
  t: FilesT,
  name: string,
  preview: CategoryDeletePreviewResponse,
): string {
  const what = [
    ...(preview.files > 0 ? [t('files.movesFiles', { n: preview.files })] : []),
    ...(preview.categories > 0
      ? [t('files.movesCategories', { n: preview.categories, below: preview.filesBelow })]
      : []),
  ];
  if (what.length === 0) return t('files.confirmCategoryEmpty', { name });
  const moves = t('files.confirmCategoryMoves', {
    name,
    what: what.join(t('files.movesAnd')),
    parent: preview.parent,
  });
  if (preview.used.length === 0) return moves;
  const used = preview.used.map((file) =>
    t('files.fileUsedAt', {
      name: file.filename,
      places: placesOf(t, file).join(t('files.placeSeparator')),
    }),
  );
  if (preview.moreUsed > 0) used.push(t('files.categoryUsedMore', { n: preview.moreUsed }));
  return t('files.twoSentences', {
    first: moves,
    second: t('files.categoryUsed', { places: used.join(t('files.listSeparator')) }),
  });
}
