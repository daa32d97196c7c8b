import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import {
  ArrowLeftOutlined,
  CloudUploadOutlined,
  CopyOutlined,
  DeleteOutlined,
  DownOutlined,
  EditOutlined,
  FolderOutlined,
  RestOutlined,
  UpOutlined,
} from '@ant-design/icons';
import { Button, Checkbox, Form, Input, Tabs } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { copyText } from '@/lib/copy';
import { confirmDialog, toast } from '@/lib/feedback';
import { useFilesT } from '@/components/file-library/i18n';
import { useDeleteCategory } from '@/components/file-library/api/category-delete';
import { useEditCategory } from '@/components/file-library/api/category-edit';
import { useFileCategories } from '@/components/file-library/api/file-categories';
import { useDeleteFiles } from '@/components/file-library/api/file-delete';
import { fetchUsage } from '@/components/file-library/api/file-usage';
import { describeUse } from './file-usage-text';
import { ReplaceButton } from './replace-button';
import { TrashPanel } from './trash-panel';
import { useEditFiles } from '@/components/file-library/api/file-edit';
import {
  isDefaultView,
  showSavedFile,
  useFileList,
  type FileListView,
} from '@/components/file-library/api/file-list';
import { useUploadConfig } from '@/components/file-library/api/upload-config';
import { fileKeys } from '@/components/file-library/api/file-manager-client';
import {
  UploadButton,
  type UploadButtonHandle,
} from '@/components/file-library/upload-button/upload-button';
import type { UploadConfig } from '@/components/file-library/upload-button/upload-rules';
import { categoryName, categoryOptions, findCategory, subtreeIds } from './categories';
import { CategoryDialog, type CategoryDraft } from './category-dialog';
import { CategoryPanel } from './category-panel';
import { FileDetails } from './file-details';
import { FileEditDialog } from './file-edit-dialog';
import type { FilePickerPermission } from './file-picker';
import { FileGrid } from './file-grid';
import type { FileRecord } from './file-record';
import type { FileUse } from '@atrium/shared/contract/files';
import {
  confirmProblem,
  pageCheckState,
  pickedFromPath,
  pickedFromRecords,
  selectAllOf,
  showReverseOrder,
  toggleSelection,
  unselectAllOf,
  type PickedFile,
  type PickerTab,
} from './selection';
import { ListFilters } from './list-filters';
import { useSmallWindow } from '@/lib/use-media-query';

export interface PickerBodyProps {
  url: string;
  category: string;
  min: number;
  max: number;
  childKey: string;
  permission: FilePickerPermission;
  reverseSelectOrder: boolean;
  uploadConfig?: UploadConfig;
  /** No "Custom Link" tab: the library only. */
  libraryOnly?: boolean;
  onConfirm?: (items: PickedFile[]) => void;
}

interface Selection {
  /**
   * Which load of the list the selection belongs to: a reload (upload, move, delete, another
   * category) clears it (SPEC 4.4); turning pages and searching keep it.
   */
  generation: number;
  records: FileRecord[];
}

/** Files on the clipboard or in a drag, when it carries any. */
function filesOf(data: DataTransfer | null): File[] {
  return data ? Array.from(data.files) : [];
}

/** A pasted screenshot is called image.png by every browser: give it a name of its own. */
function pastedName(file: File, at: Date): File {
  if (file.name && file.name !== 'image.png') return file;
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}-${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
  const ext = file.type.split('/')[1]?.replace('jpeg', 'jpg') ?? 'png';
  return new File([file], `pasted-${stamp}.${ext}`, {
    type: file.type,
    lastModified: at.getTime(),
  });
}

const noDraft: CategoryDraft = { id: 0, pid: 0, title: '' };

const sameRecord = (a: FileRecord, b: FileRecord) => a.id === b.id;

/** Everything inside the picker: tabs, category tree, grid, toolbar, sub-dialogs (SPEC 2.4, 4.4). */
export function PickerBody(props: PickerBodyProps) {
  const { url, category, min, max, childKey, permission } = props;
  const t = useFilesT();
  const narrow = useSmallWindow();
  const client = useQueryClient();

  const [tab, setTab] = useState<PickerTab>('list');
  const [categoryId, setCategoryId] = useState(0);
  const [page, setPage] = useState(1);
  const [path, setPath] = useState('');
  const [reverse, setReverse] = useState(props.reverseSelectOrder);
  const [menuOpen, setMenuOpen] = useState(false);
  const [keywords, setKeywords] = useState('');
  const [search, setSearch] = useState('');
  const [generation, setGeneration] = useState(0);
  const [selection, setSelection] = useState<Selection>({ generation: 0, records: [] });
  const [active, setActive] = useState<FileRecord>();
  const [dropping, setDropping] = useState(false);
  const uploader = useRef<UploadButtonHandle>(null);
  const [draft, setDraft] = useState<CategoryDraft | null>(null);
  const [moving, setMoving] = useState(false);

  const categories = useFileCategories(url, category, true);
  const [unused, setUnused] = useState(false);
  const [trashOpen, setTrashOpen] = useState(false);
  const [view, setView] = useState<FileListView>({});
  const list = useFileList(url, category, { categoryId, page, keywords, unused, view }, true);
  const fetchedConfig = useUploadConfig(url, category, !props.uploadConfig);
  const extensions =
    (props.uploadConfig ?? fetchedConfig.data)?.category[category]?.extensions ?? [];
  const removeFiles = useDeleteFiles(url, category);
  const moveFiles = useEditFiles(url, category);
  const saveCategory = useEditCategory(url, category);
  const removeCategory = useDeleteCategory(url, category);

  const tree = useMemo(() => categories.data?.categoryTreeAll ?? [], [categories.data]);
  const records = list.data?.records ?? [];
  const selected = selection.generation === generation ? selection.records : [];
  const checkedIds = new Set(selected.map((r) => r.id));
  // Each checked tile shows where it comes in the order handed back (ModStart numbers them too).
  const order = new Map(
    max > 1 ? selected.map((r, i) => [r.id, reverse ? selected.length - i : i + 1]) : [],
  );
  const current = findCategory(tree, categoryId, childKey);
  const currentName = current ? categoryName(current) : '';

  const reloadList = () => {
    setGeneration((g) => g + 1);
    setActive(undefined);
    return client.invalidateQueries({ queryKey: fileKeys.lists(url, category) });
  };
  const reloadTree = () =>
    client.invalidateQueries({ queryKey: fileKeys.categories(url, category) });

  const chooseCategory = (id: number) => {
    setCategoryId(id);
    setPage(1);
    setMenuOpen(false);
    void reloadList();
  };

  const toggle = (record: FileRecord) => {
    const result = toggleSelection(selected, record, max, sameRecord);
    if (!result.ok) {
      toast.warning(t('files.selectAtMost', { n: max }));
      return;
    }
    setSelection({ generation, records: result.selected });
    setActive(record);
  };

  const pageState = pageCheckState(selected, records, sameRecord);
  const checkPage = (checked: boolean) => {
    if (!checked) {
      setSelection({ generation, records: unselectAllOf(selected, records, sameRecord) });
      return;
    }
    const result = selectAllOf(selected, records, max, sameRecord);
    if (!result.ok) {
      toast.warning(t('files.selectAtMost', { n: max }));
      return;
    }
    setSelection({ generation, records: result.selected });
  };

  const changeView = (next: FileListView) => {
    setView(next);
    setPage(1);
  };

  const searchFor = (value: string) => {
    setKeywords(value.trim());
    setPage(1);
  };

  const canTakeFiles = permission.upload && tab === 'list';
  const takeFiles = (files: readonly File[]) => {
    if (files.length > 0) uploader.current?.add(files);
  };

  // Images pasted anywhere in the picker upload into the current category.
  useEffect(() => {
    if (!canTakeFiles) return;
    const onPaste = (event: ClipboardEvent) => {
      const files = filesOf(event.clipboardData);
      if (files.length === 0) return;
      event.preventDefault();
      const now = new Date();
      takeFiles(files.map((file) => pastedName(file, now)));
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  });

  const dragHasFiles = (event: DragEvent) =>
    canTakeFiles && Array.from(event.dataTransfer.types).includes('Files');
  const dropHandlers = {
    onDragOver: (event: DragEvent) => {
      if (!dragHasFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
      if (!dropping) setDropping(true);
    },
    onDragLeave: (event: DragEvent) => {
      const next = event.relatedTarget;
      if (!(next instanceof Node) || !event.currentTarget.contains(next)) setDropping(false);
    },
    onDrop: (event: DragEvent) => {
      setDropping(false);
      if (!dragHasFiles(event)) return;
      event.preventDefault();
      takeFiles(filesOf(event.dataTransfer));
    },
  };

  const confirm = () => {
    const problem = confirmProblem(tab, { path, selected: selected.length, min, max });
    if (problem) {
      toast.warning(
        problem.key === 'files.pleaseInput' ? t(problem.key) : t(problem.key, { n: problem.n }),
      );
      return;
    }
    props.onConfirm?.(
      tab === 'input' ? pickedFromPath(path) : pickedFromRecords(selected, reverse),
    );
  };

  const deleteChecked = async () => {
    if (selected.length === 0) return;
    const ids = selected.map((r) => r.id);
    // Files in use name their places before they go (issue 17).
    let places: string[];
    const used = selected.filter((r) => (r.useCount ?? 0) > 0);
    const named = (file: { usedBy: FileUse[]; hidden: number }) => [
      ...file.usedBy.map((use) => describeUse(t, use)),
      ...(file.hidden > 0 ? [t('files.usedElsewhere', { n: file.hidden })] : []),
    ];
    if (used.every((r) => r.usedBy)) {
      // Listed with their places: nothing to ask the server.
      places = used.flatMap((r) => named({ usedBy: r.usedBy ?? [], hidden: r.usedByHidden ?? 0 }));
    } else {
      try {
        places = (await fetchUsage(url, category, ids)).flatMap(named);
      } catch {
        return;
      }
    }
    const question = places.length
      ? t('files.confirmDeleteUsed', { places: places.join(' · ') })
      : t('files.confirmDelete');
    if (!(await confirmDialog(question, { danger: true }))) return;
    try {
      await removeFiles.mutateAsync({ ids, confirm: places.length > 0 });
    } catch {
      return;
    }
    toast.success(t('files.deleteSuccess'));
    setPage(1);
    void reloadList();
  };

  const moveChecked = async (target: number) => {
    try {
      await moveFiles.mutateAsync({ ids: selected.map((r) => r.id), categoryId: target });
    } catch {
      return;
    }
    toast.success(t('files.editSuccess'));
    setMoving(false);
    void reloadList();
  };

  const afterCategoryChange = () => {
    setCategoryId(0);
    setPage(1);
    void reloadTree();
    void reloadList();
  };

  const submitCategory = async (value: CategoryDraft) => {
    try {
      await saveCategory.mutateAsync(value);
    } catch {
      return;
    }
    toast.success(t('files.addSuccess'));
    setDraft(null);
    afterCategoryChange();
  };

  const deleteCurrentCategory = async () => {
    if (categoryId <= 0 || !(await confirmDialog(t('files.confirmDelete'), { danger: true })))
      return;
    try {
      await removeCategory.mutateAsync(categoryId);
    } catch {
      return;
    }
    toast.success(t('files.deleteSuccess'));
    afterCategoryChange();
  };

  const editCurrentCategory = () => {
    const node = findCategory(tree, categoryId, childKey);
    if (!node || categoryId <= 0) return;
    setDraft({
      id: node.id,
      pid: typeof node.pid === 'number' ? node.pid : 0,
      title: node.title ?? node.name,
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

  const side = (
    <CategoryPanel
      tree={tree}
      childKey={childKey}
      current={categoryId}
      loading={categories.isFetching}
      canAddEdit={permission.addEdit}
      canDelete={permission.delete}
      onSelect={chooseCategory}
      onAdd={() => setDraft({ id: 0, pid: categoryId, title: '' })}
      onEdit={editCurrentCategory}
      onDelete={() => void deleteCurrentCategory()}
    />
  );

  const none = selected.length === 0;
  const gallery = (
    <div className={narrow ? 'atrium-fp-gallery is-narrow' : 'atrium-fp-gallery'}>
      {narrow ? (
        <Button
          className="atrium-fp-fold"
          block
          icon={<FolderOutlined />}
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span className="atrium-fp-fold-label">{currentName || t('files.categories')}</span>
          {menuOpen ? <UpOutlined /> : <DownOutlined />}
        </Button>
      ) : null}
      {!narrow || menuOpen ? <aside className="atrium-fp-side">{side}</aside> : null}
      <section
        className={dropping ? 'atrium-fp-main is-dropping' : 'atrium-fp-main'}
        {...dropHandlers}
      >
        {dropping ? (
          <div className="atrium-fp-drop" aria-hidden>
            <CloudUploadOutlined />
            <span>{t('files.dropHere', { category: currentName || t('files.categories') })}</span>
          </div>
        ) : null}
        {trashOpen ? (
          <>
            <div className="atrium-fp-toolbar">
              <Button icon={<ArrowLeftOutlined />} onClick={() => setTrashOpen(false)}>
                {t('files.backToLibrary')}
              </Button>
            </div>
            <TrashPanel
              url={url}
              category={category}
              canDelete={permission.delete}
              onRestored={() => void reloadList()}
            />
          </>
        ) : (
          <>
            <div className="atrium-fp-toolbar">
              {permission.upload ? (
                <UploadButton
                  handle={uploader}
                  url={url}
                  category={category}
                  config={props.uploadConfig}
                  autoSave
                  saveCategoryId={categoryId}
                  onUploaded={(result) => {
                    setPage(1);
                    if (result.saved && !keywords && isDefaultView(view))
                      showSavedFile(client, url, category, categoryId, result.saved);
                    void reloadList();
                  }}
                />
              ) : null}
              <div className="atrium-fp-actions">
                {permission.delete ? (
                  <Button
                    danger
                    icon={<DeleteOutlined />}
                    disabled={none}
                    loading={removeFiles.isPending}
                    onClick={() => void deleteChecked()}
                  >
                    {t('files.delete')}
                  </Button>
                ) : null}
                {permission.addEdit ? (
                  <Button
                    icon={<EditOutlined />}
                    disabled={none}
                    onClick={() => !none && setMoving(true)}
                  >
                    {t('files.edit')}
                  </Button>
                ) : null}
                <Button
                  icon={<CopyOutlined />}
                  disabled={none}
                  onClick={() => !none && void copyText(selected.map((r) => r.fullPath).join('\n'))}
                >
                  {t('files.copyLink')}
                </Button>
                {permission.upload && permission.addEdit ? (
                  <ReplaceButton
                    url={url}
                    category={category}
                    record={selected.length === 1 ? selected[0] : undefined}
                    onReplaced={() => void reloadList()}
                  />
                ) : null}
                <Button icon={<RestOutlined />} onClick={() => setTrashOpen(true)}>
                  {t('files.trash')}
                </Button>
              </div>
            </div>
            <Input.Search
              className="atrium-fp-search"
              allowClear
              value={search}
              placeholder={t('files.search')}
              aria-label={t('files.search')}
              onChange={(event) => {
                setSearch(event.target.value);
                if (event.target.value === '') searchFor('');
              }}
              onSearch={searchFor}
            />
            <Checkbox
              className="atrium-fp-unused"
              checked={unused}
              onChange={(event) => {
                setUnused(event.target.checked);
                setPage(1);
              }}
            >
              {t('files.unusedOnly')}
            </Checkbox>
            <ListFilters view={view} extensions={extensions} onChange={changeView} />
            {max > 1 && records.length > 0 ? (
              <Checkbox
                className="atrium-fp-select-page"
                checked={pageState === 'all'}
                indeterminate={pageState === 'some'}
                onChange={(event) => checkPage(event.target.checked)}
              >
                {t('files.selectPage')}
              </Checkbox>
            ) : null}
            <FileGrid
              records={records}
              checkedIds={checkedIds}
              order={order}
              onToggle={toggle}
              loading={list.isFetching}
              page={list.data?.page ?? page}
              pageSize={list.data?.pageSize ?? 10}
              total={list.data?.total ?? 0}
              totalCapped={list.data?.totalCapped ?? false}
              onPage={setPage}
            />
            <FileDetails record={active} url={url} category={category} />
          </>
        )}
      </section>
    </div>
  );

  const input = (
    <Form layout="vertical" onFinish={confirm} className="atrium-fp-input">
      <Form.Item label={t('files.url')} htmlFor="atrium-fp-url">
        <Input
          id="atrium-fp-url"
          value={path}
          onChange={(event) => setPath(event.target.value)}
          placeholder="https://"
          allowClear
        />
      </Form.Item>
    </Form>
  );

  return (
    <div className="atrium-fp-body">
      {props.onConfirm && !props.libraryOnly ? (
        <Tabs
          activeKey={tab}
          onChange={(key) => setTab(key === 'input' ? 'input' : 'list')}
          items={[
            { key: 'list', label: t('files.fileGallery'), children: gallery },
            { key: 'input', label: t('files.customLink'), children: input },
          ]}
        />
      ) : (
        gallery
      )}
      {props.onConfirm ? (
        <div className="atrium-fp-footer">
          {tab === 'list' && showReverseOrder(max, selected.length) ? (
            <Checkbox checked={reverse} onChange={(event) => setReverse(event.target.checked)}>
              {t('files.reverseSelectOrder')}
            </Checkbox>
          ) : null}
          {tab === 'list' && selected.length > 0 ? (
            <span className="atrium-fp-count">{t('files.checked', { n: selected.length })}</span>
          ) : null}
          <Button type="primary" onClick={confirm}>
            {t('files.confirm')}
          </Button>
        </div>
      ) : null}
      <CategoryDialog
        open={draft !== null}
        draft={draft ?? noDraft}
        parents={parentOptions}
        loading={saveCategory.isPending || categories.isFetching}
        onSubmit={(value) => void submitCategory(value)}
        onClose={() => setDraft(null)}
      />
      <FileEditDialog
        open={moving}
        categoryId={categoryId}
        categories={moveOptions}
        loading={moveFiles.isPending || categories.isFetching}
        onSubmit={(target) => void moveChecked(target)}
        onClose={() => setMoving(false)}
      />
    </div>
  );
}
