import { useState, type RefObject } from 'react';
import { FilterOutlined, RestOutlined } from '@ant-design/icons';
import { Badge, Button, Checkbox, Input } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { isDefaultView, showSavedFile } from '@/components/file-library/api/file-list';
import { useFilesT } from '@/components/file-library/i18n';
import {
  UploadButton,
  type UploadButtonHandle,
} from '@/components/file-library/upload-button/upload-button';
import type { UploadConfig } from '@/components/file-library/upload-button/upload-rules';
import { ListFilters } from './list-filters';
import { activeFilterCount } from './list-view';
import type { PickerList } from './use-picker-list';
import type { FileRecord } from './file-record';

export interface PickerToolbarProps {
  url: string;
  category: string;
  list: PickerList;
  canUpload: boolean;
  uploader: RefObject<UploadButtonHandle | null>;
  uploadConfig?: UploadConfig;
  /** The library's upload types, offered by the type filter. */
  extensions: readonly string[];
  narrow: boolean;
  onUploaded: () => void;
  /** A file that was already in this category (issue 28): nothing new to list; select it. */
  onExisting: (file: FileRecord) => void;
  onOpenTrash: () => void;
}

/**
 * The gallery's one toolbar row (issue 28): upload, search, and one "Filters" control that folds
 * the secondary choices (unused only, sort, types, dates, the trash) into a row below it, with a
 * badge of how many filters are on.
 */
export function PickerToolbar(props: PickerToolbarProps) {
  const { url, category, list } = props;
  const t = useFilesT();
  const client = useQueryClient();
  const [words, setWords] = useState('');
  const [open, setOpen] = useState(false);
  const active = activeFilterCount(list.view, list.unused);
  const filtersLabel = active > 0 ? t('files.filtersActive', { n: active }) : t('files.filters');

  return (
    <>
      <div className="atrium-fp-toolbar">
        {props.canUpload ? (
          <UploadButton
            handle={props.uploader}
            url={url}
            category={category}
            config={props.uploadConfig}
            autoSave
            width={props.narrow ? 'auto' : 200}
            saveCategoryId={list.categoryId}
            onUploaded={(result) => {
              if (result.saved?.existing) {
                props.onExisting(result.saved);
                return;
              }
              list.setPage(1);
              if (result.saved && !list.keywords && isDefaultView(list.view))
                showSavedFile(client, url, category, list.categoryId, result.saved);
              props.onUploaded();
            }}
          />
        ) : null}
        <Input.Search
          className="atrium-fp-search"
          allowClear
          value={words}
          placeholder={t('files.search')}
          aria-label={t('files.search')}
          onChange={(event) => {
            setWords(event.target.value);
            if (event.target.value === '') list.search('');
          }}
          onSearch={list.search}
        />
        <Badge count={active} size="small" offset={[-4, 4]}>
          <Button
            icon={<FilterOutlined />}
            aria-expanded={open}
            aria-controls="atrium-fp-filters"
            aria-label={props.narrow ? filtersLabel : undefined}
            title={filtersLabel}
            type={active > 0 ? 'primary' : 'default'}
            ghost={active > 0}
            onClick={() => setOpen((was) => !was)}
            // Esc folds the row first (the picker's Esc leaves an expanded control alone).
            onKeyDown={(event) => {
              if (event.key === 'Escape' && open) setOpen(false);
            }}
          >
            {props.narrow ? null : t('files.filters')}
          </Button>
        </Badge>
      </div>
      {open ? (
        <div className="atrium-fp-filter-row" id="atrium-fp-filters">
          <Checkbox
            className="atrium-fp-unused"
            checked={list.unused}
            onChange={(event) => list.setUnused(event.target.checked)}
          >
            {t('files.unusedOnly')}
          </Checkbox>
          <ListFilters view={list.view} extensions={props.extensions} onChange={list.setView} />
          <Button icon={<RestOutlined />} onClick={props.onOpenTrash}>
            {t('files.trash')}
          </Button>
        </div>
      ) : null}
    </>
  );
}
