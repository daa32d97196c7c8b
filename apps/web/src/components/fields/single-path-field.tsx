import { useState, type ReactNode } from 'react';
import { Button } from 'antd';
import { FileChip } from './file-chip';
import { NoLibraryAccess, useLibraryAccess } from './library-access';
import { PathPicker, type PickerLibrary } from './path-picker';
import './fields.css';

export interface SinglePathFieldProps {
  /** One path; empty means none. */
  value?: string;
  onChange?: (value: string) => void;
  url?: string;
  external?: boolean;
  disabled?: boolean;
  id?: string;
}

interface Setup {
  category: PickerLibrary;
  selectLabel: string;
  icon: ReactNode;
  /** A player or viewer above the name. */
  preview?: (path: string) => ReactNode;
}

/** What the file, video and audio fields share: name with delete, and one select button. */
export function SinglePathField({
  value = '',
  onChange,
  disabled = false,
  id,
  category,
  selectLabel,
  icon,
  preview,
  ...own
}: SinglePathFieldProps & Setup) {
  const defaults = useLibraryAccess(own);
  const [picking, setPicking] = useState(false);
  return (
    <div className="atrium-field-column" id={id}>
      {value && preview ? preview(value) : null}
      {value ? (
        <FileChip path={value} icon={icon} onDelete={disabled ? undefined : () => onChange?.('')} />
      ) : null}
      {defaults.canPick ? (
        <Button icon={icon} disabled={disabled} onClick={() => setPicking(true)}>
          {selectLabel}
        </Button>
      ) : (
        <NoLibraryAccess />
      )}
      <PathPicker
        category={category}
        open={picking}
        max={1}
        url={defaults.url}
        external={defaults.external}
        onClose={() => setPicking(false)}
        onPick={(paths) => {
          const first = paths[0];
          if (first) onChange?.(first);
        }}
      />
    </div>
  );
}
