import type { ReactNode } from 'react';
import { CopyOutlined, DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Button, Checkbox, Tooltip, type ButtonProps } from 'antd';
import { copyText } from '@/lib/copy';
import { useFilesT } from '@/components/file-library/i18n';
import type { FilePickerPermission } from './permission';
import { ReplaceButton } from './replace-button';
import { showReverseOrder } from './selection';
import type { PickerList } from './use-picker-list';
import type { useFileActions } from './use-file-actions';

export interface PickerFooterProps {
  url: string;
  category: string;
  list: PickerList;
  actions: ReturnType<typeof useFileActions>;
  permission: FilePickerPermission;
  max: number;
  /** The gallery is shown (not the custom link or the trash): the selection applies. */
  gallery: boolean;
  narrow: boolean;
  pageState: 'none' | 'some' | 'all';
  onCheckPage: (checked: boolean) => void;
  reverse: boolean;
  onReverse: (reverse: boolean) => void;
  onReplaced: () => void;
  /** Absent on a flat library page: nothing to hand back. */
  onConfirm?: () => void;
}

/**
 * The picker's footer, always in view (issue 28): the page's select-all, "已选 N 项", what can be
 * done with the checked files (delete, move, copy link, replace), "Reverse Select Order" and
 * Confirm, like WordPress's media modal keeps its selection and its button in view.
 */
export function PickerFooter(props: PickerFooterProps) {
  const { list, actions, permission, narrow } = props;
  const t = useFilesT();
  const { selected } = list;
  const none = selected.length === 0;
  // On a phone the actions are icons, each named for screen readers and shown on hover.
  const action = (label: string, icon: ReactNode, button: ButtonProps) =>
    narrow ? (
      <Tooltip title={label}>
        <Button {...button} icon={icon} aria-label={label} />
      </Tooltip>
    ) : (
      <Button {...button} icon={icon}>
        {label}
      </Button>
    );

  return (
    <div className="atrium-fp-footer">
      {props.gallery ? (
        <>
          {props.max > 1 && list.records.length > 0 ? (
            <Checkbox
              className="atrium-fp-select-page"
              checked={props.pageState === 'all'}
              indeterminate={props.pageState === 'some'}
              onChange={(event) => props.onCheckPage(event.target.checked)}
            >
              {t('files.selectPage')}
            </Checkbox>
          ) : null}
          {/* Always there, so a screen reader hears each change of the count (issue 29). */}
          <span className="atrium-fp-count" role="status" aria-live="polite" aria-atomic>
            {selected.length > 0 ? t('files.checked', { n: selected.length }) : null}
          </span>
          <div className="atrium-fp-actions" role="group" aria-label={t('files.selectionActions')}>
            {permission.delete
              ? action(t('common.delete'), <DeleteOutlined />, {
                  danger: true,
                  disabled: none,
                  loading: actions.deleting,
                  onClick: () => void actions.deleteChecked(),
                })
              : null}
            {permission.addEdit
              ? action(t('common.edit'), <EditOutlined />, {
                  disabled: none,
                  onClick: () => !none && actions.setMoving(true),
                })
              : null}
            {action(t('files.copyLink'), <CopyOutlined />, {
              disabled: none,
              onClick: () => !none && void copyText(selected.map((r) => r.fullPath).join('\n')),
            })}
            {permission.upload && permission.addEdit ? (
              <ReplaceButton
                url={props.url}
                category={props.category}
                record={selected.length === 1 ? selected[0] : undefined}
                iconOnly={narrow}
                onReplaced={props.onReplaced}
              />
            ) : null}
          </div>
        </>
      ) : null}
      {props.onConfirm ? (
        <div className="atrium-fp-confirm">
          {props.gallery && showReverseOrder(props.max, selected.length) ? (
            <Checkbox
              checked={props.reverse}
              onChange={(event) => props.onReverse(event.target.checked)}
            >
              {t('files.reverseSelectOrder')}
            </Checkbox>
          ) : null}
          <Button type="primary" onClick={props.onConfirm}>
            {t('files.confirm')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
