import { useMemo } from 'react';
import { fileManagerRule } from '@atrium/shared/contract/files';
import { hasRule } from '@atrium/shared/rules';
import { usePermissionStore } from '@/stores/permission-store';

/** The picker's permission flags (SPEC 2.4, 6): View, Upload, Add/Edit and Delete. */
export interface FilePickerPermission {
  view: boolean;
  upload: boolean;
  addEdit: boolean;
  delete: boolean;
}

const everything: FilePickerPermission = { view: true, upload: true, addEdit: true, delete: true };

/** Whether `url` is the shared library of the admin area (else a member's own). */
export function isAdminLibrary(url: string): boolean {
  return new URL(url, window.location.href).pathname.startsWith('/admin/');
}

/** The flags an admin's rules grant on the shared library (DESIGN 7). */
export function adminLibraryPermission(rules: readonly string[]): FilePickerPermission {
  return {
    view: hasRule(rules, fileManagerRule('view')),
    upload: hasRule(rules, fileManagerRule('upload')),
    addEdit: hasRule(rules, fileManagerRule('edit')),
    delete: hasRule(rules, fileManagerRule('delete')),
  };
}

/**
 * What the signed-in user may do in the library at `url`: an admin what their rules grant on the
 * shared library, a member everything in their own.
 */
export function useLibraryPermission(url: string): FilePickerPermission {
  const rules = usePermissionStore((s) => s.rules);
  return useMemo(
    () => (isAdminLibrary(url) ? adminLibraryPermission(rules) : everything),
    [url, rules],
  );
}
