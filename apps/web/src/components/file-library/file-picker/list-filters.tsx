import { DatePicker, Select } from 'antd';
import dayjs from 'dayjs';
import type { ListSortKey } from '@atrium/shared/contract/files';
import { useFilesT, type FilesKey } from '@/components/file-library/i18n';
import type { FileListView } from '@/components/file-library/api/file-list';

/** Each choice of the sort control: an order and its direction. */
const sortChoices: { value: string; label: FilesKey; sort?: ListSortKey; order?: 'asc' }[] = [
  { value: 'date-desc', label: 'files.sortNewest' },
  { value: 'date-asc', label: 'files.sortOldest', sort: 'date', order: 'asc' },
  { value: 'name-asc', label: 'files.sortNameAsc', sort: 'name', order: 'asc' },
  { value: 'name-desc', label: 'files.sortNameDesc', sort: 'name' },
  { value: 'size-desc', label: 'files.sortSizeDesc', sort: 'size' },
  { value: 'size-asc', label: 'files.sortSizeAsc', sort: 'size', order: 'asc' },
];

function sortValue(view: FileListView): string {
  if (!view.sort) return 'date-desc';
  const order = view.order ?? (view.sort === 'name' ? 'asc' : 'desc');
  return `${view.sort}-${order}`;
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

export interface ListFiltersProps {
  view: FileListView;
  /** Extensions the type filter offers (the library's upload types). */
  extensions: readonly string[];
  onChange: (view: FileListView) => void;
}

/** The list's sort control, type filter and upload-date range (issue 17). */
export function ListFilters({ view, extensions, onChange }: ListFiltersProps) {
  const t = useFilesT();
  return (
    <div className="atrium-fp-filters">
      <Select
        className="atrium-fp-sort"
        aria-label={t('files.sortBy')}
        value={sortValue(view)}
        options={sortChoices.map((choice) => ({ value: choice.value, label: t(choice.label) }))}
        onChange={(value: string) => {
          const choice = sortChoices.find((c) => c.value === value);
          const { sort: _sort, order: _order, ...rest } = view;
          onChange({
            ...rest,
            ...(choice?.sort ? { sort: choice.sort, order: choice.order ?? 'desc' } : {}),
          });
        }}
      />
      <Select
        className="atrium-fp-types"
        mode="multiple"
        allowClear
        maxTagCount="responsive"
        aria-label={t('files.types')}
        placeholder={t('files.allTypes')}
        value={view.types ?? []}
        options={extensions.map((ext) => ({ value: ext, label: ext.toUpperCase() }))}
        onChange={(types: string[]) => {
          const { types: _types, ...rest } = view;
          onChange(types.length > 0 ? { ...rest, types } : rest);
        }}
      />
      <DatePicker.RangePicker
        className="atrium-fp-dates"
        allowEmpty={[true, true]}
        placeholder={[t('files.dateFrom'), t('files.dateTo')]}
        value={[
          view.from === undefined ? null : dayjs(view.from),
          view.to === undefined ? null : dayjs(view.to),
        ]}
        onChange={(dates) => {
          const { from: _from, to: _to, ...rest } = view;
          const from = dates?.[0]?.startOf('day').valueOf();
          const to = dates?.[1]?.endOf('day').valueOf();
          onChange({
            ...rest,
            ...(from !== undefined ? { from } : {}),
            ...(to !== undefined ? { to } : {}),
          });
        }}
      />
    </div>
  );
}
