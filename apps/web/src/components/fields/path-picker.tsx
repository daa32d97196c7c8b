import { FilePicker } from '@/components/file-library/file-picker/file-picker';
import { useFieldDefaults } from './field-defaults';

export type PickerLibrary = 'image' | 'file' | 'video' | 'audio';

export interface PathPickerProps {
  category: PickerLibrary;
  open: boolean;
  /** How many the dialog may return. */
  max: number;
  onClose: () => void;
  onPick: (paths: string[]) => void;
  url?: string;
  external?: boolean;
}

/** The built-in picker (or the external selector) returning the picked paths (SPEC 3.4). */
export function PathPicker({ category, open, max, onClose, onPick, ...own }: PathPickerProps) {
  const defaults = useFieldDefaults(own);
  return (
    <FilePicker
      url={defaults.url}
      category={category}
      open={open}
      max={max}
      external={defaults.external}
      uploadConfig={defaults.uploadConfig}
      onClose={onClose}
      onConfirm={(items) => onPick(items.map((item) => item.path).filter((path) => path !== ''))}
    />
  );
}
