import { NoLibraryAccess } from '../library-access';
import { useState } from 'react';
import { PlusOutlined } from '@ant-design/icons';
import { useFieldsT } from '../i18n';
import { FieldLimits } from '../limits';
import { usePathList } from '../path-list';
import { fileNameOf } from '../paths';
import { PreviewDialog } from '../preview-dialog';
import { SortablePaths, useSortablePath } from '../sortable-paths';
import { Thumb } from '../thumb';
import '../fields.css';

export interface ImagesFieldProps {
  /** Image paths, in the order shown. */
  value?: string[];
  onChange?: (value: string[]) => void;
  /** Most images the field holds (SPEC 9: 999); the dialog offers what is left. */
  max?: number;
  /** Thumbnail edge, px. */
  size?: number;
  url?: string;
  external?: boolean;
  disabled?: boolean;
  id?: string;
}

interface TileProps {
  id: string;
  path: string;
  size: number;
  disabled: boolean;
  onPreview: () => void;
  onDelete: () => void;
}

function SortableThumb({ id, path, size, disabled, onPreview, onDelete }: TileProps) {
  const t = useFieldsT();
  const drag = useSortablePath(id, disabled);
  return (
    <Thumb
      path={path}
      size={size}
      nodeRef={drag.nodeRef}
      style={drag.style}
      dragging={drag.dragging}
      handleRef={drag.handleRef}
      handleProps={
        drag.handleProps && {
          ...drag.handleProps,
          'aria-label': t('fields.dragItem', { name: fileNameOf(path) }),
        }
      }
      onPreview={onPreview}
      onDelete={disabled ? undefined : onDelete}
    />
  );
}

/** Multiple images (SPEC 2.5): thumbnails reordered by dragging, each with preview and delete. */
export function ImagesField({
  value,
  onChange,
  max = FieldLimits.listMax,
  size = 80,
  disabled = false,
  id,
  url,
  external,
}: ImagesFieldProps) {
  const t = useFieldsT();
  const list = usePathList('image', { value, onChange, max, url, external });
  const [preview, setPreview] = useState('');

  return (
    <div className="atrium-field-column" id={id}>
      {/* The grid is the list and holds list items only (axe aria-required-children): the images,
          then the add button; the drag and drop's screen-reader texts live in the body. */}
      <div className="atrium-field-grid" role="list">
        <SortablePaths
          paths={list.paths}
          onChange={(next) => onChange?.(next)}
          layout="grid"
          disabled={disabled}
        >
          {(items) => (
            <>
              {items.map((item, index) => (
                <div role="listitem" key={item.key} style={{ display: 'contents' }}>
                  <SortableThumb
                    id={item.key}
                    path={item.path}
                    size={size}
                    disabled={disabled}
                    onPreview={() => setPreview(item.path)}
                    onDelete={() => list.remove(index)}
                  />
                </div>
              ))}
            </>
          )}
        </SortablePaths>
        {list.canPick ? (
          <div role="listitem" style={{ display: 'contents' }}>
            <button
              type="button"
              className="atrium-field-empty"
              style={{ width: size, height: size, flexDirection: 'column', gap: 4, fontSize: 12 }}
              disabled={disabled || list.left === 0}
              onClick={list.openPicker}
              aria-label={t('fields.selectImage')}
              title={list.left === 0 ? list.hint : undefined}
            >
              <PlusOutlined style={{ fontSize: 18 }} aria-hidden />
              {t('fields.selectImage')}
            </button>
          </div>
        ) : null}
      </div>
      {list.canPick ? (
        <span className="atrium-field-hint" aria-live="polite">
          {list.hint}
        </span>
      ) : (
        <NoLibraryAccess />
      )}
      {list.picker}
      <PreviewDialog path={preview} onClose={() => setPreview('')} />
    </div>
  );
}
