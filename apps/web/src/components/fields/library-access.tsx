import { StopOutlined } from '@ant-design/icons';
import { useLibraryPermission } from '@/components/file-library/file-picker/permission';
import { useFieldDefaults, type FieldDefaults } from './field-defaults';
import { useFieldsT } from './i18n';

export interface LibraryAccess extends FieldDefaults {
  /** The picker can open: the external selector, or a library the user may view. */
  canPick: boolean;
  /** The field's own upload button may upload into the library. */
  canUpload: boolean;
}

/** The field's library (see `useFieldDefaults`) and what the signed-in user may do in it. */
export function useLibraryAccess(own: { url?: string; external?: boolean }): LibraryAccess {
  const defaults = useFieldDefaults(own);
  const permission = useLibraryPermission(defaults.url);
  return {
    ...defaults,
    canPick: defaults.external || permission.view,
    canUpload: permission.upload,
  };
}

/** Said in place of the select button of a field whose picker the user may not open. */
export function NoLibraryAccess() {
  const t = useFieldsT();
  return (
    <span className="atrium-field-hint" role="note">
      <StopOutlined aria-hidden /> {t('fields.noLibraryAccess')}
    </span>
  );
}
