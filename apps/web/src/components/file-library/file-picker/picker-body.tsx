import { useRef, useState } from 'react';
import {
  ArrowLeftOutlined,
  CloudUploadOutlined,
  DownOutlined,
  FolderOutlined,
  UpOutlined,
} from '@ant-design/icons';
import { Button, Form, Input, Tabs } from 'antd';
import { useFilesT } from '@/components/file-library/i18n';
import { useUploadConfig } from '@/components/file-library/api/upload-config';
import type { UploadButtonHandle } from '@/components/file-library/upload-button/upload-button';
import type { UploadConfig } from '@/components/file-library/upload-button/upload-rules';
import { useSmallWindow } from '@/lib/use-media-query';
import { toast } from '@/lib/feedback';
import { CategoryDialog, type CategoryDraft } from './category-dialog';
import { CategoryPanel } from './category-panel';
import { FileDetails } from './file-details';
import { FileEditDialog } from './file-edit-dialog';
import { FileGrid } from './file-grid';
import type { FilePickerPermission } from './permission';
import type { FileRecord } from './file-record';
import { PickerFooter } from './picker-footer';
import { PickerToolbar } from './picker-toolbar';
import {
  confirmProblem,
  pageCheckState,
  pickedFromPath,
  pickedFromRecords,
  selectAllOf,
  selectionOrder,
  toggleSelection,
  unselectAllOf,
  type PickedFile,
  type PickerTab,
} from './selection';
import { TrashPanel } from './trash-panel';
import { useCategoryActions } from './use-category-actions';
import { useDropPaste } from './use-drop-paste';
import { useFileActions } from './use-file-actions';
import { usePickerList } from './use-picker-list';

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

const noDraft: CategoryDraft = { id: 0, pid: 0, title: '' };

const sameRecord = (a: FileRecord, b: FileRecord) => a.id === b.id;

/**
 * Everything inside the picker (SPEC 2.4, 4.4): tabs, the category column with the details of
 * the file last clicked, the toolbar row, the grid, and a footer that stays in view (issue 28).
 */
export function PickerBody(props: PickerBodyProps) {
  const { url, category, min, max, childKey, permission } = props;
  const t = useFilesT();
  const narrow = useSmallWindow();

  const [tab, setTab] = useState<PickerTab>('list');
  const [path, setPath] = useState('');
  const [reverse, setReverse] = useState(props.reverseSelectOrder);
  const [menuOpen, setMenuOpen] = useState(false);
  const [active, setActive] = useState<FileRecord>();
  const [trashOpen, setTrashOpen] = useState(false);
  const uploader = useRef<UploadButtonHandle>(null);

  const list = usePickerList(url, category);
  const cats = useCategoryActions(url, category, childKey, list);
  const fetchedConfig = useUploadConfig(url, category, !props.uploadConfig);
  const extensions =
    (props.uploadConfig ?? fetchedConfig.data)?.category[category]?.extensions ?? [];
  const { records, selected } = list;

  const reload = () => {
    setActive(undefined);
    void list.reload();
  };
  const actions = useFileActions(url, category, list, reload);
  const { dropping, handlers } = useDropPaste(permission.upload && tab === 'list', (files) =>
    uploader.current?.add(files),
  );

  // Each checked tile shows where it comes in the order handed back (ModStart numbers them too).
  const order = selectionOrder(
    selected.map((r) => r.id),
    max,
    reverse,
  );
  const toggle = (record: FileRecord) => {
    const result = toggleSelection(selected, record, max, sameRecord);
    if (!result.ok) {
      toast.warning(t('files.selectAtMost', { n: max }));
      return;
    }
    list.select(result.selected);
    setActive(record);
  };
  const checkPage = (checked: boolean) => {
    if (!checked) {
      list.select(unselectAllOf(selected, records, sameRecord));
      return;
    }
    const result = selectAllOf(selected, records, max, sameRecord);
    if (!result.ok) {
      toast.warning(t('files.selectAtMost', { n: max }));
      return;
    }
    list.select(result.selected);
  };
  const fold = useRef<HTMLButtonElement>(null);
  const chooseCategory = (id: number) => {
    list.chooseCategory(id);
    // On a phone the tree folds away: focus goes back to its button, not to the page.
    if (narrow && menuOpen) fold.current?.focus();
    setMenuOpen(false);
    reload();
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

  const side = (
    <CategoryPanel
      tree={cats.tree}
      childKey={childKey}
      current={list.categoryId}
      loading={cats.categories.isFetching}
      canAddEdit={permission.addEdit}
      canDelete={permission.delete}
      onSelect={chooseCategory}
      onAdd={() => cats.setDraft({ id: 0, pid: list.categoryId, title: '' })}
      onEdit={cats.editCurrent}
      onDelete={() => void cats.deleteCurrent()}
    />
  );

  const main = trashOpen ? (
    <>
      <div className="atrium-fp-toolbar">
        <Button icon={<ArrowLeftOutlined />} onClick={() => setTrashOpen(false)}>
          {t('files.backToLibrary')}
        </Button>
      </div>
      <TrashPanel url={url} category={category} canDelete={permission.delete} onRestored={reload} />
    </>
  ) : (
    <>
      <PickerToolbar
        url={url}
        category={category}
        list={list}
        canUpload={permission.upload}
        uploader={uploader}
        uploadConfig={props.uploadConfig}
        extensions={extensions}
        narrow={narrow}
        onUploaded={reload}
        onExisting={(file) => {
          if (!selected.some((r) => r.id === file.id)) toggle(file);
        }}
        onOpenTrash={() => setTrashOpen(true)}
      />
      <FileGrid
        records={records}
        checkedIds={new Set(selected.map((r) => r.id))}
        order={order}
        onToggle={toggle}
        loading={list.list.isFetching}
        page={list.list.data?.page ?? list.page}
        pageSize={list.list.data?.pageSize ?? 10}
        total={list.list.data?.total ?? 0}
        totalCapped={list.list.data?.totalCapped ?? false}
        onPage={list.setPage}
        onConfirm={props.onConfirm ? confirm : undefined}
      />
    </>
  );

  const gallery = (
    <div className={narrow ? 'atrium-fp-gallery is-narrow' : 'atrium-fp-gallery'}>
      {narrow ? (
        <Button
          ref={fold}
          className="atrium-fp-fold"
          block
          icon={<FolderOutlined />}
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span className="atrium-fp-fold-label">{cats.currentName || t('files.categories')}</span>
          {menuOpen ? <UpOutlined /> : <DownOutlined />}
        </Button>
      ) : null}
      {!narrow || menuOpen ? <aside className="atrium-fp-side">{side}</aside> : null}
      <section className={dropping ? 'atrium-fp-main is-dropping' : 'atrium-fp-main'} {...handlers}>
        {dropping ? (
          <div className="atrium-fp-drop" aria-hidden>
            <CloudUploadOutlined />
            <span>
              {t('files.dropHere', { category: cats.currentName || t('files.categories') })}
            </span>
          </div>
        ) : null}
        {main}
      </section>
      {trashOpen ? null : (
        <div className="atrium-fp-aside">
          <FileDetails record={active} url={url} category={category} />
        </div>
      )}
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
          className="atrium-fp-tabs"
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
      <PickerFooter
        url={url}
        category={category}
        list={list}
        actions={actions}
        permission={permission}
        max={max}
        gallery={tab === 'list' && !trashOpen}
        narrow={narrow}
        pageState={pageCheckState(selected, records, sameRecord)}
        onCheckPage={checkPage}
        reverse={reverse}
        onReverse={setReverse}
        onReplaced={reload}
        onConfirm={props.onConfirm ? confirm : undefined}
      />
      <CategoryDialog
        open={cats.draft !== null}
        draft={cats.draft ?? noDraft}
        parents={cats.parentOptions}
        loading={cats.saving || cats.categories.isFetching}
        onSubmit={(value) => void cats.submit(value)}
        onClose={() => cats.setDraft(null)}
      />
      <FileEditDialog
        open={actions.moving}
        categoryId={list.categoryId}
        categories={cats.moveOptions}
        loading={actions.movePending || cats.categories.isFetching}
        onSubmit={(target) => void actions.moveChecked(target)}
        onClose={() => actions.setMoving(false)}
      />
    </div>
  );
}
