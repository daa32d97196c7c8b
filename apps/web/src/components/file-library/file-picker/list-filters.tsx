import { DatePicker, Select } from 'antd';
import dayjs from 'dayjs';
import { useFilesT } from '@/components/file-library/i18n';
import type { FileListView } from '@/components/file-library/api/file-list';
import { sortChoices, sortValue, withDates, withSort, withTypes } from './list-view';

export interface ListFiltersProps {
  view: FileListView;
  /** Extensions the type filter offers (the library's upload types). */
  extensions: readonly string[];
  onChange: (view: FileListView) => void;
}

/** The list's sort control, type filter and upload-date range (issue 17; rules in list-view). */
export function ListFilters({ view, extensions, onChange }: ListFiltersProps) {
  const t = useFilesT();
  return (
    <div className="atrium-fp-filters">
      <Select
        className="atrium-fp-sort"
        aria-label={t('files.sortBy')}
        value={sortValue(view)}
        options={sortChoices.map((choice) => ({ value: choice.value, label: t(choice.label) }))}
        onChange={(value: string) => onChange(withSort(view, value))}
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
        onChange={(types: string[]) => onChange(withTypes(view, types))}
      />
      <DatePicker.RangePicker
        className="atrium-fp-dates"
        allowEmpty={[true, true]}
        placeholder={[t('files.dateFrom'), t('files.dateTo')]}
        value={[
          view.from === undefined ? null : dayjs(view.from),
          view.to === undefined ? null : dayjs(view.to),
        ]}
        onChange={(dates) => onChange(withDates(view, dates?.[0]?.toDate(), dates?.[1]?.toDate()))}
      />
    </div>
  );
}
