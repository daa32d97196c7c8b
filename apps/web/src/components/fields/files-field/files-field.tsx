import { NoLibraryAccess } from '../library-access';
import { FileOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { FileChip } from '../file-chip';
import { useFieldsT } from '../i18n';
import { FieldLimits } from '../limits';
import { usePathList } from '../path-list';
import { SortablePaths, useSortablePath } from '../sortable-paths';
import '../fields.css';

export interface FilesFieldProps {
  /** File paths, in the order shown. */
  value?: string[];
  onChange?: (value: string[]) => void;
  /** Most files the field holds (SPEC 9: 999); the dialog offers what is left. */
  max?: number;
  url?: string;
  external?: boolean;
  disabled?: boolean;
  id?: string;
}

function SortableFile({
  id,
  path,
  disabled,
  onDelete,
}: {
  id: string;
  path: string;
  disabled: boolean;
  onDelete: () => void;
}) {
  const { nodeRef, style, dragging, handleRef, handleProps } = useSortablePath(id, disabled);
  return (
    <li ref={nodeRef} style={{ ...style, position: 'relative', zIndex: dragging ? 2 : undefined }}>
      <FileChip
        path={path}
        icon={<FileOutlined />}
        dragging={dragging}
        onDelete={disabled ? undefined : onDelete}
        handleRef={handleRef}
        handleProps={handleProps}
      />
    </li>
  );
}

/** Multiple files (SPEC 2.5): each name with delete and a drag handle for reordering. */
export function FilesField({
  value,
  onChange,
  max = FieldLimits.listMax,
  disabled = false,
  id,
  url,
  external,
}: FilesFieldProps) {
  const t = useFieldsT();
  const list = usePathList('file', { value, onChange, max, url, external });

  return (
    <div className="atrium-field-column" id={id}>
      {list.paths.length > 0 ? (
        <ul className="atrium-field-file-list">
          <SortablePaths
            paths={list.paths}
            onChange={(next) => onChange?.(next)}
            layout="list"
            disabled={disabled}
          >
            {(items) =>
              items.map((item, index) => (
                <SortableFile
                  key={item.key}
                  id={item.key}
                  path={item.path}
                  disabled={disabled}
                  onDelete={() => list.remove(index)}
                />
              ))
            }
          </SortablePaths>
        </ul>
      ) : null}
      <div className="atrium-field-actions">
        {list.canPick ? (
          <>
            <Button
              icon={<FileOutlined />}
              disabled={disabled || list.left === 0}
              onClick={list.openPicker}
            >
              {t('fields.selectFile')}
            </Button>
            <span className="atrium-field-hint" aria-live="polite">
              {list.hint}
            </span>
          </>
        ) : (
          <NoLibraryAccess />
        )}
      </div>
      {list.picker}
    </div>
  );
}
