import type { ListSortKey } from '@atrium/shared/contract/files';
import type { FileListView } from '@/components/file-library/api/file-list';
import type { FilesKey } from '@/components/file-library/i18n';

/**
 * The list's order and filters as the Filters controls set them (issue 17), kept free of antd
 * so each rule is tested alone; `ListFilters` shows them.
 */

/** Each choice of the sort control: an order and its direction. */
export const sortChoices: readonly {
  value: string;
  label: FilesKey;
  sort?: ListSortKey;
  order?: 'asc';
}[] = [
  { value: 'date-desc', label: 'files.sortNewest' },
  { value: 'date-asc', label: 'files.sortOldest', sort: 'date', order: 'asc' },
  { value: 'name-asc', label: 'files.sortNameAsc', sort: 'name', order: 'asc' },
  { value: 'name-desc', label: 'files.sortNameDesc', sort: 'name' },
  { value: 'size-desc', label: 'files.sortSizeDesc', sort: 'size' },
  { value: 'size-asc', label: 'files.sortSizeAsc', sort: 'size', order: 'asc' },
];

/** The sort control's value for `view` (no sort: newest first; a name sort reads A to Z). */
export function sortValue(view: FileListView): string {
  if (!view.sort) return 'date-desc';
  const order = view.order ?? (view.sort === 'name' ? 'asc' : 'desc');
  return `${view.sort}-${order}`;
}

/** `view` ordered by the sort choice `value`; newest first is the plain list, no sort at all. */
export function withSort(view: FileListView, value: string): FileListView {
  const choice = sortChoices.find((c) => c.value === value);
  const { sort: _sort, order: _order, ...rest } = view;
  return {
    ...rest,
    ...(choice?.sort ? { sort: choice.sort, order: choice.order ?? 'desc' } : {}),
  };
}

/** `view` narrowed to these extensions; none: every type. */
export function withTypes(view: FileListView, types: readonly string[]): FileListView {
  const { types: _types, ...rest } = view;
  return types.length > 0 ? { ...rest, types: [...types] } : rest;
}

/**
 * `view` narrowed to files filed from the start of the day `from` to the end of the day `to`
 * (local time, both days included); an end left empty is open.
 */
export function withDates(
  view: FileListView,
  from: Date | undefined,
  to: Date | undefined,
): FileListView {
  const { from: _from, to: _to, ...rest } = view;
  const start = from
    ? new Date(from.getFullYear(), from.getMonth(), from.getDate()).getTime()
    : undefined;
  const end = to
    ? new Date(to.getFullYear(), to.getMonth(), to.getDate() + 1).getTime() - 1
    : undefined;
  return {
    ...rest,
    ...(start !== undefined ? { from: start } : {}),
    ...(end !== undefined ? { to: end } : {}),
  };
}

/** How many of the folded filters narrow or order the list now (the Filters button's badge). */
export function activeFilterCount(view: FileListView, unused: boolean): number {
  return (
    (unused ? 1 : 0) +
    (view.sort ? 1 : 0) +
    (view.types?.length ? 1 : 0) +
    (view.from !== undefined || view.to !== undefined ? 1 : 0)
  );
}
