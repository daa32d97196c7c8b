import { useState, type ReactElement } from 'react';
import { useFieldsT } from './i18n';
import { useLibraryAccess } from './library-access';
import { PathPicker, type PickerLibrary } from './path-picker';
import { pathList } from './paths';

export interface PathListOptions {
  value?: string[];
  onChange?: (value: string[]) => void;
  /** Most paths the field holds; the picker offers what is left. */
  max: number;
  url?: string;
  external?: boolean;
}

/**
 * The state every multi-path field shares (images, files): the paths, how many are left, the
 * "n / max" hint, removing one, and the picker that appends what was picked, up to the limit.
 */
export function usePathList(
  library: PickerLibrary,
  { value, onChange, max, url, external }: PathListOptions,
): {
  paths: string[];
  left: number;
  hint: string;
  /** Whether the picker may open (else say so with `NoLibraryAccess`). */
  canPick: boolean;
  openPicker: () => void;
  remove: (index: number) => void;
  picker: ReactElement;
} {
  const t = useFieldsT();
  const paths = pathList(value);
  const left = Math.max(0, max - paths.length);
  const [picking, setPicking] = useState(false);
  const access = useLibraryAccess({ url, external });
  return {
    paths,
    left,
    canPick: access.canPick,
    hint: left === 0 ? t('fields.full', { max }) : t('fields.count', { count: paths.length, max }),
    openPicker: () => setPicking(true),
    remove: (index) => onChange?.(paths.filter((_, i) => i !== index)),
    picker: (
      <PathPicker
        category={library}
        open={picking}
        max={Math.max(1, left)}
        url={url}
        external={external}
        onClose={() => setPicking(false)}
        onPick={(picked) => onChange?.([...paths, ...picked.slice(0, left)])}
      />
    ),
  };
}
